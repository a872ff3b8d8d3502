"""Tables this app serves itself: a private table against bots, or a LAN table the player hosts.

Either way the app then joins its own table through ``TableClient`` like anyone else, so what a player
sees at home is byte for byte what a remote player would be sent.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from core.registry import get_game
from net.host import HostSettings, lan_addresses, record_saver
from net.hosting import ServedTable, bots_in_last_seats, new_table
from net.table.clock import LAN_CLOCK_SECONDS
from net.table.table import Table
from tui.saved.unfinished import AGAINST_BOTS


@dataclass
class TablePlan:
    """What the set-up screen decided: the game, options, which seats bots take, and how to serve it."""

    game: str = "turpin"
    options: dict[str, Any] = field(default_factory=dict)
    #: Seat → bot name; every other seat is for a person (seat 0 is the app's own player).
    bots: dict[int, str] = field(default_factory=dict)
    seed: int | None = None
    name: str = ""
    #: None: a private table on 127.0.0.1 with no code and no advert. Otherwise the interface to serve on
    #: ("" for every interface) and whether a room code is needed.
    interface: str | None = None
    code: bool = True
    #: The room code to use (``turpin host --code``); None makes a fresh one when a code is needed.
    room_code: str | None = None
    port: int = 0
    bot_delay: float = 0.6
    #: Announce a LAN table with zeroconf (tests turn it off: no multicast may leave the machine).
    advertise: bool = True
    #: Seconds before a lost player's seat goes to a bot (None: it waits for him); ``turpin host --grace``.
    grace: float | None = None
    #: How many may watch at once (None: the host's default); ``turpin host --max-spectators``.
    max_spectators: int | None = None
    #: Where the record goes (None: a new file in the records folder); ``turpin host --record``.
    record: str | None = None
    #: Seconds each seat has for a move (0: no clock; None: the default, ``LAN_CLOCK_SECONDS`` on the
    #: LAN and none against bots); ``turpin host --clock``, the set-up's "Turn clock".
    clock: float | None = None
    #: The names of the people at this keyboard, one a seat without a bot in seat order; two or more make a
    #: hot-seat table (``tui/hotseat/``), where each is a seat of its own behind a curtain. One: the usual
    #: game against bots, played under that name; none: under the app's player name.
    people: list[str] = field(default_factory=list)

    @property
    def hot_seat(self) -> bool:
        return len(self.people) > 1

    @property
    def clock_seconds(self) -> float:
        if self.clock is not None:
            return self.clock
        return LAN_CLOCK_SECONDS if self.on_lan else 0.0

    @property
    def on_lan(self) -> bool:
        return self.interface is not None


class HostedTable:
    """A running ``TableHost`` for one ``TablePlan``; ``close`` it when the app leaves the table."""

    def __init__(self, plan: TablePlan, record_path: str | None = None, table: Table | None = None) -> None:
        """Serve a new table as ``plan`` says, or ``table`` (one rebuilt from its record, saving to it)."""
        self.plan = plan
        game = get_game(plan.game)
        self.table = table or new_table(game, plan.options, name=plan.name, code_needed=plan.on_lan and plan.code,
                                        room_code=plan.room_code, bots=plan.bots, seed=plan.seed, grace=plan.grace,
                                        record_path=record_path, clock=plan.clock_seconds)
        self.record_path = record_path
        settings = HostSettings(bot_delay=plan.bot_delay)
        if plan.max_spectators is not None:
            settings.max_spectators = plan.max_spectators
        self.served = ServedTable(self.table, settings)
        self.host = self.served.host
        #: The table's own news for whoever runs it (why it is not on the LAN list, say), newest last.
        self.news: list[str] = []
        self.table.report_to(self.news.append)
        #: The SSH front door for this table, once the host opens one from the lobby.
        self.ssh_door: Any = None
        #: The web door for this table, once the host opens one from the lobby.
        self.web_door: Any = None

    @property
    def address(self) -> tuple[str, int]:
        return self.served.address

    @property
    def host_token(self) -> str:
        """The table's host token: the app's own client sends host actions with it, as any host's would."""
        return self.table.host_token

    async def start(self) -> tuple[str, int]:
        """Listen (127.0.0.1 for a private table), and advertise a LAN table; returns the address."""
        if not self.plan.on_lan and not self.plan.hot_seat:  # one window cannot go on with several people's seats
            self.table.meta[AGAINST_BOTS] = True  # the menu offers to go on with it if it is left unfinished
        await self.served.start((self.plan.interface or None) if self.plan.on_lan else "127.0.0.1", self.plan.port)
        if self.plan.on_lan and self.plan.advertise:
            await self.served.advertise()
        return self.address

    @property
    def join_address(self) -> tuple[str, int]:
        """Where this app's own client connects (always this machine)."""
        return "127.0.0.1", self.address[1]

    def addresses_to_share(self) -> list[str]:
        """``host:port`` lines to give people on the LAN."""
        bound = self.address[0]
        hosts = lan_addresses() if bound in ("0.0.0.0", "") else [bound]
        return [f"{host}:{self.address[1]}" for host in hosts]

    @property
    def advertised(self) -> bool:
        return self.served.advertised

    @property
    def not_advertised_because(self) -> str:
        """Why a LAN table is missing from the LAN list, in the host's words ("" if it is there or no
        advert was wanted)."""
        reasons = [line.strip("()") for line in self.news if line.startswith("(not advertising")]
        return reasons[-1] if reasons else ""

    def start_again(self, record_path: str | None, *, shuffle: bool = False) -> None:
        """Deal a new game once this one is over, to the same seats or (``shuffle``) everyone in a new one,
        its record kept at ``record_path`` (the last game's record stays as it was)."""
        self.record_path = record_path
        self.table.start_again(save=record_saver(record_path) if record_path is not None else None,
                               shuffle=shuffle)

    def seat_bot(self, seat: int) -> None:
        """Put a bot in an empty seat (or take over a person's) from the lobby."""
        self.table.hand_to_bot(seat, why="is taken by a bot")

    async def open_ssh_door(self, port: int = 2222) -> list[str]:
        """Serve this table over SSH too (a fresh password); returns the lines to give people.

        Each SSH session is its own app on this machine, opening straight at this table."""
        from net.ssh import SSHFrontDoor, SSHSettings  # asyncssh only when a door is wanted
        from tui.door_links import ssh_commands
        if self.ssh_door is None:
            join = self._address_for_doors()
            door = SSHFrontDoor(SSHSettings(port=port, interface=self.plan.interface or None, join=join,
                                            join_code=self.table.code))
            try:
                await door.start()
            except Exception:
                if port == 0:
                    raise
                door = SSHFrontDoor(SSHSettings(port=0, interface=self.plan.interface or None, join=join,
                                                join_code=self.table.code))
                await door.start()  # 2222 is taken: any free port will do
            self.ssh_door = door
        lines = ssh_commands(self.ssh_door)
        return lines + [f"password: {self.ssh_door.password}"]

    def _address_for_doors(self) -> str:
        """This table's address as a door on this machine reaches it."""
        bound = self.address[0]
        return f"{'127.0.0.1' if bound in ('0.0.0.0', '') else bound}:{self.address[1]}"

    async def open_web_door(self, port: int = 4780) -> list[str]:
        """Serve this table to web browsers too; returns the links to give people (each with the door's
        token). Each browser tab is its own app on this machine, opening straight at this table."""
        from net.addresses import ipv4_by_interface
        from net.web import WebDoor, WebSettings  # aiohttp only when a door is wanted
        from tui.door_links import web_links
        if self.web_door is None:
            interface = self.plan.interface or ""
            host = ipv4_by_interface().get(interface, [interface])[0] if interface else "0.0.0.0"
            for tried in (port, 0):  # the usual port, else any free one
                door = WebDoor(WebSettings(port=tried, host=host, join=self._address_for_doors(),
                                           join_code=self.table.code))
                try:
                    await door.start()
                except OSError:
                    if tried == 0:
                        raise
                    continue
                break
            self.web_door = door
        return web_links(self.web_door)

    async def close(self) -> None:
        if self.ssh_door is not None:
            with contextlib.suppress(Exception):
                await self.ssh_door.close()
        if self.web_door is not None:
            with contextlib.suppress(Exception):
                await self.web_door.stop()
        await self.served.close(for_good=True)  # the person hosting closed it: leaving, or quitting turpin


def plan_to_go_on_with(record: dict[str, Any]) -> TablePlan:
    """The plan of a recorded game against bots (its game, options and bots), to serve it again."""
    bots = {number: seat["bot"] for number, seat in enumerate(record["seats"]) if seat["kind"] == "bot"}
    return TablePlan(game=record["game"], options=dict(record["options"]), bots=bots, seed=None)


def plan_against_bots(game_id: str = "turpin", players: int | None = None, bot: str | None = None,
                      seed: int | None = None, options: dict[str, Any] | None = None) -> TablePlan:
    """Seat 1 for the person at this terminal, a bot in every other seat (the best bot unless named)."""
    game = get_game(game_id)
    given = dict(options or {})
    if players is not None:
        given["players"] = players
    resolved = game.resolve_options(given)
    bots = bots_in_last_seats(game, resolved, game.seats(resolved) - 1, bot, people=1)
    return TablePlan(game=game_id, options=resolved, bots=bots, seed=seed)
