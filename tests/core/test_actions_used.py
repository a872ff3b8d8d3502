"""Every bot level plays every kind of action the rules give, unless it is listed as deliberately ignored
(``core.actions_used``): 200 seeded 2-player games a level, the level in both seats."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from core.actions_used import IGNORED, KINDS, kind_of
from core.registry import all_games
from core.search import Budget
from core.simulate import game_seed

GAMES = 200
#: The hard bot searches with a small budget here (its choices differ from the normal bot's only where a
#: search finds a clear gain, which 16 playouts a decision still do); a Highwayman series is one game.
SMALL_SEARCH = Budget(playouts=16, seconds=None, candidates=8)
SHORT = {"highwayman": {"series_games": 1}}


def kinds_seen(game_id: str, level: str, games: int) -> tuple[Counter[str], Counter[str]]:
    """The kinds offered (legal) and played by ``level`` in ``games`` seeded games against itself."""
    game = all_games()[game_id]
    bot = game.bots[level]
    if level == "hard":
        bot = bot.with_budget(SMALL_SEARCH)
    options = game.resolve_options({"players": 2, **SHORT.get(game_id, {})})
    offered: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for index in range(games):
        seed = game_seed(44, index)
        state = game.setup(options, seed)
        rngs = [random.Random(f"kinds:{seed}:{seat}") for seat in range(2)]
        while pending := game.pending(state):
            seat = pending[0]
            offered.update(kind_of(game_id, a) for a in game.legal_actions(state, seat))
            action = bot(state, seat, rngs[seat])
            played[kind_of(game_id, action)] += 1
            game.apply(state, seat, action)
    return offered, played


def test_every_game_lists_its_kinds_for_every_level():
    for game_id in all_games():
        assert KINDS[game_id], game_id
        assert set(IGNORED[game_id]) == {"easy", "normal", "hard"}
        named = {k.kind for k in KINDS[game_id]}
        for level, ignored in IGNORED[game_id].items():
            assert set(ignored) <= named, (game_id, level)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("game_id", list(all_games()))
def test_each_level_plays_every_kind_it_does_not_deliberately_ignore(game_id, level):
    games = GAMES if (level, game_id) != ("hard", "highwayman") else 20  # a searched series costs ~1 s
    offered, played = kinds_seen(game_id, level, games)
    named = {k.kind for k in KINDS[game_id]}
    assert set(offered) <= named, f"{game_id} offers kinds no list names: {set(offered) - named}"
    ignored = set(IGNORED[game_id][level])
    never = {kind for kind in offered if kind not in played}
    assert never <= ignored, f"{level} never played {never - ignored} in {games} games of {game_id}"
    assert not (ignored & set(played)), f"{level} played {ignored & set(played)}, listed as ignored"


def test_the_docs_table_names_what_each_level_ignores():
    import pathlib
    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "playing.md").read_text(encoding="utf-8")
    table = text.split("### What each bot considers", 1)[1].split("\n\n")[2]
    words = {"pick market": "market", "pick retire": "retiring", "give": "giving", "play_as_scoundrel": "scoundrel"}
    for game_id, levels in IGNORED.items():
        for level, ignored in levels.items():
            for kind in ignored:
                assert words[kind] in table, (game_id, level, kind)
            assert levels["normal"] == {} and levels["hard"] == {}, "the table says normal and hard use all"
