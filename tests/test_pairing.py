"""Tournament pairings (bot.competition): the matching oracle against brute force, the Swiss pairing checked
exhaustively on small fields and by hypothesis on larger ones, round robin schedules, knock-out brackets, tables
of three and four, withdrawals, refusals and the saved state."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.competition import CompetitionError, Entrant, Tournament
from bot.competition.knockout import bracket
from bot.competition.matching import Matching
from bot.competition.roundrobin import berger, schedule
from bot.competition.swiss import Contender, pair
from bot.competition.tables import group, table_sizes

POINT = 12


def entrants(count: int) -> list[Entrant]:
    """``count`` players, P1 the strongest: seeds follow the numbers."""
    return [Entrant(f"u{k}", f"P{k}", 2000 - k) for k in range(1, count + 1)]


def refusal(call) -> str:
    """The one sentence a refused call says."""
    with pytest.raises(CompetitionError) as refused:
        call()
    return str(refused.value)


def finish_round(t: Tournament, rng: random.Random, draws: bool = True) -> None:
    """Record a random result for every game of the current round (a draw now and then where allowed)."""
    round_ = t.current
    assert round_ is not None
    for table in round_.tables:
        if not table.needs_game:
            continue
        players = list(table.playing)
        rng.shuffle(players)
        if draws and len(players) == 2 and rng.random() < 0.15:
            places = dict.fromkeys(players, 1)
        else:
            places = {p: k + 1 for k, p in enumerate(players)}
        t.record(round_.number, table.board, places)


# ---- the matching oracle ---------------------------------------------------------------------------------------


def brute_maximum(vertices: list[int], edges: set[frozenset[int]]) -> int:
    """The size of a maximum matching, by trying every matching (remembering each set of vertices once)."""
    known: dict[frozenset[int], int] = {}

    def best(left: frozenset[int]) -> int:
        if len(left) < 2:
            return 0
        if left not in known:
            first = min(left)
            rest = left - {first}
            known[left] = max(
                [best(rest)] + [1 + best(rest - {other}) for other in rest if frozenset((first, other)) in edges]
            )
        return known[left]

    return best(frozenset(vertices))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 9), st.integers(0, 100), st.integers(0, 2**32))
def test_the_matching_is_maximum_and_take_is_exact(n: int, density: int, seed: int) -> None:
    """On random graphs: maximise() leaves as few unmatched as brute force says; take() keeps what it promises
    (the rest still has a matching leaving at most ``spare`` over) and a refused take changes nothing."""
    rng = random.Random(seed)
    edges = {frozenset(p) for p in itertools.combinations(range(n), 2) if rng.randrange(100) < density}
    matching = Matching(n, lambda a, b: frozenset((a, b)) in edges)
    matching.maximise()
    assert matching.free == n - 2 * brute_maximum(list(range(n)), edges)
    live = list(range(n))
    for _ in range(12):
        if len(live) < 2:
            break
        a, b = rng.sample(live, 2)
        spare = rng.choice([0, 0, 1, 2])
        rest = [v for v in live if v not in (a, b)]
        possible = len(rest) - 2 * brute_maximum(rest, edges) <= spare
        before = (list(matching.mate), matching.free, list(matching.live))
        assert matching.take((a, b), spare) == possible
        if possible:
            live = rest
            assert matching.free == len(rest) - 2 * brute_maximum(rest, edges)
            assert all(matching.mate[v] in (-1, *rest) for v in rest)
        else:
            assert (matching.mate, matching.free, sorted(matching.live)) == (before[0], before[1], sorted(before[2]))


# ---- Swiss, two players: exhaustive on small fields -----------------------------------------------------------


def must(colours: list[int]) -> int:
    """The colour a player must have next (written here independently of the module): 1 White, -1 Black, 0 none."""
    if sum(colours) >= 2 or colours[-2:] == [1, 1]:
        return -1
    if sum(colours) <= -2 or colours[-2:] == [-1, -1]:
        return 1
    return 0


def out_of_turn(colours: list[int]) -> bool:
    """Whether the last colour of ``colours`` broke the rule: a third in a row, or three more of one colour."""
    return abs(sum(colours)) > 2 or (len(colours) >= 3 and colours[-1] == colours[-2] == colours[-3])


def perfect_matchings(players: list[str]):
    if not players:
        yield []
        return
    first = players[0]
    for k in range(1, len(players)):
        rest = players[1:k] + players[k + 1 :]
        for m in perfect_matchings(rest):
            yield [(first, players[k]), *m]


class Field:
    """A small Swiss field's history, kept plainly in the test."""

    def __init__(self, count: int) -> None:
        self.ids = [f"p{k}" for k in range(count)]
        self.points = dict.fromkeys(self.ids, 0)
        self.met: dict[str, Counter] = {p: Counter() for p in self.ids}
        self.colours: dict[str, list[int]] = {p: [] for p in self.ids}
        self.byes = dict.fromkeys(self.ids, 0)

    def contenders(self) -> list[Contender]:
        return [
            Contender(p, self.points[p], k + 1, dict(self.met[p]), tuple(self.colours[p]), self.byes[p])
            for k, p in enumerate(self.ids)
        ]

    def ranked(self) -> list[str]:
        return sorted(self.ids, key=lambda p: (-self.points[p], self.ids.index(p)))

    def cost(self, pairs: list[tuple[str, str]]) -> tuple[int, int]:
        """(repeats, pairs bound to the same colour) of a set of pairs."""
        repeats = sum(1 for a, b in pairs if self.met[a][b])
        clashes = sum(1 for a, b in pairs if must(self.colours[a]) and must(self.colours[a]) == must(self.colours[b]))
        return repeats, clashes

    def expected(self) -> tuple[int, set[str | None], bool]:
        """By brute force: the fewest repeats, the byes the rules allow, and whether every rule can hold."""
        ranked = self.ranked()
        fewest = min(self.byes.values())
        candidates = [p for p in reversed(ranked) if self.byes[p] == fewest] if len(ranked) % 2 else [None]
        options = []
        for bye in candidates:
            rest = [p for p in ranked if p != bye]
            best = min(self.cost(m) for m in perfect_matchings(rest))
            options.append((bye, best))
        levels = [
            [b for b, (r, c) in options if r == 0 and c == 0],
            [b for b, (r, c) in options if r == 0],
        ]
        least = min(r for _, (r, _) in options)
        for level in levels:
            if level:
                return 0, {level[0]}, level is levels[0]
        return least, {next(b for b, (r, _) in options if r == least)}, False

    def play(self, pairs: tuple[tuple[str, str], ...], bye: str | None, outcome: int) -> None:
        if bye:
            self.points[bye] += POINT
            self.byes[bye] += 1
        for k, (white, black) in enumerate(pairs):
            self.met[white][black] += 1
            self.met[black][white] += 1
            self.colours[white].append(1)
            self.colours[black].append(-1)
            self.points[white if outcome >> k & 1 else black] += POINT


