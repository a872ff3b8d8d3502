"""Finding tables on the LAN with zeroconf (mDNS/DNS-SD), asyncio API only.

A host advertises its table as ``_turpin._tcp.local.`` with a few small TXT values; a browser keeps a
live list of the tables it has heard of, and shows a table only once a TCP connection to its address
answers (a stale advert of a dead host is never offered). When multicast cannot work here (port 5353
held by another program, no multicast-capable interface) ``DiscoveryUnavailable`` says so, and players
connect by address instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import ipaddress
import logging
import re
import secrets
from dataclasses import dataclass, replace
from typing import Callable, Mapping

import ifaddr
from zeroconf import DNSQuestionType, IPVersion, NotRunningException, ServiceStateChange, Zeroconf
from zeroconf import Error as ZeroconfError
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from net.addresses import ipv4_by_interface
from net.untrusted import printable

SERVICE_TYPE = "_turpin._tcp.local."

MAX_NAME_CHARS = 40
MAX_SEATS = 64            # far above any game's table; a larger figure is a bad advert
MAX_PROTOCOL = 65535
TXT_KEYS = ("proto", "game", "name", "taken", "free", "code")
#: TXT keys a table may leave out (older hosts do): "over" is "1" once its game has ended; "waiting" counts
#: the taken seats held for a player whose connection is gone.
OPTIONAL_TXT_KEYS = {"over": "0", "waiting": "0"}
_GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
_DIGITS = re.compile(r"[0-9]{1,5}")
_MAX_TXT_VALUE_BYTES = 200   # one TXT string is at most 255 bytes, key and "=" included
_MAX_INSTANCE_LABEL_BYTES = 63   # a DNS label

RESOLVE_TIMEOUT_MS = 3000  # how long to wait for a table's SRV/TXT/A answers
PROBE_TIMEOUT = 1.5        # seconds a TCP connect to a table may take on a LAN
REPROBE_INTERVAL = 10.0    # seconds between checks that a shown table still answers

#: Ask for multicast answers (QM) only. A unicast answer (QU, zeroconf's default for a first question)
#: goes to UDP port 5353 on this machine, and with several turpin processes sharing that port the kernel
#: hands it to one of them — often not the one that asked — so a new short listing found nothing.
QUESTIONS = DNSQuestionType.QM

log = logging.getLogger(__name__)

ChangeCallback = Callable[[str, "TableAd | None"], None]


class DiscoveryUnavailable(RuntimeError):
    """Zeroconf cannot run here; the message tells the player to connect by address instead."""


def _unavailable(reason: str) -> DiscoveryUnavailable:
    return DiscoveryUnavailable(f"LAN discovery is unavailable ({reason}); connect by address instead "
                                "(turpin join HOST:PORT)")


def check_table_name(name: str) -> None:
    """Refuse (``ValueError``, in words) a name no advert may carry; ``turpin host --name`` checks it early."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME_CHARS:
        length = f" (this one has {len(name)})" if isinstance(name, str) else ""
        raise ValueError(f"a table name has 1 to {MAX_NAME_CHARS} characters{length}")
    if not name.isprintable() or name != name.strip():
        raise ValueError("a table name has only printable characters and no surrounding spaces")
    if len(name.encode()) > _MAX_TXT_VALUE_BYTES:
        raise ValueError("table name too long")


def _check_count(what: str, value: int, low: int, high: int) -> None:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{what} must be a whole number from {low} to {high}, not {value!r}")


