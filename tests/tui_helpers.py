"""Helpers for the app's Pilot tests: start the app at a table and wait on what the screen shows."""

from __future__ import annotations

from typing import Callable

from tui.app import Start, TurpinApp
from tui.hosting import plan_against_bots

#: Enough pauses for any state change the tests wait for; a bound on loops, not a time limit.
MAX_WAITS = 1500


def quick_app(game: str = "turpin", players: int | None = None, seed: int = 7, **options) -> TurpinApp:
    """The app opened straight at a private table against bots that play at once."""
    plan = plan_against_bots(game, players=players, seed=seed, options=options or None)
    plan.bot_delay = 0
    return TurpinApp(Start(route="play", plan=plan), player_name="Ann", lan_interfaces=[], bell=False)


async def wait_until(pilot, condition: Callable[[], bool], what: str = "the screen to change") -> None:
    for _ in range(MAX_WAITS):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"gave up waiting for {what}\n{what_the_app_was_doing(pilot.app)}")


def what_the_app_was_doing(app: TurpinApp) -> str:
    """The screen, its workers and its text, so that a wait that gives up says where the app stood."""
    workers = ", ".join(f"{worker.name}: {worker.state.name}" for worker in app.workers) or "no workers"
    try:
        text = screen_text(app)
    except Exception as error:  # a failed screenshot must not hide the wait that gave up
        text = f"(no screenshot: {error!r})"
    return f"screen {screen_name(app)}; {workers}; running={app.is_running}\n{text}"


def screen_name(app: TurpinApp) -> str:
    return type(app.screen).__name__


async def play_to_results(pilot, app: TurpinApp, key: str = "1", max_moves: int = 3000) -> int:
    """Answer every prompt with ``key`` until the results screen shows; returns how many moves we made."""
    from tui.screens.table import TableScreen
    await wait_until(pilot, lambda: screen_name(app) in ("TableScreen", "ResultsScreen"), "the table")
    moves = 0
    for _ in range(max_moves * 50):
        if screen_name(app) == "ResultsScreen":
            return moves
        screen = app.screen
        if screen_name(app) == "InterludeScreen":  # a series' game over: read, then on to the next
            from tui.screens.interlude import TYPED_BEFORE
            await pilot.pause(TYPED_BEFORE)
            await pilot.press("enter")
        elif isinstance(screen, TableScreen) and screen.frame.choices and not screen.frame.sent:
            await pilot.press(key)
            moves += 1
        else:
            await pilot.pause(0.02)
    raise AssertionError("the game did not reach its results")


def screen_lines(app: TurpinApp) -> list[str]:
    """The screen as a person reads it: one string per terminal line (from the app's own screenshot)."""
    import html
    import re
    svg = app.export_screenshot()
    cells: dict[float, dict[int, str]] = {}
    for x, y, length, body in re.findall(
            r'<text[^>]*? x="([\d.]+)" y="([\d.]+)" textLength="([\d.]+)"[^>]*>(.*?)</text>', svg, re.S):
        text = html.unescape(body).replace("\xa0", " ")
        if not text:
            continue
        column = round(float(x) / 12.2)
        row = cells.setdefault(float(y), {})
        for offset, char in enumerate(text):
            row[column + offset] = char
    lines = []
    for _, row in sorted(cells.items()):
        lines.append("".join(row.get(column, " ") for column in range(max(row) + 1)).rstrip())
    return lines


def screen_text(app: TurpinApp) -> str:
    return "\n".join(screen_lines(app))