def explore(count: int, rounds: int) -> int:
    """Every sequence of results (wins and losses) for ``rounds`` rounds of ``count`` players; each pairing on the
    way checked against brute force. Returns the number of pairings checked."""
    checked = 0

    def visit(field_: Field, depth: int) -> None:
        nonlocal checked
        pairing = pair(field_.contenders())
        least, byes, all_rules = field_.expected()
        repeats = sum(1 for a, b in pairing.pairs if field_.met[a][b])
        assert repeats == pairing.repeats == least
        assert pairing.bye in byes
        breaks = sum(out_of_turn([*field_.colours[p], 1 if p == w else -1]) for w, b in pairing.pairs for p in (w, b))
        assert breaks == pairing.colour_breaks
        if all_rules:
            assert breaks == 0
        seated = [p for pair_ in pairing.pairs for p in pair_] + ([pairing.bye] if pairing.bye else [])
        assert sorted(seated) == sorted(field_.ids)
        checked += 1
        if depth + 1 == rounds:
            return
        for outcome in range(2 ** len(pairing.pairs)):
            child = Field(count)
            child.points, child.byes = dict(field_.points), dict(field_.byes)
            child.met = {p: Counter(c) for p, c in field_.met.items()}
            child.colours = {p: list(c) for p, c in field_.colours.items()}
            child.play(pairing.pairs, pairing.bye, outcome)
            visit(child, depth + 1)

    visit(Field(count), 0)
    return checked


