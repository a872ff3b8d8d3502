"""A small JSON file of names to strings that turpin keeps for the player (his seat tokens, his theme):
read as empty when it is missing or spoilt, written whole through a temporary file so a crash mid-write
leaves the last one."""

from __future__ import annotations

import json
import os
import pathlib


def read_string_map(path: pathlib.Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return {str(key): str(value) for key, value in data.items()} if isinstance(data, dict) else {}


def write_string_map(path: pathlib.Path, mapping: dict[str, str], *, owner_only: bool = False) -> bool:
    """Write ``mapping`` to ``path`` (readable by its owner only if asked); False where it cannot be
    written, which the callers take quietly: what they keep is a convenience, never the game."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(mapping, indent=1))
        if owner_only:
            os.chmod(temporary, 0o600)
        temporary.replace(path)
    except OSError:
        return False
    return True
