"""The switches only a table's host has, at the table screen of the app that hosts it on the LAN: spectators'
chat muted or not, and a bot for each person away from a game still on (the seat stays theirs).

Both go through the protocol with the host's token, as any host's client would: the table says what was
done to everyone. At a table this app does not host, none of them is offered.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from textual.screen import Screen

from net.client import TableClient
from tui.frame import TableFrame
from tui.hosting import HostedTable
from tui.table_words import bot_for_the_away_words, seats_away


class HostSwitches:
    """The host's switches at one table screen: ``M`` mutes spectators, ``B`` hands the away to bots."""

    def __init__(self, screen: Screen[Any], client: TableClient, *,
                 hosted: Callable[[], HostedTable | None], frame: Callable[[], TableFrame],
                 stopped: Callable[[], bool], send: Callable[[Awaitable[Any]], None]) -> None:
        self._screen = screen
        self._client = client
        self._hosted = hosted  # the table this app hosts now, if any (it may close under the screen)
        self._frame = frame  # the frame the screen shows now
        self._stopped = stopped  # whether the host has closed the table to this window
        self._send = send
        self._spectators_muted = False
        self._away_offered: list[int] = []  # the away seats the footer's "bot for absent" was shown for

    def on_lan(self) -> bool:
        """Whether this app hosts the table on the LAN (where spectators talk and people go away)."""
        hosted = self._hosted()
        return hosted is not None and hosted.plan.on_lan

    def mute_spectators(self) -> None:
        """Spectators' chat off, or on again; only the table's host may."""
        hosted = self._hosted()
        if hosted is None:
            self._screen.notify("Only the table's host can mute spectators.", severity="warning")
            return
        self._spectators_muted = not self._spectators_muted
        self._send(self._client.mute_spectators(self._spectators_muted, hosted.host_token))

    def away_seats(self) -> list[int]:
        """The away seats the host may hand to a bot: at a LAN table this app hosts, still on."""
        return seats_away(self._frame()) if self.on_lan() and not self._stopped() else []

    def away_changed(self) -> bool:
        """True when the seats to offer a bot for are not the ones the footer shows (it must refresh)."""
        away = self.away_seats()
        changed, self._away_offered = away != self._away_offered, away
        return changed

    def bot_for_the_away(self) -> None:
        """A bot plays each away person's seat until that person joins again, once the host says so."""
        away = self.away_seats()
        if not away:
            self._screen.notify("Nobody is away from the table.", timeout=3)
            return
        title, consequence = bot_for_the_away_words(", ".join(self._frame().name(seat) for seat in away))

        def hand_over() -> None:
            hosted = self._hosted()
            if hosted is None:
                return
            for seat in self.away_seats():  # those still away when the host says yes
                self._send(self._client.hand_over(seat, hosted.host_token, until_back=True))

        from tui.screens.confirm import ask_first
        ask_first(self._screen.app, title, consequence, "Bot plays", hand_over, go_back="Keep waiting")
