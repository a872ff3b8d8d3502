"""The plain text client of ``turpin join``: the view in short, log lines as they come, choices numbered.

Deliberately plain and generic over games — it knows nothing of any game, only the view, log, prompt and
result every table sends — so a table can be played (and the protocol checked by hand) before the
Textual app exists.
"""

from __future__ import annotations

import asyncio
import os
import re
import stat
import sys
from typing import Any

from net.client import ClientError, ClientUpdate, TableClient


async def stdin_reader() -> asyncio.StreamReader | None:
    """Typed lines from stdin, or None when stdin is not something the event loop can wait on.

    Only a terminal, a pipe or a socket will do: /dev/null or a plain file cannot be polled (epoll
    refuses them), and the reader would then wait forever.
    """
    if sys.stdin is None or sys.stdin.closed:
        return None
    try:
        fd = sys.stdin.fileno()
        mode = os.fstat(fd).st_mode
        if not (os.isatty(fd) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            return None
        reader = asyncio.StreamReader()
        await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        return reader
    except (ValueError, OSError):
        return None


#: The short view shown with each prompt keeps to this many lines; ``v`` shows all of it.
VIEW_LINES = 25
#: Characters per line of the short view.
VIEW_WIDTH = 100


def render_view(view: Any, max_lines: int | None = VIEW_LINES, width: int | None = VIEW_WIDTH) -> list[str]:
    """Any game's view as plain lines for a person: ``key: value``, nested lists and maps indented.

    Generic on purpose (the view is whatever the game's allow-list gives): keys read as words, empty and
    unknown (None) fields are left out, short lists and maps stay on one line. With ``max_lines`` the
    rest is cut and a last line says how to see it all.
    """
    view = _readable(view)
    lines = _mapping_lines(view, 0) if isinstance(view, dict) else [_inline(view)]
    if width is not None:
        lines = [line if len(line) <= width else line[:width - 1] + "…" for line in lines]
    if max_lines is not None and len(lines) > max_lines:
        hidden = len(lines) - (max_lines - 1)
        lines = lines[:max_lines - 1] + [f"… and {hidden} more lines (type v for the whole view)"]
    return lines


#: View fields that hold a seat number (0-based on the wire): a person reads them as "seat 1", "seat 2".
SEAT_FIELDS = frozenset({"seat", "seats", "driver", "robber", "robbers", "dealer", "turn", "pending", "rival",
                         "leader", "winner", "winners", "current", "acting", "to_play", "first"})
_CARD = re.compile(r"([a-z][a-z_]*):(\w+)")


def _readable(value: Any, key: str | None = None) -> Any:
    """The view with its raw values put the way the rest of the client speaks: seats counted from 1,
    ``-1`` (nothing yet) left out, and cards like ``bath:8`` as ``Bath 8``."""
    if isinstance(value, dict):
        return {name: _readable(item, str(name)) for name, item in value.items()}
    if isinstance(value, list):
        return [_readable(item, key) for item in value]
    if key in SEAT_FIELDS and isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value + 1 if key == "seat" else f"seat {value + 1}"
    if isinstance(value, int) and not isinstance(value, bool) and value == -1:
        return None
    if isinstance(value, str):
        card = _CARD.fullmatch(value)
        if card:
            return f"{card.group(1).replace('_', ' ').title()} {card.group(2)}"
    return value


def _worth_showing(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_worth_showing(item) for item in value.values())
    return value is not None and value != [] and value != ""


def _label(key: Any) -> str:
    return str(key).replace("_", " ")


def _inline(value: Any, nested: bool = False) -> str:
    """A value on one line: lists as ``a, b``, maps as ``key value, key value``; inner ones bracketed."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        text = ", ".join(_inline(item, nested=True) for item in value) if value else "none"
        return f"[{text}]" if nested else text
    if isinstance(value, dict):
        text = ", ".join(f"{_label(key)} {_inline(item, nested=True)}"
                         for key, item in value.items() if _worth_showing(item))
        return f"({text})" if nested else text
    return str(value)


def _is_flat(value: Any) -> bool:
    items = value if isinstance(value, list) else list(value.values()) if isinstance(value, dict) else []
    return not any(isinstance(item, (list, dict)) for item in items)


def _mapping_lines(mapping: dict[Any, Any], depth: int) -> list[str]:
    indent = "  " * depth
    lines: list[str] = []
    for key, value in mapping.items():
        if not _worth_showing(value):
            continue
        if _is_flat(value):
            lines.append(f"{indent}{_label(key)}: {_inline(value)}")
        elif isinstance(value, dict):
            lines += [f"{indent}{_label(key)}:", *_mapping_lines(value, depth + 1)]
        else:  # a list holding lists or maps: one item a line
            lines += [f"{indent}{_label(key)}:", *(f"{indent}  - {_inline(item)}" for item in value)]
    return lines


async def _typed_line_unless_over(reader: asyncio.StreamReader, client: TableClient) -> str | None:
    """The next line typed, or None once stdin ends or the game is over (or the table gone)."""
    typed = asyncio.ensure_future(reader.readline())
    over = asyncio.ensure_future(client.wait_for(lambda snap: client.stopped is not None
                                                 or snap.result is not None))
    try:
        await asyncio.wait({typed, over}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (typed, over):
            task.cancel()
    if over.done() and not over.cancelled():
        over.exception()  # a ClientError here only repeats why the client stopped; the loop says so
        return None
    if not typed.done() or typed.cancelled():
        return None
    line = typed.result()
    return None if not line and reader.at_eof() else line.decode(errors="replace").strip()


#: Retries between two "still trying" lines while the table is away (the first loss is always said).
RETRY_LINES_EVERY = 10


async def play_text(client: TableClient, out: Any = None) -> int:
    """The plain text client: the view in short, log lines as they come, the host's choices numbered,
    answers typed. Through a lost connection it keeps waiting (and says so once, then now and then); on
    coming back it shows only what is new, and the choices again if it is this seat's turn."""
    out = out or sys.stdout
    shown_prompt: list[Any] = [None]
    asked_shown: list[Any] = [None]  # the take-back question shown (who asked), so it is said once
    events_shown = [0]     # log events printed so far: a catch-up after a reconnect repeats none of them
    away = [0]             # connection losses and failed retries since the table was last there
    token_shown = [False]
    take_back_hinted = [False]  # the take-back hint said for the move that may be taken back now

    def show_view(snap: Any) -> None:
        whose = "The table" if snap.seat is None else "Your view"
        print(f"{whose} (turn {max(snap.turn, 0)}):", file=out)
        for line in render_view(snap.view):
            print(f"    {line}", file=out)

    def show_choices(snap: Any) -> None:
        shown_prompt[0] = snap.prompt["id"]
        show_view(snap)
        print("Your choices:", file=out)
        for number, choice in enumerate(snap.choices, start=1):
            print(f"  [{number}] {choice['text']}", file=out)
        left = snap.seconds_left(snap.seat) if snap.seat is not None else None
        if left is not None:
            print(f"Your clock: {left:.0f} s left, then the normal bot moves for you.", file=out)
        print("Type a number and Enter (v = the whole view, say TEXT = chat, q = quit):", file=out)

    def seat_name_of(snap: Any, seat: int) -> str:
        info = snap.seats[seat] if 0 <= seat < len(snap.seats) else {}
        return str(info.get("name") or f"Seat {seat + 1}")

    dealing_shown = [False]

    def show_table(message: dict[str, Any]) -> None:
        snap = client.snapshot
        events = message.get("events", [])
        catch_up = bool(message.get("catch_up"))
        new = events[events_shown[0]:] if catch_up else events
        for event in new:
            if snap.seat is not None and event.get("told_privately") == snap.seat:
                continue  # said to this seat in a line of its own ("Your time ran out…")
            print(f"  · {event['text']}", file=out)
        events_shown[0] = len(events) if catch_up else events_shown[0] + len(events)
        asked = snap.take_back
        if asked is not None and snap.seat in asked.get("waiting", []) and asked_shown[0] != asked.get("seat"):
            asked_shown[0] = asked.get("seat")
            print(f"{seat_name_of(snap, asked['seat'])} asks to take back their last move: type yes to allow "
                  "it, no to keep it (no answer within half a minute keeps it).", file=out)
        elif asked is not None and asked.get("seat") == snap.seat and asked_shown[0] != "mine":
            asked_shown[0] = "mine"
            left = asked.get("seconds")
            print("You asked to take back your last move: waiting for an answer"
                  + (f" ({left:.0f} s); play waits meanwhile." if isinstance(left, (int, float)) else "."), file=out)
        elif asked is None:
            asked_shown[0] = None
        if snap.may_take_back and not take_back_hinted[0]:
            print("(u = take back your last move, if the others agree)", file=out)
        take_back_hinted[0] = snap.may_take_back
        if snap.result is not None:
            print(f"Game over: {snap.result.get('summary', '')}", file=out)
            print(f"Seed {snap.result.get('seed')} — the record replays it (A2).", file=out)
            if snap.fair is not None:
                print(snap.fair.words[0].upper() + snap.fair.words[1:] + ".", file=out)
            if snap.match and snap.match[0]["games"] > 1:
                print(f"At this table, {snap.match[0]['games']} games: " + ", ".join(
                    f"{seat_name_of(snap, row['seat'])} {row['wins']} win{'' if row['wins'] == 1 else 's'}"
                    f" ({row['points']:g} in all)" for row in snap.match), file=out)
        elif snap.prompt and (snap.prompt["id"] != shown_prompt[0] or (catch_up and away[0])):
            show_choices(snap)  # a new question, or the same one again after coming back
        elif catch_up and snap.deal is not None and all(seat.get("kind") != "open" for seat in snap.seats
                                                        if isinstance(seat, dict)):
            if not dealing_shown[0]:  # the fair deal's pledges and reveals: no view to show yet
                dealing_shown[0] = True
                print("Dealing: every player's share of the deal is coming in…", file=out)
        elif catch_up:
            dealing_shown[0] = False  # (a game dealt again at the table says so again)
            show_view(snap)
            waiting = "Waiting for your turn" if snap.started else "Waiting for the other seats to fill"
            print(f"{'Watching' if snap.seat is None else waiting} (v = the whole view, q = quit)", file=out)
        if catch_up:
            away[0] = 0

    def show(update: ClientUpdate) -> None:
        snap = client.snapshot
        if update.kind == "table":
            show_table(update.message or {})
        elif update.kind == "chat":
            print(f"> {update.text}", file=out)
        elif not client.welcomed and update.kind in ("error", "stopped", "disconnected", "connected"):
            pass  # refused or unreachable before getting in: start() raises, and that one line is printed
        elif update.kind == "disconnected":
            away[0] += 1
            if away[0] == 1:
                print(f"~ {update.text}; waiting for the table to come back (q = quit)", file=out)
            elif away[0] % RETRY_LINES_EVERY == 0:
                print(f"~ still away: {client.retry_status()}", file=out)
        elif update.kind == "welcome":
            if away[0]:
                print("~ back at the table", file=out)
            elif not token_shown[0]:
                print(update.text, file=out)
            if client.token and snap.seat is not None and not token_shown[0]:
                token_shown[0] = True
                print(f"(your seat token, to come back from another terminal: --token {client.token})", file=out)
        elif update.kind in ("error", "notice", "stopped"):
            prefix = {"error": "! ", "notice": "* "}.get(update.kind, "")
            print(f"{prefix}{update.text}", file=out)
        out.flush()

    client.subscribe(show)
    try:
        await client.start()
    except ClientError as error:
        print(f"turpin: {error}", file=sys.stderr)
        return 1
    reader = await stdin_reader()
    try:
        while client.stopped is None:
            if reader is None:
                await client.wait_for(lambda snap: client.stopped is not None or snap.result is not None)
                break
            line = await _typed_line_unless_over(reader, client)
            if line is None or line in ("q", "quit"):
                break
            await _answer(client, line, out)
            out.flush()
    finally:
        await client.close()
    return 0


async def _answer(client: TableClient, line: str, out: Any) -> None:
    """One typed line: a choice, a chat line or ``v``; while the table is away nothing is sent."""
    choices = client.snapshot.choices
    if line == "v":
        for text in render_view(client.snapshot.view, max_lines=None, width=None):
            print(text, file=out)
        return
    wants_to_send = ((line.startswith("say ") and line[4:].strip())
                     or (line.isdigit() and 1 <= int(line) <= len(choices)))
    if wants_to_send and not client.connected:
        print("the table is away; nothing was sent. Your choices come back with it.", file=out)
        return
    asked = client.snapshot.take_back
    try:
        if line == "u" and client.snapshot.may_take_back:
            await client.take_back()
        elif line == "u":
            print("nothing to take back now: only your own last move, before anyone moves after it, and only "
                  "one that showed nothing hidden", file=out)
        elif line in ("yes", "no") and asked is not None and client.snapshot.seat in asked.get("waiting", []):
            await client.answer_take_back(line == "yes")
        elif line.startswith("say ") and line[4:].strip():
            await client.say(line[4:].strip())
        elif line.isdigit() and 1 <= int(line) <= len(choices):
            await client.choose(int(line) - 1)
        elif line:
            print(f"type a number from 1 to {len(choices)}" if choices
                  else "nothing to choose now; wait for your turn", file=out)
    except (ClientError, ConnectionError, OSError):
        print("the table went away as that was sent; your choices come back with it.", file=out)
