"""The pages in docs/ tell the truth: every console example on them runs as shown, every option an engine declares
is documented with its range and default, and every one-word game command is shown at work.

The convention (docs/README.md explains it to readers): a fenced block whose info string starts with ``pbm`` holds
console commands, one ``pbm do "<command>"`` per line, run in order on a fresh database, with every new game
seeded by ``seed=N`` from the info string (1 when absent), so that dice fall the same way each time. A comment
after a command may hold expected output in double quotes; a comment starting with ``refused`` says the command must
be refused, with the quoted fragments in its message. A ```` ```text pbm-output ```` block right after a ``pbm`` block
must appear, line for line, in what its last command printed.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.actions import Actions
from bot.console import Console, render_text
from data.store import Store
from rules import registry

DOCS = Path(__file__).resolve().parent.parent / "docs"
DEFAULT_SEED = 1
_FENCE = re.compile(r"^```(\S*)\s*(.*)$")
_SEED = re.compile(r"^seed=(\d+)$")


@dataclass(frozen=True)
class Example:
    """One console command of a page, with what the page says it does."""

    line: int
    command: str
    refused: bool = False
    expects: tuple[str, ...] = ()


@dataclass
class Block:
    """A ``pbm`` block: commands run in order on one fresh database, and the output shown after it, if any."""

    page: str
    line: int
    seed: int = DEFAULT_SEED
    examples: list[Example] = field(default_factory=list)
    output: list[str] | None = None


def split_comment(text: str) -> tuple[str, str]:
    """``pbm do "druid move 1 a c3#1"  # note`` -> the command part and the comment; a ``#`` inside quotes (the
    ``#n`` move-number guard) is part of the command."""
    quote = None
    for index, char in enumerate(text):
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#" and (index == 0 or text[index - 1].isspace()):
            return text[:index].rstrip(), text[index + 1 :].strip()
    return text.rstrip(), ""


def parse_example(text: str, line: int) -> Example:
    """One line of a ``pbm`` block; raises ValueError when it is not ``pbm do "<command>" [# comment]``."""
    code, comment = split_comment(text)
    words = shlex.split(code)
    if len(words) != 3 or words[:2] != ["pbm", "do"]:
        raise ValueError(f'line {line}: expected pbm do "<command>" [# comment], found {text!r}')
    expects = tuple(re.findall(r'"([^"]+)"', comment))
    return Example(line, words[2], comment.lower().startswith("refused"), expects)


def read_blocks(path: Path) -> tuple[list[Block], list[str]]:
    """The ``pbm`` blocks of a page, and the convention breaches found while reading it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    problems: list[str] = []
    previous_was_pbm = False
    index = 0
    while index < len(lines):
        fence = _FENCE.match(lines[index])
        if fence is None:
            index += 1
            continue
        end = next((j for j in range(index + 1, len(lines)) if lines[j].startswith("```")), len(lines))
        body = lines[index + 1 : end]
        language, info = fence.group(1), fence.group(2).split()
        where = f"{path.name}:{index + 1}"
        if language == "pbm":
            block = Block(path.name, index + 1)
            for word in info:
                seed = _SEED.match(word)
                if seed is None:
                    problems.append(f"{where}: unknown pbm block setting {word!r} (only seed=N)")
                else:
                    block.seed = int(seed.group(1))
            for offset, text in enumerate(body, index + 2):
                if text.strip() and not text.lstrip().startswith("#"):
                    try:
                        block.examples.append(parse_example(text.strip(), offset))
                    except ValueError as exc:
                        problems.append(f"{path.name}: {exc}")
            if not block.examples:
                problems.append(f"{where}: a pbm block without commands")
            blocks.append(block)
        elif "pbm-output" in info:
            if not previous_was_pbm:
                problems.append(f"{where}: a pbm-output block must follow a pbm block")
            else:
                blocks[-1].output = [text.rstrip() for text in body]
        previous_was_pbm = language == "pbm"
        index = end + 1
    return blocks, problems


def pages() -> list[Path]:
    return sorted(DOCS.glob("*.md"))


def all_blocks() -> list[Block]:
    return [block for page in pages() for block in read_blocks(page)[0]]


def contains_lines(printed: str, wanted: list[str]) -> bool:
    """``wanted`` appears as consecutive lines of ``printed`` (trailing spaces ignored)."""
    have = [text.rstrip() for text in printed.splitlines()]
    return any(have[start : start + len(wanted)] == wanted for start in range(len(have) - len(wanted) + 1))


async def run_block(block: Block, workdir: Path) -> list[str]:
    """Run a block's commands on a fresh database in ``workdir``; every way the page is wrong, in words."""
    problems: list[str] = []
    store = await Store.open(workdir / "docs.sqlite3")
    try:
        seed = block.seed
        console = Console(Actions(store, seed_source=lambda: seed), workdir / "boards", images=False)
        printed = ""
        for example in block.examples:
            outcome = await console.run(example.command)
            printed = render_text(outcome)
            where = f"{block.page}:{example.line}: {example.command!r}"
            if outcome.ok == example.refused:
                verdict = "accepted" if outcome.ok else "refused"
                problems.append(f"{where} was {verdict}, the page says otherwise: {outcome.result.message}")
            problems += [
                f"{where} did not print {text!r}:\n{printed}" for text in example.expects if text not in printed
            ]
        if block.output is not None and not contains_lines(printed, block.output):
            problems.append(
                f"{block.page}:{block.line}: the output shown after the block is not what it printed:\n{printed}"
            )
    finally:
        await store.close()
    return problems


