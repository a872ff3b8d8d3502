"""Your Money or Your Life in the shared screens' words: the status line, a rider's summary, the choices,
the question before a move that ends your game, the results.

The board (York and its coaches), the hand (your dice and the robbery builder), the sheet and the robbery
advice each have a module of their own beside this one. Every value comes from the seat's view.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from core.games.money_or_life import rules
from tui.frame import TableFrame
from tui.games.money_or_life.advice import assignment_key, robbery_label, worst_words
from tui.games.money_or_life.common import (
    PLACE_NAMES,
    coach_at,
    dice,
    money,
    my_player,
    riders_named,
    robbers_of,
    view_of,
)

# --- hooks the table screen asks --------------------------------------------------------------------------

#: A newcomer's words, said once in the log where each first matters (``glossary``).
GLOSSARY = {
    "scoundrel": "Scoundrel (Y7): a point for each point your combat beats a coach's by; every 5 send a guard "
                 "to wherever you ride (Y6). It counts against your score (guineas + folk hero − scoundrel) "
                 "unless you declare you play as a scoundrel, at any time and for good: then your score is "
                 "guineas + scoundrel − folk hero (Y13).",
    "folk hero": "Folk hero (Y7): a point for each point your wit beats a coach's by, and the shortfall lost "
                 "when it falls short (never below 0); every 5 call out a guard somewhere at random (Y6). It "
                 "adds to your score, or counts against it once you play as a scoundrel (Y13).",
    "guards": "Guards (Y6): placed as the picks are shown, one at random for each 5 folk hero points of a "
              "rider and one where he rides for each 5 scoundrel points. At a coach each adds 5 to its "
              "combat; in town you fight them first, a fresh die and your weapons against 5 a guard (Y9).",
}


def glossary(frame: TableFrame) -> list[tuple[str, str]]:
    """Scoundrel at your first pick (declaring is one of its choices) and folk hero at your first robbery
    (the ways to share your dice gain or lose it), or either once your track moves; guards once any are
    placed, or once you would have some."""
    view = view_of(frame)
    me = my_player(view) if view else None
    if not view or me is None:
        return []
    kinds = {choice["action"].get("do") for choice in frame.choices}
    due = []
    if kinds & {"pick", "play_as_scoundrel", "assign"} or me.get("scoundrel"):
        due.append("scoundrel")
    if "assign" in kinds or me.get("folk_hero"):
        due.append("folk hero")
    if any(view.get("guards", {}).values()) or me.get("folk_hero", 0) >= 5 or me.get("scoundrel", 0) >= 5:
        due.append("guards")
    return [(word, GLOSSARY[word]) for word in due]


PHASE_WORDS = {"pick": "pick where to ride", "rob": "robberies", "town": "in town", "over": "game over"}


def status(frame: TableFrame) -> str:
    view = view_of(frame)
    if not view:
        return frame.title
    words = PHASE_WORDS.get(view["phase"], view["phase"])
    if view["phase"] == "over":
        return f"{frame.title} · game over after round {view['round']}"
    line = f"Round {view['round']} of {view['rounds']} · {words}"
    if view.get("solo") and view["round"] >= rules.RIVAL_WAKES:
        line += f" · rival £{view['rival']}"
    return line


def waiting_for(frame: TableFrame) -> list[int]:
    return list(view_of(frame).get("pending", []))


def seat_summary(frame: TableFrame, seat: int) -> str:
    view = view_of(frame)
    if not view or seat >= len(view.get("players", [])):
        return ""
    player = view["players"][seat]
    line = f"{money(player['guineas'], frame.glyphs)} · score {player['score']}"
    if player["status"] != "riding":
        line += f" · {player['status']}"
    return line


def laid_word() -> str:
    """Y4: a rider has chosen where to ride (a secret pick, not a card laid)."""
    return "chosen"


def laid(frame: TableFrame, seat: int) -> bool | None:
    view = view_of(frame)
    if not view or view["phase"] != "pick" or seat >= len(view["players"]):
        return None
    player = view["players"][seat]
    if player["status"] != "riding":
        return None
    return bool(player["picked"])


def score_track(view: dict[str, Any]) -> list[float]:
    """Each seat's score and, in solo, the rival's money after it (Y16: his money is his score): the
    results chart draws him as a row of his own, named as ``others_in_the_result`` names him."""
    scores = [float(player["score"]) for player in view["players"]]
    return scores + [float(view["rival"])] if view.get("solo") else scores


def reveal_item(value: Any) -> str:
    """The results' reveal (A2) in words: a pick "E" is "East"; numbers stay numbers (a coach card's
    number and a die look alike without the key they come under)."""
    if isinstance(value, str):
        return rules.DIRECTION_NAMES.get(value, value)
    return str(value)


def reveal_text(reveal: dict[str, Any], frame: TableFrame) -> Text:
    """A2 in words: the coaches by name (still face down in the pile, next first, then the discards: a
    pile used up is the discards shuffled anew, Y12, so neither is "never dealt"), the last round's secret
    dice and picks by seat, and in solo the rival's money."""
    def coaches(cards: list[int]) -> str:
        return "; ".join(rules.COACHES[card][0] for card in cards) or "none"

    text = Text()
    for label, cards in (("Coaches still in the pile, next first", reveal.get("deck", [])[::-1]),
                         ("Coaches on the discard pile", reveal.get("discards", []))):
        text.append(f"  {label}: ", style="bold")
        text.append(f"{coaches(cards)}\n")
    text.append("  The last round's secret dice and picks\n", style="bold")
    picks = reveal.get("picks", [])
    for seat, dice_values in enumerate(reveal.get("dice", [])):
        pick = picks[seat] if seat < len(picks) else None
        where = PLACE_NAMES.get(pick, str(pick)) if pick else "no pick"
        text.append(f"    {frame.plain_name(seat)}: {dice(dice_values, frame.glyphs) or 'no dice'} · {where}\n")
    if view_of(frame).get("solo"):
        text.append("  The rival's money: ", style="bold")
        text.append(f"{money(reveal.get('rival', 0), frame.glyphs)}\n")
    return text


