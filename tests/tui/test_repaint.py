"""The table repaints what changed and nothing more: the log scrolls back on its own count of lines,
the panes keep their places, and a pane's lines are drawn as Rich would draw them."""

from __future__ import annotations

import asyncio

import pytest
from rich.text import Text
from textual.app import App, ComposeResult

from net.client import ClientUpdate
from tests.tui_helpers import at_table, flat, quick_app, region_text, screen_text
from tests.waiting import until
from tui.screens.table import TableScreen
from tui.widgets.choices import ChoiceList
from tui.widgets.log import TableLog, lines_kept_on_jump


def hear_chat(app, text: str, sender: str = "Moll") -> None:
    """A chat line as the client would pass it on to the table screen."""
    message = {"from": sender, "seat": 1, "text": text}
    app.screen.post_message(TableScreen.Updated(ClientUpdate("chat", message=message)))


def log_shows(app, *words: str, without: tuple[str, ...] = ()) -> bool:
    shown = region_text(app, "#log")
    return all(word in shown for word in words) and not any(word in shown for word in without)


async def test_the_log_scrolls_back_keeps_the_readers_place_and_returns_to_the_newest():
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600  # the table holds still while we read
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: at_table(app), "the table", pilot=pilot)
        for number in range(1, 61):
            hear_chat(app, f"note {number:02d}")
        # The newest at the bottom, and the border says how much is above.
        await until(lambda: log_shows(app, "note 60", "lines above", without=("note 01",)),
                    "the newest lines", pilot=pilot)

        app.screen.query_one(TableLog).focus()
        await pilot.press("home")
        await until(lambda: log_shows(app, "note 01", "PgUp/PgDn", without=("note 60",)),
                    "the oldest lines", pilot=pilot)

        log = app.screen.query_one(TableLog)
        below = int(log.border_subtitle.split(" below")[0].rsplit(" ", 1)[1])
        hear_chat(app, "note 61")  # the table goes on while someone reads back: the page stays
        await until(lambda: "note 61" in app.screen.query_one(TableLog).plain_lines[-1], "the new line kept",
                    pilot=pilot)
        await until(lambda: log_shows(app, "note 01", without=("note 61",)), "the same page", pilot=pilot)
        # ... and the border says there is more below than before.
        await until(lambda: f" {below + 1} below" in log.border_subtitle, "one more line below", pilot=pilot)

        await pilot.press("end")
        await until(lambda: log_shows(app, "note 61", without=("note 01", "PgUp")), "the newest again", pilot=pilot)

        await pilot.press("pageup")
        await until(lambda: log_shows(app, "PgUp/PgDn", without=("note 61",)), "a page back", pilot=pilot)


def log_rows(app) -> list[str]:
    """The log pane's rows as painted, borders dropped."""
    return [row.strip("│┃╭╮╰╯─━ ") for row in region_text(app, "#log").splitlines()[1:-1]]


async def test_the_log_jump_scrolls_so_lines_stay_put_until_the_pane_is_full():
    """New lines are written under the last ones; only a full pane moves, by a third at once, and a page
    never opens on the tail of a wrapped line."""
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: at_table(app), "the table", pilot=pilot)
        for number in range(1, 200):
            hear_chat(app, f"note {number:03d}")
            await until(lambda: log_shows(app, f"note {number:03d}"), f"note {number:03d}", pilot=pilot)
            if log_rows(app)[-1]:
                break  # the pane is full to its last row
        rows = log_rows(app)
        height = len(rows)
        assert height == app.screen.query_one(TableLog).content_size.height
        hear_chat(app, "note after")  # no room: the lines jump up a third of the pane
        await until(lambda: log_shows(app, "note after"), "the jump", pilot=pilot)
        jumped = log_rows(app)
        kept = height - height // 3
        assert jumped[kept - 1].endswith("note after") and not any(jumped[kept:])
        assert jumped[:kept - 1] == rows[height - kept + 1:]
        hear_chat(app, "a long line " * 8)  # wraps: written below, nothing above moves
        await until(lambda: "a long line" in log_rows(app)[kept], "the long line", pilot=pilot)
        assert log_rows(app)[kept + 1].startswith("line")
        assert log_rows(app)[:kept] == jumped[:kept]
        for number in range(8):  # pages jump as long lines come: each opens on a whole line, not a tail
            hear_chat(app, f"long {number} " + "a long line " * 8)
            await until(lambda: any(row.startswith(f"Moll: long {number}") for row in log_rows(app)),
                        f"long line {number}", pilot=pilot)
            assert log_rows(app)[0].startswith("Moll:")
        assert log_rows(app)[0].startswith("Moll: long")  # the pages did turn over the long lines