@pytest.mark.parametrize(("count", "rounds", "nodes"), [(2, 1, 1), (3, 3, 7), (4, 3, 21), (5, 5, 341), (6, 4, 585)])
def test_swiss_against_brute_force_for_every_result(count: int, rounds: int, nodes: int) -> None:
    """Every win/loss sequence of small Swiss tournaments: each pairing has the fewest repeats possible (none when
    avoidable), the bye the rules give, keeps every colour rule whenever some pairing can, counts its colour
    breaks right, and seats everyone once."""
    assert explore(count, rounds) == nodes


def test_swiss_round_one_is_top_half_against_bottom_half() -> None:
    """Round one of eight: 1 v 5, 2 v 6, 3 v 7, 4 v 8, the higher seed White on boards 1 and 3."""
    t = Tournament.create("swiss", entrants(8), rounds=3)
    round_ = t.pair_next()
    assert [table.seats for table in round_.tables] == [("u1", "u5"), ("u6", "u2"), ("u3", "u7"), ("u8", "u4")]
    assert round_.byes == () and round_.note == ""


def test_swiss_bye_goes_to_the_lowest_who_has_not_had_one() -> None:
    t = Tournament.create("swiss", entrants(5), rounds=3)
    assert t.pair_next().byes == ("u5",)
    t.record(1, 1, {"u1": 1, "u3": 2})
    t.record(1, 2, {"u4": 1, "u2": 2})
    round_ = t.pair_next()  # u5 (1 point from the bye) is level with the winners; u2 and u3 have 0: u3 is lowest
    assert round_.byes == ("u3",)


def test_swiss_floaters_and_colours_in_round_two() -> None:
    """After round one of four (1 and 2 win): the winners meet, the losers meet, each with the other colour."""
    t = Tournament.create("swiss", entrants(4), rounds=3)
    assert [table.seats for table in t.pair_next().tables] == [("u1", "u3"), ("u4", "u2")]
    t.record(1, 1, {"u1": 1, "u3": 2})
    t.record(1, 2, {"u2": 1, "u4": 2})
    assert [table.seats for table in t.pair_next().tables] == [("u2", "u1"), ("u3", "u4")]


def play_swiss(count: int, rounds: int, rng: random.Random, withdraw: float = 0.0) -> Tournament:
    """A Swiss played to the end with random results (and, now and then, a withdrawal); every round checked."""
    t = Tournament.create("swiss", entrants(count), rounds=rounds)
    colours: dict[str, list[int]] = {e.id: [] for e in t.entrants}
    met: set[frozenset[str]] = set()
    while not t.is_over:
        if withdraw and len(t.active) > 2 and rng.random() < withdraw:
            t.withdraw(rng.choice(t.active).id)
        if t.is_over:
            break
        byes_before = Counter(p for r in t.rounds for p in r.byes)
        round_ = t.pair_next()
        active = {e.id for e in t.active}
        seated = [p for table in round_.tables for p in table.seats] + list(round_.byes)
        assert sorted(seated) == sorted(active)
        for player in round_.byes:  # a second bye only once everyone still in has had one
            assert byes_before[player] == 0 or all(byes_before[p] for p in active)
        repeats = sum(frozenset(table.seats) in met for table in round_.tables)
        assert ("again: no pairing could avoid it" in round_.note) == (repeats > 0)
        broken = [
            p
            for table in round_.tables
            for p, c in zip(table.seats, (1, -1), strict=True)
            if out_of_turn([*colours[p], c])
        ]
        assert ("out of turn" in round_.note) == bool(broken)
        finish_round(t, rng)
        for table in t.rounds[-1].tables:  # what counts from now on: games played, not forfeits
            if table.played:
                colours[table.seats[0]].append(1)
                colours[table.seats[1]].append(-1)
                met.add(frozenset(table.seats))
        t = Tournament.from_json(json.loads(json.dumps(t.to_json())))
    return t


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 20), st.data())
def test_swiss_properties(count: int, data: st.DataObject) -> None:
    """Random fields and results: everyone still in is seated once a round, a second bye only after everyone has
    had one, and the note says exactly when a pair meets again or a colour rule breaks."""
    most = count - 1 + count % 2
    rounds = data.draw(st.integers(1, most))
    play_swiss(count, rounds, random.Random(data.draw(st.integers(0, 10**6))), withdraw=0.05)


