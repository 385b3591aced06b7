"""Press and release -> start and stop recording: hold-to-talk, toggle, or both (the mic button:
a short click latches recording on, a longer hold talks while held). Plain Python."""

import time
from collections.abc import Callable
from enum import StrEnum


class TalkMode(StrEnum):
    HOLD = "hold"  # press starts, release stops
    TOGGLE = "toggle"  # each press starts or stops
    CLICK_OR_HOLD = "click_or_hold"  # a press shorter than CLICK_SECONDS latches, a longer one holds

    @classmethod
    def from_setting(cls, value: str) -> "TalkMode":
        return cls.TOGGLE if value.strip().lower() == "toggle" else cls.HOLD


CLICK_SECONDS = 0.35


class TalkSwitch:
    def __init__(
        self,
        mode: TalkMode,
        is_recording: Callable[[], bool],
        start: Callable[[], None],
        stop: Callable[[], None],
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.mode = mode
        self._is_recording, self._start, self._stop, self._monotonic = is_recording, start, stop, monotonic
        self._pressed_at: float | None = None  # set while a press that started recording is held

    def press(self) -> None:
        if self._pressed_at is not None:  # key repeat while held
            return
        if self._is_recording():
            if self.mode is not TalkMode.HOLD:
                self._stop()
            return
        self._start()
        if self._is_recording():
            self._pressed_at = self._monotonic()

    def release(self) -> None:
        pressed_at, self._pressed_at = self._pressed_at, None
        if pressed_at is None or not self._is_recording() or self.mode is TalkMode.TOGGLE:
            return
        if self.mode is TalkMode.CLICK_OR_HOLD and self._monotonic() - pressed_at < CLICK_SECONDS:
            return  # a click: keep recording until the next click
        self._stop()