def test_a_log_that_gets_long_batches_jumps_far_enough_to_fit_the_next():
    """A log written a line at a time jumps by a third of the pane; one written eight lines a table (Your
    Money or Your Life) leaves room for the next batch after a jump, so it does not repaint the whole pane
    at every table, and still keeps the last lines read above the new ones; a batch longer than the
    pane fills it."""
    assert lines_kept_on_jump(22, 1, [1, 1, 1]) == 22 - 22 // 3
    kept = lines_kept_on_jump(22, 8, [2, 8, 6, 8])
    assert 22 - kept >= 8  # the next eight lines fit without a jump
    assert kept - 8 >= 22 // 6  # above the new lines, a few lines already read
    assert lines_kept_on_jump(22, 30, [30]) == 22
    # A robbery told in 14 lines, then the next round's 2: the robbery stays whole above them.
    assert lines_kept_on_jump(23, 2, [3, 14, 2]) >= 14 + 2
    assert lines_kept_on_jump(23, 2, [3, 30, 2]) == 23  # one too long to keep whole: the pane full


async def test_the_log_shows_names_and_chat_literally():
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: at_table(app), "the table", pilot=pilot)
        hear_chat(app, "says [b]hi[/b]", sender="[@click=app.quit]x[/]")
        await until(lambda: "[@click=app.quit]x[/]: says [b]hi[/b]" in flat(region_text(app, "#log")),
                    "the chat line", pilot=pilot)
        assert app.is_running


async def test_on_a_narrow_terminal_brackets_go_from_pane_to_pane_and_the_footer_says_so():
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: at_table(app), "the table", pilot=pilot)
        await until(lambda: "[ ] panes" in screen_text(app), "the pane keys in the footer", pilot=pilot)
        tabs = app.screen.query_one("#pane-tabs")
        assert tabs.active == "tab-board"
        await pilot.press("right_square_bracket")
        await until(lambda: tabs.active == "tab-hand", "the hand", pilot=pilot)
        await until(lambda: "Face down" in screen_text(app), "the hand on screen", pilot=pilot)
        await pilot.press("left_square_bracket", "left_square_bracket")
        await until(lambda: tabs.active == "tab-log", "round to the log", pilot=pilot)
        await pilot.press("1")  # the move list keeps the keys while the panes turn
        await until(lambda: app.screen.frame.sent or app.screen.frame.view.get("my_card"),
                    "the card laid", pilot=pilot)


async def test_on_a_wide_terminal_there_are_no_pane_keys():
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: at_table(app) and "rules" in screen_text(app), "the table", pilot=pilot)
        assert "[ ] panes" not in screen_text(app)
        await pilot.press("right_square_bracket")  # nothing to turn, nothing breaks
        assert app.is_running


async def test_a_short_wide_terminal_keeps_every_pane_in_view_and_only_a_small_one_folds_into_tabs():
    """At 120×30 the table folded into tabs and showed only the board. Now it stacks the panes,
    with the whole hand in view (no scrollbar); wide and short (200×30) puts them side by side, by a class
    on the same panes; only a small terminal (80×24) folds them into tabs."""
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 30)) as pilot:
        await until(lambda: at_table(app), "the table", pilot=pilot)
        screen = app.screen
        assert screen.has_class("-stacked") and not screen.query_one("#pane-tabs").display
        hand = screen.query_one("#hand")
        await until(lambda: hand.virtual_size.height > 0, "the hand drawn", pilot=pilot)
        assert hand.virtual_size.height <= hand.scrollable_content_region.height
        hand_towns = screen.frame.view["hand"]
        await until(lambda: all(town in screen_text(app) for town in hand_towns), "the whole hand", pilot=pilot)
        assert "[ ] panes" not in screen_text(app)
        await pilot.resize_terminal(200, 30)
        await until(lambda: screen.has_class("-columns"), "the columns", pilot=pilot)
        assert screen.query_one("#hand") is hand  # laid out anew by a class, not rebuilt
        await pilot.resize_terminal(80, 24)
        await until(lambda: "[ ] panes" in screen_text(app), "the tabs", pilot=pilot)
        assert screen.query_one("#hand") is hand  # folded by classes too
        await pilot.resize_terminal(120, 40)
        await until(lambda: not screen.query_one("#pane-tabs").display
                    and "[ ] panes" not in screen_text(app), "every pane at once", pilot=pilot)


class ChoicesApp(App):
    CSS = "ChoiceList { height: 5; }"

    def __init__(self) -> None:
        super().__init__()
        self.picked: list[int] = []

    def compose(self) -> ComposeResult:
        yield ChoiceList(id="choices")

    def on_choice_list_selected(self, message: ChoiceList.Selected) -> None:
        self.picked.append(message.index)