def test_a_64_player_swiss_keeps_every_rule() -> None:
    """64 players, 6 rounds, random results: no pair meets twice, no colour out of turn, no bye."""
    for seed in range(3):
        t = play_swiss(64, 6, random.Random(seed))
        assert [r.note for r in t.rounds] == [""] * 6
        assert all(not r.byes for r in t.rounds)


def test_swiss_pairing_is_deterministic_whatever_the_order() -> None:
    rng = random.Random(4)
    t = Tournament.create("swiss", entrants(30), rounds=5)
    for _ in range(3):
        t.pair_next()
        finish_round(t, rng)
    text = json.dumps(t.to_json())
    again = Tournament.from_json(json.loads(text))
    shuffled = Tournament.from_json(json.loads(text))
    shuffled.entrants = tuple(rng.sample(shuffled.entrants, len(shuffled.entrants)))
    assert t.pair_next() == again.pair_next()
    played = Tournament.from_json(json.loads(text))
    contenders = [
        Contender(e.id, p.points, e.seed, p.met, tuple(p.colours), p.byes)
        for e in played.active
        for p in (played._history()[e.id],)
    ]
    assert pair(contenders) == pair(list(reversed(contenders)))


PAIR_IN_A_PROCESS = """
import json, sys
from bot.competition import Tournament
t = Tournament.from_json(json.loads(sys.stdin.read()))
print(json.dumps(t.pair_next().to_json()))
print(json.dumps([[s.entrant.id, str(s.points), [str(b) for b in s.tiebreaks]] for s in t.standings()]))
"""


def test_two_processes_pair_the_same_round() -> None:
    """The same saved tournament paired in two processes with different hash seeds (so any set or dict order that
    leaked into the pairing would show): the same round, the same standings, at tables of two and of four."""
    rng = random.Random(11)
    for sizes in ((2,), (4, 3)):
        t = Tournament.create("swiss", entrants(41), rounds=5, table_sizes=sizes)
        for _ in range(3):
            t.pair_next()
            finish_round(t, rng)
        t.withdraw("u7")
        text = json.dumps(t.to_json())
        outputs = {
            subprocess.run(
                [sys.executable, "-c", PAIR_IN_A_PROCESS],
                input=text,
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ, "PYTHONHASHSEED": seed},
            ).stdout
            for seed in ("1", "2", "3")
        }
        assert len(outputs) == 1 and json.loads(outputs.pop().splitlines()[0])["number"] == 4


def test_swiss_repeats_fall_where_no_pairing_avoids_them() -> None:
    """Four players after a complete round robin among them (three rounds): round four must repeat, two pairs,
    and says so."""
    field_ = Field(4)
    for a, b in itertools.combinations(field_.ids, 2):
        field_.met[a][b] = field_.met[b][a] = 1
    pairing = pair(field_.contenders())
    assert pairing.repeats == 2
    assert pairing.note == "2 pairs meet again: no pairing could avoid it."


def test_swiss_looks_past_the_first_opponent_to_keep_colours() -> None:
    """p0 must have Black, p1 and p3 must have White: p0's first choice p2 would leave p1 and p3 to play each
    other, both White. The pairing sees it and gives p0 his next choice, so every colour rule holds."""
    field_ = Field(4)
    field_.colours = {"p0": [1, 1], "p1": [-1, -1], "p2": [1, -1], "p3": [-1, -1]}
    pairing = pair(field_.contenders())
    assert pairing.pairs == (("p3", "p0"), ("p1", "p2"))
    assert pairing.colour_breaks == 0 and pairing.note == ""


def test_swiss_colour_note_when_every_player_must_have_white() -> None:
    field_ = Field(4)
    for p in field_.ids:
        field_.colours[p] = [-1, -1]
    pairing = pair(field_.contenders())
    assert pairing.repeats == 0 and pairing.colour_breaks == 2
    assert pairing.note == (
        "2 players get a colour out of turn (a third in a row or three more of one colour): no pairing could avoid it."
    )


# ---- round robin ---------------------------------------------------------------------------------------------


def test_berger_table_of_six_is_fides() -> None:
    """The published Berger table for 6 (White first)."""
    published = [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]
    assert [[(a + 1, b + 1) for a, b in tables] for tables, _ in berger(6)] == published