# ---- the pages exist and follow the convention ---------------------------------------------------------------


def test_every_game_has_a_page_linked_from_the_index() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for name in registry.names():
        assert (DOCS / f"{name}.md").is_file(), f"docs/{name}.md is missing"
        assert f"({name}.md)" in index, f"docs/README.md does not link {name}.md"


def test_the_pages_follow_the_example_convention() -> None:
    problems = [problem for page in pages() for problem in read_blocks(page)[1]]
    assert problems == []
    for name in registry.names():
        assert read_blocks(DOCS / f"{name}.md")[0], f"docs/{name}.md has no pbm examples"


# ---- the examples run as shown -------------------------------------------------------------------------------


@pytest.mark.parametrize("block", all_blocks(), ids=lambda block: f"{block.page}:{block.line}")
async def test_the_example_runs_as_the_page_shows(block: Block, tmp_path: Path) -> None:
    assert await run_block(block, tmp_path) == []


async def test_a_wrong_example_is_reported(tmp_path: Path) -> None:
    """The checker is not vacuous: a refusal shown as a success, a wrong fragment and a wrong output are caught."""
    page = tmp_path / "page.md"
    page.write_text(
        "```pbm seed=3\n"
        'pbm do "druid challenge -size=5 alice bob"   # "game 1 started"\n'
        'pbm do "druid move 1 bob c3"                 # bob moves first, it says: "bob played"\n'
        'pbm do "druid move 1 alice c3#1"             # refused\n'
        "```\n\n"
        "```text pbm-output\n"
        "no such line\n"
        "```\n",
        encoding="utf-8",
    )
    (block,), problems = read_blocks(page)
    assert problems == [] and block.seed == 3
    assert [example.refused for example in block.examples] == [False, False, True]
    assert block.examples[2].command == "druid move 1 alice c3#1"
    reported = await run_block(block, tmp_path)
    assert len(reported) == 4
    assert "page.md:3: 'druid move 1 bob c3' was refused" in reported[0]
    assert "did not print 'bob played'" in reported[1]
    assert "page.md:4: 'druid move 1 alice c3#1' was accepted" in reported[2]
    assert "the output shown after the block" in reported[3]


def test_lines_that_break_the_convention_are_reported(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```pbm speed=9\n"
        "druid move 1 alice c3\n"
        'pbm do "druid challenge alice bob"\n'
        "```\n\n"
        "```text\nan illustration\n```\n\n"
        "```text pbm-output\nx\n```\n\n"
        "```pbm\n# nothing\n```\n",
        encoding="utf-8",
    )
    _, problems = read_blocks(page)
    assert len(problems) == 4
    assert "unknown pbm block setting 'speed=9'" in problems[0]
    assert 'expected pbm do "<command>"' in problems[1]
    assert "a pbm-output block must follow a pbm block" in problems[2]
    assert "a pbm block without commands" in problems[3]


# ---- options and commands are documented ---------------------------------------------------------------------