def rows_of(app: App) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def test_a_long_list_of_choices_scrolls_with_the_cursor_and_says_there_is_more():
    """The move list keeps its height: what does not fit is marked ▼/▲ and the cursor scrolls to it."""
    app = ChoicesApp()
    async with app.run_test(size=(40, 8)) as pilot:
        choices = app.query_one(ChoiceList)
        choices.set_choices([Text(f"[{n}] choice number {n}") for n in range(1, 13)])
        choices.focus()
        await pilot.pause()
        rows = rows_of(app)
        assert "[1] choice number 1" in rows[0] and "[5] choice number 5" in rows[4] and rows[4].endswith("▼")
        assert not any("choice number 6" in row for row in rows)

        await pilot.press("end")
        await pilot.pause()
        rows = rows_of(app)
        assert choices.highlighted == 11 and "[12] choice number 12" in rows[4] and rows[0].endswith("▲")

        await pilot.press("up", "enter")
        assert app.picked == [10]
        # A click picks the row it lands on (the list is scrolled to show 8 to 12).
        await pilot.click(choices, offset=(3, 0))
        assert app.picked == [10, 7]


async def test_a_wrapped_choice_is_picked_by_a_click_on_any_of_its_lines():
    app = ChoicesApp()
    async with app.run_test(size=(20, 8)) as pilot:
        choices = app.query_one(ChoiceList)
        choices.set_choices([Text("[1] a short one"), Text("[2] a choice far too long for one line")])
        await pilot.pause()
        rows = rows_of(app)
        assert rows[1].startswith("[2] a choice") and rows[2].strip(), rows  # choice 2 wraps onto row 3
        await pilot.click(choices, offset=(2, 2))
        assert app.picked == [1]


def test_a_line_that_fits_is_drawn_as_rich_draws_it():
    """The short way for one-line texts (most lines of a pane) gives the very segments Rich's own
    wrapping and cropping give, styles, meta (a click target) and padding included."""
    from rich.console import Console
    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    from tui.widgets.lines import fits_one_line, render_strips

    console = Console(width=120, color_system="truecolor", force_terminal=True)

    def as_rich_draws(text: Text, width: int) -> list[list[Segment]]:
        lines = Segment.split_and_crop_lines(console.render(text, console.options.update_width(width)), width,
                                             pad=True, include_new_lines=False)
        return [list(Strip(line, width)) for line in lines]

    texts = [Text(""), Text("Round 3 of 16"), Text("bold line", style="bold"),
             Text("on red", style=Style(bgcolor="red")), Text("  spaced out   "),
             Text.assemble(("[1] ", "bold reverse"), "North · £8",
                           (" ▸ you", Style(italic=True, meta={"target": "where:N"}))),
             Text("⚄5 combat  ⚅6 speed  £12 — ★"), Text("x" * 40)]
    for text in texts:
        for width in (40, 41, 80):
            assert fits_one_line(text, width) == (text.cell_len <= width)
            drawn = [list(strip) for strip in render_strips(console, text.copy(), width)]
            assert drawn == as_rich_draws(text.copy(), width)
    two_lines = Text("first\nsecond")
    assert not fits_one_line(two_lines, 80)
    assert [list(strip) for strip in render_strips(console, two_lines, 80)] == as_rich_draws(two_lines, 80)


async def test_a_pane_that_keeps_its_tallest_keeps_its_scrollbar_and_shows_new_lines_from_the_top():
    """A pane whose news comes and goes (the York hand between robberies) shows its scrollbar once and
    keeps it: a scrollbar that came and went with each table laid the whole table out each time, and
    rewrapped the pane's words to a width one scrollbar narrower and back."""
    from tui.widgets.lines import LinePane

    class Tallest(LinePane):
        KEEP_TALLEST = True
        DEFAULT_CSS = "Tallest { height: 5; }"

    class OnePane(App):
        def compose(self) -> ComposeResult:
            yield Tallest()

    app = OnePane()
    async with app.run_test(size=(30, 8)) as pilot:
        pane = app.query_one(Tallest)
        pane.show([Text(f"builder line {number}") for number in range(1, 9)])
        # The first showing lays the pane out (its scrollbar comes): on a busy machine that can take more
        # than one pause, and must be over before the layouts are counted.
        for _ in range(3):
            await until(lambda: pane.show_vertical_scrollbar and not app.screen._layout_required,
                        "the first layout over", pilot=pilot)
            await pilot.pause()
        layouts = []
        real_refresh_layout = app.screen._refresh_layout
        def counted_refresh_layout(*args, **kwargs):
            layouts.append(1)
            return real_refresh_layout(*args, **kwargs)
        app.screen._refresh_layout = counted_refresh_layout
        for _ in range(3):
            pane.show([Text("dice 3 and 5"), Text("you picked North")])
            await pilot.pause()
            assert pane.show_vertical_scrollbar
            pane.show([Text(f"builder line {number}") for number in range(1, 9)])
            await pilot.pause()
        assert layouts == []
        pane.show([Text("dice 3 and 5"), Text("you picked North")])
        await pilot.pause()
        assert screen_text(app).splitlines()[0].startswith("dice 3 and 5")