@pytest.mark.parametrize("count", range(2, 17))
def test_round_robin_of_two_is_complete_and_balanced(count: int) -> None:
    """Everyone meets everyone once; Whites and Blacks differ by at most one; never three of a colour running;
    with an odd number each player rests exactly once."""
    rounds = schedule(count, (2,))
    assert len(rounds) == count - 1 + count % 2
    pairs = [frozenset(t) for tables, _ in rounds for t in tables]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, itertools.combinations(range(count), 2))))
    colours: dict[int, list[int]] = {k: [] for k in range(count)}
    for tables, rest in rounds:
        seated = [p for t in tables for p in t] + list(rest)
        assert sorted(seated) == list(range(count))
        for white, black in tables:
            colours[white].append(1)
            colours[black].append(-1)
    assert all(abs(sum(c)) <= 1 and not any(out_of_turn(c[: k + 1]) for k in range(len(c))) for c in colours.values())
    assert Counter(p for _, rest in rounds for p in rest) == (Counter(range(count)) if count % 2 else Counter())


@pytest.mark.parametrize("sizes", [(3,), (4, 3)])
@pytest.mark.parametrize("count", range(3, 17))
def test_round_robin_at_tables_spreads_the_meetings(count: int, sizes: tuple[int, ...]) -> None:
    """Every pair meets at least once and none more than three times; byes and first seats are shared out (at most
    one more than anyone else's byes, three more first seats: measured, 2 at most but for 15 at tables of 3)."""
    if count < min(sizes):
        return
    rounds = schedule(count, sizes)
    meetings = Counter(frozenset(p) for tables, _ in rounds for t in tables for p in itertools.combinations(t, 2))
    assert len(meetings) == count * (count - 1) // 2
    assert max(meetings.values()) <= 3
    rests = Counter(p for _, rest in rounds for p in rest)
    firsts = Counter(t[0] for tables, _ in rounds for t in tables)
    assert max(rests[p] for p in range(count)) - min(rests[p] for p in range(count)) <= 1
    assert max(firsts[p] for p in range(count)) - min(firsts[p] for p in range(count)) <= 3
    for tables, rest in rounds:
        assert sorted([p for t in tables for p in t] + list(rest)) == list(range(count))
        assert all(len(t) in sizes for t in tables)


def test_resolvable_fields_meet_exactly_once() -> None:
    """Nine at tables of three and sixteen at tables of four can meet each other exactly once; the schedule finds
    it (4 and 5 rounds)."""
    for count, sizes, length in ((9, (3,), 4), (16, (4, 3), 5)):
        rounds = schedule(count, sizes)
        meetings = Counter(frozenset(p) for tables, _ in rounds for t in tables for p in itertools.combinations(t, 2))
        assert len(rounds) == length and set(meetings.values()) == {1}


def test_a_round_robin_withdrawal_forfeits_the_rest() -> None:
    """A player who withdraws after round 2 of 6 (five rounds) loses his remaining games by forfeit: each opponent
    scores the win without playing, and his finished results stand."""
    rng = random.Random(8)
    t = Tournament.create("round-robin", entrants(6))
    for _ in range(2):
        t.pair_next()
        finish_round(t, rng)
    kept = [t.rounds[k].table_of("u3") for k in range(2)]
    assert t.withdraw("u3") == []
    while not t.is_over:
        round_ = t.pair_next()
        table = round_.table_of("u3")
        assert table is not None and table.forfeits == ("u3",) and table.finished and not table.needs_game
        finish_round(t, rng)
    assert [t.rounds[k].table_of("u3") for k in range(2)] == kept
    line = next(s for s in t.standings() if s.entrant.id == "u3")
    assert line.withdrawn and line.played == 2


# ---- knock-out -------------------------------------------------------------------------------------------------


