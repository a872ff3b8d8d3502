"""A table's record: everything needed to rebuild it exactly (host side only: it holds the tokens and the
seed), and the rebuild. The file format and its checks are ``net.record``'s.

Invariants: a table rebuilt from its record has the same seed, options, seats, tokens, match, clock state
and fair deal, and its log is the record's actions replayed one by one, each checked as a player's action
is (in turn, and one the rules allow then); a record that fails any check is refused whole (``RecordError``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Callable

from core.bots import canonical_bot
from core.engine import Game, OptionError
from net.fairness import FairDeal
from net.record import RECORD_FORMAT, RECORD_VERSION, RecordError, check_record
from net.table import pipeline
from net.table.match import Match
from net.untrusted import player_name

if TYPE_CHECKING:
    from net.table.table import Table


def table_record(table: Table) -> dict[str, Any]:
    """The full record of ``table`` now."""
    return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": table.game.id,
            "options": table.options, "seed": table.seed, "table": table.name, "code": table.code,
            "grace": table.grace, "clock": table.turn_clock.seconds, "host_token": table.host_token,
            "saved_at": time.time(), "meta": table.meta,
            "seats": [{"kind": s.kind, "name": s.name, "bot": s.bot, "token": s.token,
                       **({"away_name": s.away_name} if s.away_name is not None else {})} for s in table.seats],
            "actions": table.actions, "taken_back": table.taken_back, "match": table.match.to_record(),
            "clock_state": table.turn_clock.to_record(),
            "fair": table.fair.to_record() if table.fair is not None else None}


def rebuild(table_class: type[Table], game: Game, record: dict[str, Any],
            save: Callable[[dict[str, Any]], None] | None, grace: float | None, clock: float | None) -> Table:
    """``Table.from_record``: the table ``record`` describes, its grace and clock as given (None: the
    record's)."""
    check_record(record)
    if record["game"] != game.id:
        raise RecordError(f"the record is of {record['game']!r}, not {game.id!r}")
    seats = len(record["seats"])
    fair = FairDeal.from_record(record.get("fair"), seats)
    if fair is not None and fair.dealt and fair.seed() != record["seed"]:
        raise RecordError("the record's seed is not the one its fair deal makes")
    try:
        table = table_class(game, record["options"], name=record["table"], code=record.get("code"),
                            seed=record["seed"], grace=record.get("grace") if grace is None else grace,
                            host_token=record.get("host_token"), save=save,
                            clock=(record.get("clock") or 0.0) if clock is None else clock,
                            meta=dict(record.get("meta") or {}), fair=fair,
                            match=Match.from_record(record.get("match"), seats),  # checked by check_record
                            taken_back=list(record.get("taken_back") or []))
    except OptionError as error:
        raise RecordError(f"the record's 'options' cannot be played: {error}") from None
    if seats != len(table.seats):
        raise RecordError("the record's seats do not match its options")
    for number, (info, saved) in enumerate(zip(table.seats, record["seats"]), start=1):
        info.kind, info.name, info.bot, info.token = saved["kind"], saved.get("name") or "", \
            saved.get("bot"), saved.get("token")
        info.away_name = saved.get("away_name") if info.kind == "bot" and info.token else None
        if info.kind == "player":  # as from a player's hello: no seat marks in a person's name
            info.name = player_name(info.name) or f"Player {number}"
        if info.away_name is not None:
            info.away_name = player_name(info.away_name) or None
        if info.kind == "bot" and info.bot not in game.bots:
            raise RecordError(f"the record names a bot {info.bot!r} that {game.title} does not have")
        if info.kind == "bot":
            info.bot = canonical_bot(game.bots, info.bot)  # an old record's sharp plays as normal
        if info.kind == "player":
            info.gone_since = time.monotonic()
    for seat, action in record["actions"]:
        if seat not in game.pending(table.state):
            raise RecordError(f"the record's action {len(table.actions) + 1} is out of turn")
        chosen = pipeline.matching_action(action, game.legal_actions(table.state, seat))
        if chosen is None:  # checked as a player's action is: a malformed one never reaches the rules
            raise RecordError(f"the record's action {len(table.actions) + 1} is not one the rules allow then")
        events = game.apply(table.state, seat, chosen)
        table.actions.append([seat, action])
        table.log += events
    if clock is None:  # who was away, and missed turns; a host resuming with a clock of its own starts afresh
        table.turn_clock.restore(record.get("clock_state"), len(table.seats))
    pipeline.refresh_prompts(table)
    return table
