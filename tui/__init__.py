"""turpin's terminal side: the Textual app, and the ``turpin`` command line that opens it or works without it.

- ``app.py``: the app itself (themes, the global keys, the routes to a table); its screens are in
  ``screens/``, its widgets in ``widgets/``, a folder of panes a game in ``games/``; layout and colour in
  the top-level ``styles/*.tcss``, which an installed turpin carries as ``tui/styles`` (``pyproject.toml``
  maps the one onto the other).
- What the table screen and its panes draw from: ``frame.py`` (one moment of a table), ``glyphs.py`` and
  ``ascii_only.py`` (the pictures and their ASCII stand-ins), ``table_layout.py``, ``table_words.py``,
  ``type_ahead.py`` and ``collector.py`` (the garbage collector held off while an update is drawn).
- ``hosting.py``: the tables the app serves itself; ``door_links.py``: what to tell people to reach an SSH
  or web door; ``replay.py``: a record read back step by step; ``reflow.py``: a game's rules in paragraphs.
- ``hotseat/``: several people at one keyboard, a seat and a client each, a curtain between them.
- ``saved/``: what turpin keeps on disk for the player (records, the unfinished game, seat tokens, theme).
- ``startup/``: how a run starts (where the app opens, the launcher, the environment, the warm pool's zygote).
- ``cli/``: the command line, a module a subcommand; the app never imports it, and it opens the app only
  through ``startup/launch.py`` (``tests/test_import_boundaries.py``).
"""

import pathlib


def _styles_folder() -> pathlib.Path:
    """Where the style sheets are: inside the installed package (a wheel, ``pip install .``, pipx), or
    beside ``tui/`` in a source checkout (the editable install, the tests). Textual reads them by path,
    so it must be a folder on disk; a package imported from a zip has none and is not supported. (The
    package's own folder, not ``importlib.resources``: that import alone cost every launch 5-20 ms.)"""
    package = pathlib.Path(__file__).resolve().parent
    installed = package / "styles"
    if installed.is_dir():
        return installed
    return package.parent / "styles"


#: The app's style sheets: ``app.tcss`` (app-wide, and the menu) is read at launch; every other screen
#: names its own, read when it is first shown, so that launching parses only what the menu needs.
STYLES = _styles_folder()
#: The table's sheets (panes, chips, each game's own), for the screens that draw a table.
TABLE_STYLES = sorted(path for path in STYLES.glob("*.tcss") if path.name != "app.tcss")


def screen_styles(name: str) -> pathlib.Path:
    """The sheet of one of the app's other screens, ``styles/screens/NAME.tcss``."""
    return STYLES / "screens" / f"{name}.tcss"
