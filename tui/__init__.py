"""turpin's Textual app: screens in ``screens/``, widgets in ``widgets/``, one module of panes a game in
``games/``; layout and colour in ``../styles/*.tcss``."""

import pathlib

#: The app's style sheets: ``app.tcss`` (app-wide, and the menu) is read at launch; every other screen
#: names its own, read when it is first shown, so that launching parses only what the menu needs.
STYLES = pathlib.Path(__file__).resolve().parent.parent / "styles"
#: The table's sheets (panes, chips, each game's own), for the screens that draw a table.
TABLE_STYLES = sorted(path for path in STYLES.glob("*.tcss") if path.name != "app.tcss")


def screen_styles(name: str) -> pathlib.Path:
    """The sheet of one of the app's other screens, ``styles/screens/NAME.tcss``."""
    return STYLES / "screens" / f"{name}.tcss"
