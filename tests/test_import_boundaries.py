"""Imports point tui → net → core only (DESIGN.md): checked in a fresh interpreter."""

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
    """DESIGN.md: everything a person reads lives in tui/ (the commands, the host console, the text
    client); net and core offer APIs and print nothing themselves."""
    for package in ("core", "net"):
        for path in (ROOT / package).rglob("*.py"):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                assert not re.search(r"(^|[^\w.])print\(", line), f"{path}:{number}: {line.strip()}"
