"""The game record: seed, options, seats and action log, kept as an append-only log on disk.

The record is the save file: ``turpin host --resume FILE`` replays it to the exact table it describes
(the seed plus the action log give the same state, the same log and the same cards still to come). It
holds the seats' tokens so that players can reconnect to a resumed host, so it is written readable by
its owner only and never sent; what the players get at the end is ``public_record``.

On disk (format 2) a record is ``MAGIC`` and then entries, each a 4-byte big-endian length, a 4-byte
CRC-32 of the body and a msgpack body: first ``{"record": {...}}`` (everything but the actions), then
one ``{"act": [seat, action]}`` per accepted action and ``{"set": {field: value}}`` when anything else
changes (seats, the port). Each entry is one ``write`` and one ``fdatasync``, made before the host sends
anyone the new state: the cost of an action does not grow with the game. (The sync runs on the host's
own thread: a sync thread cannot start its syscall until the event loop lets go of the GIL, so it
overlapped nothing and only added a thread's wake-up to every action.) An entry cut short by a crash
(or failing its CRC) ends the log: it was never synced, so it was never broadcast, and nothing after it
is read. Records of format 1 (one msgpack map, rewritten whole after every action) are still read, and a
host resuming one goes on in format 2.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import struct
import tempfile
import zlib
from typing import Any

import msgpack

from net.fairness import FairDeal, FairnessError
from net.table.clock import LEAST_SECONDS, MOST_SECONDS
from net.table.match import Match, MatchError
from net.untrusted import FileBudget, decode_file, read_at_most

try:
    import fcntl
except ImportError:  # (not on Windows: there, a record is not guarded against a second writer)
    fcntl = None  # type: ignore[assignment]

RECORD_FORMAT = "turpin-record"
#: How a record file's name ends (turpin's records folder holds other files too, perhaps).
RECORD_SUFFIX = ".turpin-record"
#: The environment variable naming the folder records go to (the SSH front door gives each user his own).
RECORDS_VARIABLE = "TURPIN_RECORDS_DIR"
RECORD_VERSION = 1
#: The first bytes of a record log (format 2); a format-1 record starts with a msgpack map instead.
MAGIC = b"turpin-record-log 2\n"
_MAX_RECORD = 64 * 1024 * 1024
_ENTRY_HEAD = struct.Struct(">II")  # body length, CRC-32 of the body
#: Record fields that are not compared between saves: the time changes every time and says nothing.
_UNSAVED = ("actions", "saved_at")


class RecordError(ValueError):
    """A record file that cannot be read or does not describe a table."""


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def _entry(body: dict[str, Any]) -> bytes:
    data = _pack(body)
    return _ENTRY_HEAD.pack(len(data), zlib.crc32(data)) + data


def _sync(fd: int) -> None:
    os.fdatasync(fd) if hasattr(os, "fdatasync") else os.fsync(fd)


def _header(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key not in _UNSAVED}


def log_bytes(record: dict[str, Any]) -> bytes:
    """A whole record as a log: the header entry, then one entry per action."""
    return MAGIC + _entry({"record": _header(record)}) + b"".join(
        _entry({"act": action}) for action in record["actions"])


def write_record(path: str | os.PathLike[str], record: dict[str, Any]) -> None:
    """Write ``record`` whole, so that the file is always either the old record or the new one, never half.

    Write a temporary file in the same directory, flush it to disk, then rename it over the old one
    (atomic on POSIX), and flush the directory so the rename itself survives a crash.
    """
    target = pathlib.Path(path)
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(log_bytes(record))
            handle.flush()
            _sync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        pathlib.Path(temporary).unlink(missing_ok=True)
        raise
    directory = os.open(target.parent or ".", os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


class RecordLog:
    """The table's ``save``: called with the whole record after every change, it appends only what changed.

    The first call writes the whole record atomically (a new table, or a resumed one whose file may be of
    format 1 or end in a torn entry); every later call appends one entry per new action and one for any
    other field that changed, each synced before the call returns (before anyone is sent the new state).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = pathlib.Path(path)
        self._fd: int | None = None
        self._written: dict[str, bytes] = {}  # each header field as last written, packed
        self._actions = 0

    def __call__(self, record: dict[str, Any]) -> None:
        """Write what changed since the last call and return once it is on disk."""
        header = _header(record)
        if self._fd is None or len(record["actions"]) < self._actions:
            self._rewrite(record, header)
            return
        packed = {key: _pack(value) for key, value in header.items()}
        changed = {key: header[key] for key, data in packed.items() if self._written.get(key) != data}
        entries = [_entry({"act": action}) for action in record["actions"][self._actions:]]
        if changed:
            entries.append(_entry({"set": changed}))
        if not entries:
            return
        view = memoryview(b"".join(entries))
        while view:
            view = view[os.write(self._fd, view):]
        self._actions = len(record["actions"])
        self._written = packed
        _sync(self._fd)

    def _rewrite(self, record: dict[str, Any], header: dict[str, Any]) -> None:
        self.close()
        if record_in_use(self.path):  # two tables writing one record would tear it: the second says so
            raise RecordError(f"the record {self.path} is in use: another turpin is serving its table")
        write_record(self.path, record)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        _hold(self._fd)
        self._written = {key: _pack(value) for key, value in header.items()}
        self._actions = len(record["actions"])

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def record_in_use(path: str | os.PathLike[str]) -> bool:
    """Whether a ``RecordLog`` (in this process or another) is writing the record at ``path`` now: it
    holds an advisory lock on the file from its first write until it is closed or its process ends."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def _hold(fd: int) -> None:
    """The writer's lock (``record_in_use``), released with the file descriptor."""
    if fcntl is not None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def read_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and check a record file (a log, or a format-1 record); ``RecordError`` says what is wrong."""
    try:
        data = read_at_most(path, _MAX_RECORD)
    except OSError as error:
        raise RecordError(f"cannot read the record {path}: {error.strerror}") from None
    except ValueError:
        raise RecordError(f"the record {path} is too large to be a game record") from None
    record = _read_log(data, path) if data.startswith(MAGIC) else _read_whole(data, path)
    check_record(record)
    return record


def _unpack(data: bytes, budget: FileBudget | None = None) -> Any:
    return decode_file(data, budget)


def damage_in_words(error: BaseException) -> str:
    """What a decoding failure says of a file, for a person (never a Python class name): cut short, with
    something after its end, or not decodable at all."""
    said = str(error).lower()
    if isinstance(error, msgpack.OutOfData) or (isinstance(error, ValueError) and (
            "incomplete" in said or "ends in the middle" in said)):
        return "damaged: it is cut short, its end is missing"
    if isinstance(error, msgpack.ExtraData) or "more than one object" in said:
        return "damaged: something follows its end"
    return "damaged, or not a file turpin wrote: it cannot be decoded"


def _read_whole(data: bytes, path: Any) -> dict[str, Any]:
    try:
        return _unpack(data)
    except Exception as error:  # any decoding failure means the same thing to the user
        raise RecordError(f"{path} is not a turpin game record ({damage_in_words(error)})") from None


def _read_log(data: bytes, path: Any) -> dict[str, Any]:
    """Fold the entries into one record; the first entry that is cut short or damaged ends the log."""
    record: dict[str, Any] | None = None
    offset = len(MAGIC)
    budget = FileBudget()  # one for the whole log: its entries together are held to the file's limits
    while offset + _ENTRY_HEAD.size <= len(data):
        length, crc = _ENTRY_HEAD.unpack_from(data, offset)
        body = data[offset + _ENTRY_HEAD.size:offset + _ENTRY_HEAD.size + length]
        if len(body) < length or zlib.crc32(body) != crc:
            break  # a torn tail: never synced, so never shown to anyone
        try:
            entry = _unpack(body, budget)
        except ValueError as error:
            if budget.left < 0:  # not a torn tail: a log too big to be a game's
                raise RecordError(f"the record {path} holds more than a game's record ({error})") from None
            break
        offset += _ENTRY_HEAD.size + length
        if record is None:
            if not (isinstance(entry, dict) and isinstance(entry.get("record"), dict)):
                raise RecordError(f"{path} is not a turpin game record (no header)")
            record = {**entry["record"], "actions": []}
        elif isinstance(entry, dict) and "act" in entry:
            record["actions"].append(entry["act"])
        elif isinstance(entry, dict) and isinstance(entry.get("set"), dict):
            record.update({key: value for key, value in entry["set"].items() if key not in _UNSAVED})
        else:
            raise RecordError(f"the record {path} holds an entry this turpin does not know")
    if record is None:
        raise RecordError(f"{path} is not a turpin game record (its header is damaged)")
    return record


#: The longest text a record may hold in a name (a seat's, the table's), a room code and a token.
_NAME_CHARS, _CODE_CHARS, _TOKEN_CHARS = 40, 32, 128


def _shown(value: Any) -> str:
    """A value from a record, for an error line: its repr (no control character survives it), cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _whole_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any, field: str, longest: int, empty: bool = False) -> None:
    """A record's text field: printable (the filter a player's text goes through), not too long."""
    if not isinstance(value, str):
        raise RecordError(f"the record's {field} is not text ({_shown(value)})")
    if not value.isprintable():
        raise RecordError(f"the record's {field} holds characters that are not printable ({_shown(value)})")
    if len(value) > longest or (not value and not empty):
        raise RecordError(f"the record's {field} is not 1 to {longest} characters ({_shown(value)})")


