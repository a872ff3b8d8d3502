"""How often the type-ahead guard refuses a person's key: whole games played through the app by a
scripted player who presses a move's key HUMAN_PACE (0.4 s) after each new move is painted, as someone
who looks before choosing does. Goal: under 5% of keys refused, in every game.

    python bench/typeahead.py [--games 1] [--size 100x30] [--guards 0.2,0.6]

``--guards SAME,NEW`` measures other guard seconds (0.2,0.6 were the guard's first values).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.registry import all_games  # noqa: E402
from tui.app import Start, TurpinApp  # noqa: E402
from tui.hosting import plan_against_bots  # noqa: E402
from tui.screens.table import TableScreen  # noqa: E402
from tui.type_ahead import HUMAN_PACE  # noqa: E402

GOAL = 0.05
#: Short games: the rate is per key, and a whole default game of every kind takes minutes at this pace.
SHORT = {"turpin": {"rounds": 1}, "money-or-life": {"rounds": 6}, "highwayman": {"series_games": 1}}


async def play_at_a_persons_pace(game_id: str, seed: int, size: tuple[int, int]) -> tuple[int, int]:
    """(keys pressed, keys refused) over one game."""
    plan = plan_against_bots(game_id, seed=seed, options=SHORT.get(game_id))
    plan.bot_delay = 0
    app = TurpinApp(Start(route="play", plan=plan), player_name="Ann", lan_interfaces=[], bell=False)
    pressed = refused = 0
    async with app.run_test(size=size) as pilot:
        answered = None
        while True:
            screen = app.screen
            if type(screen).__name__ == "ResultsScreen":
                break
            if type(screen).__name__ == "InterludeScreen":
                await pilot.pause(HUMAN_PACE)
                await pilot.press("enter")
                continue
            if not isinstance(screen, TableScreen):
                await pilot.pause(0.02)
                continue
            frame, shown_at = screen.frame, screen._prompt_shown_at
            prompt = frame.prompt
            if not prompt or frame.sent or not frame.choices or prompt["id"] == answered or math.isinf(shown_at):
                await pilot.pause(0.01)
                continue
            loop = asyncio.get_running_loop()
            # shown_at is time.monotonic(), as the loop's clock: wait until HUMAN_PACE after the paint
            await pilot.pause(max(0.0, shown_at + HUMAN_PACE - loop.time()))
            if screen.frame.prompt is None or screen.frame.prompt["id"] != prompt["id"] or screen.frame.sent:
                continue  # a one-choice move played itself, or the prompt changed meanwhile
            refused_before = screen._key_refused_at
            await pilot.press("1")
            pressed += 1
            answered = prompt["id"]
            await pilot.pause(0)
            if screen._key_refused_at != refused_before:
                refused += 1
                answered = None  # a person would press it again
    return pressed, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--size", default="100x30")
    parser.add_argument("--guards", help="SAME,NEW seconds instead of the app's own")
    args = parser.parse_args()
    if args.guards:
        TurpinApp.TYPE_AHEAD_GUARD, TurpinApp.NEW_QUESTION_GUARD = (float(s) for s in args.guards.split(","))
    print(f"guards: {TurpinApp.TYPE_AHEAD_GUARD:g} s for the same kind of question, "
          f"{TurpinApp.NEW_QUESTION_GUARD:g} s for a new one")
    width, height = (int(part) for part in args.size.split("x"))
    worst = 0.0
    for game_id in all_games():
        pressed = refused = 0
        for seed in range(args.games):
            keys, no = asyncio.run(play_at_a_persons_pace(game_id, seed + 1, (width, height)))
            pressed, refused = pressed + keys, refused + no
        rate = refused / pressed if pressed else 0.0
        worst = max(worst, rate)
        print(f"{game_id:14} {pressed:5} keys at {HUMAN_PACE:.1f} s after each move: {refused} refused "
              f"({rate:.1%}; goal < {GOAL:.0%})", flush=True)
    print(f"worst refusal rate {worst:.1%}: {'met' if worst < GOAL else 'NOT met'}")


if __name__ == "__main__":
    main()
