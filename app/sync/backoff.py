"""How long the desktop app waits before syncing again after a failure: twice as long after each failure in a
row, up to a cap, so a sync that cannot work (no password, a server down) is not tried every few seconds."""

from dataclasses import dataclass

FIRST_WAIT_SECONDS = 30.0


@dataclass
class Backoff:
    cap_seconds: float  # the longest wait: the periodic sync's interval
    failures: int = 0  # in a row, since the last success
    last_error: str | None = None
    not_before: float = 0.0  # monotonic seconds: no sync by itself before this

    def failed(self, error: str, now: float) -> bool:
        """Note a failure at `now`; True when it is news (a different failure from the last), worth a warning."""
        news = error != self.last_error
        self.failures += 1
        self.last_error = error
        self.not_before = now + self.wait_seconds()
        return news

    def wait_seconds(self) -> float:
        """How long after the latest failure the next sync may start by itself (0 while nothing fails)."""
        if not self.failures:
            return 0.0
        return min(FIRST_WAIT_SECONDS * 2.0 ** (self.failures - 1), self.cap_seconds)

    def succeeded(self) -> None:
        self.failures, self.last_error, self.not_before = 0, None, 0.0

    def ready(self, now: float) -> bool:
        return now >= self.not_before
