"""What to tell people so they reach a front door: the ``ssh`` line or the browser link, one per address
this machine can be reached at. ``turpin serve-ssh`` and ``serve-web`` print them; a lobby that opens a
door for its table shows them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.host import lan_addresses

if TYPE_CHECKING:  # asyncssh and aiohttp load only when a door is opened
    from net.ssh import SSHFrontDoor
    from net.web import WebDoor


def ssh_commands(door: SSHFrontDoor, name: str = "THEIR-NAME") -> list[str]:
    """The ``ssh`` line to give people, one per address this machine can be reached at."""
    host, port = door.address
    addresses = lan_addresses() if host == "0.0.0.0" else [host]
    port_part = "" if port == 22 else f"-p {port} "
    return [f"ssh {port_part}{name}@{address}" for address in addresses]


def web_links(door: WebDoor) -> list[str]:
    """The link to give people, one per address this machine can be reached at."""
    host, _ = door.address
    return [door.url(address) for address in (lan_addresses() if host == "0.0.0.0" else [host])]