def test_bracket_of_sixteen() -> None:
    assert bracket(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@pytest.mark.parametrize("count", range(2, 65))
def test_brackets_give_the_byes_to_the_top_seeds(count: int) -> None:
    """2 to 64 players: each seed once; the byes are exactly the top seeds; every real first-round match pairs
    seeds summing to the bracket's size plus one, so 1 and 2 can only meet in the final."""
    slots = bracket(count)
    size = len(slots)
    assert size == 1 << (count - 1).bit_length() and sorted(s for s in slots if s) == list(range(1, count + 1))
    pairs = [(slots[k], slots[k + 1]) for k in range(0, size, 2)]
    assert sorted(a for a, b in pairs if b is None) == list(range(1, size - count + 1))
    assert all(a + b == size + 1 for a, b in pairs if b is not None)
    assert slots.index(2) >= size // 2


def test_a_knock_out_of_13_with_byes() -> None:
    """13 players: seeds 1, 2 and 3 have byes; round one is 8 v 9, 4 v 13, 5 v 12, 7 v 10, 6 v 11; the bracket
    plays down to a champion in four rounds, each round pairing neighbouring winners."""
    rng = random.Random(13)
    t = Tournament.create("knock-out", entrants(13))
    first = t.pair_next()
    assert first.byes == ("u1", "u2", "u3")
    assert [sorted(table.seats) for table in first.tables] == [
        ["u8", "u9"],
        ["u13", "u4"],
        ["u12", "u5"],
        ["u10", "u7"],
        ["u11", "u6"],
    ]
    finish_round(t, rng, draws=False)
    winners = [next(p for p in table.seats if table.place_of(p) == 1) for table in t.rounds[0].tables]
    second = t.pair_next()
    assert [set(table.seats) for table in second.tables] == [
        {"u1", winners[0]},
        {winners[1], winners[2]},
        {"u2", winners[3]},
        {"u3", winners[4]},
    ]
    finish_round(t, rng, draws=False)
    while not t.is_over:
        t.pair_next()
        finish_round(t, rng, draws=False)
    assert len(t.rounds) == 4 and t.champion is not None
    lines = t.standings()
    assert [line.rank for line in lines[:4]] == [1, 2, 3, 3]
    assert lines[0].entrant == t.champion
    assert refusal(lambda: t.pair_next()) == f"the tournament is over: {t.champion.name} won it"


def test_a_knock_out_walkover() -> None:
    """A player who withdraws mid-match loses it by forfeit; his opponent goes through without a game played."""
    t = Tournament.create("knock-out", entrants(4))
    t.pair_next()
    forfeited = t.withdraw("u4")
    assert [table.seats for table in forfeited] == [("u1", "u4")]
    assert forfeited[0].places == (1, 2) and not forfeited[0].played
    t.record(1, 2, {"u2": 2, "u3": 1})
    final = t.pair_next()
    assert [table.seats for table in final.tables] == [("u1", "u3")]  # neither has had a first seat: the higher seed


def test_a_knock_out_refuses_a_draw() -> None:
    t = Tournament.create("knock-out", entrants(2))
    t.pair_next()
    before = t.to_json()
    assert refusal(lambda: t.record(1, 1, {"u1": 1, "u2": 1})) == (
        "a knock-out game needs a winner: replay a drawn game with the seats swapped"
    )
    assert t.to_json() == before


# ---- tables of three and four ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "sizes", "layout", "byes"),
    [(10, (4, 3), (4, 3, 3), 0), (10, (3,), (3, 3, 3), 1), (10, (4,), (4, 4), 2), (5, (4, 3, 2), (3, 2), 0),
     (5, (4, 3), (4,), 1), (2, (3,), (), 2), (12, (4, 3), (4, 4, 4), 0)],
)  # fmt: skip
def test_table_sizes(count: int, sizes: tuple[int, ...], layout: tuple[int, ...], byes: int) -> None:
    assert table_sizes(count, sizes) == (layout, byes)


def test_swiss_tables_spread_the_first_round() -> None:
    """Twelve at tables of four, round one: 1-4-7-10, 2-5-8-11, 3-6-9-12."""
    assert group([0] * 12, (4, 4, 4), lambda a, b: 0) == [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11]]