@dataclass(frozen=True)
class TableAd:
    """What a table advertises. Every TableAd is valid: the constructor checks each field."""

    name: str
    game: str
    protocol: int
    seats_taken: int
    seats_free: int
    code_needed: bool
    host: str = ""        # filled in by the browser: the address that answered the probe
    port: int = 0
    instance: str = ""    # unique instance name: "<name> <short id>"
    over: bool = False    # the game has ended; the host lingers so players can read the result
    waiting: int = 0      # of the taken seats, those held for a player who has lost the table

    def __post_init__(self) -> None:
        check_table_name(self.name)
        if not isinstance(self.game, str) or not _GAME_ID.fullmatch(self.game):
            raise ValueError(f"bad game id {self.game!r}")
        _check_count("protocol", self.protocol, 0, MAX_PROTOCOL)
        _check_count("seats taken", self.seats_taken, 0, MAX_SEATS)
        _check_count("seats free", self.seats_free, 0, MAX_SEATS)
        if self.seats_taken + self.seats_free > MAX_SEATS:
            raise ValueError("too many seats")
        if type(self.code_needed) is not bool:
            raise ValueError("code_needed must be a bool")
        if type(self.over) is not bool:
            raise ValueError("over must be a bool")
        _check_count("port", self.port, 0, 65535)
        _check_count("seats waiting", self.waiting, 0, self.seats_taken)

    @property
    def address(self) -> str:
        """``host:port`` as a player would type it to join."""
        return f"{self.host}:{self.port}"

    def to_txt(self) -> dict[str, str]:
        """The TXT record: short string values only."""
        return {"proto": str(self.protocol), "game": self.game, "name": self.name,
                "taken": str(self.seats_taken), "free": str(self.seats_free),
                "code": "1" if self.code_needed else "0", "over": "1" if self.over else "0",
                "waiting": str(self.waiting)}

    @classmethod
    def from_txt(cls, txt: Mapping[bytes, bytes | None], host: str, port: int, instance: str) -> "TableAd":
        """Rebuild an advert heard on the network; raises ValueError on anything malformed."""
        values: dict[str, str] = {}
        for key in (*TXT_KEYS, *OPTIONAL_TXT_KEYS):
            raw = txt.get(key.encode(), OPTIONAL_TXT_KEYS.get(key, "").encode() or None)
            if raw is None:
                raise ValueError(f"TXT lacks {key!r}")
            if len(raw) > _MAX_TXT_VALUE_BYTES:
                raise ValueError(f"TXT {key!r} too long")
            try:
                values[key] = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                raise ValueError(f"TXT {key!r} is not UTF-8") from error
        for key in ("proto", "taken", "free", "waiting"):
            if not _DIGITS.fullmatch(values[key]):
                raise ValueError(f"TXT {key!r} is not a small number: {values[key]!r}")
        for key in ("code", "over"):
            if values[key] not in ("0", "1"):
                raise ValueError(f"TXT {key!r} is not 0 or 1: {values[key]!r}")
        return cls(name=values["name"], game=values["game"], protocol=int(values["proto"]),
                   seats_taken=int(values["taken"]), seats_free=int(values["free"]),
                   code_needed=values["code"] == "1", host=host, port=port, instance=instance,
                   over=values["over"] == "1", waiting=int(values["waiting"]))


# --- interfaces -------------------------------------------------------------------------------------

def resolve_interface(spec: str | None) -> list[str] | None:
    """``--interface``: an IPv4 address or an interface name -> zeroconf's interface list.

    None means every interface (zeroconf's default), which suits a real LAN.
    """
    if spec is None or spec == "":
        return None
    spec = spec.strip()
    try:
        address = ipaddress.ip_address(spec)
    except ValueError:
        addresses = ipv4_by_interface().get(spec)
        if not addresses:
            raise _unavailable(f"no interface named {spec!r} with an IPv4 address") from None
        return addresses
    if address.version != 4:
        raise _unavailable(f"{spec} is not an IPv4 address; turpin discovery uses IPv4")
    return [str(address)]