def check_record(record: Any) -> None:
    """Every field of a record, its type and range, names printable; ``RecordError`` in one line naming the
    first bad field. The game itself checks the options, the bots and the actions when it replays them."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError("not a turpin game record")
    if record.get("version") != RECORD_VERSION:
        raise RecordError(f"record version {_shown(record.get('version'))} is not {RECORD_VERSION}")
    expected = {"game": str, "options": dict, "seed": int, "seats": list, "actions": list, "table": str}
    for name, kind in expected.items():
        if not isinstance(record.get(name), kind) or isinstance(record.get(name), bool):
            raise RecordError(f"the record has no valid {name!r}")
    _text(record["game"], "'game'", 32)
    _text(record["table"], "'table' (its name)", _NAME_CHARS)
    if record.get("code") is not None:
        _text(record["code"], "'code'", _CODE_CHARS)
    if record.get("host_token") is not None:
        _text(record["host_token"], "'host_token'", _TOKEN_CHARS)
    grace = record.get("grace")
    if grace is not None and not (isinstance(grace, (int, float)) and not isinstance(grace, bool)
                                  and 0 <= grace < float("inf")):
        raise RecordError(f"the record's 'grace' is not a number of seconds from 0 ({_shown(grace)})")
    clock = record.get("clock")
    if clock is not None and not (isinstance(clock, (int, float)) and not isinstance(clock, bool)
                                  and (clock == 0 or LEAST_SECONDS <= clock <= MOST_SECONDS)):
        raise RecordError(f"the record's 'clock' is not 0 or a number of seconds from {LEAST_SECONDS:g} to "
                          f"{MOST_SECONDS:g} ({_shown(clock)})")
    saved_at = record.get("saved_at")
    if saved_at is not None and not (isinstance(saved_at, (int, float)) and not isinstance(saved_at, bool)):
        raise RecordError(f"the record's 'saved_at' is not a time ({_shown(saved_at)})")
    _check_meta(record.get("meta"))
    if not 1 <= len(record["seats"]) <= 64:
        raise RecordError("the record's 'seats' has no seats, or too many")
    for number, seat in enumerate(record["seats"], start=1):
        _check_seat(seat, number)
    seats = len(record["seats"])
    try:
        Match.from_record(record.get("match"), seats)
    except MatchError as error:
        raise RecordError(f"the record's 'match' (the games before this one at its table) {error}") from None
    try:
        FairDeal.from_record(record.get("fair"), seats)
    except FairnessError as error:
        raise RecordError(f"the record's 'fair' (its fair deal) {error}") from None
    taken_back = record.get("taken_back")
    if taken_back is not None and not (
            isinstance(taken_back, list) and len(taken_back) <= 100_000
            and all(isinstance(entry, dict) and _whole_number(entry.get("turn")) and _whole_number(entry.get("seat"))
                    and 0 <= entry["seat"] < seats and isinstance(entry.get("action"), dict) for entry in taken_back)):
        raise RecordError("the record's 'taken_back' (the moves taken back) is damaged")
    _check_clock_state(record.get("clock_state"), seats)
    for number, entry in enumerate(record["actions"], start=1):
        if not (isinstance(entry, list) and len(entry) == 2 and _whole_number(entry[0]) and 0 <= entry[0] < seats
                and isinstance(entry[1], dict)):
            raise RecordError(f"the record's action log is damaged at action {number} ({_shown(entry)})")


def _check_clock_state(saved: Any, seats: int) -> None:
    """Who was away and each seat's run of missed turns (``TurnClock.to_record``)."""
    if saved is None:
        return
    away, missed = (saved.get("away"), saved.get("missed")) if isinstance(saved, dict) else (None, None)
    if not (isinstance(away, list) and len(away) <= seats and all(_whole_number(seat) and 0 <= seat < seats
                                                                  for seat in away)
            and isinstance(missed, list) and len(missed) <= seats
            and all(isinstance(entry, list) and len(entry) == 2 and _whole_number(entry[0])
                    and 0 <= entry[0] < seats and _whole_number(entry[1]) and 0 <= entry[1] <= 1_000_000
                    for entry in missed)):
        raise RecordError(f"the record's 'clock_state' (who was away, missed turns) is damaged ({_shown(saved)})")


