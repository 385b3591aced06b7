"""The Flatpak manifest, kept correct where it cannot be built (no Flatpak runtimes here): flatpak-builder reads
it, it asks for what Murmur uses and no more, and its Python modules are every dependency, each with a hash."""

import json
import re
import shutil
import subprocess
import sys

import pytest
from packaging.utils import parse_sdist_filename, parse_wheel_filename

from app.desktop.entries import APP_ID
from tests.support.murmur_cli import ROOT

FLATPAK = ROOT / "packaging" / "flatpak"
sys.path.insert(0, str(FLATPAK))
from python_modules import shipped as needed  # noqa: E402


@pytest.fixture(scope="module")
def manifest(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    if shutil.which("flatpak-builder") is None:
        pytest.fail("flatpak-builder is not installed (Debian: flatpak-builder)")
    shown = subprocess.run(
        ["flatpak-builder", "--show-manifest", str(FLATPAK / f"{APP_ID}.yml")],
        capture_output=True,
        text=True,
        cwd=tmp_path_factory.mktemp("flatpak"),  # where it keeps its state folder
    )
    assert shown.returncode == 0, shown.stderr
    read: dict[str, object] = json.loads(shown.stdout)
    return read


def test_flatpak_builder_reads_it_and_it_asks_for_what_murmur_uses(manifest: dict[str, object]) -> None:
    assert (manifest["id"], manifest["runtime"], manifest["command"]) == (APP_ID, "org.freedesktop.Platform", "murmur")
    granted = set(manifest["finish-args"])  # type: ignore[call-overload]
    assert {"--socket=pulseaudio", "--talk-name=org.freedesktop.Notifications"} <= granted
    assert "--talk-name=org.kde.StatusNotifierWatcher" in granted
    assert not any(arg.startswith("--filesystem") for arg in granted)  # the user's files stay the user's
    names = [module["name"] for module in manifest["modules"]]  # type: ignore[attr-defined, index]
    assert names == ["portaudio", "python-modules", "murmur"]


def test_the_python_modules_are_every_dependency_each_with_its_hash() -> None:
    module = json.loads((FLATPAK / "python-modules.json").read_text())
    files = [source["url"].rsplit("/", 1)[1] for source in module["sources"]]
    for source in module["sources"]:
        assert source["url"].startswith("https://files.pythonhosted.org/packages/")
        assert re.fullmatch(r"[0-9a-f]{64}", source["sha256"])
    shipped = {(parse_wheel_filename if name.endswith(".whl") else parse_sdist_filename)(name)[0] for name in files}
    missing = set(needed()) - shipped
    assert not missing, f"run packaging/flatpak/python_modules.py: {sorted(missing)} are not in the Flatpak"
    assert "hatchling" in shipped  # Murmur's own wheel is built in the sandbox
