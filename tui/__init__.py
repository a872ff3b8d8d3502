"""turpin's Textual app: screens in ``screens/``, widgets in ``widgets/``, one module of panes a game in
``games/``; layout and colour in ``../styles/*.tcss``."""

import pathlib

#: The app's style sheets: ``app.tcss`` for every screen, the rest loaded with the table screen.
STYLES = pathlib.Path(__file__).resolve().parent.parent / "styles"
