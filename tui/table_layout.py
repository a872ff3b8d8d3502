"""How the table screen lays its panes out for a terminal's size: the arrangement is a pure function of
the width and height, and each arrangement is a class of the screen that ``styles/table.tcss`` lays out
(the panes are the same widgets in all of them)."""

from __future__ import annotations

#: Below this many columns the panes fold into tabs: the players and log beside a board and a hand of
#: town cards need a hundred.
NARROW_BELOW = 100
#: ... and below this many rows: the board, the hand and the move pane one over the other need them.
SHORT_BELOW = 28
#: Below this many rows a terminal at least ``COLUMNS_FROM`` wide lays the board, the hand and sheet, and
#: the players and log side by side: stacked, the hand and sheet would have too few rows.
COLUMNS_BELOW = 40
COLUMNS_FROM = 150
#: Below this many columns the players and log give two columns to the hand and the sheet.
SNUG_BELOW = 110
#: A phone held upright (40 to 60 columns at a readable font): the hand and the moves take the rows they
#: need, and the pane of the tab shown (the board first) what is left.
PHONE_BELOW = 61


def folds_into_tabs(width: int, height: int) -> bool:
    return width < NARROW_BELOW or height < SHORT_BELOW


def arrangement(width: int, height: int) -> str:
    """"phone" (a phone's width), "tabs" (a small terminal), "columns" (wide and short) or "stacked" (the
    rest)."""
    if width < PHONE_BELOW:
        return "phone"
    if folds_into_tabs(width, height):
        return "tabs"
    if width >= COLUMNS_FROM and height < COLUMNS_BELOW:
        return "columns"
    return "stacked"

#: The panes as tabs on a small terminal, in the order [ and ] turn them: (name, tab title). The pane of
#: tab ``tab-NAME`` is ``#NAME``, shown when the screen has the class ``-show-NAME``.
PANE_TABS = (("board", "Board"), ("hand", "Hand"), ("sheet", "Sheet"), ("players", "Players"), ("log", "Log"))
