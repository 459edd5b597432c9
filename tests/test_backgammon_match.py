"""Backgammon matches to n points: the pure arithmetic checked exhaustively against a plain restatement of the rule
book, the rule book's cases on real positions (the Crawford game, the post-Crawford free drop, the last game's
gammon capped by the match length, -jacoby), and whole matches through the console on a real database: the next
game starts at once, the score is told, resigning or a timeout ends the match, the match is rated once, and
computer players play matches to the end with every score adding up."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.actions import Actions
from bot.console import Console
from data.store import StaleWriteError, Store
from rules import registry
from rules.backgammon import BackgammonState
from rules.backgammon.match import MAX_LENGTH, Match
from rules.base import IllegalMoveError, OptionError

GAME = registry.get("backgammon")


# ---- the arithmetic, exhaustively ---------------------------------------------------------------------------


def reference_crawford(length: int, scores_before: list[tuple[int, int]], game: int) -> bool:
    """The rule book's words, restated: the Crawford game is the first game after a player *reached* match point
    minus one; a player who starts there (a 1-point match) reached nothing."""
    if game < 2:
        return False
    at_point = [any(length - s == 1 for s in score) for score in scores_before]
    return at_point[game - 1] and not at_point[game - 2]


@pytest.mark.parametrize("length", range(1, 7))
@pytest.mark.parametrize("rule", [True, False])
def test_every_sequence_of_results_adds_up_and_finds_the_crawford_game(length: int, rule: bool) -> None:
    """Every sequence of game results (either player winning 1, 2, 3 or 4 points) of matches to 1..6 points: the
    score is the capped sum of the points, the match ends exactly when a player reaches the length, and the
    Crawford game is the one the rule book names (none with -nocrawford)."""
    results = [(winner, points) for winner in (0, 1) for points in (1, 2, 3, 4)]
    checked = 0

    def walk(match: Match, history: list[tuple[int, int]], games: list[tuple[int, int]]) -> None:
        nonlocal checked
        scores = [*history]
        assert match.score == scores[-1]
        assert match.crawford == (rule and reference_crawford(length, scores, match.game))
        crawfords = [g for g in range(1, match.game) if reference_crawford(length, scores, g)]
        assert match.post_crawford == (rule and bool(crawfords))
        for winner, points in results:
            end = match.after(winner, points)
            total = [0, 0]
            for w, p in [*games, (winner, points)]:
                total[w] = min(length, total[w] + p)
            assert list(end.score) == total
            assert end.counted == total[winner] - match.score[winner]
            assert end.over == (max(total) >= length)
            assert (end.winner is None) != (end.next is None)
            if end.winner is not None:
                assert total[end.winner] == length
                checked += 1
                continue
            assert end.next is not None and end.next.game == match.game + 1
            walk(end.next, [*history, end.score], [*games, (winner, points)])

    walk(Match(length, rule=rule), [(0, 0)], [])
    assert checked > 0


@pytest.mark.parametrize("length", range(1, MAX_LENGTH + 1))
def test_points_past_the_match_length_do_not_count(length: int) -> None:
    for mine, theirs, points in itertools.product(range(length), range(length), (1, 2, 3, 4, 6, 8, 192)):
        match = Match(length, (mine, theirs))
        end = match.after(0, points)
        assert end.counted == min(points, length - mine)
        assert end.score == (min(length, mine + points), theirs)


def test_a_forfeit_gives_the_match_to_the_other_player_and_keeps_the_score() -> None:
    end = Match(7, (5, 2), 4).forfeited(1)
    assert (end.score, end.winner, end.next, end.counted) == ((5, 2), 1, None, 0)


def test_a_match_reads_back_and_damage_is_refused() -> None:
    match = Match(9, (3, 8), 7, crawford=True, id=4)
    assert Match.from_json(json.loads(json.dumps(match.to_json()))) == match
    assert Match.from_json(None) is None
    for damaged in ({"length": 9}, {**match.to_json(), "score": [9, 0]}, {**match.to_json(), "length": 26}):
        with pytest.raises(ValueError, match="backgammon"):
            Match.from_json(damaged)


# ---- options --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "refusal"),
    [
        (["-match=26"], "option -match=26 is out of range (1..25)"),
        (["-match=0"], "option -match=0 is out of range (1..25)"),
        (["-nocrawford"], "-nocrawford is for matches: give the match's length too, like -match=5 -nocrawford"),
        (["-match=5", "-jacoby"], "-jacoby is for money games: in a match every gammon and backgammon counts"),
    ],
)
def test_match_options_out_of_place_are_one_clear_line(words: list[str], refusal: str) -> None:
    with pytest.raises(OptionError) as refused:
        GAME.parse_options(words, 2)
    assert str(refused.value) == refusal


def test_a_match_variant_names_its_length() -> None:
    assert GAME.format_options(GAME.parse_options(["-match=7", "-nocrawford"], 2)) == "-match=7 -nocrawford"
    assert GAME.format_options(GAME.parse_options([], 2)) == ""


# ---- the rule book's cases on the board -----------------------------------------------------------------------

#: a race X is sure to win with a gammon: every X checker home, O's 130 pips from its home board, no contact
X_HOME = {19: 3, 20: 3, 21: 3, 22: 3, 23: 3}
O_BACK = {13: 5, 14: 5, 17: 5}


def race(match: Match | None, *, options: dict[str, object] | None = None, cube: int = 1) -> BackgammonState:
    """bob (O, seat 0) against alice (X, seat 1), alice to play 6-5 in a race she wins with a gammon."""
    state = BackgammonState.from_points(["bob", "alice"], X_HOME, O_BACK, (6, 5), mover="X")
    state.options.update(options or {})
    state.match = match
    state.cube = cube
    return state


def test_in_the_crawford_game_a_double_is_refused_in_one_line() -> None:
    state = race(Match(5, (2, 4), 4, crawford=True))
    state.manual = [True, True]
    state.phase, state.dice = "decide", ()
    with pytest.raises(IllegalMoveError) as refused:
        state.push(state.parse_move("double", 1))
    assert refused.value.reason == (
        "no doubling in the Crawford game (the first game after a player reached match point minus one)"
    )
    assert not state.may_double(0) and not state.may_double(1)


def test_in_manual_mode_the_crawford_game_rolls_without_stopping_to_ask() -> None:
    state = BackgammonState.from_points(["bob", "alice"], {1: 15}, {24: 15}, (1, 2), mover="O")
    state.match = Match(3, (0, 2), 3, crawford=True)
    state.manual = [True, True]
    state.push(next(iter(state.legal_moves)))
    assert state.phase == "move" and len(state.dice) == 2  # alice's dice were rolled: no roll-or-double stop
    assert "double" not in [state.move_text(m) for m in state.legal_moves]


def test_typing_double_with_the_dice_rolled_in_the_crawford_game_says_why() -> None:
    state = race(Match(5, (4, 1), 2, crawford=True))
    with pytest.raises(IllegalMoveError, match="no doubling in the Crawford game"):
        state.parse_move("double", 1)


def test_after_the_crawford_game_doubling_is_back_and_the_free_drop_reaches_double_match_point() -> None:
    """Post-Crawford at 4-3 in a match to 5: the trailer doubles at once; the leader drops (a "free drop" when
    the trailer is an even number away): the trailer wins 1 point and the next game is at 4-4, no Crawford game."""
    state = BackgammonState.from_points(["bob", "alice"], {1: 15}, {24: 15}, (1, 2), mover="O")
    state.match = Match(5, (4, 3), 5, post_crawford=True)
    state.manual = [True, True]
    state.push(next(iter(state.legal_moves)))
    assert state.phase == "decide"  # alice (3, two away) may double
    state.push(state.parse_move("double", 1))
    state.push(state.parse_move("drop", 0))
    end = state.match_end()
    assert end is not None and end.score == (4, 4) and end.next is not None
    assert not end.next.crawford and end.next.post_crawford
    assert state.match_text() == "Match to 5: bob 4, alice 4"


def test_the_last_game_s_gammon_counts_only_what_the_winner_needs() -> None:
    state = race(Match(5, (4, 3), 6, post_crawford=True), cube=2)
    state.push(state.parse_move("19-H,20-H", 1))  # a 6-5: two off, then the race goes on
    while not state.is_over:
        move = state.forced_move() or next(iter(state.legal_moves))
        state.push(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.points == 4  # gammon, cube 2
    assert state.match_text() == "alice wins the match to 5, 5-4 (2 of the 4 points counted)"


@pytest.mark.parametrize(("cube", "points"), [(1, 1), (2, 4)])
def test_jacoby_counts_a_gammon_only_once_the_cube_was_turned(cube: int, points: int) -> None:
    state = race(None, options={"jacoby": True}, cube=cube)
    while not state.is_over:
        state.push(state.forced_move() or next(iter(state.legal_moves)))
    outcome = state.outcome()
    assert outcome is not None and outcome.points == points
    if cube == 1:
        assert "single game (no gammon: the cube was not turned, -jacoby)" in outcome.reason


def test_resigning_a_match_game_resigns_the_match() -> None:
    state = race(Match(7, (2, 5), 3))
    state.resign(1)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "alice resigned the match"
    end = state.match_end()
    assert end is not None and end.winner == 0 and end.score == (2, 5)
    assert state.match_text() == "bob wins the match to 7; the score stood at bob 2, alice 5"


def test_the_next_game_carries_the_score_and_rolls_its_own_opening() -> None:
    state = race(Match(5, (0, 0), 1, id=9))
    state.resign(0)  # not a board result: the match is over
    assert state.next_game(5) is None
    state = race(Match(5, (0, 0), 1, id=9))
    while not state.is_over:
        state.push(state.forced_move() or next(iter(state.legal_moves)))
    following = state.next_game(5)
    assert following is not None and following.match == Match(5, (0, 2), 2, id=9)
    assert following.players == ["bob", "alice"] and following.ply == 0 and following.opening
    assert following.text_board().endswith("Match 9 to 5, game 2: bob 0, alice 2")


# ---- whole matches through the console ------------------------------------------------------------------------


class Clock:
    """The time the actions see, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "pbm.sqlite3")
    yield opened
    await opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def console(tmp_path: Path, store: Store, clock: Clock) -> Console:
    seeds = itertools.count(11)
    return Console(Actions(store, seed_source=lambda: next(seeds), clock=clock), tmp_path / "boards", images=False)


