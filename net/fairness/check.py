"""The client's check of one finished game: the reveal against the commitment it was shown, the shares
against their pledges, the seed, and a replay of the record compared with every frame it was sent.

What must hold: the check never trusts the host (any malformed field is a mismatch, never a crash), and
its work grows with the game's length and the frames' bytes, never with frames × moves.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from typing import Any

from core.engine import Game, name_seats, pack, unpack, visible_events
from net.fairness.deal import (
    NONCE_BYTES,
    PLEDGE_BYTES,
    SALT_BYTES,
    SECRET_BYTES,
    VERSION,
    FairnessError,
    commitment_of,
    derive_order,
    derive_seed,
    host_nonce,
    is_bool_list,
    is_bytes,
    is_list_of,
    is_order,
    pledge_of,
    sha256,
)
from net.fairness.evidence import MAX_EVIDENCE_BYTES, Evidence
from net.table.seating import seat_labels

#: What a results screen says when the host chose the seed (tests, ``--seed``) or gave no proof.
NOT_AVAILABLE = "not available"


@dataclass
class Verdict:
    """A client's finding on one game: ``verified``, ``not available`` (with why) or ``mismatch`` (with
    exactly what did not match). ``version`` is the kind of deal (1: from before every seat pledged
    first, which its host could steer); ``notes`` say what a verified deal had to replace."""

    status: str
    problems: list[str] = field(default_factory=list)
    version: int = VERSION
    notes: list[str] = field(default_factory=list)

    @property
    def words(self) -> str:
        if self.status == "verified":
            if self.version < 2:
                return "fair deal: verified (an old kind of deal, which its host could have steered)"
            return "fair deal: verified" + (f" ({'; '.join(self.notes[:2])})" if self.notes else "")
        if self.status == NOT_AVAILABLE:
            return f"fair deal: not available ({self.problems[0]})" if self.problems else "fair deal: not available"
        return "fair deal: MISMATCH — " + "; ".join(self.problems[:3]) + (
            f" (and {len(self.problems) - 3} more)" if len(self.problems) > 3 else "")


def verify(game: Game, evidence: Evidence) -> Verdict:
    """Check one finished game from a client's evidence: the reveal against the commitment it was shown,
    the shares against their pledges and its own, the seed, and every view, prompt, event and result
    against a replay of the record. Time and memory grow with the game's length and the frames' bytes."""
    if evidence.overflow:
        return Verdict("mismatch", [f"the host sent more than {MAX_EVIDENCE_BYTES // 2 ** 20} MiB of table "
                                    "frames in one game, too much to check"])
    last = evidence.last_frame()
    record, result = last.get("record"), last.get("result")
    if not isinstance(record, dict) or result is None:
        return Verdict(NOT_AVAILABLE, ["the game did not reach its end here"])
    reveal = record.get("fair")
    if evidence.commitment is None and reveal is None:
        return Verdict(NOT_AVAILABLE, ["the host chose the seed"])
    problems, notes = list(evidence.changed), list[str]()
    version = reveal.get("version", 1) if isinstance(reveal, dict) else VERSION
    try:
        if not isinstance(record.get("seats"), list):
            raise FairnessError("the record's seats are not a list")
        if version == VERSION:
            seed = _check_reveal(reveal, evidence, record, problems, notes)
        elif evidence.version >= 2:
            raise FairnessError("the host revealed an old kind of deal, which it could have steered")
        else:
            seed = _check_reveal_v1(reveal, evidence, record, problems)
    except FairnessError as error:
        return Verdict("mismatch", problems + [str(error)], version)
    try:
        problems += _replay_and_compare(game, record, seed, evidence)
    except Exception as error:  # a record that breaks the rules, or is malformed: a mismatch, never a crash
        problems.append(f"the record cannot be replayed ({str(error)[:80] or 'it breaks the rules'})")
    return Verdict("mismatch" if problems else "verified", problems, version, notes)


def _check_reveal(reveal: Any, evidence: Evidence, record: dict[str, Any], problems: list[str],
                  notes: list[str]) -> int:
    seats = len(record["seats"])
    secret, salt, nonces, own = reveal.get("secret"), reveal.get("salt"), reveal.get("nonces"), reveal.get("own")
    pledges, replaced, shuffle, order = reveal.get("pledges"), reveal.get("replaced"), reveal.get("shuffle"), \
        reveal.get("order")
    if not (is_bytes(secret, SECRET_BYTES) and is_bytes(salt, SALT_BYTES) and isinstance(nonces, list)
            and len(nonces) == seats and all(is_bytes(nonce, NONCE_BYTES) for nonce in nonces)
            and is_bool_list(own, seats) and is_bool_list(replaced, seats) and is_list_of(pledges, seats, PLEDGE_BYTES)
            and isinstance(shuffle, bool) and (order is None or is_order(order, seats))):
        raise FairnessError("the reveal is malformed")
    _check_secret(secret, salt, evidence, problems)
    for seat in range(seats):
        if own[seat] and (pledges[seat] is None or pledge_of(nonces[seat]) != pledges[seat]):
            problems.append(f"seat {seat + 1}'s share is not the one it pledged")
        elif not own[seat] and nonces[seat] != host_nonce(secret, seat):
            problems.append(f"seat {seat + 1}'s share is neither its player's nor the host's fixed one")
        if replaced[seat] and not own[seat]:
            did = "reveal" if pledges[seat] is not None else "pledge"
            notes.append(f"seat {seat + 1} did not {did} its share in time")
    if evidence.pledges is not None and evidence.pledges != pledges:
        problems.append("the pledges revealed are not the ones shown before anyone revealed")
    share_seat = evidence.share_seat
    if evidence.revealed and share_seat is not None and not (
            share_seat < seats and own[share_seat] and nonces[share_seat] == evidence.nonce):
        problems.append("this client revealed its share in time, but the host dealt without it")
    if evidence.shuffle is not None and evidence.shuffle != shuffle:
        problems.append("the host drew new seats though it announced the same ones" if shuffle else
                        "the host kept the seats though it announced new ones")
    if shuffle:
        drawn = derive_order(secret, nonces)
        if order != drawn:
            problems.append("the new seats are not the ones the shares draw")
        elif share_seat is not None and share_seat < seats and evidence.seat is not None \
                and evidence.seat != drawn.index(share_seat):
            problems.append("this client was not seated where the shares put it")
    elif order is not None:
        problems.append("the seats were moved though nobody asked for new ones")
    seed = derive_seed(secret, nonces)
    if record.get("seed") != seed:
        raise FairnessError("the record's seed is not the one the secret and the shares make")
    return seed


def _check_secret(secret: bytes, salt: bytes, evidence: Evidence, problems: list[str]) -> None:
    """The revealed secret opens the commitment this client saw first, and follows the last game's."""
    if evidence.commitment is None:
        raise FairnessError("the host revealed a secret it never committed to")
    if not hmac.compare_digest(commitment_of(secret, salt), evidence.commitment):
        raise FairnessError("the revealed secret does not match the commitment sent at the start")
    if evidence.previous_secret is not None and sha256(secret) != evidence.previous_secret:
        problems.append("this game's secret does not follow from the last game's at this table")


