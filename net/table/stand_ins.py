"""Who moves for a seat when its person does not: bots (a bot's seat, or a player's whose clock ran out or
who is away), the turn clock's run-outs, the host's hand-over of an idle seat, and who keeps the table
waiting.

Invariants:

- A bot moves only while the game is on, for a pending seat it plays, and never while a take-back question
  is open; a decision made before anything changed at the table is applied, a stale one is dropped.
- A bot bug never stalls the table: an action the rules refuse, when nothing happened since the bot was
  asked, becomes the first legal action.
- A seat is away until its player does anything at the table (a move, or his app's word that he is at the
  keys); only his own move ends his run of missed turns.
- ``idle_seats`` names the player seats the game has waited for since ``IDLE_AFTER`` seconds of the table's
  clock (``turn_clock.now``): the host, not a screen, says who keeps the table waiting.
"""

from __future__ import annotations

import random
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.bots import chosen_bot
from core.engine import Action, Bot, OptionError, State, clone, event
from net.refusals import Refusal
from net.table import pipeline
from net.table.clock import AWAY_AFTER
from net.table.seating import BOT_NAMES, Watcher, default_bot

if TYPE_CHECKING:
    from net.table.table import Table

#: Seconds the table may wait for a connected player before its frames call him idle (and the host's
#: screen offers a bot for him, B).
IDLE_AFTER = 20.0


@dataclass
class BotTurn:
    """One bot decision to make off the table: see ``Table.bot_turn``."""

    seat: int
    name: str
    bot: Bot
    state: State
    rng: random.Random
    actions_seen: int
    #: Take-back questions asked at the table when the bot was asked (a question since: out of date).
    questions_seen: int = 0


