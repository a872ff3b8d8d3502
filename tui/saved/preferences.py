"""What a player chose once and expects next time: the theme. A small JSON file in turpin's folder of the
user's settings (platformdirs); an SSH guest's app keeps none (``TurpinApp(guest=True)``)."""

from __future__ import annotations

import pathlib

import platformdirs

from tui.saved.string_map_file import read_string_map, write_string_map


def preferences_file() -> pathlib.Path:
    return pathlib.Path(platformdirs.user_config_dir("turpin")) / "preferences.json"


def load() -> dict[str, str]:
    return read_string_map(preferences_file())


def remember(key: str, value: str) -> None:
    """Keep one choice; a folder that cannot be written loses it quietly (it is a nicety, not a record)."""
    write_string_map(preferences_file(), {**load(), key: value})