async def ok(console: Console, line: str) -> str:
    outcome = await console.run(line)
    assert outcome.ok, f"{line!r} was refused: {outcome.result.message}"
    return outcome.result.message


async def refused(console: Console, line: str) -> str:
    outcome = await console.run(line)
    assert not outcome.ok, f"{line!r} was not refused: {outcome.result.message}"
    return outcome.result.message


async def to_move(console: Console, game_id: int) -> str:
    shown = (await console.run(f"backgammon show {game_id}")).result
    assert shown.to_move is not None
    return shown.to_move


async def win_by_a_drop(console: Console, game_id: int) -> str:
    """Both players in manual mode; the one to move plays, the other doubles, the first drops: the doubler wins
    the game for 1 point. The message of the drop."""
    for player in ("alice", "bob"):
        await ok(console, f"backgammon manual {game_id} {player}")
    mover = await to_move(console, game_id)
    listing = (await console.run(f"backgammon moves {game_id}")).result
    await ok(console, f"backgammon move {game_id} {mover} {listing.items[0]}")
    doubler = await to_move(console, game_id)
    await ok(console, f"backgammon double {game_id} {doubler}")
    return await ok(console, f"backgammon drop {game_id} {mover}")


async def test_a_game_won_on_the_board_starts_the_next_game_of_the_match_at_once(console: Console, store: Store):
    said = await ok(console, "backgammon challenge -match=3 alice bob")
    assert said.splitlines()[1] == "Match 1 to 3, game 1: alice 0, bob 0"
    ended = await win_by_a_drop(console, 1)
    first = await store.load_game(1)
    winner = first.outcome and first.snapshot["players"][first.outcome["winners"][0]]
    lines = ended.splitlines()
    assert lines[0].endswith(f"refused the double: {winner} wins 1 point")
    score = {"alice": 1 if winner == "alice" else 0, "bob": 1 if winner == "bob" else 0}
    assert f"Match to 3: alice {score['alice']}, bob {score['bob']}" in lines
    assert "Backgammon game 2 started: alice, bob (-match=3); 7 days per move" in lines
    assert f"Match 1 to 3, game 2: alice {score['alice']}, bob {score['bob']}" in lines
    second = await store.load_game(2)
    assert (second.status, second.match_id, second.match_game, first.match_game) == ("active", 1, 2, 1)
    match = await store.load_match(1)
    assert (match.status, match.score, match.games, match.winner) == ("active", [score["alice"], score["bob"]], 2, None)
    shown = json.loads(json.dumps((await console.run("backgammon show 2")).result.to_json()))
    assert shown["match"] == {
        "id": 1,
        "length": 3,
        "game": 2,
        "crawford": False,
        "score": score,
        "over": False,
        "winner": None,
        "cancelled": False,
    }
    # the game that reached match point minus one is followed by the Crawford game: no doubling in it
    await win_by_a_drop(console, 2)
    third = await store.load_game(3)
    assert third.snapshot["board"]["match"]["crawford"] is (max((await store.load_match(1)).score) == 2)


