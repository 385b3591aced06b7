"""Press/release -> start/stop, with a hand-moved clock (no waiting)."""

import pytest

from app.ui.talk import CLICK_SECONDS, TalkMode, TalkSwitch


class Recorder:
    def __init__(self) -> None:
        self.recording = False
        self.now = 0.0
        self.log: list[str] = []

    def start(self) -> None:
        self.recording = True
        self.log.append("start")

    def stop(self) -> None:
        self.recording = False
        self.log.append("stop")

    def switch(self, mode: TalkMode) -> TalkSwitch:
        return TalkSwitch(mode, lambda: self.recording, self.start, self.stop, lambda: self.now)


@pytest.mark.parametrize(
    ("mode", "held", "expected"),
    [
        (TalkMode.HOLD, 0.1, ["start", "stop"]),
        (TalkMode.TOGGLE, 2.0, ["start"]),
        (TalkMode.CLICK_OR_HOLD, CLICK_SECONDS / 2, ["start"]),  # a click latches
        (TalkMode.CLICK_OR_HOLD, CLICK_SECONDS * 3, ["start", "stop"]),  # a hold talks while held
    ],
)
def test_one_press_and_release(mode: TalkMode, held: float, expected: list[str]) -> None:
    recorder = Recorder()
    switch = recorder.switch(mode)
    switch.press()
    switch.press()  # key repeat
    recorder.now += held
    switch.release()
    assert recorder.log == expected


@pytest.mark.parametrize("mode", [TalkMode.TOGGLE, TalkMode.CLICK_OR_HOLD])
def test_a_second_press_stops(mode: TalkMode) -> None:
    recorder = Recorder()
    switch = recorder.switch(mode)
    switch.press()
    switch.release()
    switch.press()
    switch.release()
    assert recorder.log == ["start", "stop"]


def test_a_failed_start_leaves_nothing_held() -> None:
    recorder = Recorder()
    switch = TalkSwitch(TalkMode.HOLD, lambda: False, lambda: recorder.log.append("start"), recorder.stop)
    switch.press()
    switch.release()
    assert recorder.log == ["start"]
