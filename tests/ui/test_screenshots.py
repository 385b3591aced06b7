"""The window as a visitor first sees it: the real app on Xvfb, light and dark, at 1280x800 and at
480x360, saved as PNGs (into $MURMUR_SCREENSHOTS when set, as for the README's, else the test's folder).

At both sizes the main parts (sidebar, mic, conversation, input, title, search, list) lie inside the
window without overlapping, and the list shows at least three entries; the dark window is darker."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage

pytestmark = pytest.mark.desktop

ROOT = Path(__file__).parents[2]
SIZES = ("1280x800", "480x360")


def mean_lightness(png: Path) -> float:
    image = QImage(str(png)).scaled(64, 40)
    return sum(image.pixelColor(x, y).lightnessF() for x in range(64) for y in range(40)) / (64 * 40)


def screenshots(tmp_path: Path, display: str, out: Path, theme: str) -> list[dict[str, object]]:
    """Run the app with `theme`, save its PNGs into `out`, and return what it printed of each size."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("OPENAI_", "MURMUR_LLM_", "QT_QPA_"))}
    env |= {
        "DISPLAY": display,
        "QT_QPA_PLATFORM": "xcb",
        "MURMUR_DB": str(tmp_path / f"murmur-{theme}.db"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    command = [sys.executable, "-m", "tests.support.screenshot_app", str(out), theme, *SIZES]
    run = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]


def test_screenshots_show_every_part_without_overlap(tmp_path: Path, display: str) -> None:
    out = Path(os.environ.get("MURMUR_SCREENSHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    shown = screenshots(tmp_path, display, out, "light") + screenshots(tmp_path, display, out, "dark")
    assert [facts["size"] for facts in shown] == list(SIZES) * 2
    for facts in shown:
        window = QRect(0, 0, *facts["window"])
        places = {name: QRect(*rect) for name, rect in facts["places"].items()}
        assert set(places) == {"sidebar", "mic", "activityArea", "input", "pageTitle", "search", "entries"}, facts
        for name, rect in places.items():
            assert window.contains(rect), f"{name} at {facts['size']} leaves the window: {facts}"
            for other, elsewhere in places.items():
                assert name == other or not rect.intersects(elsewhere), f"{name} overlaps {other}: {facts}"
        assert facts["rows_in_view"] >= 3, facts
    for size in SIZES:
        light, dark = out / f"murmur-{size}-light.png", out / f"murmur-{size}-dark.png"
        assert (
            QImage(str(light)).size().toTuple()
            == QImage(str(dark)).size().toTuple()
            == tuple(map(int, size.split("x")))
        )
        assert mean_lightness(dark) < 0.35 < mean_lightness(light)