async def test_in_the_crawford_game_a_double_is_one_line_and_changes_nothing(console: Console, store: Store):
    await ok(console, "backgammon challenge -match=2 alice bob")
    await win_by_a_drop(console, 1)  # 1-0 in a match to 2: game 2 is the Crawford game
    assert (await store.load_game(2)).snapshot["board"]["match"]["crawford"] is True
    mover = await to_move(console, 2)
    before = await store.load_game(2)
    assert await refused(console, f"backgammon double 2 {mover}") == (
        "double: no doubling in the Crawford game (the first game after a player reached match point minus one)"
    )
    assert (await store.load_game(2)).log_length == before.log_length
    listing = (await console.run("backgammon show 2")).result
    assert "(the Crawford game: no doubling)" in listing.board_text()


async def test_resigning_resigns_the_match_and_the_match_is_rated_once(console: Console, store: Store):
    await ok(console, "backgammon challenge -match=5 alice bob")
    ended = await win_by_a_drop(console, 1)
    assert "Backgammon game 2 started" in ended
    said = await ok(console, "backgammon resign 2 bob")  # game 2 of a match: no first-round decline
    lines = said.splitlines()
    assert lines[0] == "bob resigned the match"  # the match is lost, said once: who wins it and at what score
    assert lines[1] in (
        "alice wins the match to 5; the score stood at alice 1, bob 0",
        "alice wins the match to 5; the score stood at alice 0, bob 1",
    )
    assert [line for line in lines if "win" in line or "won" in line] == [lines[1], "Backgammon: alice won"]
    match = await store.load_match(1)
    assert (match.status, match.winner, match.games) == ("finished", "alice", 2)
    assert await store.game_rating_changes(1) == []  # the first game counted for nothing on its own
    changes = await store.game_rating_changes(2)
    assert sorted((c.player_id, c.result, c.points) for c in changes) == [("alice", "win", 5), ("bob", "loss", -5)]
    rows = await store.ratings_of("backgammon", ["alice", "bob"])
    assert [rows[p].games for p in ("alice", "bob")] == [1, 1]
    rebuilt = await console.actions.rebuild_ratings()
    assert "already exact" in rebuilt.message