def test_swiss_tables_back_out_of_a_corner() -> None:
    """Six at tables of three after round one (0 met 2 and 4, 1 met 3 and 5): seat by seat the first table would
    take 0, 1, 2 (0 and 2 meeting again); a search backs out of that and finds a round with no repeats."""
    met_before = {frozenset(p) for p in ((0, 2), (0, 4), (1, 3), (1, 5))}
    tables = group([24, 18, 18, 18, 12, 12], (3, 3), lambda a, b: int(frozenset((a, b)) in met_before))
    assert tables == [[0, 3, 5], [1, 2, 4]]


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 30), st.sampled_from([(3,), (4, 3), (4,)]), st.data())
def test_swiss_at_tables(count: int, sizes: tuple[int, ...], data: st.DataObject) -> None:
    """Random Swiss tournaments at tables of three or four: everyone seated once a round at a table of an allowed
    size (or given a bye: never to someone with more byes than a player seated), and the note counts the repeats
    exactly."""
    if count < min(sizes):
        return
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    t = Tournament.create("swiss", entrants(count), rounds=data.draw(st.integers(1, min(6, count - 1))),
                          table_sizes=sizes)  # fmt: skip
    met: Counter = Counter()
    while not t.is_over:
        byes_before = Counter(p for r in t.rounds for p in r.byes)
        round_ = t.pair_next()
        seated = [p for table in round_.tables for p in table.seats] + list(round_.byes)
        assert sorted(seated) == sorted(e.id for e in t.active)
        assert all(len(table.seats) in sizes for table in round_.tables)
        others = [byes_before[e.id] for e in t.active if e.id not in round_.byes]
        assert all(byes_before[player] <= min(others) for player in round_.byes)
        repeats = sum(met[frozenset(p)] for table in round_.tables for p in itertools.combinations(table.seats, 2))
        assert round_.note == (f"{repeats} pair{'s' if repeats != 1 else ''} meet{'s' if repeats == 1 else ''} again."
                               if repeats else "")  # fmt: skip
        met.update(frozenset(p) for table in round_.tables for p in itertools.combinations(table.seats, 2))
        finish_round(t, rng)


def test_three_player_swiss_first_seats_rotate() -> None:
    """Six players at tables of three for four rounds: nobody has the first seat more than twice."""
    rng = random.Random(2)
    t = Tournament.create("swiss", entrants(6), rounds=4, table_sizes=(3,))
    while not t.is_over:
        t.pair_next()
        finish_round(t, rng)
    firsts = Counter(table.seats[0] for r in t.rounds for table in r.tables)
    assert max(firsts.values()) <= 2


# ---- refusals and the saved state ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("format_", "count", "options", "message"),
    [
        ("league", 4, {}, "there is no format 'league': choose round-robin, swiss or knock-out"),
        ("swiss", 1, {"rounds": 1}, "a tournament needs at least 2 players, not 1"),
        ("swiss", 4, {}, "a Swiss needs its number of rounds"),
        ("swiss", 4, {"rounds": 4}, "a Swiss of 4 players has 1 to 3 rounds, not 4"),
        ("swiss", 2, {"rounds": 0}, "a Swiss of 2 players has 1 to 1 round, not 0"),
        ("round-robin", 4, {"rounds": 3}, "a round robin has as many rounds as its players need: leave the number"
         " of rounds out"),
        ("knock-out", 4, {"table_sizes": (4, 3)}, "a knock-out is for two-player games: choose swiss or round-robin"
         " for games of three or four"),
        ("swiss", 4, {"rounds": 2, "table_sizes": (4, 2)}, "games are played at tables of 2, 3 or 4 players, in a"
         " run such as 4 and 3"),
        ("round-robin", 2, {"table_sizes": (3,)}, "a tournament needs at least 3 players, not 2"),
    ],
)  # fmt: skip
def test_create_refusals(format_: str, count: int, options: dict, message: str) -> None:
    with pytest.raises(CompetitionError) as refused:
        Tournament.create(format_, entrants(count), **options)
    assert str(refused.value) == message


def test_a_player_entered_twice_is_refused() -> None:
    assert (
        refusal(lambda: Tournament.create("swiss", [*entrants(3), entrants(1)[0]], rounds=2)) == "P1 is entered twice"
    )


def test_refusals_change_nothing() -> None:
    """Each bad call is one sentence and leaves the saved state exactly as it was."""
    t = Tournament.create("swiss", entrants(4), rounds=2)
    t.pair_next()
    t.record(1, 1, {"u1": 1, "u3": 2})
    before = json.dumps(t.to_json())
    refusals = [
        (lambda: t.pair_next(), "round 1 is not finished: 1 game is still being played"),
        (lambda: t.record(1, 1, {"u1": 1, "u3": 2}), "board 1 of round 1 already has its result"),
        (lambda: t.record(1, 2, {"u2": 1, "u1": 2}), "board 2 of round 1 is played by P4, P2: give a place to each"),
        (lambda: t.record(1, 2, {"u2": 1, "u4": 3}), "places 3, 1 are not a ranking (a draw of two is 1, 1)"),
        (lambda: t.record(1, 2, {"u2": True, "u4": 2}), "places 2, True are not a ranking (a draw of two is 1, 1)"),
        (lambda: t.record(1, 9, {"u2": 1, "u4": 2}), "round 1 has no board 9"),
        (lambda: t.record(2, 1, {"u2": 1, "u4": 2}), "there is no round 2: 1 round paired so far"),
        (lambda: t.withdraw("u9"), "u9 is not in this tournament"),
    ]
    for call, message in refusals:
        with pytest.raises(CompetitionError) as refused:
            call()
        assert str(refused.value) == message
        assert json.dumps(t.to_json()) == before
    t.withdraw("u2")
    assert refusal(lambda: t.withdraw("u2")) == "P2 has already withdrawn"


