"""Renew the README's picture, ``docs/table.svg``: the app itself, at a table of The Famous Dick Turpin
against three bots, a few moves in, drawn by Textual's own screenshot.

    python docs/make_picture.py [OUT.svg] [--size 120x36]

The game has a fixed seed and the moves are the first choice each time, so the picture changes only
when the app's drawing does. ``tests/test_docs.py`` runs this script, so it keeps working.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The game's record goes to a folder thrown away afterwards, not among the user's own games.
os.environ["TURPIN_RECORDS_DIR"] = tempfile.mkdtemp(prefix="turpin-picture-")

from tui.app import Start, TurpinApp  # noqa: E402  (the checkout, not an installed turpin)
from tui.glyphs import UNICODE  # noqa: E402
from tui.hosting import plan_against_bots  # noqa: E402

SEED = 20261128
#: Moves of ours before the picture: far enough that the log, the piles and a robbery have something.
OUR_MOVES = 3
#: Bounds on the pauses spent waiting for the table: a cap on work, not a time limit.
MAX_WAITS = 3000


async def picture(size: tuple[int, int]) -> str:
    plan = plan_against_bots("turpin", seed=SEED)
    plan.bot_delay = 0
    app = TurpinApp(Start(route="play", plan=plan), player_name="Ann", glyphs=UNICODE, lan_interfaces=[],
                    bell=False)
    app.TYPE_AHEAD_GUARD = app.NEW_QUESTION_GUARD = 0  # no person is reading: take every key at once
    async with app.run_test(size=size) as pilot:
        moves, answered = 0, None
        for _ in range(MAX_WAITS):
            frame = getattr(app.screen, "frame", None)
            prompt = frame.prompt["id"] if frame is not None and frame.choices else None
            if prompt is not None and prompt != answered:
                if moves == OUR_MOVES:
                    break
                await pilot.press("1")
                moves, answered = moves + 1, prompt
            await pilot.pause(0.02)
        else:
            raise RuntimeError(f"the table never asked for move {moves + 1}:\n{app.screen}")
        await pilot.pause(0.5)
        app.clear_notifications()
        await pilot.pause(0.1)
        return app.export_screenshot(title="turpin")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=pathlib.Path, default=ROOT / "docs" / "table.svg")
    parser.add_argument("--size", default="120x36", help="COLUMNSxROWS (default 120x36)")
    args = parser.parse_args()
    columns, rows = (int(part) for part in args.size.split("x"))
    args.out.write_text(asyncio.run(picture((columns, rows))), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