def option_rows(text: str) -> dict[str, list[str]]:
    """The options table of a page: ``| `-size=n` | values | default | what it does |`` rows by spelling."""
    rows = {}
    for line in text.splitlines():
        if line.startswith("| `-"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            rows[cells[0].strip("`")] = cells
    return rows


@pytest.mark.parametrize("name", registry.names())
def test_every_option_is_documented_with_its_range_and_default(name: str) -> None:
    game = registry.get(name)
    rows = option_rows((DOCS / f"{name}.md").read_text(encoding="utf-8"))
    assert sorted(rows) == sorted(option.spelling for option in game.options)
    defaults = game.parse_options([], game.min_players)
    for option in game.options:
        values, default = rows[option.spelling][1:3]
        if option.kind is int:
            assert f"{option.minimum}..{option.maximum}" in values, option.spelling
            assert re.search(rf"\b{defaults[option.name]}\b", default), option.spelling
        else:
            assert default.startswith("off"), option.spelling


@pytest.mark.parametrize("name", registry.names())
def test_every_game_command_is_shown_at_work(name: str) -> None:
    """Each one-word command (roll, swap ...) is used by an example on its page, as a command or as a move."""
    used = set()
    for block in read_blocks(DOCS / f"{name}.md")[0]:
        for example in block.examples:
            words = example.command.split()
            if words[0] == name and len(words) > 2:
                used |= {words[1], words[-1]}
    assert set(registry.get(name).extra_commands) <= used


# ---- Backgammon's notation table -----------------------------------------------------------------------------

X_START = {1: 2, 12: 5, 17: 3, 19: 5}
O_START = {24: 2, 13: 5, 8: 3, 6: 5}
#: positions for the notation rows: O's checkers, X's checkers and O's dice (O is to move)
ENTERING = ({"bar": 1}, {19: 2, 16: 2, 1: 11}, (3, 6))  # the 6 cannot enter and the 3 cannot go on: B-22 alone
BEARING_OFF = ({6: 1}, {1: 15}, (6, 6))  # one checker left: 6-H alone
BLOT_ON_18 = (O_START, {1: 2, 12: 5, 17: 3, 19: 4, 18: 1}, (6, 5))

#: every form in the first column of the page's notation table -> (position, a whole play using it, the same
#: play written as single steps)
BACKGAMMON_FORMS = {
    "13-7,13-11": ((O_START, X_START, (6, 2)), "13-7,13-11", "13-7,13-11"),
    "13:5": ((O_START, X_START, (5, 1)), "13:5,6:1", "13-8,6-5"),
    "2x13-10": ((O_START, X_START, (3, 3)), "2x13-10,2x10-7", "13-10,13-10,10-7,10-7"),
    "2*13-10": ((O_START, X_START, (3, 3)), "2*13-10,2*10-7", "13-10,13-10,10-7,10-7"),
    "13-10(2)": ((O_START, X_START, (3, 3)), "13-10(2),10-7(2)", "13-10,13-10,10-7,10-7"),
    "B-22": (ENTERING, "B-22", "B-22"),
    "22": (ENTERING, "22", "B-22"),
    "6-H": (BEARING_OFF, "6-H", "6-H"),
    "6": (BEARING_OFF, "6", "6-H"),
    "13-6": ((O_START, X_START, (4, 3)), "13-6", "13-9,9-6"),
    "13/7 13/11": ((O_START, X_START, (6, 2)), "13/7 13/11", "13-7,13-11"),
    "bar/22": (ENTERING, "bar/22", "B-22"),
    "6/off": (BEARING_OFF, "6/off", "6-H"),
    "24/18*/13": (BLOT_ON_18, "24/18*/13", "24-18,18-13"),
}


def notation_table_forms(text: str) -> list[str]:
    """The backticked forms in the first column of the page's "Move notation" table."""
    section = text.split("## Move notation", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [form for row in rows for form in re.findall(r"`([^`]+)`", row.split("|")[1])]


def test_every_backgammon_notation_form_on_the_page_is_read_as_it_says() -> None:
    from rules.backgammon import BackgammonState

    forms = notation_table_forms((DOCS / "backgammon.md").read_text(encoding="utf-8"))
    assert sorted(forms) == sorted(BACKGAMMON_FORMS)
    for form, ((o, x, dice), written, steps) in BACKGAMMON_FORMS.items():
        state = BackgammonState.from_points(["alice", "bob"], x=x, o=o, dice=dice)
        assert form in written
        assert state.parse_move(written) == state.parse_move(steps), form
        assert state.parse_move(written) in state.legal_moves, form
