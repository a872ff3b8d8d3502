"""The host on the LAN: which address to listen on, which addresses to tell people, and the advert.

Invariants:

- Discovery is optional: without ``net.discovery`` (or when it fails) the table says why in its log and
  still works by address; the advert is only started here, never needed.
- The advert follows the seats: every change the table reports is sent on, and an update that fails is
  said in the log without touching the table.
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import TYPE_CHECKING, Any

from net import protocol
from net.addresses import ipv4_by_interface

if TYPE_CHECKING:
    from net.host.server import TableHost


def bind_address(interface: str | None) -> str:
    """``--interface``: an IPv4 address, or an interface name resolved to its address; default all."""
    if not interface:
        return "0.0.0.0"
    try:
        return str(ipaddress.ip_address(interface))
    except ValueError:
        pass
    addresses = ipv4_by_interface().get(interface)  # only interface names need ifaddr
    if addresses:
        return addresses[0]
    raise ValueError(f"no network interface named {interface!r} with an IPv4 address")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that others on the LAN can reach (loopback if there are none)."""
    try:
        found = [address for addresses in ipv4_by_interface().values() for address in addresses]
    except Exception:
        found = []
    lan = [a for a in found if not ipaddress.ip_address(a).is_loopback]
    return lan or ["127.0.0.1"]


async def advertise(host: TableHost, interface: str | None) -> Any:
    """Start advertising the table on the LAN if ``net.discovery`` is there; None (and why) if not.

    Imported here, not at the top: the host works the same without discovery.
    """
    try:
        from net import discovery
    except ImportError as error:
        host.table.tell(f"(not advertising on the LAN: discovery is not available here: {error})")
        return None
    table = host.table
    try:
        interfaces = discovery.resolve_interface(interface) if interface else None
        ad = discovery.TableAd(name=table.name, game=table.game.id, protocol=protocol.PROTOCOL_VERSION,
                               seats_taken=table.seating.taken(),
                               seats_free=len(table.seats) - table.seating.taken(),
                               code_needed=table.code is not None, over=table.over,
                               waiting=table.seating.waiting())
        advertiser = discovery.TableAdvertiser(ad, host.address[1], interfaces)
        await advertiser.start()
    except Exception as error:  # DiscoveryUnavailable and friends: the table still works by address
        host.table.tell(f"(not advertising on the LAN: {error}; players can still join by address)")
        return None

    return Advertising(host, advertiser)


class Advertising:
    """A started advertiser kept up to date with the seats; ``close`` it in a ``finally``."""

    def __init__(self, host: TableHost, advertiser: Any) -> None:
        self.host, self.advertiser = host, advertiser
        host.on_seats_changed = self.update

    def update(self) -> None:
        table = self.host.table
        taken = table.seating.taken()
        task = asyncio.ensure_future(self._update(taken, len(table.seats) - taken, table.over,
                                                  table.seating.waiting()))
        self.host._tasks.add(task)
        task.add_done_callback(self.host._tasks.discard)

    async def _update(self, taken: int, free: int, over: bool, waiting: int) -> None:
        try:
            await self.advertiser.update(taken, free, over, waiting)
        except Exception as error:  # the LAN list may lag; the table itself is unaffected
            self.host.table.tell(f"(could not update the LAN advert: {error})")

    async def close(self) -> None:
        """Stop updating, then unregister the service."""
        self.host.on_seats_changed = None
        await self.advertiser.close()
