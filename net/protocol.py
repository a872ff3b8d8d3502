"""The wire protocol: length-prefixed msgpack frames and the messages they carry.

A frame is a 4-byte big-endian length followed by exactly one msgpack map. The reader checks the length
against its limit *before* reading the body, decodes with explicit size limits (``raw=False``,
``strict_map_key=True``, no extension types) and then validates the message's type and fields before
anything else looks at it. ``net/PROTOCOL.md`` lists every message, its fields and its errors.

Nothing here does I/O beyond ``read_frame``/``write_frame`` on asyncio streams; the host, the client and
the tests share these functions, so both ends check the same rules.
"""

from __future__ import annotations

import asyncio
import struct
from dataclasses import dataclass
from typing import Any, Mapping

import msgpack

PROTOCOL_VERSION = 2

#: Seconds between the host's pings (and a client's pongs); the host tells clients its own in the welcome.
HEARTBEAT_SECONDS = 2.0
#: Seconds without a frame from a peer before it counts as gone; suits a LAN, tests shorten it.
TIMEOUT_SECONDS = 6.0

#: The longest chat line a table passes on (characters, all printable).
CHAT_MAX_CHARS = 200

#: The largest frame a host accepts from a client: actions and handshakes are small.
MAX_CLIENT_FRAME = 64 * 1024
#: The largest frame a client accepts from a host: a view plus the whole log on catch-up, or the reveal.
MAX_HOST_FRAME = 8 * 1024 * 1024

_LENGTH = struct.Struct(">I")

#: Sizes a peer may claim for strings, arrays and maps; anything past them is refused while decoding.
_MAX_STR = 64 * 1024
_MAX_ITEMS = 100_000
_MAX_INT = 2**53  # every integer the protocol carries is small; bigger ones are refused, not trusted

#: Error codes. ``PERMANENT`` ones can never succeed by retrying, so a client stops its reconnect loop.
ERROR_CODES = {
    "bad_frame": "the frame could not be read (size or msgpack encoding)",
    "bad_message": "the message is not one this protocol knows, or a field is missing or wrong",
    "version": "the client speaks another protocol version",
    "not_joined": "say hello before anything else",
    "already_joined": "this connection has already joined the table",
    "wrong_code": "the room code is wrong",
    "slow_down": "too many room codes from this address at once; wait before trying again",
    "spectators_full": "the table has all the spectators it takes",
    "table_full": "every seat is taken",
    "no_such_seat": "the table has no such seat, or it is not free",
    "bad_token": "the token does not belong to any seat at this table",
    "replaced": "a newer connection took over this seat",
    "seat_in_use": "another connection is playing this seat now",
    "spectator": "spectators watch; they cannot act",
    "not_your_turn": "the game is not waiting for this seat",
    "not_started": "the game starts when every seat is filled",
    "game_over": "the game is over",
    "stale": "the action answers a prompt that has changed; look at the new one",
    "illegal": "the rules refuse this action",
    "not_host": "only the table's host may do that",
    "too_slow": "the connection fell too far behind and was dropped; reconnect to catch up",
    "timeout": "nothing was heard from the peer within the heartbeat timeout",
    "server_busy": "the host has too many connections",
    "host_closing": "the host is shutting down",
    "table_closed": "the host has closed the table for good",
    "bad_chat": "a chat line is 1 to 200 printable characters",
    "chat_too_fast": "too many chat lines at once; wait a moment before the next",
    "muted": "the host has muted spectators' chat",
    "too_many_refusals": "this connection sent too many requests the table refused, too fast; it is closed",
    "too_many_messages": "this connection sent too many messages, too fast; it is closed",
}
PERMANENT = frozenset({"version", "table_full", "no_such_seat", "bad_token", "replaced", "seat_in_use",
                       "table_closed", "too_many_refusals", "too_many_messages"})


class ProtocolError(Exception):
    """A frame or message that breaks the protocol. ``code`` is one of ``ERROR_CODES``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# ---------------------------------------------------------------------------------------------- frames


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ProtocolError("bad_frame", "msgpack extension types are not part of this protocol")


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as a frame: length prefix and msgpack body."""
    body = msgpack.packb(message, use_bin_type=True)
    return _LENGTH.pack(len(body)) + body