class StandIns:
    """The bots, the turn clock's run-outs and the away seats of ``table``."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.rngs: list[random.Random] = []
        #: When the table last moved on (``turn_clock.now`` time), and the idle seats its frames last named.
        self.turn_since = table.turn_clock.now()
        self.idle_told: list[int] = []

    def new_game(self, seed: int | None, repeatable: bool) -> None:
        """Each seat's bot generator: repeatable from the seed (a table set up with a given seed is
        repeatable bots and all), or drawn afresh."""
        seats = range(len(self.table.seats))
        self.rngs = [random.Random(f"{seed}/bot/{seat}" if repeatable else secrets.randbits(64)) for seat in seats]
        self.moved_on()

    def moved_on(self) -> None:
        """The table moved on (a move, a take-back, a new game): nobody has kept it waiting yet."""
        self.turn_since = self.table.turn_clock.now()
        self.idle_told = []

    def seat_bot(self, seat: int, bot: str, keep_warm: bool = False) -> None:
        """A bot in ``seat``: for good, or ``keep_warm`` for its player (who keeps his token and name)."""
        table = self.table
        try:
            bot = chosen_bot(table.game, bot)
        except OptionError as error:
            raise Refusal("bad_message", str(error)) from None
        info = table.seats[seat]
        name = f"{BOT_NAMES[seat % len(BOT_NAMES)]} ({bot} bot)"
        warm = keep_warm and info.kind == "player" and info.token is not None
        info.away_name = info.name if warm else None
        info.kind, info.bot, info.name, info.token = "bot", bot, name, info.token if warm else None
        info.connected, info.gone_since = False, None
        table.turn_clock.forget(seat)

    # ------------------------------------------------------------------------------------------ bots

    def next_bot(self) -> int | None:
        """The first pending seat held by a bot, if the game is on (and no take-back is being asked)."""
        table = self.table
        if not table.started or table.over or table.take_backs.asked is not None:
            return None
        for seat in table.game.pending(table.state):
            if self.bot_plays(seat):
                return seat
        return None

    def bot_plays(self, seat: int) -> bool:
        """Whether a bot makes this seat's moves now: a bot's seat, or a player's whose clock ran out (for
        this one move) or who is away."""
        info = self.table.seats[seat]
        clock = self.table.turn_clock
        return info.kind == "bot" or (info.kind == "player" and (seat in clock.standing_in or seat in clock.away))

    def bot_name(self, seat: int) -> str:
        info = self.table.seats[seat]
        return info.bot if info.kind == "bot" and info.bot else default_bot(self.table.game)

    def bot_turn(self) -> BotTurn | None:
        """What the next bot needs to decide away from the table: its own copy of the state (the table's
        may change meanwhile), its generator, and how many actions the table had seen; None if no bot is
        to play."""
        seat = self.next_bot()
        if seat is None:
            return None
        table = self.table
        name = self.bot_name(seat)
        return BotTurn(seat, name, table.game.bots[name], clone(table.state), self.rngs[seat], len(table.actions),
                       table.take_backs.questions)

    def play(self, turn: BotTurn, action: Action | None) -> bool:
        """Apply a bot's decision if its seat still awaits it (False, and nothing done, if not). An action
        the rules refuse is a bot bug when nothing has happened since the bot was asked (the first legal
        action is played); otherwise the decision is just out of date."""
        table = self.table
        seat = turn.seat
        if table.over or seat not in table.game.pending(table.state) or not self.bot_plays(seat):
            return False
        if table.take_backs.asked is not None or turn.questions_seen != table.take_backs.questions:
            return False  # a take-back was asked while it thought: nothing moves while play waits
        legal = table.game.legal_actions(table.state, seat)
        chosen = pipeline.matching_action(action, legal)
        if chosen is None and len(table.actions) != turn.actions_seen:
            return False
        pipeline.apply(table, seat, chosen or legal[0])
        return True

    # ----------------------------------------------------------------------------------------- clock

    def run_clocks(self) -> list[int]:
        """Seats whose turn clock has run out, now that it has: the log says the normal bot makes the move
        for each (and that a bot plays a seat that missed ``AWAY_AFTER`` turns in a row until its player is
        back), and everyone is sent the news. Never for a bot's seat, before the start or after the end."""
        table = self.table
        if not table.started or table.over:
            return []
        out = [seat for seat in table.turn_clock.run_out() if table.seats[seat].kind == "player"]
        if not out:
            return []
        bot = default_bot(table.game)
        for seat in out:
            table.log.append(event(f"Seat {seat + 1}'s time ran out: the {bot} bot makes this move for them.",
                                   clock="ran_out", seat=seat, table_line=True, told_privately=seat))
            # To him, in his own words: not his name in the third person
            table.log.append(event(f"Your time ran out: the {bot} bot makes this move for you.", [seat],
                                   clock="ran_out", table_line=True))
            if seat in table.turn_clock.away:
                table.log.append(event(f"Seat {seat + 1} let the clock run out {AWAY_AFTER} turns in a row and "
                                       f"counts as away: a bot plays the seat until they do anything again.",
                                       clock="away", seat=seat, table_line=True))
            table.tell(f"Seat {seat + 1}: the clock ran out" +
                       (" (away: a bot plays it until they are back)" if seat in table.turn_clock.away else ""))
        table.frames.broadcast()
        return out

    def set_away(self, seat: int) -> None:
        """The host's hand-over of an idle seat whose player is still connected: a bot plays it until its
        player does anything at the table, as if his clock had run out turn after turn (he keeps his
        connection and is told)."""
        table = self.table
        info = table.seats[seat] if 0 <= seat < len(table.seats) else None
        if info is None or info.kind != "player" or table.over or seat in table.turn_clock.away:
            return
        table.turn_clock.away.add(seat)
        self._tell_everyone(seat, "away", f"The host lets a bot play Seat {seat + 1} until they are back.",
                            "The host has let a bot play your seat while you are away: press any key at the "
                            "table (or make a move) to take it back.",
                            f"Seat {seat + 1}: idle, a bot plays it until they are back")

    def heard_from(self, watcher: Watcher) -> None:
        """A move from a seat, or its app's word that its player is at the keys (``here``): a player a bot
        was playing for (away) has his seat back, and is told so."""
        table = self.table
        seat = watcher.seat
        if seat is None or table.seats[seat].kind != "player" or not table.turn_clock.back(seat):
            return
        self._tell_everyone(seat, "back", f"Seat {seat + 1} is back: the bot no longer plays for them.",
                            "You are back: your seat is yours again, and the bot no longer plays it. The log's "
                            "lines while you were away are the bot's moves.",
                            f"Seat {seat + 1}: back from away")

    def _tell_everyone(self, seat: int, clock: str, logged: str, to_the_seat: str, to_the_console: str) -> None:
        """A seat gone away or back: a line in the log, the prompts again (a bot's or its player's), a notice
        to the seat, every view sent, and a line on the host's console."""
        table = self.table
        table.log.append(event(logged, clock=clock, seat=seat, table_line=True))
        pipeline.refresh_prompts(table)
        table.frames.notice_to(seat, to_the_seat)
        table.frames.broadcast()
        table.tell(to_the_console)

    def connected(self, seat: int) -> bool:
        """Whether the seat's player has a live connection to the table now."""
        return any(watcher.seat == seat and watcher.alive for watcher in self.table.watchers)

    def seats_past_grace(self, now: float | None = None) -> list[int]:
        """Seats whose player has been gone longer than the grace period (never, with no grace set)."""
        table = self.table
        if table.grace is None or table.over:
            return []
        now = time.monotonic() if now is None else now
        return [seat for seat, info in enumerate(table.seats)
                if info.kind == "player" and not info.connected and info.gone_since is not None
                and now - info.gone_since >= table.grace]

    # ------------------------------------------------------------------------------------------ idle

    def idle_seats(self) -> list[int]:
        """The player seats the game has waited for since ``IDLE_AFTER`` seconds (none a bot plays)."""
        table = self.table
        if not table.started or table.over or table.take_backs.asked is not None:
            return []
        if table.turn_clock.now() - self.turn_since < IDLE_AFTER:
            return []
        return [seat for seat in table.game.pending(table.state)
                if table.seats[seat].kind == "player" and not self.bot_plays(seat)]

    def idle_changed(self) -> bool:
        """Whether the idle seats differ from those the frames last named (then everyone is told)."""
        idle = self.idle_seats()
        if idle == self.idle_told:
            return False
        self.idle_told = idle
        self.table.frames.broadcast()
        return True