def scoundrel_score_in_words(me: dict[str, Any]) -> str:
    """Y13: what declaring changes, now: "you would score 7 (now −3)", or that it changes nothing yet."""
    as_scoundrel = rules.score({**me, "as_scoundrel": True})
    if as_scoundrel == me["score"]:
        return f"your score stays {rules.signed(as_scoundrel, plus=False)} for now"
    return f"you would score {rules.signed(as_scoundrel, plus=False)} (now {rules.signed(me['score'], plus=False)})"


def confirm_choice(frame: TableFrame, action: dict[str, Any]) -> tuple[str, str, str, str] | None:
    """Moves that cannot be taken back, each on one key, asked first: retiring ends your game (Y14), and
    playing as a scoundrel is for the rest of it (Y13), in every list where a stray key could pick it."""
    me = my_player(view_of(frame)) or {}
    if action.get("do") == "play_as_scoundrel" and "score" in me:
        return ("Play as a scoundrel for the rest of the game?",
                "Everyone is told, and it cannot be undone: from now on you score guineas + scoundrel − folk "
                f"hero instead of guineas + folk hero − scoundrel; {scoundrel_score_in_words(me)}.",
                "Play as a scoundrel", "Not now")
    if action.get("do") != "pick" or action.get("where") != "retire":
        return None
    score = f" with a score of {me['score']}" if "score" in me else ""
    others = ("the rival rides on alone to the last round, and you win if your score beats his money (Y16)"
              if view_of(frame).get("solo") else "the other player rides on without you")
    return ("Retire from the road?", f"You leave the game for good{score}; {others} (Y14).", "Retire", "Ride on")


def result_note(frame: TableFrame, seat: int) -> str:
    """Y11, Y14: a rider who died loses whatever his score (a score of 12 above the rival's 0 read as a
    win), and one who retired kept his score from then."""
    players = view_of(frame).get("players") or []
    status = players[seat].get("status") if 0 <= seat < len(players) else None
    if status == "dead" and len(players) > 1 and all(player.get("status") == "dead" for player in players):
        # Y11: when both hang the reputation decides, not the score beside it
        return f" (died, reputation {rules.signed(rules.reputation(players[seat]))})"
    return {"dead": " (died)", "retired": " (retired)"}.get(str(status), "")


def final_tracks(frame: TableFrame, seat: int) -> str:
    """Every rider's tracks at the end (revealed to all with the result): folk hero, scoundrel, health
    and purse, and whether he scored as a scoundrel."""
    players = view_of(frame).get("players") or []
    if not 0 <= seat < len(players) or "folk_hero" not in players[seat]:
        return ""
    player = players[seat]
    tracks = (f"folk hero {player['folk_hero']} · scoundrel {player['scoundrel']} · "
              f"health {player['health']} of {rules.MAX_HEALTH} · {money(player['guineas'], frame.glyphs)}")
    return tracks + (" · scored as a scoundrel" if player.get("as_scoundrel") else "")


def others_in_the_result(frame: TableFrame) -> list[tuple[str, int, bool]]:
    """Y16: in solo the rival sits at the table without a seat; his money is his score, and he wins when
    the highwayman does not beat it."""
    result = frame.result or {}
    if not view_of(frame).get("solo") or "rival" not in result.get("reveal", {}):
        return []
    return [("the rival", result["reveal"]["rival"], not result.get("winners"))]


