"""Qt enters through app/ui only; the CLI never loads it unless the desktop app is asked for."""

import ast
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"
QT_MODULES = ("PySide6", "shiboken6", "pytestqt")


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_module_outside_app_ui_imports_qt() -> None:
    offenders = [
        f"{path.relative_to(APP.parent)} imports {name}"
        for path in APP.rglob("*.py")
        if "ui" not in path.relative_to(APP).parts[:1]
        for name in imported_modules(path)
        if name.split(".")[0] in QT_MODULES
    ]
    assert offenders == []


def test_the_cli_and_the_app_commands_load_without_qt() -> None:
    code = "import sys, app.cli, app.cli.app_control; print(sorted(m for m in sys.modules if m.startswith('PySide6')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "[]"
