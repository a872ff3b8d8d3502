"""Where turpin keeps its game records (a folder in the user's data, one file per table, named after it),
and the palette's screenshots.

Kept apart from the commands that write them so that the menu can look at the records as it opens without
loading the host and the engines.
"""

from __future__ import annotations

import os
import pathlib
import re
import time

import platformdirs

from net.record import RECORD_SUFFIX, RECORDS_VARIABLE


def records_folder() -> pathlib.Path:
    """Where game records go unless ``--record`` says otherwise: the folder ``TURPIN_RECORDS_DIR`` names
    (an SSH user's own), else turpin's folder in the user's data."""
    named = os.environ.get(RECORDS_VARIABLE)
    return pathlib.Path(named) if named else pathlib.Path(platformdirs.user_data_dir("turpin")) / "records"


def records_of_your_own() -> bool:
    """Whether the records folder is this player's own: always, but for an SSH guest (``TurpinApp.guest``)
    on the operator's machine, whose folder is his own only where the front door named one for him."""
    return bool(os.environ.get(RECORDS_VARIABLE))


def default_record_path(label: str, now: time.struct_time | None = None, suffix: str = RECORD_SUFFIX) -> pathlib.Path:
    """A new record file named after the table (or game) and the time; never one that already exists."""
    folder = records_folder()
    folder.mkdir(parents=True, exist_ok=True)
    # The name is free text: keep what is safe in a file name on any system.
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", label).strip("-").lower()[:40] or "table"
    stamp = time.strftime("%Y%m%d-%H%M%S", now or time.localtime())
    path = folder / f"{stem}-{stamp}{suffix}"
    number = 1
    while path.exists():  # two tables started in the same second
        number += 1
        path = folder / f"{stem}-{stamp}-{number}{suffix}"
    return path


def path_of_your_own(label: str, guest: bool, suffix: str = RECORD_SUFFIX) -> pathlib.Path | None:
    """A new file among the records (a game's record, or a deal's check with its suffix): None for a guest
    with no folder of his own (``records_of_your_own``), or where no folder can be made."""
    if guest and not records_of_your_own():
        return None
    try:
        return default_record_path(label, suffix=suffix)
    except OSError:
        return None


def screenshots_folder() -> pathlib.Path:
    """Where the palette's Screenshot saves: beside the records, in turpin's folder of the user's data."""
    return pathlib.Path(platformdirs.user_data_dir("turpin")) / "screenshots"