def prompt_title(frame: TableFrame) -> str:
    view = view_of(frame)
    me = my_player(view)
    phase = view.get("phase")
    if phase == "pick":
        if me and me["must_rest"]:
            return "you spurred last round: rest at the tavern (Y5)"
        # Your dice decide where to ride, and at 80 columns the hand that shows them is another tab.
        mine = view.get("my_dice")
        if mine:  # (short enough for one line at 80 columns)
            return f"your dice {dice(mine, frame.glyphs)}: where do you ride? (secret until the reveal)"
        return "where do you ride this round? (secret until the reveal)"
    if phase == "rob" and me and me.get("pick") in rules.DIRECTIONS:
        coach = coach_at(view, me["pick"])
        name = coach["name"] if coach else PLACE_NAMES[me["pick"]]
        partners = [seat for seat in robbers_of(view, me["pick"]) if not frame.is_me(seat)]
        # Y8: each line tells the robbery alone; the hand says how a shared one pools.
        shared = ""
        if partners:  # a shared purse is split: say each rider's share, not the whole purse
            each = f", {money(coach['money'] // 2, frame.glyphs)} each" if coach else ""
            shared = (f" (shared with {riders_named(frame, partners)}: each line alone, and together if he shares "
                      f"his dice as the normal bot would: wit and combat pool{each})")
        return f"share your dice between speed, wit and combat against {name}{shared}"
    if phase == "town" and me and me.get("pick") in rules.TOWN:
        return f"in {PLACE_NAMES[me['pick']]}: you have {money(me['guineas'], frame.glyphs)}"
    return ""


def choice_matches(action: dict[str, Any], target: str) -> bool:
    """``where:N`` (a coach, the tavern, the market) picks that place; ``assign:KEY`` one robbery."""
    kind, _, value = target.partition(":")
    if kind == "where":
        return action.get("do") == "pick" and action.get("where") == value
    if kind == "assign":
        return action.get("do") == "assign" and assignment_key(action) == value
    return False



def choice_label(frame: TableFrame, choice: dict[str, Any]) -> RenderableType:
    view, action = view_of(frame), choice["action"]
    glyphs = frame.glyphs
    kind = action.get("do")
    if kind == "assign":
        return robbery_label(frame, action, glyphs)
    text = Text(str(choice.get("text", "")))
    me = my_player(view)
    if kind == "pick":
        where = action["where"]
        if where in rules.DIRECTIONS:
            coach = coach_at(view, where)
            if coach:
                text.append(f" — {coach['name']}, {money(coach['money'], glyphs)}", style="dim")
                text.append_text(worst_words(view, me, where))
        elif where == "tavern":
            text.append(f" — health at {rules.HEAL_PRICE['tavern']} guineas a point", style="dim")
        elif where == "market":
            text.append(f" — horses, weapons, gear; food at {rules.HEAL_PRICE['market']} guineas a point",
                        style="dim")
        if where in rules.DIRECTIONS or where in rules.TOWN:
            text.append_text(_own_guards_at(view, me, where))
        elif where == "retire" and me:
            text.append(f" — leave the road with a score of {me['score']}", style="dim")
    elif kind == "play_as_scoundrel" and me:
        text.append(f" — for good; {scoundrel_score_in_words(me)}", style="dim")
    elif kind == "heal" and me and me.get("pick") in rules.HEAL_PRICE:
        text.append(f" — {money(rules.HEAL_PRICE[me['pick']], glyphs)} · health {me['health']} → "
                    f"{me['health'] + 1}", style="dim")
    elif kind == "give":
        text.append(f" — {money(rules.GIFT_PRICE, glyphs)} · scoundrel −1, folk hero +1", style="dim")
    elif kind == "buy" and me:
        item = str(action.get("item"))
        price = next((p for offer, p in rules.purchases(me) if offer == action), None)
        kind_, _, bonus = rules.ITEMS.get(item, ("", 0, 0))
        stat = {"horse": "speed", "weapon": "combat", "gear": "wit"}.get(kind_, "")
        # What the stat gains, net of what is traded in, as the price is
        given_up = sum(rules.ITEMS[old][2] for old in rules.traded_in(me, action) if old in rules.ITEMS)
        gain = (f"{stat} {rules.signed(bonus - given_up)} (+{bonus} in place of +{given_up})" if given_up
                else f"{stat} +{bonus}")
        if price is not None:
            text.append(f" — {money(price, glyphs)} · {gain}", style="dim")
    elif kind == "leave" and me:
        text.append(f" — keep your {money(me['guineas'], glyphs)}", style="dim")
    return text



def _own_guards_at(view: dict[str, Any], me: dict[str, Any] | None, where: str) -> Text:
    """Y6: a scoundrel's own guards follow him wherever he rides, which is certain when he picks: at a coach
    they add to its combat, in town he fights them first (Y9). The sheet showed only the count, and the +5
    came to light only once the pick was made."""
    guards = me["scoundrel"] // rules.GUARD_STEP if me and me.get("status") == "riding" else 0
    if not guards:
        return Text()
    yours = "a guard on your trail" if guards == 1 else f"{guards} guards on your trail"
    if where in rules.TOWN:
        each = "" if guards == 1 else " each"
        return Text(f" · {yours} wait{'s' if guards == 1 else ''}: d6 + weapons against "
                    f"{rules.GUARD_STRENGTH}{each}", style="bold")
    coach = coach_at(view, where)
    if coach is None:
        return Text()
    plus, combat = rules.GUARD_STRENGTH * guards, coach["combat"]
    shown = f"{combat + plus} ({combat} + {plus})" if isinstance(combat, int) else f"{combat} + {plus}"
    return Text(f" · {yours}: combat {shown}", style="bold")