def _check_reveal_v1(reveal: Any, evidence: Evidence, record: dict[str, Any], problems: list[str]) -> int:
    """A version-1 deal: each player's nonce came in its hello (``turpin-seed-v1``)."""
    if not isinstance(reveal, dict):
        raise FairnessError("the host sent no reveal of its secret, though it committed to one")
    secret, salt, nonces = reveal.get("secret"), reveal.get("salt"), reveal.get("nonces")
    seats = len(record["seats"])
    if not (is_bytes(secret, SECRET_BYTES) and is_bytes(salt, SALT_BYTES) and isinstance(nonces, list)
            and len(nonces) == seats and all(is_bytes(nonce, NONCE_BYTES) for nonce in nonces)):
        raise FairnessError("the reveal is malformed")
    _check_secret(secret, salt, evidence, problems)
    if evidence.seat is not None and evidence.nonce is not None and 0 <= evidence.seat < seats:
        if nonces[evidence.seat] != evidence.nonce:
            problems.append("the nonce this client sent is not the one the seed was made with")
    own = reveal.get("own")
    if is_bool_list(own, seats):
        for seat, (nonce, its_own) in enumerate(zip(nonces, own)):
            if not its_own and nonce != host_nonce(secret, seat, 1):
                problems.append(f"seat {seat + 1}'s nonce is neither its player's nor the host's fixed one")
    seed = derive_seed(secret, nonces, 1)
    if record.get("seed") != seed:
        raise FairnessError("the record's seed is not the one the secret and the nonces make")
    return seed



def log_names(seats: list[dict[str, Any]]) -> list[str]:
    """How the host's log named each seat at the time of a frame (``SeatInfo.name_in_the_log``)."""
    names = []
    for info in seats:
        info = info if isinstance(info, dict) else {}
        name = str(info.get("name") or "")
        if info.get("kind") == "open":
            name = ""
        elif info.get("kind") == "bot" and name.endswith(" bot)") and " (" in name:
            name = name[:name.rindex(" (")]
        names.append(name)
    return names


