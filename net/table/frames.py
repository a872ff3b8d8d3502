"""What each viewer is sent: the one place a table frame, a welcome or a notice is built.

Invariants:

- Secrecy (A1): a seat gets the game's own allow-listed ``view`` for that seat, its own prompt and the
  events ``visible_events`` lets it see; a spectator gets ``view(state, None)`` and public events.
- The seed (A2) and the fair deal's root, secret and salt leave only with the result: a frame that would
  carry them before is a bug, refused with ``LeakError`` and never sent.
- Every watcher's ``log_sent`` is the length of the log it has been sent; an update carries only the
  events after it, a catch-up the log from its start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgpack

from core.engine import Event, visible_events
from net import protocol
from net.protocol import host_message
from net.record import public_record
from net.table.seating import Watcher

if TYPE_CHECKING:
    from net.table.table import Table


class LeakError(AssertionError):
    """A frame about to leave before the end of the game carries the seed: a bug, never sent."""


class Frames:
    """Builds and sends what every watcher of ``table`` sees."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._seed_bytes = b""
        self._secret_bytes: list[bytes] = []

    def guard(self) -> None:
        """Learn the bytes no frame may carry before the end: the seed's and the fair deal's secrets'."""
        table = self.table
        self._seed_bytes = msgpack.packb(table.seed)
        fair = table.fair
        self._secret_bytes = [] if fair is None else [fair.root, fair.secret, fair.salt]

    def broadcast(self, exclude: Watcher | None = None) -> None:
        """Every watcher's table update."""
        # What every frame shares (seats, result, the new events told in names) is made once; spectators
        # who have been sent the same part of the log get the same bytes, however many they are.
        table = self.table
        watchers = [watcher for watcher in table.watchers if watcher is not exclude]
        if not watchers:
            return
        common = self.common_fields()
        told_from = min(watcher.log_sent for watcher in watchers)
        told = table.narrate(table.log[told_from:])
        shared: dict[int, bytes] = {}
        for watcher in watchers:
            events = told[watcher.log_sent - told_from:]
            if watcher.seat is None:
                frame = shared.get(watcher.log_sent)
                if frame is None:
                    frame = shared[watcher.log_sent] = self.table_frame(None, events, False, common)
            else:
                frame = self.table_frame(watcher.seat, events, False, common)
            watcher.log_sent = len(table.log)
            watcher.send(frame)

    def seats_changed(self, exclude: Watcher | None = None) -> None:
        """A seat filled or changed hands. Before the first move everyone is sent the log again, told with
        the new names: the deal's lines ("Seat 2 deals") were told while the seat was empty, and once the
        game goes on the log only grows. After it, a plain update."""
        if self.table.actions:
            self.broadcast(exclude)
            return
        for watcher in list(self.table.watchers):
            if watcher is not exclude:
                self.send_table(watcher, catch_up=True)

    def send_table(self, watcher: Watcher, catch_up: bool, common: dict[str, Any] | None = None) -> None:
        table = self.table
        start = 0 if catch_up else watcher.log_sent
        watcher.log_sent = len(table.log)
        watcher.send(self.table_frame(watcher.seat, table.narrate(table.log[start:]), catch_up, common))

    def send_everyone_the_game(self, moved: set[int] | None = None) -> None:
        """The game from its start to every watcher, as after a reconnect; one whose seat moved (by id) is
        welcomed to his new seat first."""
        for watcher in list(self.table.watchers):
            if moved and id(watcher) in moved:
                watcher.send(self.welcome(watcher.seat, "player"))
            self.send_table(watcher, catch_up=True)

    def welcome(self, seat: int | None, role: str) -> bytes:
        """The welcome to a seat (with its token) or to a spectator: what the table is and where he sits."""
        table = self.table
        token = table.seats[seat].token if seat is not None else None
        return protocol.encode(host_message(
            "welcome", protocol=protocol.PROTOCOL_VERSION, game=table.game.id, title=table.game.title,
            table=table.name, role=role, seat=seat, token=token, options=table.options,
            heartbeat=table.heartbeat, timeout=table.timeout, commitment=table.deal.commitment))

    def notice(self, text: str) -> None:
        """A line for everyone at the table (a player stalled, a seat handed to a bot)."""
        frame = protocol.encode(host_message("notice", text=text))
        for watcher in list(self.table.watchers):
            watcher.send(frame)

    def notice_to(self, seat: int, text: str) -> None:
        """A line for the connection playing ``seat`` alone."""
        for watcher in self.table.watchers:
            if watcher.seat == seat:
                watcher.send(protocol.encode(host_message("notice", text=text)))

    def common_fields(self) -> dict[str, Any]:
        """The fields of a table update that are the same for every viewer."""
        table = self.table
        clock = table.turn_clock
        result = table.narrated_result()
        fields: dict[str, Any] = {"turn": table.turn, "started": table.started, "seats": table.seating.public(),
                                  "result": result}
        if clock.on:
            # Seconds left, not a time of day: a client counts down from when the frame came
            fields["clocks"] = clock.seconds_left(len(table.seats))
        if clock.on or clock.away:  # (the host's B makes a seat away with no clock too)
            fields["away"] = sorted(clock.away)
        idle = table.stand_ins.idle_seats()
        if idle:
            fields["idle"] = idle
        if table.take_backs.open():
            # Public, decided from the move alone: a one-choice move after it waits out the grace a bot
            # waits, so the window to ask is as real beside a person as beside a bot.
            fields["take_back_open"] = True
        if result is not None:
            fields["record"] = public_record(table.record())
            # The reveal: the secret, the salt and every seat's nonce, now the game is over.
            fair = table.fair
            fields["record"]["fair"] = fair.revealed() if fair is not None and fair.dealt else None
            fields["match"] = table.match.standing(result)
        fields["commitment"] = table.deal.commitment
        deal = table.deal.public()
        if deal is not None:
            fields["deal"] = deal
        asked = table.take_backs.asked
        if asked is not None:
            fields["take_back"] = asked.public(clock.now())
        return fields

    def table_frame(self, seat: int | None, events: list[Event], catch_up: bool,
                    common: dict[str, Any] | None = None) -> bytes:
        """The one place a table update is built: allow-listed fields, this viewer's view, and of the new
        ``events`` (told in names) those ``visible_events`` lets this viewer see."""
        table = self.table
        fields: dict[str, Any] = {
            **(common or self.common_fields()), "catch_up": catch_up,
            "view": table.game.view(table.state, seat),
            "events": visible_events(events, seat),
            "prompt": self.prompt_for(seat),
        }
        if table.take_backs.may(seat):
            fields["may_take_back"] = True
        frame = protocol.encode(host_message("table", **fields))
        if fields["result"] is None:
            _refuse_seed(frame, self._seed_bytes)
            _refuse_secrets(frame, self._secret_bytes)
        return frame

    def prompt_for(self, seat: int | None) -> dict[str, Any] | None:
        table = self.table
        if seat is None or not table.prompts[seat].legal or table.seats[seat].kind != "player":
            return None
        prompt = table.prompts[seat]
        return {"id": prompt.id, "choices": [{"action": action,
                                              "text": table.game.describe_action(table.state, seat, action)}
                                             for action in prompt.legal]}


def _refuse_seed(frame: bytes, seed_bytes: bytes) -> None:
    """Before the end, no frame may carry the seed anywhere in it (A2): a bug if it does, never sent.

    The seed is a 63-bit number, so its msgpack form is nine bytes no other value shares; finding them in
    the encoded frame is one fast byte search.
    """
    if len(seed_bytes) == 9 and seed_bytes in frame:
        raise LeakError("a frame would carry the seed before the end of the game")


def _refuse_secrets(frame: bytes, secret_bytes: list[bytes]) -> None:
    """Before the end, no frame may carry the fair deal's root, secret or salt: with them a player could
    work out the deal. Each is 16 or 32 random bytes, found by one byte search."""
    if any(secret in frame for secret in secret_bytes):
        raise LeakError("a frame would carry the fair deal's secret before the end of the game")
