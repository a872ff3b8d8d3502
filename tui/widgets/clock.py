"""The turn clock's line over the move list: whose clock runs and how long it has, counted down here from
the seconds left the host last sent (the host's clock decides; this one only shows it)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tui.frame import TableFrame

#: Below this many seconds the seat's own clock is shown as urgent.
HURRY_BELOW = 10.0


def clock_words(seconds: float) -> str:
    """``0:42``, ``1:30``: minutes and seconds, rounded up (a clock at 0.2 s has not run out yet)."""
    whole = int(-(-seconds // 1))
    return f"{whole // 60}:{whole % 60:02d}"


class TurnClockLine(Static):
    """Shown while a clock runs or a seat is away: "Your move: 0:42 left · Bob 1:12 · away (a bot plays
    for them): Cat". Hidden at a table without a clock."""

    def on_mount(self) -> None:
        self._frame: TableFrame | None = None
        self.display = False
        self.set_interval(0.5, self._draw)

    def show(self, frame: TableFrame) -> None:
        self._frame = frame
        self._draw()

    def _draw(self) -> None:
        frame = self._frame
        if frame is None or frame.result is not None:
            self.display = False
            return
        running = [(seat, left) for seat in range(len(frame.seats)) if (left := frame.seconds_left(seat)) is not None]
        away = [seat for seat in frame.away if 0 <= seat < len(frame.seats)]
        self.display = bool(running or away or frame.take_back)
        if not self.display:
            return
        text = take_back_words(frame)
        if text and running:
            text.append(" · clocks stopped: ", style="dim")
        for seat, left in sorted(running, key=lambda item: item[0] != frame.seat):
            if text and not text.plain.endswith(": "):
                text.append(" · ")
            if seat == frame.seat:
                text.append(f"Your move: {clock_words(left)} left",
                            style="bold red" if left < HURRY_BELOW else "bold")
                text.append(", then the bot moves for you", style="dim")
            else:
                text.append(Text(frame.plain_name(seat)))  # a person's name: plain text, never markup
                text.append(f" {clock_words(left)}")
        if away:
            if text:
                text.append(" · ")
            text.append("a bot plays for the away: ", style="dim")
            text.append(Text(", ".join(frame.plain_name(seat) for seat in away)))
            if frame.seat in away:
                text.append(" (you: any key takes your seat back)", style="bold")
        self.update(text)


def take_back_words(frame: TableFrame) -> Text:
    """The open take-back question, to everyone: "You asked to take back your last move: waiting for an
    answer, 0:24", or "Ann asks to take back a move: waiting for Bob, 0:24" (empty when none is open)."""
    asked = frame.take_back
    left = frame.answer_seconds_left()
    if not asked or not isinstance(asked.get("seat"), int):
        return Text()
    when = f", {clock_words(left)}" if left is not None else ""
    waiting = [seat for seat in asked.get("waiting", []) if isinstance(seat, int) and 0 <= seat < len(frame.seats)]
    if asked["seat"] == frame.seat:
        return Text(f"You asked to take back your last move: waiting for an answer{when}", style="bold")
    text = Text(frame.plain_name(asked["seat"]) if 0 <= asked["seat"] < len(frame.seats) else "Someone")
    if frame.seat in waiting:
        text.append(f" asks to take back a move: your answer, please{when}", style="bold")
    else:
        text.append(" asks to take back a move: waiting for ")
        text.append(Text(", ".join(frame.plain_name(seat) for seat in waiting) or "the answers"))
        text.append(when)
    return text