def _check_meta(meta: Any) -> None:
    """The host's facts: the port and interface it served on, whether it was a game against bots."""
    if meta is None:
        return
    if not isinstance(meta, dict) or not all(isinstance(key, str) for key in meta):
        raise RecordError(f"the record's 'meta' is not a map of names ({_shown(meta)})")
    port = meta.get("port")
    if port is not None and not (_whole_number(port) and 0 <= port <= 65535):
        raise RecordError(f"the record's 'meta' port is not a port ({_shown(port)})")
    if meta.get("interface") is not None:
        _text(meta["interface"], "'meta' interface", 64)
    for key, value in meta.items():
        if not (value is None or isinstance(value, (bool, int, float)) or
                (isinstance(value, str) and value.isprintable() and len(value) <= 256)):
            raise RecordError(f"the record's 'meta' {_shown(key)} is not a plain value ({_shown(value)})")


def _check_seat(seat: Any, number: int) -> None:
    where = f"seat {number}"
    if not (isinstance(seat, dict) and seat.get("kind") in ("open", "player", "bot")):
        raise RecordError(f"the record's {where} is damaged (no kind: open, player or bot)")
    if seat.get("name") is not None:
        _text(seat["name"], f"{where} name", _NAME_CHARS, empty=seat["kind"] == "open")
    if seat.get("away_name") is not None:
        _text(seat["away_name"], f"{where} away_name", _NAME_CHARS)
    if seat.get("token") is not None:
        _text(seat["token"], f"{where} token", _TOKEN_CHARS)
    if seat.get("bot") is not None:
        _text(seat["bot"], f"{where} bot", 32)
    if seat["kind"] == "bot" and seat.get("bot") is None:
        raise RecordError(f"the record's {where} is a bot with no level")


def public_record(record: dict[str, Any]) -> dict[str, Any]:
    """What everyone gets at the end (A2): enough to replay the game, without tokens or the room code."""
    return {"format": record["format"], "version": record["version"], "game": record["game"],
            "options": record["options"], "seed": record["seed"], "actions": record["actions"],
            "seats": [{"kind": seat["kind"], "name": seat.get("name", "")} for seat in record["seats"]]}
