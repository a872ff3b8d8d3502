"""turpin's Textual app: screens in ``screens/``, widgets in ``widgets/``, one module of panes a game in
``games/``; layout and colour in ``../styles/*.tcss``."""

import pathlib

#: The app's style sheets: ``app.tcss`` for every screen, the rest loaded with the table screen.
STYLES = pathlib.Path(__file__).resolve().parent.parent / "styles"
#: The table's sheets (panes, chips, each game's own), for the screens that draw a table.
TABLE_STYLES = sorted(path for path in STYLES.glob("*.tcss") if path.name != "app.tcss")