def nearest_first(addresses: list[str]) -> list[str]:
    """A multi-homed host's addresses, those on one of our own subnets first (probed first, so a
    container bridge or VPN address that cannot be reached does not hold up the list)."""
    networks = [ipaddress.ip_network(f"{ip.ip}/{ip.network_prefix}", strict=False)
                for adapter in ifaddr.get_adapters() for ip in adapter.ips if ip.is_IPv4]

    def on_our_subnet(address: str) -> bool:
        return any(ipaddress.ip_address(address) in network for network in networks)
    return sorted(addresses, key=lambda address: not on_our_subnet(address))


def _advertised_addresses(interfaces: list[str] | None) -> list[str]:
    """The addresses a table tells others to connect to: the chosen ones, else the LAN ones."""
    if interfaces:
        return list(interfaces)
    every = [address for addresses in ipv4_by_interface().values() for address in addresses]
    lan = [address for address in every if not ipaddress.ip_address(address).is_loopback]
    return lan or every or ["127.0.0.1"]


async def _open_zeroconf(interfaces: list[str] | None) -> AsyncZeroconf:
    """A running AsyncZeroconf on the chosen interfaces, or DiscoveryUnavailable saying why not."""
    where = ", ".join(interfaces) if interfaces else "any interface"
    try:
        if interfaces is None:
            aiozc = AsyncZeroconf(ip_version=IPVersion.V4Only)
        else:
            aiozc = AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise _unavailable("UDP port 5353 is taken by another program") from error
        raise _unavailable(f"multicast failed on {where}: {error.strerror or error}") from error
    except (RuntimeError, ValueError, ZeroconfError) as error:
        raise _unavailable(f"{where}: {error}") from error
    try:
        await aiozc.zeroconf.async_wait_for_start()
    except (NotRunningException, asyncio.TimeoutError) as error:
        await _close_zeroconf(aiozc)
        raise _unavailable("the mDNS responder did not start") from error
    if not aiozc.zeroconf.engine.senders:
        # zeroconf skips (and only logs) each interface that cannot join the mDNS group; with none
        # left it would run deaf and mute, so that is the "multicast fails" case.
        await _close_zeroconf(aiozc)
        raise _unavailable(f"multicast failed on {where}")
    return aiozc


async def _close_zeroconf(aiozc: AsyncZeroconf) -> None:
    with contextlib.suppress(OSError, ZeroconfError, RuntimeError):
        await aiozc.async_close()


# --- advertising -------------------------------------------------------------------------------------

def instance_label(name: str, short_id: str) -> str:
    """``"<name> <short id>"`` kept inside one DNS label (63 bytes), cutting the name if need be."""
    room = _MAX_INSTANCE_LABEL_BYTES - len(short_id) - 1
    cut = name.encode()[:room].decode("utf-8", errors="ignore").rstrip()
    return f"{cut} {short_id}"