@pytest.mark.slow
async def test_a_choice_shows_as_sent_only_while_the_host_is_slow_to_answer(monkeypatch):
    """A host that answers at once takes the table straight to the next move; a slow one gets "Sent;
    waiting for the table…" after a moment; either way a second key does not send the move twice."""
    from tui.widgets import prompt

    # A moment long enough that two key presses surely fit in it, even on a busy machine.
    monkeypatch.setattr(prompt, "SHOW_SENT_AFTER", 2.0)
    SHOW_SENT_AFTER = prompt.SHOW_SENT_AFTER
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: at_table(app) and bool(app.screen.frame.choices), "your move", pilot=pilot)
        client = app.screen.client
        sent, send = [], client.send

        async def slow_send(message):
            sent.append(message)
            await asyncio.sleep(SHOW_SENT_AFTER * 4)
            await send(message)

        client.send = slow_send
        await pilot.press("1")
        await pilot.press("1")  # before the host has answered
        assert "Sent; waiting" not in screen_text(app)
        await until(lambda: "Sent; waiting for the table" in screen_text(app), "the pending line", pilot=pilot)
        await until(lambda: app.screen.frame.view.get("my_card") is not None, "the host's answer", pilot=pilot)
        assert len(sent) == 1
        client.send = send


async def test_a_theme_switch_repaints_the_cards_in_the_new_themes_colours():
    """After ctrl+t to the light theme, Highwayman's hand takes the light theme's card backgrounds too
    (not the dark theme's under the light theme's dark words, near-black on navy): a pane's component
    colours are read again once the new theme has reached them."""
    app = quick_app("highwayman", players=3, seed=5)
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: type(app.screen).__name__ == "TableScreen"
                    and app.screen.frame.view is not None, "the table", pilot=pilot)
        hand = app.screen.query_one("#hand")

        def card_backgrounds() -> set:
            return {segment.style.bgcolor for segment in hand._strips[0]
                    if segment.style is not None and segment.style.bgcolor is not None}
        await until(lambda: bool(card_backgrounds()), "the cards drawn", pilot=pilot)
        dark = card_backgrounds()
        await pilot.press("ctrl+t")
        await until(lambda: app.theme == "textual-light", "the light theme", pilot=pilot)
        hand.refresh()  # forget any colour read before, to ask the stylesheet afresh below
        light_card = hand.get_component_rich_style("hw-hand--card").bgcolor
        await until(lambda: light_card in card_backgrounds(), "the cards in the light theme", pilot=pilot)
        assert not dark & card_backgrounds(), "no card keeps the dark theme's background"


async def test_the_chat_box_says_how_many_characters_are_left_near_its_limit():
    """A chat line holds 200 characters, and a paste past that is not cut without a word: near the end
    the box counts down, and at the end it says so."""
    from tui.widgets.chat import MAX_CHAT
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: at_table(app), "the table", pilot=pilot)
        await pilot.press("t")
        chat = app.screen.query_one("#chat")
        await until(lambda: app.screen.focused is chat, "the chat box", pilot=pilot)
        await pilot.press(*"hello")
        assert chat.border_subtitle == ""
        chat.insert_text_at_cursor("x" * 170)
        await until(lambda: chat.border_subtitle == f"{MAX_CHAT - 175} characters left", "the count", pilot=pilot)
        chat.insert_text_at_cursor("y" * 500)
        await until(lambda: chat.border_subtitle == f"{MAX_CHAT} characters at most", "the limit", pilot=pilot)
        assert len(chat.value) == MAX_CHAT


async def test_chat_said_while_the_log_is_behind_another_tab_shows_as_a_toast():
    """A chat line always shows (at 100×30 on the Board tab, say): with the log out of view it shows as a
    toast too (literally: names and text are never markup); with the log in view, not."""
    app = quick_app("turpin")
    app.start.plan.bot_delay = 3600
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until(lambda: at_table(app), "the table", pilot=pilot)
        hear_chat(app, "Ann, look [b]here[/b]")
        await until(lambda: any(n.title == "Chat" for n in app._notifications), "the toast", pilot=pilot)
        assert any(n.message == "Moll: Ann, look [b]here[/b]" and not n.markup for n in app._notifications)
        app.clear_notifications()
        app.screen.query_one("#pane-tabs").active = "tab-log"
        await pilot.pause()
        hear_chat(app, "and again")
        await until(lambda: log_shows(app, "and again"), "the line in the log", pilot=pilot)
        assert not any(n.title == "Chat" for n in app._notifications)
