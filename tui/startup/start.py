"""Where the app opens (``Start``): the menu, or straight at a table. The command line and the doors
choose it; ``tui/startup/launch.py`` opens the app there."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the hosting side (net.host, the engines) loads only when a table is started
    from tui.hosting import TablePlan


@dataclass
class Start:
    """Where the app opens: the menu, or straight at a table (``turpin play/host/join/spectate``)."""

    route: str = "menu"  # menu | play | host | join | spectate
    plan: "TablePlan | None" = None
    address: str = ""
    code: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