async def test_declining_the_first_game_cancels_the_match(console: Console, store: Store):
    await ok(console, "backgammon challenge -match=3 alice bob")
    said = await ok(console, f"backgammon resign 1 {await to_move(console, 1)}")
    assert "declined to play" in said
    assert (await store.load_match(1)).status == "cancelled"


async def test_a_timeout_loses_the_match(console: Console, store: Store, clock: Clock):
    await ok(console, "backgammon challenge -match=3 -days=1 alice bob")
    await win_by_a_drop(console, 1)
    waiting = await to_move(console, 2)
    clock.now += 2 * 86400
    told = (await console.run("tick")).result.items
    assert any(f"{waiting} ran out of time" in item for item in told)
    match = await store.load_match(1)
    assert match.status == "finished" and match.winner != waiting and match.winner in ("alice", "bob")


async def test_two_processes_never_start_the_next_game_twice(tmp_path: Path, store: Store, console: Console):
    await ok(console, "backgammon challenge -match=5 alice bob")
    for player in ("alice", "bob"):
        await ok(console, f"backgammon manual 1 {player}")
    mover = await to_move(console, 1)
    await ok(console, f"backgammon move 1 {mover} {(await console.run('backgammon moves 1')).result.items[0]}")
    doubler = await to_move(console, 1)
    await ok(console, f"backgammon double 1 {doubler}")
    number = (await store.load_game(1)).move_number + 1
    other = await Store.open(tmp_path / "pbm.sqlite3")  # a second process on the same database
    try:
        second = Console(Actions(other, seed_source=lambda: 99), tmp_path / "boards2", images=False)
        await ok(console, f"backgammon move 1 {mover} drop#{number}")
        late = await refused(second, f"backgammon move 1 {mover} drop#{number}")
        assert late == "game 1 is over"
        with pytest.raises(StaleWriteError):
            await other.link_match_game(1, 2, 1)
    finally:
        await other.close()
    assert await store.match_game_ids(1) == [1, 2]


