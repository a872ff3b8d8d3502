"""The repository explains itself. Every ruling id the code and tests cite is written out in
``docs/rules.md``; every link of the README and the docs leads somewhere; the README opens with the two
commands, the second of which is exactly what CI runs; the script that draws the README's picture works.
"""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import pytest

from core.registry import all_games

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: A ruling id as the code cites it: T7, Y16, H4, A1 (a letter and a number, standing as a word).
RULING_ID = re.compile(r"\b([TYHA][0-9]{1,2})\b")
#: A ruling as docs/rules.md defines it: a list item opening with the id in bold, "- **T7 Claiming.**".
RULING_DEFINED = re.compile(r"^- \*\*([TYHA][0-9]{1,2})\b", re.MULTILINE)


def _cited_ids() -> dict[str, str]:
    """Every ruling id in the project's Python and style sheets, with one file that cites it."""
    cited: dict[str, str] = {}
    for folder in ("core", "net", "tui", "tests", "bench", "styles"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".tcss") and "__snapshots__" not in path.parts:
                for ruling in RULING_ID.findall(path.read_text(encoding="utf-8")):
                    cited.setdefault(ruling, str(path.relative_to(ROOT)))
    return cited


def test_every_ruling_id_the_code_cites_is_written_out_in_docs():
    defined = set(RULING_DEFINED.findall((DOCS / "rules.md").read_text(encoding="utf-8")))
    cited = _cited_ids()
    assert len(cited) > 30, "the search for cited ids found almost none: is the pattern still right?"
    missing = {ruling: where for ruling, where in cited.items() if ruling not in defined}
    assert not missing, f"cited but not written out in docs/rules.md: {missing}"


def test_docs_rules_defines_each_ruling_once():
    defined = RULING_DEFINED.findall((DOCS / "rules.md").read_text(encoding="utf-8"))
    assert len(defined) == len(set(defined)), sorted(ruling for ruling in defined if defined.count(ruling) > 1)


def _words(text: str) -> str:
    """Text with its line breaks, indents and code marks gone: the same words however they are wrapped."""
    return " ".join(text.replace("`", "").replace("- ", " ").split())


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_docs_rules_says_what_the_game_says_in_its_rules_help(game_id):
    """The page and the in-game rules (`?`, `turpin rules`) are one text: a change to either shows here."""
    game = all_games()[game_id]
    section = (DOCS / "rules.md").read_text(encoding="utf-8").split(f"`--game {game_id}`")[1]
    section = _words(section.split("### Rulings")[0])
    for paragraph in game.rules_text.split("\n\n"):
        for line in paragraph.strip().splitlines() if paragraph.lstrip().startswith("Table options") else [paragraph]:
            words = _words(line)
            if words and words != "Table options:":
                assert words in section, f"docs/rules.md lacks, for {game_id}: {words[:80]}…"


def _links(page: pathlib.Path) -> list[str]:
    return re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", ["README.md", *sorted(str(path.relative_to(ROOT)) for path in DOCS.glob("*.md"))])
def test_every_link_between_the_pages_leads_to_a_file(page):
    path = ROOT / page
    broken = [link for link in _links(path) if "://" not in link and not (path.parent / link).exists()]
    assert not broken, f"{page} links to files that are not there: {broken}"


def test_the_readme_links_every_page_of_docs():
    linked = {(ROOT / link).resolve() for link in _links(ROOT / "README.md")}
    unlinked = [path.name for path in DOCS.glob("*.md") if path.resolve() not in linked]
    assert not unlinked, f"pages of docs/ the README does not link: {unlinked}"


def test_the_readme_opens_with_the_play_and_test_commands_and_ci_runs_the_second():
    blocks = re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(encoding="utf-8"), re.DOTALL)
    play, test = blocks[0].strip(), blocks[1].strip()
    assert play.startswith("python3 -m venv .venv") and play.endswith(".venv/bin/turpin")
    assert test.startswith("python3 -m venv .venv") and "pytest" in test
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci == test, "CI must run exactly the README's test command"


@pytest.mark.slow
def test_the_readme_picture_script_draws_a_table(tmp_path):
    out = tmp_path / "table.svg"
    subprocess.run([sys.executable, str(DOCS / "make_picture.py"), str(out), "--size", "100x30"],
                   check=True, cwd=tmp_path, capture_output=True)
    picture = out.read_text(encoding="utf-8")
    assert picture.startswith("<svg") and "EDINBURGH" in picture and "Your&#160;move" in picture
    assert (DOCS / "table.svg").read_text(encoding="utf-8").startswith("<svg"), "the README's picture"