def decode_body(body: bytes) -> dict[str, Any]:
    """Decode one frame body into a map, with every size limit explicit; ``ProtocolError`` otherwise."""
    size = max(len(body), 1)
    unpacker = msgpack.Unpacker(
        raw=False, strict_map_key=True, use_list=True, ext_hook=_refuse_ext, max_buffer_size=size,
        max_str_len=min(size, _MAX_STR), max_bin_len=min(size, _MAX_STR), max_array_len=min(size, _MAX_ITEMS),
        max_map_len=min(size, _MAX_ITEMS), max_ext_len=0)
    try:
        unpacker.feed(body)
        message = unpacker.unpack()
    except ProtocolError:
        raise
    except msgpack.OutOfData:
        raise ProtocolError("bad_frame", "the frame ends in the middle of a msgpack object") from None
    except (ValueError, TypeError, OverflowError, RecursionError, MemoryError, msgpack.UnpackException) as error:
        raise ProtocolError("bad_frame", f"the frame is not valid msgpack ({type(error).__name__})") from None
    if unpacker.tell() != len(body):
        raise ProtocolError("bad_frame", "a frame must hold exactly one msgpack object")
    if not isinstance(message, dict):
        raise ProtocolError("bad_message", "a message must be a msgpack map")
    return message


async def read_frame(reader: asyncio.StreamReader, max_size: int) -> dict[str, Any]:
    """Read one frame; the length is checked before a byte of the body is read.

    Raises ``asyncio.IncompleteReadError`` when the peer closes, ``ProtocolError`` on a bad frame.
    """
    header = await reader.readexactly(_LENGTH.size)
    (length,) = _LENGTH.unpack(header)
    if length == 0 or length > max_size:
        raise ProtocolError("bad_frame", f"a frame of {length} bytes is not allowed (at most {max_size})")
    return decode_body(await reader.readexactly(length))


# -------------------------------------------------------------------------------------------- messages


@dataclass(frozen=True)
class Field:
    """One field of a message: the types it may have and whether it must be present."""

    types: tuple[type, ...]
    required: bool = True
    max_len: int | None = None


_STR, _INT, _BOOL, _MAP, _NONE = (str,), (int,), (bool,), (dict,), (type(None),)

#: Every message a client may send, with its fields. Unknown fields are refused too: a message is exactly
#: what this table says, so nothing unexpected ever reaches the game.
#: The longest player name a hello may carry (characters).
NAME_LIMIT = 40
#: The fair deal's share (``net/fairness/``): a nonce of exactly this many random bytes, pledged first
#: as its SHA-256 (``PLEDGE_BYTES``) and revealed once every seat has pledged.
NONCE_BYTES = 16
PLEDGE_BYTES = 32

CLIENT_MESSAGES: dict[str, dict[str, Field]] = {
    "hello": {
        "protocol": Field(_INT),
        "role": Field(_STR, max_len=16),
        "name": Field(_STR + _NONE, required=False, max_len=NAME_LIMIT),
        "code": Field(_STR + _NONE, required=False, max_len=32),
        "token": Field(_STR + _NONE, required=False, max_len=128),
        "seat": Field(_INT + _NONE, required=False),
        # False: with a token, refuse ("seat_in_use") rather than take the seat from a live connection
        "take_over": Field(_BOOL, required=False),
    },
    # The fair deal: a player's pledge (the hash of his share), sent once he has seen the host's
    # commitment, and the share itself once every seat has pledged. Lengths are checked below.
    "pledge": {"pledge": Field((bytes,))},
    "reveal": {"nonce": Field((bytes,))},
    "act": {"action": Field(_MAP), "prompt": Field(_INT)},
    # until_back: a bot plays the seat only until its player joins again (the seat stays theirs)
    "hand_over": {"seat": Field(_INT), "host_token": Field(_STR, max_len=128),
                  "until_back": Field(_BOOL, required=False)},
    # The table checks the text itself (printable, ≤ CHAT_MAX_CHARS) to say exactly what is wrong with it.
    "say": {"text": Field(_STR, max_len=4 * 1024)},
    "mute_spectators": {"muted": Field(_BOOL), "host_token": Field(_STR, max_len=128)},
    "ping": {"t": Field(_INT + (float,), required=False)},
    "pong": {"t": Field(_INT + (float,), required=False)},
    "bye": {},
    # The player is at the table (a key pressed while a bot plays his seat for him): the seat is his again.
    "here": {},
    # Take back my last move (asks the others); and the others' answer to such a question.
    "take_back": {},
    "take_back_answer": {"agree": Field(_BOOL)},
}
ROLES = ("player", "spectator")