class TableAdvertiser:
    """Advertises one table while the host runs. Use ``async with`` or call ``close()`` in ``finally``."""

    def __init__(self, ad: TableAd, port: int, interfaces: list[str] | None = None) -> None:
        self.ad = replace(ad, port=port)
        self.port = port
        self.interfaces = interfaces
        self._short_id = secrets.token_hex(3)
        self.instance = instance_label(ad.name, self._short_id)
        self._aiozc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._announcing: asyncio.Future[None] | None = None   # the repeats of the latest TXT update

    def _service_info(self) -> AsyncServiceInfo:
        return AsyncServiceInfo(SERVICE_TYPE, f"{self.instance}.{SERVICE_TYPE}", port=self.port,
                                properties=self.ad.to_txt(), server=f"turpin-{self._short_id}.local.",
                                parsed_addresses=_advertised_addresses(self.interfaces))

    async def start(self) -> None:
        """Announce the table; DiscoveryUnavailable if multicast cannot work here."""
        self._aiozc = await _open_zeroconf(self.interfaces)
        announced = self.ad
        info = self._service_info()
        try:
            await (await self._aiozc.async_register_service(info, allow_name_change=True))
        except (OSError, ZeroconfError) as error:
            await _close_zeroconf(self._aiozc)
            self._aiozc = None
            raise _unavailable(f"could not announce the table: {error}") from error
        except BaseException:
            await _close_zeroconf(self._aiozc)
            self._aiozc = None
            raise
        self._info = info
        self.instance = info.name[: -len(SERVICE_TYPE) - 1]   # zeroconf may have renamed it on a clash
        if self.ad != announced:   # seats changed while the name was being claimed
            await self.update(self.ad.seats_taken, self.ad.seats_free, self.ad.over, self.ad.waiting)

    async def update(self, seats_taken: int, seats_free: int, over: bool | None = None,
                     waiting: int = 0) -> None:
        """Publish the new seat counts (and whether the game is over, and how many seats wait for their
        player) in the TXT record (returns at once; zeroconf repeats it)."""
        self.ad = replace(self.ad, seats_taken=seats_taken, seats_free=seats_free,
                          over=self.ad.over if over is None else over, waiting=waiting)
        if self._aiozc is None or self._info is None:
            return
        info = AsyncServiceInfo(SERVICE_TYPE, self._info.name, port=self.port, properties=self.ad.to_txt(),
                                server=self._info.server, parsed_addresses=self._info.parsed_addresses())
        self._info = info
        self._stop_announcing()   # an older announcement still repeating would undo this one
        self._announcing = asyncio.ensure_future(await self._aiozc.async_update_service(info))

    def _stop_announcing(self) -> None:
        if self._announcing is not None and not self._announcing.done():
            self._announcing.cancel()
        self._announcing = None

    async def close(self) -> None:
        """Say goodbye on the network (so browsers drop the table at once) and release the sockets."""
        aiozc, info = self._aiozc, self._info
        self._aiozc = self._info = None
        self._stop_announcing()
        if aiozc is None:
            return
        try:
            if info is not None:
                with contextlib.suppress(OSError, ZeroconfError):
                    await (await aiozc.async_unregister_service(info))
        finally:
            await _close_zeroconf(aiozc)

    async def __aenter__(self) -> "TableAdvertiser":
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()


# --- browsing -----------------------------------------------------------------------------------------

