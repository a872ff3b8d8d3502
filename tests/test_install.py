"""Turpin installs like any Python app. The wheel `pip wheel` builds carries every module and
every style sheet, and the app installed from it into a fresh virtual environment opens its styled menu
from a folder that is not the source tree."""

from __future__ import annotations

import os
import pathlib
import pty
import select
import shutil
import subprocess
import sys
import tomllib
import zipfile

import pytest

pytestmark = pytest.mark.slow

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: Reads of the app's output before giving up on the menu (each waits up to a second for bytes): a cap
#: on work, not a time limit.
MAX_READS = 120


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> pathlib.Path:
    """The wheel of this checkout, built the way a user (or pipx) builds it, from a copy of the sources:
    setuptools reuses a ``build/`` folder left in the tree, which could hold files the project no longer
    ships."""
    sources = tmp_path_factory.mktemp("sources") / "turpin"
    shutil.copytree(ROOT, sources, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", ".hypothesis", "*.turpin-record"))
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(folder),
                    str(sources)], check=True, cwd=folder)
    (built,) = folder.glob("turpin-*.whl")
    return built


def test_the_wheel_holds_every_style_sheet_and_module(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    sheets = sorted(path.relative_to(ROOT / "styles").as_posix() for path in (ROOT / "styles").rglob("*.tcss"))
    assert sheets, "styles/ has no sheets"
    missing = [sheet for sheet in sheets if f"tui/styles/{sheet}" not in names]
    assert not missing, f"the wheel lacks these sheets of styles/: {missing}"
    assert "net/web_page/app_index.html" in names, "the web door's page (the one that fits a phone)"
    modules = sorted(path.relative_to(ROOT).as_posix() for layer in ("core", "net", "tui")
                     for path in (ROOT / layer).rglob("*.py"))
    missing = [module for module in modules if module not in names]
    assert not missing, f"the wheel lacks these modules (a package missing from pyproject.toml?): {missing}"


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> pathlib.Path:
    """A fresh virtual environment with the wheel (and its dependencies) installed; its ``bin``."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)], check=True,
                   cwd=venv)
    return venv / "bin"


def test_the_installed_command_answers_its_version(installed, tmp_path):
    done = subprocess.run([str(installed / "turpin"), "--version"], capture_output=True, text=True,
                          cwd=tmp_path, check=True)
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert done.stdout.strip() == f"turpin {version}"


def test_the_installed_app_opens_its_styled_menu_from_another_folder(installed, tmp_path):
    """In a pseudo-terminal, from an empty folder: the menu is painted, inside the round frame its style
    sheet gives it (without the sheets the app does not start at all), and ``q`` quits cleanly."""
    assert "site-packages" in subprocess.run(
        [str(installed / "python"), "-c", "import tui; print(tui.STYLES)"], capture_output=True, text=True,
        cwd=tmp_path, check=True).stdout, "the installed app should read the sheets it carries"
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "TERM": "xterm-256color",
                   "LANG": "C.UTF-8", "COLUMNS": "100", "LINES": "30", "TURPIN_LAN": "off",
                   "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "state"),
                   "XDG_CONFIG_HOME": str(tmp_path / "config")}
    controller, terminal = pty.openpty()
    _set_size(terminal, rows=30, columns=100)
    app = subprocess.Popen([str(installed / "turpin")], stdin=terminal, stdout=terminal, stderr=terminal,
                           cwd=tmp_path, env=environment, start_new_session=True)
    os.close(terminal)
    output = b""
    try:
        for _ in range(MAX_READS):
            if b"Play against bots" in output and "╭".encode() in output:
                break
            ready, _, _ = select.select([controller], [], [], 1.0)
            if ready:
                try:
                    output += os.read(controller, 65536)
                except OSError:
                    break
        text = output.decode("utf-8", "replace")
        assert "Play against bots" in text, f"no menu; the app wrote:\n{text[-2000:]}"
        assert "╭" in text, "the menu is not in its round frame: the style sheets were not applied"
        assert "StylesheetError" not in text and "Traceback" not in text
        os.write(controller, b"q")
        assert app.wait(timeout=60) == 0
    finally:
        if app.poll() is None:
            app.kill()
        os.close(controller)


def _set_size(terminal: int, rows: int, columns: int) -> None:
    import fcntl
    import struct
    import termios
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
