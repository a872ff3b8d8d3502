"""Adding a game is two folders and nothing else: ``core/games/<game>/`` and ``tui/games/<game>/``.

A copy of the program's packages gets a fourth game, the network tests' "High card" toy, exactly that way,
and a fresh Python run in the copy finds it in the registry, plays it through the simulator, lists it in
the menu and plays it at a table against bots hosted on 127.0.0.1, drawing its own board. Nothing else in
the copy is changed, so what passes here is what a newcomer's two folders get.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: The toy's panes: its own board and status line; hand, sheet and every other hook keep the defaults.
TOY_PANES = '''"""High card (toy): its own board and status line; the rest drawn as any game's."""

from rich.text import Text

from tui.frame import TableFrame
from tui.games.generic import GamePanes
from tui.widgets.pane import FramePane


def status(frame: TableFrame) -> str:
    view = frame.view or {}
    return f"High card · round {view.get('round', 1)}"


class Board(FramePane):
    def draw(self, frame: TableFrame) -> Text:
        view = frame.view or {}
        return Text(f"Toy board: points {view.get('points')}")


PANES = GamePanes(game_id="toy", board=Board, status=status)
'''

TOY_GAME = '''"""High card (toy): the GAME the registry finds."""

from core.games.toy import rules

GAME = rules.GAME
'''

#: What the fresh run does in the copy; it prints what it saw, one fact a line, for the test to read. It
#: waits on what the screen shows, pausing the app between looks (a bound on looks, not a time limit).
CHECKS = """
import asyncio

from core.registry import all_games, get_game
from core.simulate import simulate
from tui.app import Start, TurpinApp
from tui.hosting import plan_against_bots

print("games:", ",".join(all_games()))
game = get_game("toy")
summary = None
for summary in simulate(game, game.resolve_options({"players": 3}), 4, 11, ["random", "random", "random"]):
    pass
print("simulated:", summary.games)


def painted(app):
    return "\\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def until(pilot, condition):
    for _ in range(3000):
        if condition():
            return True
        await pilot.pause()
    return False


async def menu():
    app = TurpinApp(Start(), player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: type(app.screen).__name__ == "MenuScreen")
        await pilot.press("g")
        await until(pilot, lambda: type(app.screen).__name__ == "SetupScreen" and bool(app.screen.query("#setup-game")))
        app.screen.query_one("#setup-game").focus()
        await pilot.press("enter")
        print("listed:", await until(pilot, lambda: "High card" in painted(app)))


async def table():
    plan = plan_against_bots("toy", players=2, bot="random", seed=5)
    plan.bot_delay = 0
    app = TurpinApp(Start(route="play", plan=plan), player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(120, 40)) as pilot:
        seen = set()
        for _ in range(3000):
            await pilot.pause()
            name = type(app.screen).__name__
            if name == "ResultsScreen":
                break
            if name == "TableScreen":
                text = painted(app)
                seen |= {what for what in ("Toy board: points", "High card · round") if what in text}
                if app.screen.frame.choices and not app.screen.frame.sent:
                    await pilot.press("1")
        print("drawn:", ",".join(sorted(seen)))
        print("ended at:", type(app.screen).__name__)


asyncio.run(menu())
asyncio.run(table())
"""


def copy_with_a_toy_game(where: pathlib.Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__")
    for package in ("core", "net", "tui", "styles"):
        shutil.copytree(ROOT / package, where / package, ignore=ignore)
    (where / "core" / "games" / "toy").mkdir()
    rules = (ROOT / "tests" / "net_toy.py").read_text(encoding="utf-8")
    rules = rules.replace('id="net-toy", title="High card (network test toy)"', 'id="toy", title="High card"')
    (where / "core" / "games" / "toy" / "rules.py").write_text(rules, encoding="utf-8")
    (where / "core" / "games" / "toy" / "__init__.py").write_text(TOY_GAME, encoding="utf-8")
    (where / "tui" / "games" / "toy").mkdir()
    (where / "tui" / "games" / "toy" / "__init__.py").write_text(TOY_PANES, encoding="utf-8")


def test_a_fourth_game_is_two_folders_and_nothing_else(tmp_path):
    copy_with_a_toy_game(tmp_path)
    run = subprocess.run([sys.executable, "-c", CHECKS], cwd=tmp_path, capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    seen = dict(line.split(": ", 1) for line in run.stdout.splitlines() if ": " in line)
    assert seen["games"].split(",") == ["turpin", "highwayman", "money-or-life", "toy"]
    assert seen["simulated"] == "4"
    assert seen["listed"] == "True"  # the set-up's list of games shows the toy by its title
    assert seen["drawn"] == "High card · round,Toy board: points"  # its own status line and board
    assert seen["ended at"] == "ResultsScreen"
