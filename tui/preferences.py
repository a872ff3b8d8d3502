"""What a player chose once and expects next time: the theme. A small JSON file in turpin's folder of the
user's settings (platformdirs); an SSH guest's app keeps none (``TurpinApp(guest=True)``)."""

from __future__ import annotations

import json
import pathlib

import platformdirs


def preferences_file() -> pathlib.Path:
    return pathlib.Path(platformdirs.user_config_dir("turpin")) / "preferences.json"


def load() -> dict[str, str]:
    try:
        data = json.loads(preferences_file().read_text())
    except (OSError, ValueError):
        return {}
    return {str(key): str(value) for key, value in data.items()} if isinstance(data, dict) else {}


def remember(key: str, value: str) -> None:
    """Keep one choice; a folder that cannot be written loses it quietly (it is a nicety, not a record)."""
    chosen = {**load(), key: value}
    path = preferences_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(chosen, indent=1))
    except OSError:
        pass