#: An action is a small map of short keys to small plain values (the engine contract).
_MAX_ACTION_FIELDS = 16


def _check_int(value: Any, what: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and not -_MAX_INT <= value <= _MAX_INT:
        raise ProtocolError("bad_message", f"{what} is out of range")


def _check_action(action: dict[str, Any]) -> None:
    if len(action) > _MAX_ACTION_FIELDS:
        raise ProtocolError("bad_message", "an action has too many fields")
    for key, value in action.items():
        if len(key) > 64:
            raise ProtocolError("bad_message", "an action field name is too long")
        _check_action_value(value, f"action field {key!r}", depth=0)


def _check_action_value(value: Any, what: str, depth: int) -> None:
    if value is None or isinstance(value, (bool, str)):
        if isinstance(value, str) and len(value) > 256:
            raise ProtocolError("bad_message", f"{what} is too long")
        return
    if isinstance(value, int):
        _check_int(value, what)
        return
    if isinstance(value, list) and depth < 2 and len(value) <= 64:
        for item in value:
            _check_action_value(item, what, depth + 1)
        return
    raise ProtocolError("bad_message", f"{what} must be a number, text, yes/no or a short list")


def validate_client_message(message: dict[str, Any]) -> dict[str, Any]:
    """Check a decoded client message against ``CLIENT_MESSAGES``; return it, or raise ``ProtocolError``."""
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_MESSAGES:
        raise ProtocolError("bad_message", f"unknown message type {str(kind)[:40]!r}")
    fields = CLIENT_MESSAGES[kind]
    extra = set(message) - set(fields) - {"type"}
    if extra:
        raise ProtocolError("bad_message", f"{kind}: unknown field {sorted(extra)[0][:40]!r}")
    for name, spec in fields.items():
        if name not in message:
            if spec.required:
                raise ProtocolError("bad_message", f"{kind}: missing field {name!r}")
            continue
        value = message[name]
        # bool is an int to Python; an int field never accepts true/false.
        if not isinstance(value, spec.types) or (isinstance(value, bool) and bool not in spec.types):
            raise ProtocolError("bad_message", f"{kind}: field {name!r} has the wrong type")
        if spec.max_len is not None and isinstance(value, str) and len(value) > spec.max_len:
            raise ProtocolError("bad_message", f"{kind}: field {name!r} is too long")
        _check_int(value, f"{kind}: field {name!r}")
    if kind == "hello" and message["role"] not in ROLES:
        raise ProtocolError("bad_message", "hello: role must be 'player' or 'spectator'")
    if kind == "pledge" and len(message["pledge"]) != PLEDGE_BYTES:
        raise ProtocolError("bad_message", f"pledge: the pledge must be {PLEDGE_BYTES} bytes")
    if kind == "reveal" and len(message["nonce"]) != NONCE_BYTES:
        raise ProtocolError("bad_message", f"reveal: the nonce must be {NONCE_BYTES} bytes")
    if kind == "act":
        _check_action(message["action"])
    return message


#: Every message a host may send and the fields it carries; the host builds each outgoing message from this
#: allow-list (``host_message``), so a field that is not named here cannot reach the wire.
HOST_MESSAGES: dict[str, frozenset[str]] = {
    "welcome": frozenset({"protocol", "game", "title", "table", "role", "seat", "token", "options",
                          "heartbeat", "timeout", "commitment"}),
    "table": frozenset({"turn", "started", "view", "events", "catch_up", "prompt", "seats", "result",
                        "record", "match", "commitment", "clocks", "away", "idle", "take_back", "may_take_back",
                        "take_back_open", "deal"}),
    "error": frozenset({"code", "message", "permanent", "rule", "retry_after"}),
    "notice": frozenset({"text"}),
    "chat": frozenset({"from", "seat", "text"}),
    "ping": frozenset({"t"}),
    "pong": frozenset({"t"}),
}


def host_message(kind: str, **fields: Any) -> dict[str, Any]:
    """A host message holding only the fields its allow-list names (a programming error otherwise)."""
    allowed = HOST_MESSAGES[kind]
    unknown = set(fields) - allowed
    if unknown:
        raise KeyError(f"{kind} carries no field {sorted(unknown)}")
    return {"type": kind, **fields}


def error_message(code: str, message: str | None = None, *, rule: str | None = None,
                  retry_after: float | None = None) -> dict[str, Any]:
    """An error reply: a code from ``ERROR_CODES`` and a message a player understands."""
    fields: dict[str, Any] = {"code": code, "message": message or ERROR_CODES[code],
                              "permanent": code in PERMANENT}
    if rule is not None:
        fields["rule"] = rule
    if retry_after is not None:
        fields["retry_after"] = retry_after
    return host_message("error", **fields)


def validate_host_message(message: dict[str, Any]) -> dict[str, Any]:
    """The client's check of what a host sent: a known type, only known fields, and each field it uses of the
    shape it uses (``check_host_shape``)."""
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in HOST_MESSAGES:
        raise ProtocolError("bad_message", f"the host sent an unknown message type {str(kind)[:40]!r}")
    extra = set(message) - HOST_MESSAGES[kind] - {"type"}
    if extra:
        raise ProtocolError("bad_message", f"the host sent {kind} with unknown fields {sorted(extra)}")
    return check_host_shape(message)


# ------------------------------------------------------------------------------- what a host may send

#: The heartbeat and timeout a client takes from a welcome (seconds): outside these it refuses the welcome,
#: so a host cannot make its ping loop spin (0, −1, NaN) or never speak (a year).
HEARTBEAT_RANGE = (0.1, 600.0)
TIMEOUT_RANGE = (0.2, 3600.0)
#: Seats a table frame or record may list.
MAX_SEATS = 64

_NUMBER = (int, float)
_TEXT, _TEXT_OR_NONE = (str,), (str, type(None))
_MAP_OR_NONE = (dict, type(None))
_SEAT_OR_NONE = (int, type(None))

#: Per host message, the fields a client uses and their types (``required``: must be there). Everything a
#: client reads from a frame is here, so ``check_host_shape`` is the one place that refuses a frame it
#: cannot use; the parts below it (seats, events, choices, the record) are checked by ``_check_table``.
HOST_FIELDS: dict[str, dict[str, Field]] = {
    "welcome": {"protocol": Field(_INT), "game": Field(_TEXT), "title": Field(_TEXT), "table": Field(_TEXT),
                "role": Field(_TEXT), "seat": Field(_SEAT_OR_NONE), "token": Field(_TEXT_OR_NONE, required=False),
                "options": Field(_MAP), "heartbeat": Field(_NUMBER, required=False),
                "timeout": Field(_NUMBER, required=False), "commitment": Field((bytes, type(None)), required=False)},
    "table": {"turn": Field(_INT), "started": Field(_BOOL), "catch_up": Field(_BOOL), "view": Field(_MAP_OR_NONE),
              "events": Field((list,)), "prompt": Field(_MAP_OR_NONE), "seats": Field((list,)),
              "result": Field(_MAP_OR_NONE), "record": Field(_MAP_OR_NONE, required=False),
              "commitment": Field((bytes, type(None)), required=False),
              "deal": Field(_MAP_OR_NONE, required=False)},
    "error": {"code": Field(_TEXT), "message": Field(_TEXT)},
    "notice": {"text": Field(_TEXT)},
    "chat": {"from": Field(_TEXT), "text": Field(_TEXT), "seat": Field(_SEAT_OR_NONE, required=False)},
    "ping": {"t": Field(_NUMBER, required=False)},
    "pong": {"t": Field(_NUMBER, required=False)},
}
#: A seat as a table frame shows it, an event, a prompt's choice, and a seat of the final record.
_SEAT_FIELDS = {"seat": Field(_INT), "kind": Field(_TEXT), "name": Field(_TEXT), "connected": Field(_BOOL),
                "away_name": Field(_TEXT_OR_NONE, required=False)}
_EVENT_FIELDS = {"text": Field(_TEXT, required=False), "seat": Field(_SEAT_OR_NONE, required=False)}
_CHOICE_FIELDS = {"action": Field(_MAP), "text": Field(_TEXT)}
_RECORD_FIELDS = {"game": Field(_TEXT), "options": Field(_MAP), "seed": Field(_INT), "seats": Field((list,)),
                  "actions": Field((list,)), "fair": Field(_MAP_OR_NONE, required=False)}
_RECORD_SEAT_FIELDS = {"kind": Field(_TEXT), "name": Field(_TEXT_OR_NONE, required=False)}
_SEAT_KINDS = ("open", "player", "bot")


def _check_fields(value: Any, fields: dict[str, Field], where: str) -> dict[str, Any]:
    """``value`` is a map whose named fields have their types; ``ProtocolError`` naming the first that is not."""
    if not isinstance(value, dict):
        raise ProtocolError("bad_message", f"the host sent {where} that is not a map")
    for name, spec in fields.items():
        if name not in value:
            if spec.required:
                raise ProtocolError("bad_message", f"the host sent {where} without {name!r}")
            continue
        item = value[name]
        if not isinstance(item, spec.types) or (isinstance(item, bool) and bool not in spec.types):
            raise ProtocolError("bad_message", f"the host sent {where} whose {name!r} has the wrong type")
    return value


def _in_range(value: Any, bounds: tuple[float, float], where: str) -> None:
    if value is not None and not bounds[0] <= value <= bounds[1]:  # NaN is in no range
        raise ProtocolError("bad_message", f"the host sent a {where} of {value!r} seconds (a client takes "
                                           f"{bounds[0]:g} to {bounds[1]:g})")


def _check_table(message: dict[str, Any]) -> None:
    seats = message["seats"]
    if len(seats) > MAX_SEATS:
        raise ProtocolError("bad_message", f"the host sent a table of more than {MAX_SEATS} seats")
    for number, seat in enumerate(seats, start=1):
        _check_fields(seat, _SEAT_FIELDS, f"seat {number}")
        if seat["kind"] not in _SEAT_KINDS:
            raise ProtocolError("bad_message", f"the host sent seat {number} of no known kind")
    for event in message["events"]:
        _check_fields(event, _EVENT_FIELDS, "a log line")
    prompt = message["prompt"]
    if prompt is not None:
        _check_fields(prompt, {"id": Field(_INT), "choices": Field((list,))}, "a question")
        for choice in prompt["choices"]:
            _check_fields(choice, _CHOICE_FIELDS, "a choice")
    record = message.get("record")
    if record is not None:
        _check_fields(record, _RECORD_FIELDS, "a record")
        if not 1 <= len(record["seats"]) <= MAX_SEATS:
            raise ProtocolError("bad_message", "the host sent a record with no seats, or too many")
        for seat in record["seats"]:
            _check_fields(seat, _RECORD_SEAT_FIELDS, "a record's seat")


def check_host_shape(message: dict[str, Any]) -> dict[str, Any]:
    """The shape of a host message a client is about to use: every field it reads has its type and range.
    A frame that fails is one the client cannot use: ``ProtocolError`` in words, and the client drops the
    connection and tries again, as for any broken host."""
    kind = message["type"]
    _check_fields(message, HOST_FIELDS[kind], f"a {kind!r} message")
    if kind == "welcome":
        _in_range(message.get("heartbeat"), HEARTBEAT_RANGE, "heartbeat")
        _in_range(message.get("timeout"), TIMEOUT_RANGE, "timeout")
        if message["role"] not in ROLES:
            raise ProtocolError("bad_message", "the host sent a welcome of no known role")
    elif kind == "table":
        _check_table(message)
    return message