def test_a_swiss_ends_when_too_few_are_left() -> None:
    t = Tournament.create("swiss", entrants(3), rounds=3)
    t.pair_next()
    t.withdraw("u1")
    t.withdraw("u2")
    assert t.is_over
    assert refusal(lambda: t.pair_next()) == "the tournament is over: 1 player is left"


def test_the_saved_state_is_stable_and_checked() -> None:
    """JSON round trip gives the same text; saved text that is not a tournament is refused in one sentence."""
    rng = random.Random(5)
    t = Tournament.create("swiss", entrants(7), rounds=3, table_sizes=(3,))
    t.pair_next()
    finish_round(t, rng)
    t.withdraw("u2")
    text = json.dumps(t.to_json())
    assert json.dumps(Tournament.from_json(json.loads(text)).to_json()) == text
    broken = json.loads(text)
    broken["rounds"][0]["tables"][0]["places"] = [1, 3, 3]
    for data, message in [
        ({}, "the saved tournament is not one this version can read"),
        ({**json.loads(text), "format": "league"}, "the saved tournament's format 'league' is unknown"),
        (broken, "the tournament's saved places [1, 3, 3] are not a ranking of its seats"),
        ({**json.loads(text), "withdrawn": [["u2"]]}, "the saved tournament's withdrawals are not pairs of a player"
         " and a round"),
    ]:  # fmt: skip
        with pytest.raises(CompetitionError) as refused:
            Tournament.from_json(data)
        assert str(refused.value) == message


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([("swiss", (2,)), ("swiss", (4, 3)), ("swiss", (3,)), ("round-robin", (2,)),
                     ("round-robin", (4, 3)), ("knock-out", (2,))]),
    st.integers(2, 14),
    st.lists(st.tuples(st.sampled_from(["pair", "record", "draw", "withdraw", "reload"]), st.integers(0, 99)),
             min_size=20, max_size=80),
)  # fmt: skip
def test_any_sequence_of_calls(kind: tuple[str, tuple[int, ...]], count: int, calls: list[tuple[str, int]]) -> None:
    """Any sequence of pairing, recording (draws too), withdrawing and reloading: every refusal is a
    CompetitionError and changes nothing; whatever is accepted keeps everyone still in seated once a round."""
    format_, sizes = kind
    if count < min(sizes):
        return
    t = Tournament.create(format_, entrants(count), rounds=min(3, count - 1) if format_ == "swiss" else None,
                          table_sizes=sizes)  # fmt: skip
    for call, pick in calls:
        before = json.dumps(t.to_json())
        try:
            if call == "pair":
                round_ = t.pair_next()
                seated = [p for table in round_.tables for p in table.seats] + list(round_.byes)
                assert len(seated) == len(set(seated))
                if format_ == "swiss":
                    assert sorted(seated) == sorted(e.id for e in t.active)
            elif call in ("record", "draw") and t.current is not None and t.current.unfinished:
                table = t.current.unfinished[pick % len(t.current.unfinished)]
                players = list(table.playing)
                places = dict.fromkeys(players, 1) if call == "draw" else {p: k + 1 for k, p in enumerate(players)}
                t.record(t.current.number, table.board, places)
            elif call == "withdraw":
                t.withdraw(t.entrants[pick % count].id)
            elif call == "reload":
                t = Tournament.from_json(json.loads(before))
                assert json.dumps(t.to_json()) == before
        except CompetitionError as refused:
            assert "\n" not in str(refused) and str(refused)
            assert json.dumps(t.to_json()) == before
        t.standings()