def _replay_and_compare(game: Game, record: dict[str, Any], seed: int, evidence: Evidence) -> list[str]:
    """Every frame of the game against the replay, for this client's seat. The log is built once; each
    frame's events are compared with their slice of it, so the work grows with the game and the frames'
    bytes, never with frames × moves."""
    seat = evidence.seat
    options = game.resolve_options(record["options"])
    state = game.setup(options, seed)
    actions = record["actions"]
    if not isinstance(actions, list):
        raise FairnessError("the record's actions are not a list")
    # As sent: through msgpack (tuples arrive as lists), so a replay compares equal to what came.
    views, legal_at = [as_sent(game.view(state, seat))], [as_sent(_legal(game, state, seat))]
    log = list(game.opening_events(state))
    log_at = [len(log)]
    broken: list[str] = []  # said after the frames' problems, which come in the game's order
    for number, entry in enumerate(actions, start=1):
        mover, action = entry if isinstance(entry, list) and len(entry) == 2 else (None, None)
        if mover not in game.pending(state) or not isinstance(action, dict) \
                or dict(action) not in game.legal_actions(state, mover):
            broken.append(f"move {number} of the record breaks the rules in the replay")
            break
        log += game.apply(state, mover, dict(action))
        log_at.append(len(log))
        views.append(as_sent(game.view(state, seat)))
        legal_at.append(as_sent(_legal(game, state, seat)))
    # The events this seat may see, as sent, and how many of them each turn's log holds
    visible = as_sent(visible_events(log, seat))
    seen, visible_at, counted = 0, [], 0
    for length in log_at:
        while counted < length:
            event_then = log[counted]
            seen += event_then["visible_to"] is None or (seat is not None and seat in event_then["visible_to"])
            counted += 1
        visible_at.append(seen)
    final = as_sent(game.result(state)) if not broken else None
    whole = len(views) == len(actions) + 1
    problems: list[str] = []
    shown_until: int | None = None  # the visible log's length at the last frame's turn (None: before any)
    for number, frame in enumerate(evidence.frames(), start=1):
        frame = frame if isinstance(frame, dict) else {}
        turn = frame.get("turn")
        if not (isinstance(turn, int) and not isinstance(turn, bool) and 0 <= turn < len(views)):
            if whole:  # (else: past the move that broke the rules)
                problems.append(f"frame {number} is at a turn the record never reached")
            continue
        if not frame.get("started"):
            continue  # before the deal the cards were not dealt yet
        seats = frame.get("seats")
        labels = seat_labels(log_names(seats if isinstance(seats, list) else []))
        if frame.get("view") != views[turn]:
            problems.append(f"the view sent at move {turn} is not the replay's")
        prompt = frame.get("prompt")
        if prompt is not None:
            choices = prompt.get("choices") if isinstance(prompt, dict) else None
            offered = [choice.get("action") if isinstance(choice, dict) else None
                       for choice in (choices if isinstance(choices, list) else [None])]
            if offered != legal_at[turn]:
                problems.append(f"the choices offered at move {turn} are not the rules' choices")
        events = frame.get("events")
        received = [one for one in (events if isinstance(events, list) else [None])
                    if not (isinstance(one, dict) and one.get("table_line"))]
        start = 0 if frame.get("catch_up") or shown_until is None else shown_until
        # The count first: a frame's events are compared one by one only when there are as many as the
        # replay's, so many small frames at a late turn cost what they hold, not the log's length each
        if len(received) != max(0, visible_at[turn] - start) or any(
                got != {**want, "text": name_seats(want["text"], labels)}
                for got, want in zip(received, visible[start:visible_at[turn]])):
            problems.append(f"the events sent at move {turn} are not the replay's")
        shown_until = visible_at[turn]
    result = evidence.last_frame().get("result")
    result = result if isinstance(result, dict) else {}
    if final is None and whole:
        problems.append("the record stops before the end of the game")
    elif final is not None and any(result.get(key) != final.get(key) for key in ("winners", "scores", "seed")):
        problems.append("the result is not the replay's")
    return problems + broken


def as_sent(value: Any) -> Any:
    return unpack(pack(value))


def _legal(game: Game, state: Any, seat: int | None) -> list[Any] | None:
    if seat is None or seat not in game.pending(state):
        return []
    return game.legal_actions(state, seat)

