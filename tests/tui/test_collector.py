"""Python's cycle collector is held off while a table update is drawn and always comes back: an update
on screen, a flood of updates, leaving the table, a scroll that holds it itself."""

from __future__ import annotations

import gc

import pytest

from tests.tui_helpers import at_table, play_to_results, quick_app
from tests.waiting import until
from tui import collector
from tui.collector import CollectorHold


@pytest.fixture(autouse=True)
def collector_on_after():
    """Whatever a test does, the next one starts with the collector on."""
    yield
    gc.enable()


def test_a_hold_turns_the_collector_off_until_released():
    hold = CollectorHold()
    hold.hold()
    assert not gc.isenabled() and hold.holding
    hold.hold()  # held already: still one hold
    hold.release()
    assert gc.isenabled() and not hold.holding
    hold.release()  # released already: nothing to do
    assert gc.isenabled()


def test_a_busy_release_waits_for_the_next_update_but_never_past_the_longest_hold(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(collector.time, "monotonic", lambda: now[0])
    hold = CollectorHold()
    hold.hold()
    hold.release(busy=True)
    assert not gc.isenabled()  # another update is on its way: it releases once painted
    now[0] += collector.LONGEST_HOLD
    hold.release(busy=True)
    assert gc.isenabled()  # a flood of updates cannot keep it off for ever


def test_a_hold_leaves_alone_a_collector_someone_else_turned_off():
    gc.disable()  # as Textual does during a smooth scroll
    hold = CollectorHold()
    hold.hold()
    assert not hold.holding
    hold.release()
    assert not gc.isenabled()  # still theirs to turn back on


async def test_the_collector_is_held_for_table_updates_and_back_on_between_them_and_after_the_game():
    app = quick_app("money-or-life", seed=3)
    app.start.plan.bot_delay = 0.05
    seen: list[bool] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: at_table(app), "the table", pilot=pilot)

        def look() -> None:
            if not seen or seen[-1] != gc.isenabled():
                seen.append(gc.isenabled())

        watcher = app.set_interval(0.005, look)
        await play_to_results(pilot, app)
        watcher.stop()
        comebacks = sum(1 for before, after in zip(seen, seen[1:]) if not before and after)
        assert comebacks >= 5, f"held and released between updates: {seen}"
        await pilot.pause(collector.RELEASE_AFTER_PAINT * 3)
        assert gc.isenabled()
    assert gc.isenabled()


async def test_start_up_is_held_until_the_menu_is_painted_then_set_aside_and_collecting_resumes():
    from tests.tui_helpers import screen_text
    from tui.app import TurpinApp

    frozen_before = gc.get_freeze_count()
    collector.startup.hold()  # as ``turpin`` does before it loads the app
    app = TurpinApp(player_name="Ann", lan_interfaces=[], bell=False)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(lambda: "Play against bots" in screen_text(app), "the menu", pilot=pilot)
            await until(gc.isenabled, "collecting to resume", pilot=pilot)
            assert gc.get_freeze_count() > frozen_before, "start-up's objects set aside"
            assert not collector.startup.holding
    finally:
        gc.unfreeze()


async def test_an_app_started_without_the_hold_freezes_nothing():
    from tests.tui_helpers import screen_text
    from tui.app import TurpinApp

    frozen_before = gc.get_freeze_count()
    app = TurpinApp(player_name="Ann", lan_interfaces=[], bell=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(lambda: "Play against bots" in screen_text(app), "the menu", pilot=pilot)
        await pilot.pause(collector.RELEASE_AFTER_PAINT * 3)  # as long as a hold would last
        assert gc.isenabled() and gc.get_freeze_count() == frozen_before
