"""Imports point tui → net → core only, checked in a fresh interpreter; within tui/, the app and the
command line keep apart."""

import ast
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _modules_loaded_after_importing(packages: list[str]) -> set[str]:
    code = ("import sys, importlib, pkgutil\n"
            f"for name in {packages!r}:\n"
            "    package = importlib.import_module(name)\n"
            "    for info in pkgutil.walk_packages(package.__path__, name + '.'):\n"
            "        importlib.import_module(info.name)\n"
            "print('\\n'.join(sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return {line.split(".")[0] for line in out.stdout.split()}


def test_core_loads_no_net_tui_textual_or_asyncio():
    loaded = _modules_loaded_after_importing(["core"])
    assert not loaded & {"net", "tui", "textual", "asyncio"}, loaded & {"net", "tui", "textual", "asyncio"}


def test_net_loads_no_tui_or_textual():
    loaded = _modules_loaded_after_importing(["core", "net"])
    assert not loaded & {"tui", "textual"}


def test_no_source_file_imports_against_the_arrow():
    forbidden = {"core": r"(net|tui|textual|asyncio)\b", "net": r"(tui|textual)\b"}
    for package, pattern in forbidden.items():
        for path in (ROOT / package).rglob("*.py"):
            for line in path.read_text().splitlines():
                assert not re.match(rf"\s*(from|import)\s+{pattern}", line), f"{path}: {line}"


def test_no_pickle_anywhere():
    for package in ("core", "net", "tui"):
        for path in (ROOT / package).rglob("*.py"):
            assert not re.search(r"\bimport\s+pickle\b|\bpickle\.", path.read_text()), path


def test_net_and_core_print_nothing():
    """Everything a person reads lives in tui/ (the commands, the host console, the text client); net and
    core offer APIs and print nothing themselves."""
    for package in ("core", "net"):
        for path in (ROOT / package).rglob("*.py"):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                assert not re.search(r"(^|[^\w.])print\(", line), f"{path}:{number}: {line.strip()}"


def _tui_imports() -> dict[str, set[str]]:
    """Each module of tui/ and the modules of tui/ it imports anywhere in it (in a function, or only for
    type checking, too: each is a dependency a reader must follow)."""
    modules = {}
    for path in sorted((ROOT / "tui").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    imports: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        names: list[str] = []
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    above = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join([*above, *([base] if base else [])])
                names += [base, *(f"{base}.{alias.name}" for alias in node.names)]
        imports[module] = {found for name in names if (found := known(name)) not in (None, module)}
    return imports


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = lowest[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                lowest[module] = min(lowest[module], lowest[other])
            elif other in stack:
                lowest[module] = min(lowest[module], index[other])
        if lowest[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return circles


def test_the_circle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_tui_imports_itself_round_a_circle():
    imports = _tui_imports()
    assert "tui.cli" in imports and "tui.cli.commands" in imports["tui.cli"]  # the graph is read at all
    circles = _circles(imports)
    assert not circles, "modules of tui/ that import each other: " + "; ".join(
        " ⇄ ".join(circle) + f" ({', '.join(f'{m} → {sorted(imports[m] & set(circle))}' for m in circle)})"
        for circle in circles)


#: The app's side of tui/: what draws and runs the game window. The command line is tui.cli.
APP_SIDE = ("tui.app", "tui.screens", "tui.widgets", "tui.games")
COMMAND_LINE = ("tui.cli",)


def _within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def _crossings(graph: dict[str, set[str]]) -> list[str]:
    """Each import from the app's side into the command line, or from the command line into the app's."""
    return [f"{module} → {other}" for module, found in sorted(graph.items()) for other in sorted(found)
            if _within(module, APP_SIDE) and _within(other, COMMAND_LINE)
            or _within(module, COMMAND_LINE) and _within(other, APP_SIDE)]


def test_the_crossing_finder_finds_a_crossing():
    graph = {"tui.screens.rules": {"tui.cli.rules", "tui.reflow"}, "tui.cli.rules": {"tui.reflow"},
             "tui.cli.play": {"tui.app"}, "tui.screensaver": {"tui.cli"}, "tui.startup.launch": {"tui.app"}}
    assert _crossings(graph) == ["tui.cli.play → tui.app", "tui.screens.rules → tui.cli.rules"]


def test_the_app_and_the_command_line_do_not_import_each_other():
    """The app never imports the command line, and the command line opens the app only through
    ``tui.startup.launch``: neither side's reader needs the other to follow it, and a command does not load
    screens it will not show."""
    imports = _tui_imports()
    assert "tui.cli.commands" in imports and "tui.screens.rules" in imports  # both sides are read at all
    crossings = _crossings(imports)
    assert not crossings, "the app and the command line cross: " + "; ".join(crossings)


def _modules_imported(path: pathlib.Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    return names


def test_no_test_module_imports_a_test_module():
    """What tests share lives in helper modules (``tests/*_helpers.py``, ``conftest.py``): a test module
    imported by another would be a second copy of its tests' setup to keep in step, and its fixtures and
    tests leak into the other's namespace."""
    test_modules = {path.stem for path in (ROOT / "tests").glob("test_*.py")}
    assert "test_import_boundaries" in test_modules  # the folder is read at all
    importers = sorted((ROOT / "tests").glob("*.py")) + sorted((ROOT / "bench").glob("*.py"))
    found = [f"{path.relative_to(ROOT)} imports tests.{module}" for path in importers
             for module in sorted({name.removeprefix("tests.").split(".")[0] for name in _modules_imported(path)}
                                  & test_modules)]
    assert not found, "; ".join(found)