@pytest.mark.parametrize("seed", range(10))
async def test_computer_players_play_matches_to_the_end_and_every_score_adds_up(tmp_path: Path, seed: int):
    """Ten matches to 3 points between computer players, each played to the end in one command (level 1 against
    level 2, cube decisions in manual mode are theirs alone to make), every game's score the last one's plus what
    it counted."""
    async with await Store.open(tmp_path / "ai.sqlite3") as store:
        seeds = itertools.count(1000 * seed)
        console = Console(Actions(store, seed_source=lambda: next(seeds)), tmp_path / "boards", images=False)
        said = await ok(console, "backgammon challenge -match=3 ai:1 ai:2")
        match = await store.load_match(1)
        assert match.status == "finished" and match.winner in ("ai:1", "ai:2")
        await check_match_adds_up(console, store, 1)
        assert any(
            line.startswith(f"{match.winner} wins the match to 3, 3-{min(match.score)}") for line in said.splitlines()
        )


async def check_match_adds_up(console: Console, store: Store, match_id: int) -> None:
    """Every game of the match starts from the score the last one left, adds only what it counted, replays from
    its log to what is stored, and the match ends at its length, rated once."""
    match = await store.load_match(match_id)
    score = [0, 0]
    ids = await store.match_game_ids(match_id)
    assert len(ids) == match.games
    for number, game_id in enumerate(ids, start=1):
        row = await store.load_game(game_id)
        state = GAME.load(row.snapshot)
        assert state.match is not None and state.match.game == number and list(state.match.score) == score
        end = state.match_end()
        assert end is not None
        gained = [end.score[k] - score[k] for k in (0, 1)]
        assert sorted(gained)[0] == 0 and sum(gained) == end.counted
        score = list(end.score)
        assert (end.winner is not None) == (number == len(ids))
        replayed = await console.actions.replay(row)
        assert replayed == state
    assert max(score) == match.length and score == match.score
    rated = [await store.game_rating_changes(game_id) for game_id in ids]
    assert [bool(changes) for changes in rated] == [False] * (len(ids) - 1) + [True]


