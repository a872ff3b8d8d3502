"""What the environment sets for this run of turpin: which networks the LAN list uses, the login name a
player sits under by default, and whether this window is an SSH guest's."""

from __future__ import annotations

import getpass
import os


def lan_setting() -> list[str] | None:
    """``TURPIN_LAN``: unset browses every interface; ``off`` none; otherwise a comma list of addresses."""
    value = os.environ.get("TURPIN_LAN", "").strip()
    if not value:
        return None
    if value.lower() in ("off", "no", "0", "none"):
        return []
    return [part.strip() for part in value.split(",") if part.strip()]


def login_name() -> str:
    """The name of whoever runs turpin, the name at a table when ``--name`` is not given ("" if unknown)."""
    try:
        return getpass.getuser()[:40]
    except Exception:
        return ""


def guest() -> bool:
    """This window is a guest's, through the SSH or the web door (on someone else's machine)."""
    return os.environ.get("TURPIN_GUEST", "") in ("ssh", "web")  # net.ssh.GUEST_VARIABLE (asyncssh loads slowly)


def table_to_join() -> tuple[str, str | None] | None:
    """``TURPIN_JOIN=HOST:PORT`` (and ``TURPIN_JOIN_CODE``), set by an SSH or web door to one table: where
    every session opens, and the room code its guests need not type (they came through the door's gate)."""
    table = os.environ.get("TURPIN_JOIN", "").strip()
    if not table:
        return None
    return table, os.environ.get("TURPIN_JOIN_CODE", "").strip() or None


def table_view_wanted() -> bool:
    """``TURPIN_TABLE_VIEW=1``, set by a wall screen's web door for a television: the watched table opens
    in the table view."""
    return os.environ.get("TURPIN_TABLE_VIEW", "") == "1"  # net.web.TABLE_VIEW_VARIABLE (aiohttp loads slowly)


def table_to_watch() -> str | None:
    """``TURPIN_SPECTATE=HOST:PORT``, set by a web door for a wall screen: every tab watches that table."""
    return os.environ.get("TURPIN_SPECTATE", "").strip() or None
