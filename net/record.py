"""The game record: seed, options, seats and action log, written atomically after every accepted action.

The record is the save file: ``turpin host --resume FILE`` replays it to the exact table it describes
(the seed plus the action log give the same state, the same log and the same cards still to come). It
holds the seats' tokens so that players can reconnect to a resumed host, so it is written readable by
its owner only and never sent; what the players get at the end is ``public_record``.
"""

from __future__ import annotations

import os
import pathlib
import tempfile
from typing import Any

import msgpack

RECORD_FORMAT = "turpin-record"
RECORD_VERSION = 1
_MAX_RECORD = 64 * 1024 * 1024


class RecordError(ValueError):
    """A record file that cannot be read or does not describe a table."""


def write_record(path: str | os.PathLike[str], record: dict[str, Any]) -> None:
    """Write ``record`` so that the file is always either the old record or the new one, never half.

    Write a temporary file in the same directory, flush it to disk, then rename it over the old one
    (atomic on POSIX), and flush the directory so the rename itself survives a crash.
    """
    target = pathlib.Path(path)
    data = msgpack.packb(record, use_bin_type=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fdatasync(handle.fileno()) if hasattr(os, "fdatasync") else os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        pathlib.Path(temporary).unlink(missing_ok=True)
        raise
    directory = os.open(target.parent or ".", os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def read_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and check a record file; ``RecordError`` says what is wrong with it."""
    try:
        data = pathlib.Path(path).read_bytes()
    except OSError as error:
        raise RecordError(f"cannot read the record {path}: {error.strerror}") from None
    if len(data) > _MAX_RECORD:
        raise RecordError(f"the record {path} is too large to be a game record")
    try:
        record = msgpack.unpackb(data, raw=False, strict_map_key=True, ext_hook=_no_ext)
    except Exception as error:  # any decoding failure means the same thing to the user
        raise RecordError(f"{path} is not a turpin game record ({type(error).__name__})") from None
    check_record(record)
    return record


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError("extension types are not used in records")


def check_record(record: Any) -> None:
    """The shape every record has; the game itself checks the options and the actions on replay."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError("not a turpin game record")
    if record.get("version") != RECORD_VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not {RECORD_VERSION}")
    expected = {"game": str, "options": dict, "seed": int, "seats": list, "actions": list, "table": str}
    for name, kind in expected.items():
        if not isinstance(record.get(name), kind):
            raise RecordError(f"the record has no valid {name!r}")
    for entry in record["actions"]:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)
                and isinstance(entry[1], dict)):
            raise RecordError("the record's action log is damaged")
    for seat in record["seats"]:
        if not (isinstance(seat, dict) and seat.get("kind") in ("open", "player", "bot")):
            raise RecordError("the record's seats are damaged")


def public_record(record: dict[str, Any]) -> dict[str, Any]:
    """What everyone gets at the end (A2): enough to replay the game, without tokens or the room code."""
    return {"format": record["format"], "version": record["version"], "game": record["game"],
            "options": record["options"], "seed": record["seed"], "actions": record["actions"],
            "seats": [{"kind": seat["kind"], "name": seat.get("name", "")} for seat in record["seats"]]}