def play_match(seed: int, length: int = 5) -> tuple[list[tuple[int, int]], Match, int]:
    """A match between computer players (level 1 against level 2, both in manual mode so that they double, take
    and drop by the match score), played through the rules alone: each game's score before it, the last game's
    match, and how many doubles were offered."""
    from ai import decide

    state = GAME.new(GAME.parse_options([f"-match={length}"], 2), ["ai:1", "ai:2"], seed)
    scores, doubles = [], 0
    while True:
        state.manual = [True, True]
        assert state.match is not None
        scores.append(state.match.score)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            text = decide(state, 1 + seat, seed=seed, move_number=state.ply).text
            doubles += text == "double"
            state.push(state.parse_move(text, seat))
        following = state.next_game(seed * 1000 + len(scores))
        if following is None:
            end = state.match_end()
            assert end is not None and end.winner is not None
            scores.append(end.score)
            return scores, state.match, doubles
        state = following


def check_scores(scores: list[tuple[int, int]], length: int) -> None:
    """Each game adds to one player only, never past the length, and only the last reaches it."""
    for before, after in itertools.pairwise(scores):
        gained = [after[k] - before[k] for k in (0, 1)]
        assert min(gained) == 0 and max(gained) >= 1
    assert max(scores[-1]) == length and all(max(score) < length for score in scores[:-1])


@pytest.mark.parametrize("seed", range(3))
def test_computer_players_with_the_cube_play_a_match_to_the_end(seed: int) -> None:
    scores, last, _ = play_match(seed)
    check_scores(scores, 5)
    assert last.game == len(scores) - 1


@pytest.mark.slow
def test_five_hundred_computer_matches_to_five_points_add_up() -> None:
    doubles = 0
    for seed in range(500):
        scores, last, offered = play_match(seed)
        check_scores(scores, 5)
        assert last.game == len(scores) - 1
        doubles += offered
    assert doubles > 0  # the cube was used, by the match score


async def test_a_moderator_s_decision_decides_the_match_and_a_cancel_cancels_it(console: Console, store: Store):
    await ok(console, "backgammon challenge -match=5 alice bob")
    await win_by_a_drop(console, 1)
    said = await ok(console, "admin decide 2 bob bob was away")
    assert any(line.startswith("bob wins the match to 5; the score stood at ") for line in said.splitlines())
    match = await store.load_match(1)
    assert (match.status, match.winner) == ("finished", "bob")
    await ok(console, "backgammon challenge -match=5 alice bob")
    await win_by_a_drop(console, 3)
    await ok(console, "admin cancel 4 a rules dispute")
    assert (await store.load_match(2)).status == "cancelled"


async def test_a_player_removed_from_a_later_game_of_a_match_loses_the_match(console: Console, store: Store):
    await ok(console, "backgammon challenge -match=5 alice bob")
    await win_by_a_drop(console, 1)
    await ok(console, "admin forfeit bob left the server")  # game 2 has not begun: no decline in a match's game 2
    match = await store.load_match(1)
    assert (match.status, match.winner) == ("finished", "alice")


async def test_a_match_cancelled_with_its_first_game_says_so(console: Console, store: Store):
    await ok(console, "backgammon challenge -match=3 alice bob")
    await ok(console, "admin forfeit bob left the server")  # the first round of the first game: cancelled
    shown = (await console.run("backgammon show 1")).result
    assert shown.message.splitlines()[-1] == "Match 1 to 3, game 1: alice 0, bob 0: cancelled with this game"
    assert shown.to_json()["match"]["cancelled"] is True
    assert (await store.load_match(1)).status == "cancelled"
