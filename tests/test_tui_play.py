"""Issue 8: whole games through the app, by keys only, against bots on a private table."""

from __future__ import annotations

import pytest

from tests.tui_helpers import play_to_results, quick_app, screen_name, wait_until


def screen_text(app) -> str:
    """Everything the screen shows, as plain text (what a person reads)."""
    return app.export_screenshot()  # SVG text: the words are in it


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_a_whole_dick_turpin_game_by_keys(size):
    app = quick_app("turpin", players=3, seed=11)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: screen_name(app) == "TableScreen", "the table")
        table = app.screen
        await wait_until(pilot, lambda: table.frame.view is not None, "the first table")
        assert table.frame.seat == 0
        assert "Oxford" in str(table.frame.view["hand"])
        moves = await play_to_results(pilot, app)
        assert moves > 6
        results = app.screen
        assert results.frame.result is not None
        await pilot.press("m")
        await wait_until(pilot, lambda: screen_name(app) == "MenuScreen", "the menu")
