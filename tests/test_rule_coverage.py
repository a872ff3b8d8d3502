"""Every numbered rule of each sheet and every ruling the team made on them has a test named after it.

The ids are listed here as the rulings and the sheets give them (both live outside the repo, so the
list is the project's record of what must be covered). A test counts when its function name carries the
id as a word: ``test_T7_claim_split``, ``test_rule_3_runs_on_one_route``, ``test_turpin_rule_3_...``.
"""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

TESTS = pathlib.Path(__file__).resolve().parent

RULINGS = ([f"T{n}" for n in range(1, 15)] + [f"Y{n}" for n in range(1, 17)]
           + [f"H{n}" for n in range(1, 8)] + ["A1", "A2", "A3"])

#: Numbered rules per game: the sheet's own numbering (Your Money or Your Life numbers its four round
#: steps; Highwayman its five paragraphs; The Famous Dick Turpin its fourteen headings).
SHEET_RULES = {"dick_turpin": 14, "money_or_life": 4, "highwayman": 5}


def _test_names(files: list[pathlib.Path]) -> list[str]:
    names = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                names.append(node.name)
    return names


ALL_TEST_NAMES = _test_names(sorted(TESTS.rglob("test_*.py")))


@pytest.mark.parametrize("ruling", RULINGS)
def test_every_ruling_has_a_test_named_after_it(ruling):
    word = re.compile(rf"(^|_){ruling}(_|$)")
    assert any(word.search(name) for name in ALL_TEST_NAMES), f"no test is named after ruling {ruling}"


@pytest.mark.parametrize("game,rule", [(game, n) for game, count in SHEET_RULES.items()
                                       for n in range(1, count + 1)])
def test_every_numbered_rule_has_a_test_named_after_it(game, rule):
    names = _test_names(sorted(TESTS.rglob(f"test_{game}*.py")))
    word = re.compile(rf"(^|_)rule_{rule}(_|$)")
    assert any(word.search(name) for name in names), f"no {game} test is named after rule {rule}"