async def tcp_probe(host: str, port: int, timeout: float = PROBE_TIMEOUT) -> bool:
    """Does something accept a TCP connection at host:port? Connects and closes at once."""
    try:
        _reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except (OSError, asyncio.TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True


class TableBrowser:
    """A live list of the tables on the LAN: ``tables`` by instance name, and ``on_change`` calls.

    ``on_change(kind, ad)`` with kind "added", "updated" or "removed", always from the event loop. A
    table is added only after a TCP probe to its address answers (unless ``probe=False``); a shown
    table whose host stops answering is removed at the next re-probe.
    """

    def __init__(self, on_change: ChangeCallback | None = None, interfaces: list[str] | None = None,
                 probe: bool = True, reprobe_interval: float = REPROBE_INTERVAL) -> None:
        self.on_change = on_change
        self.interfaces = interfaces
        self.probe = probe
        self.reprobe_interval = reprobe_interval
        self.tables: dict[str, TableAd] = {}
        self._aiozc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._lookups: dict[str, asyncio.Task[None]] = {}
        self._reprobe: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start listening; DiscoveryUnavailable if multicast cannot work here."""
        self._aiozc = await _open_zeroconf(self.interfaces)
        self._browser = AsyncServiceBrowser(self._aiozc.zeroconf, SERVICE_TYPE,
                                            handlers=[self._on_service_state_change], question_type=QUESTIONS)
        if self.probe and self.reprobe_interval > 0:
            self._reprobe = asyncio.create_task(self._reprobe_loop())

    async def close(self) -> None:
        """Stop browsing and release the sockets."""
        tasks = list(self._lookups.values()) + ([self._reprobe] if self._reprobe else [])
        self._lookups.clear()
        self._reprobe = None
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        browser, aiozc = self._browser, self._aiozc
        self._browser = self._aiozc = None
        try:
            if browser is not None:
                await browser.async_cancel()
        finally:
            if aiozc is not None:
                await _close_zeroconf(aiozc)

    async def __aenter__(self) -> "TableBrowser":
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def _on_service_state_change(self, zeroconf: Zeroconf, service_type: str, name: str,
                                 state_change: ServiceStateChange) -> None:
        # Called by zeroconf inside the event loop: never block here, hand the work to a task.
        previous = self._lookups.pop(name, None)
        if previous is not None:
            previous.cancel()
        if state_change is ServiceStateChange.Removed:
            self._forget(name)
        else:
            task = asyncio.get_running_loop().create_task(self._look_up(name))
            self._lookups[name] = task
            task.add_done_callback(functools.partial(self._lookup_done, name))

    def _lookup_done(self, name: str, task: asyncio.Task[None]) -> None:
        if self._lookups.get(name) is task:
            del self._lookups[name]
        if not task.cancelled() and task.exception() is not None:
            log.warning("looking up table %r failed: %r", name, task.exception())

    async def _look_up(self, name: str) -> None:
        """Resolve an advert, check its TXT, probe its address, then show or update it."""
        if self._aiozc is None:
            return
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if not await info.async_request(self._aiozc.zeroconf, RESOLVE_TIMEOUT_MS, question_type=QUESTIONS) \
                or not info.port:
            return
        instance = printable(name[: -len(SERVICE_TYPE) - 1] if name.endswith("." + SERVICE_TYPE) else name)
        try:
            ad = TableAd.from_txt(info.properties, host="", port=info.port, instance=instance)
        except ValueError as error:   # checked before probing: a bad advert costs no connection
            log.info("ignoring table %r with a bad advert: %s", instance, error)
            self._forget(name)
            return
        addresses = nearest_first(info.parsed_addresses(IPVersion.V4Only))
        known = self.tables.get(name)
        if known is not None and known.port == info.port and known.host in addresses:
            host: str | None = known.host   # the same host with new TXT: no need to probe again
        else:
            host = await self._first_answering(addresses, info.port)
        if host is None:
            log.info("table %r does not answer at %s port %s; not shown", instance, addresses, info.port)
            return
        self._show(name, replace(ad, host=host))

    async def _first_answering(self, addresses: list[str], port: int) -> str | None:
        for address in addresses:
            if not self.probe or await tcp_probe(address, port):
                return address
        return None

    def _show(self, name: str, ad: TableAd) -> None:
        known = self.tables.get(name)
        if known == ad:
            return
        self.tables[name] = ad
        self._notify("added" if known is None else "updated", ad)

    def _forget(self, name: str) -> None:
        ad = self.tables.pop(name, None)
        if ad is not None:
            self._notify("removed", ad)

    def _notify(self, kind: str, ad: TableAd) -> None:
        if self.on_change is not None:
            try:
                self.on_change(kind, ad)
            except Exception:  # a broken listener must not stop discovery
                log.exception("on_change failed for %s %r", kind, ad.instance)

    async def _reprobe_loop(self) -> None:
        """Drop shown tables whose host has stopped answering (e.g. killed without a goodbye)."""
        while True:
            await asyncio.sleep(self.reprobe_interval)
            for name, ad in list(self.tables.items()):
                if not await tcp_probe(ad.host, ad.port) and self.tables.get(name) == ad:
                    self._forget(name)


async def find_tables(seconds: float = 3.0, interfaces: list[str] | None = None) -> list[TableAd]:
    """Browse for ``seconds`` and return the tables that answered, by name."""
    browser = TableBrowser(interfaces=interfaces, reprobe_interval=0)
    await browser.start()
    try:
        await asyncio.sleep(seconds)
    finally:
        await browser.close()
    return sorted(browser.tables.values(), key=lambda ad: (ad.name.casefold(), ad.instance))
