"""The package layers: no import loops, each layer imports only those below it and the front ends reach the store
and the pipeline through the service (import-linter contracts in pyproject.toml), the CLI on top of everything, Qt
only in app/ui, and the pipeline packages hand back data instead of printing."""

import ast
import functools
import shutil
import subprocess
import sys
import tomllib
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"
CLI = APP / "cli"
PIPELINE_PACKAGES = ("agent", "changes", "domain", "offline", "speech_in", "store")
QT_MODULES = ("PySide6", "shiboken6", "pytestqt")
FRONT_ENDS = ("app.cli", "app.ui", "app.mcp")
# What a front end may import besides its own package: the front door (app.api, which hands out the service and
# whatever else the front ends need), the words they show, the errors they catch and the domain's values.
FRONT_DOOR = ("app.api", "app.presentation", "app.errors", "app.domain")
# The `murmur` command starts the other two front ends: the window (no command) and the MCP server (`murmur mcp`).
STARTED_BY = {"app.cli": ("app.ui", "app.mcp")}


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache  # several tests read every module of app/, which none of them changes
def imported_names(path: Path) -> frozenset[str]:
    """Every module `path` imports, at the top or inside a function (`from a import b` counts a.b too: b may be a
    module)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(names)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Each app module `path` imports, with its line: `from a import b` is a (b may be a module of a, as in
    `from app import secrets`, so a name of the `app` package itself counts as app.b)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module == "app":
            found.extend((node.lineno, f"app.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module))
    return [(line, name) for line, name in found if name.split(".")[0] == "app"]


def within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == package or name.startswith(f"{package}.") for package in packages)


def is_cli(name: str) -> bool:
    return name == "app.cli" or name.startswith("app.cli.")


def test_no_modules_import_each_other_in_a_loop() -> None:
    """Anywhere in app/, function-local imports included (they only hide a loop from Python, not from a reader)."""
    modules = {module_name(path): path for path in APP.rglob("*.py")}
    graph = {
        name: {other for other in imported_names(path) if other in modules and other != name}
        for name, path in modules.items()
    }
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        pytest.fail(f"import loop: {' -> '.join(error.args[1])}")


def test_only_the_entry_point_imports_the_cli() -> None:
    offenders = [
        f"{module_name(path)} imports {name}"
        for path in APP.rglob("*.py")
        if CLI not in path.parents and path != APP / "__main__.py"
        for name in imported_names(path)
        if is_cli(name)
    ]
    assert offenders == []


def prints_or_asks(package: str) -> list[str]:
    """Each call to print() or input() in app/<package>."""
    return [
        f"{module_name(path)}:{node.lineno} calls {node.func.id}()"
        for path in (APP / package).rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("print", "input")
    ]


def test_the_pipeline_packages_never_print_or_ask() -> None:
    offenders = [offence for package in PIPELINE_PACKAGES for offence in prints_or_asks(package)]
    assert offenders == []


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter's contracts in pyproject.toml checked on the `app` package under `root`."""
    linter = Path(sys.executable).parent / "lint-imports"
    return subprocess.run(
        [str(linter), "--no-cache", str(root / "pyproject.toml")], cwd=root, capture_output=True, text=True, timeout=120
    )


def test_each_layer_imports_only_the_layers_below_it() -> None:
    """import-linter's contracts in pyproject.toml, each kept (function-local imports count too): the layers, and
    the front ends kept off the store's and the pipeline's internals."""
    root = APP.parent
    settings = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = settings["tool"]["importlinter"]["contracts"]
    done = lint_imports(root)
    assert done.returncode == 0 and f"{len(contracts)} kept, 0 broken" in done.stdout, done.stdout + done.stderr


def test_a_front_end_that_queries_the_store_itself_breaks_a_contract(tmp_path: Path) -> None:
    shutil.copytree(APP, tmp_path / "app", ignore=shutil.ignore_patterns("__pycache__", "resources"))
    shutil.copy(APP.parent / "pyproject.toml", tmp_path)
    with (tmp_path / "app" / "ui" / "jobs.py").open("a", encoding="utf-8") as jobs:
        jobs.write("\n\ndef _ids() -> object:\n    from app.store.queries import short_ids\n\n    return short_ids\n")
    done = lint_imports(tmp_path)
    assert done.returncode != 0 and "app.ui.jobs is not allowed to import app.store.queries" in done.stdout


def test_the_front_ends_come_in_only_through_the_front_door() -> None:
    """A front end imports its own package, the front door and the words, errors and values every layer shares;
    anything else it needs (the run, speech, settings, sync, the rows and results) the front door hands out."""
    offenders = [
        f"{module_name(path)}:{line} imports {name}"
        for front_end in FRONT_ENDS
        for path in (APP.parent / front_end.replace(".", "/")).rglob("*.py")
        for line, name in imported_modules(path)
        if not within(name, (front_end, *FRONT_DOOR, *STARTED_BY.get(front_end, ())))
    ]
    assert offenders == []


def test_no_module_outside_app_ui_imports_qt() -> None:
    offenders = [
        f"{path.relative_to(APP.parent)} imports {name}"
        for path in APP.rglob("*.py")
        if "ui" not in path.relative_to(APP).parts[:1]
        for name in imported_names(path)
        if name.split(".")[0] in QT_MODULES
    ]
    assert offenders == []


def test_the_presentation_words_for_every_front_end_without_one() -> None:
    """app/presentation returns text: no toolkit, no front end (the CLI or the window) and no printing."""
    offenders = [
        f"{module_name(path)} imports {name}"
        for path in (APP / "presentation").rglob("*.py")
        for name in imported_names(path)
        if name.split(".")[0] in QT_MODULES or is_cli(name) or name == "app.ui" or name.startswith("app.ui.")
    ]
    assert list((APP / "presentation").rglob("*.py")) and offenders + prints_or_asks("presentation") == []


def test_the_cli_and_the_app_commands_load_without_qt() -> None:
    code = "import sys, app.cli, app.cli.app_control; print(sorted(m for m in sys.modules if m.startswith('PySide6')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "[]"


def test_the_cli_loads_without_the_openai_client() -> None:
    """A second of importing, paid by every `murmur` command: only commands that talk to a model load it."""
    code = "import sys, app.cli; print(sorted(m for m in sys.modules if m.split('.')[0] == 'openai'))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "[]"


def test_listing_loads_no_date_parser() -> None:
    """dateparser takes a fifth of a second to import; only reading a date needs it."""
    code = "import sys, app.cli, app.assembly; print(sorted(m for m in sys.modules if m.split('.')[0] == 'dateparser'))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "[]"
