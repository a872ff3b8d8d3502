"""Helpers for the app's Pilot tests: start the app at a table and wait on what the screen shows."""

from __future__ import annotations

import contextlib
import random

from core.registry import get_game
from net import protocol
from net.host import HostSettings, TableHost
from net.record import RecordLog
from net.table import pipeline
from net.table.table import Table
from tests.waiting import until
from tui.app import Start, TurpinApp
from tui.hosting import plan_against_bots


def quick_app(game: str = "turpin", players: int | None = None, seed: int = 7, **options) -> TurpinApp:
    """The app opened straight at a private table against bots that play at once."""
    plan = plan_against_bots(game, players=players, seed=seed, options=options or None)
    plan.bot_delay = 0
    return TurpinApp(Start(route="play", plan=plan), player_name="Ann", lan_interfaces=[], bell=False)


def app_at(route: str, **start) -> TurpinApp:
    """The app opened at ``route`` (``menu``, ``join``, ``spectate``, ``host``…), as Ann, off the LAN."""
    return TurpinApp(Start(route=route, **start), player_name="Ann", lan_interfaces=[], bell=False)


def menu_app() -> TurpinApp:
    return app_at("menu")


async def serve(table: Table, bot_delay: float = 0.0) -> tuple[TableHost, str]:
    """``table`` served on 127.0.0.1 (a free port): its host, and the address to join."""
    host = TableHost(table, HostSettings(bot_delay=bot_delay))
    _, port = await host.start("127.0.0.1", 0)
    return host, f"127.0.0.1:{port}"


@contextlib.asynccontextmanager
async def app_at_table(route: str, table: Table, size: tuple[int, int], toasts: bool = False):
    """The app (``join`` or ``spectate``) at ``table``, served on 127.0.0.1 with bots that wait, once the
    table's first view is on screen: yields the app, its pilot and the host. Textual's tests draw no toasts
    unless asked (``toasts``)."""
    host, address = await serve(table, bot_delay=3600)
    app = app_at(route, address=address)
    try:
        async with app.run_test(size=size, notifications=toasts) as pilot:
            await until(lambda: screen_name(app) == "TableScreen"
                        and app.screen.frame.view is not None, "the table", pilot=pilot)
            yield app, pilot, host
    finally:
        await host.close()


def at_table(app: TurpinApp) -> bool:
    """The table screen is up, with a view of the game in it."""
    from tui.screens.table import TableScreen
    return isinstance(app.screen, TableScreen) and app.screen.frame.view is not None


def record_a_game(path, game_id: str = "turpin", seed: int = 3, names=("Ann", "Bob", "Cat"),
                  moves: int | None = None) -> Table:
    """A game played at random by three people through the table, recorded as a host records it."""
    game = get_game(game_id)
    table = Table(game, {"players": len(names)}, seed=seed, save=RecordLog(path))
    hello = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player"}
    players = [table.join(lambda frame: None, {**hello, "name": name}) for name in names]
    rng = random.Random(seed)
    while not table.over and (moves is None or len(table.actions) < moves):
        seat = game.pending(table.state)[0]
        prompt = table.prompts[seat]
        pipeline.act(table, players[seat], rng.choice(prompt.legal), prompt.id)
    table.save.close()
    return table


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
    await until(lambda: screen_name(app) in ("TableScreen", "ResultsScreen"), "the table", pilot=pilot)
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


def painted_lines(app: TurpinApp) -> list[str]:
    """The screen as the compositor paints it, one string per terminal row (quicker than a screenshot)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def region_text(app: TurpinApp, selector: str) -> str:
    """What is painted inside one widget's region of the screen (empty if it is not on screen)."""
    widget = app.screen.query_one(selector)
    region = widget.region
    if not widget.display or not region.area:
        return ""
    rows = painted_lines(app)[region.y:region.y + region.height]
    return "\n".join(row[region.x:region.x + region.width] for row in rows)


def flat(text: str) -> str:
    """A pane's text as one line: borders dropped, wrapped lines joined."""
    return " ".join(line.strip("│┃╭╮╰╯─━┏┓┗┛ ") for line in text.splitlines())
