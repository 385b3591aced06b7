"""Write the Flatpak module that installs Murmur's Python dependencies: python-modules.json.

The versions are those of the environment this runs in (the one the tests passed in), and hatchling's newest to
build Murmur's own wheel; for each, PyPI's JSON API
gives the file for the Flatpak's Python (a CPython 3.12 manylinux x86_64 wheel, a pure-Python wheel, else the
source) with its URL and sha256, which flatpak-builder checks. Run online, after a dependency changes:

    .venv/bin/python packaging/flatpak/python_modules.py
"""

import json
import re
import sys
import urllib.request
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename

TARGET_PYTHON = "312"  # org.freedesktop.Platform 24.08's
TARGET = {"python_version": "3.12", "python_full_version": "3.12.0", "sys_platform": "linux", "extra": ""}
PLATFORMS = re.compile(r"^(manylinux\w*_x86_64|linux_x86_64|any)$")
OUT = Path(__file__).with_name("python-modules.json")
SHIPPED_EXTRAS = ("caldav",)  # [sync]: the Flatpak syncs with the user's CalDAV server out of the box


def _environment() -> dict[str, str]:
    """The markers' values inside the Flatpak (its Python, Linux), for choosing which requirements apply."""
    return {key: str(value) for key, value in default_environment().items()} | TARGET


def closure(root: str) -> dict[str, str]:
    """Every distribution `root` needs at run time (its extras left out), name -> installed version."""
    environment = _environment()
    found: dict[str, str] = {}
    waiting = [root]
    while waiting:
        name = canonicalize_name(waiting.pop())
        if name in found:
            continue
        found[name] = metadata.version(name)
        for line in metadata.requires(name) or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate(environment):
                waiting.append(requirement.name)
    del found[canonicalize_name(root)]
    return found


def _pypi(name: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"https://pypi.org/pypi/{name}/json", timeout=60) as answer:
        found: dict[str, Any] = json.load(answer)
    return found


def build_tools(roots: tuple[str, ...]) -> dict[str, str]:
    """What building Murmur's wheel needs (hatchling and its own needs), at their newest versions on PyPI."""
    environment = _environment()
    found: dict[str, str] = {}
    waiting = list(roots)
    while waiting:
        name = canonicalize_name(waiting.pop())
        if name in found:
            continue
        info = _pypi(name)["info"]
        found[name] = info["version"]
        for line in info.get("requires_dist") or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate(environment):
                waiting.append(requirement.name)
    return found


def _fits(filename: str) -> bool:
    _, _, _, tags = parse_wheel_filename(filename)
    return any(
        tag.interpreter in (f"cp{TARGET_PYTHON}", "py3", "py312") and PLATFORMS.match(tag.platform) for tag in tags
    ) or any(tag.abi == "abi3" and PLATFORMS.match(tag.platform) for tag in tags)


def source(name: str, version: str) -> dict[str, str]:
    files = _pypi(name)["releases"][version]
    wheels = [f for f in files if f["packagetype"] == "bdist_wheel" and _fits(f["filename"])]
    chosen = wheels[0] if wheels else next(f for f in files if f["packagetype"] == "sdist")
    url = chosen["url"]
    if not url.startswith("https://"):  # a mirror's relative link ("../../packages/packages/<hash path>")
        url = "https://files.pythonhosted.org/packages/" + url.split("packages/packages/", 1)[1]
    return {"type": "file", "url": url, "sha256": chosen["digests"]["sha256"]}


def shipped() -> dict[str, str]:
    """What Murmur needs at run time in the Flatpak: its dependencies, and those extras it ships with."""
    needed = closure("murmur-desktop")
    for extra in SHIPPED_EXTRAS:
        needed |= closure(extra) | {canonicalize_name(extra): metadata.version(extra)}
    return needed


def main() -> None:
    needed = build_tools(("hatchling",)) | shipped()
    sources = [source(name, version) for name, version in sorted(needed.items())]
    names = " ".join(sorted(needed))
    module = {
        "name": "python-modules",
        "buildsystem": "simple",
        "build-commands": [
            f'pip3 install --verbose --exists-action=i --no-index --find-links="file://${{PWD}}" '
            f"--prefix=${{FLATPAK_DEST}} --no-build-isolation {names}"
        ],
        "sources": sources,
    }
    OUT.write_text(json.dumps(module, indent=2) + "\n")
    print(f"{len(sources)} distributions written to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
