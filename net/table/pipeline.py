"""The request pipeline: one joined connection's request, checked in order and handed to the part of the
table that owns it.

Invariants:

- Every request is checked in the same order — who is asking, has the game started or ended, is it this
  seat's turn, is it about the current prompt, is the action legal — and only then applied. A refusal is a
  ``Refusal`` with an error code and words a player understands; it never touches the state.
- A move, or an app's word that its player is at the keys (``here``), is heard once, here, before anything
  else: a seat a bot played while its player was away is his again. Chat, answers and pings are not this.
- Host requests carry the host token, compared in constant time; without it they are refused.
"""

from __future__ import annotations

import hmac
import random
from typing import TYPE_CHECKING, Any

import msgpack

from core.engine import Action, IllegalAction, clone, name_seats, seat_name
from net.refusals import Refusal

if TYPE_CHECKING:
    from net.table.seating import Watcher
    from net.table.table import Table

def action_key(action: Action) -> bytes:
    """An action's identity with its types: its msgpack bytes, keys sorted. Python's ``==`` takes
    ``True`` for ``1`` (and ``1.0`` for ``1``); the wire, the record and a replay do not."""
    return msgpack.packb(sorted(action.items()), use_bin_type=True)


def matching_action(action: Any, legal: list[Action]) -> Action | None:
    """The legal action that is ``action`` type for type, or None; the table applies its own copy."""
    try:
        wanted = action_key(action)
    except (TypeError, ValueError, AttributeError):
        return None
    return next((choice for choice in legal if action_key(choice) == wanted), None)


#: Requests that say the seat's player is at the keys.
HEARD = frozenset({"act", "here"})


def handle(table: Table, watcher: Watcher, message: dict[str, Any]) -> None:
    """A validated request of a joined connection (``type`` one of the client's table requests)."""
    kind = message["type"]
    if kind in HEARD:
        table.stand_ins.heard_from(watcher)
    if kind == "here":
        return
    if kind == "act":
        act(table, watcher, message["action"], message["prompt"])
    elif kind == "pledge":
        table.deal.pledge(watcher, message["pledge"])
    elif kind == "reveal":
        table.deal.reveal(watcher, message["nonce"])
    elif kind == "take_back":
        table.take_backs.ask(watcher)
    elif kind == "take_back_answer":
        table.take_backs.answer(watcher, message["agree"])
    elif kind == "say":
        table.chat.say(watcher, message["text"])
    elif kind == "mute_spectators":
        _check_host(table, message, "only the table's host may mute spectators")
        table.chat.mute_spectators(message["muted"])
    elif kind == "hand_over":
        _check_host(table, message, "only the table's host may hand a seat to a bot")
        _hand_over(table, message["seat"], bool(message.get("until_back")))


def _check_host(table: Table, message: dict[str, Any], refused: str) -> None:
    # Compared in constant time, so timing tells a guesser nothing
    if not hmac.compare_digest(message["host_token"].encode(), table.host_token.encode()):
        raise Refusal("not_host", refused)


def _hand_over(table: Table, seat: int, until_back: bool) -> None:
    """The host's hand-over: a connected player's idle seat is played by a bot until he is back (his
    connection stays); a gone player's is kept warm by a bot; otherwise the seat is a bot's for good."""
    connected = 0 <= seat < len(table.seats) and table.seats[seat].kind == "player" and \
        table.stand_ins.connected(seat)
    if until_back and connected:
        table.stand_ins.set_away(seat)
    elif until_back:
        table.hand_to_bot(seat, why="is played by a bot until its player is back", keep_warm=True)
    else:
        table.hand_to_bot(seat, why="was handed to a bot by the host")


def act(table: Table, watcher: Watcher, action: Action, prompt: int) -> None:
    """A player's action: checked in order, then applied, saved and sent; ``Refusal`` otherwise."""
    seat = watcher.seat
    if seat is None:
        raise Refusal("spectator", "spectators watch the table; they cannot play")
    if table.over:
        raise Refusal("game_over", "the game is over; no more actions")
    if not table.started:
        raise Refusal("not_started", "the game starts when every seat is filled and the cards are dealt")
    if table.take_backs.asked is not None:
        raise Refusal("not_your_turn", "play waits while a take-back is asked")
    if seat not in table.game.pending(table.state):
        raise Refusal("not_your_turn", f"the game is not waiting for {seat_name(seat)} now")
    current = table.prompts[seat]
    if prompt != current.id:
        raise Refusal("stale", "that answers an earlier question; the table has moved on, "
                               "look at the new choices")
    chosen = matching_action(action, current.legal)
    if chosen is None:
        message, rule = _explain_refusal(table, seat, action)
        raise Refusal("illegal", message, rule)
    apply(table, seat, chosen, by_player=True)


def _explain_refusal(table: Table, seat: int, action: Action) -> tuple[str, str | None]:
    """The rule that refuses ``action``, asked of a state the seat cannot tell from the real one.

    The engine's message could otherwise mention something hidden from the seat (A1: error replies
    too). On a redrawn state the seat's legal actions are the same, so the same rule refuses it.
    """
    stand_in = clone(table.game.resample_hidden(table.state, seat, random.Random(0)))
    try:
        table.game.apply(stand_in, seat, action)
    except IllegalAction as error:
        return name_seats(error.message, table.seating.labels()), error.rule
    except Exception:  # a malformed action the engine did not expect: still just not allowed
        pass
    return "that is not one of your legal actions now", None


def refresh_prompts(table: Table, acted: int | None = None) -> None:
    """A seat's prompt is new when its choices change, and always after it acts (shopping, say,
    may offer the same choices again: an answer to the old prompt must not count twice)."""
    pending = set(table.game.pending(table.state)) if table.started else set()
    for seat, prompt in enumerate(table.prompts):
        legal = table.game.legal_actions(table.state, seat) if seat in pending else []
        if legal != prompt.legal or seat == acted:
            prompt.id += 1
            prompt.legal = legal
    if table.over:
        table.turn_clock.stop()
    else:
        table.turn_clock.sync({seat: table.prompts[seat].id for seat in pending
                              if table.seats[seat].kind == "player"})

def apply(table: Table, seat: int, action: Action, by_player: bool = False) -> None:
    """A checked action: applied, saved, then sent to everyone."""
    before = clone(table.state) if by_player else None  # (a bot's move is never taken back)
    table.take_backs.left_before_move = table.turn_clock.left(seat)  # a take-back gives this time back
    events = table.game.apply(table.state, seat, action)
    # Whether this move may be taken back (asked of the game now, while the state before it is at hand)
    table.take_backs.last_move = (len(table.log), before is not None and
                                 table.game.can_take_back(before, table.state, seat, action))
    table.actions.append([seat, action])
    table.log += events
    table.turn_clock.moved(seat, by_player)
    table.stand_ins.moved_on()
    refresh_prompts(table, acted=seat)
    table._save()  # durable before anyone sees the new state: a crash loses nothing
    table.frames.broadcast()
    result = table.game.result(table.state)
    if result is not None:
        table._seats_changed()  # the LAN advert says the game is over
        table.tell(f"Game over: {(table.narrated_result() or result).get('summary', '')}")  # in names
