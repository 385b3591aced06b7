"""The wheel a user installs: built from the project, installed into a fresh virtualenv outside the checkout, it
runs `murmur --version`, `murmur doctor --json` and `murmur desktop install`, and the app finds its icons.

The wheel's dependencies are lent by this test run's virtualenv (a path file in the new one), so the test needs
no download and takes seconds; the wheel itself, our code and its resources, is installed for real."""

import json
import os
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from app import __version__
from app.desktop.entries import APP_ID
from tests.support.murmur_cli import ROOT

ICONS_CHECK = """
import app, sys
from PySide6.QtWidgets import QApplication
from app.domain.enums import Category
from app.ui.icons import AppState, app_icon, category_icon, state_icon
QApplication([])
icons = [app_icon(), *map(state_icon, AppState), *map(category_icon, Category)]
print(app.__file__, sum(icon.isNull() for icon in icons), len(icons))
"""


def _run(*command: str | Path, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], env=env, cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv with the wheel built from this checkout installed in it; its bin folder."""
    folder = tmp_path_factory.mktemp("wheel")
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    built = _run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", folder / "dist", ROOT, env=env, cwd=folder
    )
    assert built.returncode == 0, built.stderr
    [wheel] = (folder / "dist").glob(f"murmur_desktop-{__version__}-*.whl")  # one version number, everywhere
    venv = folder / "venv"
    assert _run(sys.executable, "-m", "venv", venv, env=env, cwd=folder).returncode == 0
    python = venv / "bin" / "python"
    done = _run(python, "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheel, env=env, cwd=folder)
    assert done.returncode == 0, done.stderr
    packages = _run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", env=env, cwd=folder)
    lent = [sysconfig.get_path("purelib"), *site.getsitepackages()]
    (Path(packages.stdout.strip()) / "lent-dependencies.pth").write_text("\n".join(dict.fromkeys(lent)) + "\n")
    return venv / "bin"


def _home(tmp_path: Path) -> dict[str, str]:
    unset = ("MURMUR_DB", "PYTHONPATH", "DISPLAY", "WAYLAND_DISPLAY")
    env = {name: value for name, value in os.environ.items() if name not in unset}
    return env | {
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "share"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "MURMUR_DATA_DIR": str(tmp_path / "data"),
        "MURMUR_CONFIG_DIR": str(tmp_path / "settings"),
        "MURMUR_LOG_DIR": str(tmp_path / "logs"),
    }


@pytest.mark.slow
def test_the_installed_wheel_runs_and_finds_its_icons(installed: Path, tmp_path: Path) -> None:
    env = _home(tmp_path)
    murmur = installed / "murmur"

    assert _run(murmur, "--version", env=env, cwd=tmp_path).stdout == f"murmur {__version__}\n"
    doctor = _run(murmur, "doctor", "--json", env=env, cwd=tmp_path)
    assert json.loads(doctor.stdout)["facts"]["versions"]["murmur"] == __version__, doctor.stderr
    desktop = _run(murmur, "desktop", "install", "--json", env=env, cwd=tmp_path)
    assert desktop.returncode == 0, desktop.stderr
    entry = (tmp_path / "share" / "applications" / f"{APP_ID}.desktop").read_text()
    assert f"Exec={murmur}\n" in entry  # the menu starts this installation, wherever it is
    icons = _run(installed / "python", "-c", ICONS_CHECK, env=env | {"QT_QPA_PLATFORM": "offscreen"}, cwd=tmp_path)
    where, null, count = icons.stdout.split()
    assert Path(where).is_relative_to(installed.parent) and not Path(where).is_relative_to(ROOT / "app")
    assert null == "0" and int(count) == 1 + 7 + 8  # the app's, the states' (paused too), the categories': none missing
    assert "icon" not in icons.stderr.lower(), icons.stderr  # no "cannot find icon" from Qt
