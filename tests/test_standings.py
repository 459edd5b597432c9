"""Tournament standings (bot.competition.standings): every number checked against a plain count written here from
the results table (points by place from the formula, Buchholz and Sonneborn-Berger summed opponent by opponent),
on whole tournaments played with random results to the end, and on hand-made cases."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from bot.competition import Entrant, Tournament, points_text
from bot.competition.scoring import table_points
from tests.test_pairing import entrants, finish_round


def place_points(places: list[int], seat: int) -> Fraction:
    """Points by place, straight from the rule: the k places are worth (k - j) / (k - 1) for j = 1 .. k, and
    players sharing places share those places' points."""
    k = len(places)
    place = places[seat]
    shared = places.count(place)
    return sum((Fraction(k - j, k - 1) for j in range(place, place + shared)), Fraction(0)) / shared


def result_against(places: list[int], me: int, other: int) -> Fraction:
    return Fraction(1) if places[me] < places[other] else Fraction(1, 2) if places[me] == places[other] else Fraction(0)


def plain_standings(t: Tournament) -> list[tuple[str, Fraction, tuple[Fraction, ...]]]:
    """(player, points, tie-breaks) in standings order, counted from the results table alone."""
    ids = [e.id for e in t.entrants]
    points = dict.fromkeys(ids, Fraction(0))
    games = []  # (round, player, opponent, result, opponent's share of a game, unplayed)
    for round_ in t.rounds:
        for player in round_.byes:
            points[player] += 1 if t.format == "swiss" else 0
        for table in round_.tables:
            if not table.finished:
                continue
            places = list(table.places)
            k = len(table.seats)
            for i, player in enumerate(table.seats):
                points[player] += 0 if player in table.forfeits else place_points(places, i)
                for j, other in enumerate(table.seats):
                    if j == i:
                        continue
                    unplayed = player in table.forfeits or other in table.forfeits
                    if player in table.forfeits:
                        result = Fraction(0)
                    elif other in table.forfeits:
                        result = Fraction(1)
                    else:
                        result = result_against(places, i, j)
                    games.append((round_.number, player, other, result, Fraction(1, k - 1), unplayed))
    first = {}
    second = {}
    for player in ids:
        mine = [g for g in games if g[1] == player]
        if t.format == "swiss":
            buchholz = Fraction(0)
            sb = Fraction(0)
            for round_ in t.rounds:
                in_round = [g for g in mine if g[0] == round_.number]
                if player in round_.byes:
                    buchholz += points[player]
                    sb += points[player]
                elif not in_round:
                    buchholz += points[player]
                for _, _, other, result, share, unplayed in in_round:
                    opponent = points[player] if unplayed else points[other]
                    buchholz += share * opponent
                    sb += share * result * opponent
            first[player], second[player] = buchholz, sb
        else:
            first[player] = sum((share * result * points[other] for _, _, other, result, share, _ in mine), Fraction(0))
    if t.format != "swiss":
        for player in ids:
            level = [p for p in ids if (points[p], first[p]) == (points[player], first[player])]
            second[player] = sum(
                (share * result for _, me, other, result, share, _ in games if me == player and other in level),
                Fraction(0),
            )
    seed = {e.id: e.seed for e in t.entrants}
    order = sorted(ids, key=lambda p: (-points[p], -first[p], -second[p], seed[p]))
    return [(p, points[p], (first[p], second[p])) for p in order]


def check(t: Tournament) -> None:
    """The module's standings equal the plain count: order, points, tie-breaks, and ranks shared exactly when
    everything is level."""
    lines = t.standings()
    plain = plain_standings(t)
    assert [(line.entrant.id, line.points, line.tiebreaks) for line in lines] == plain
    for before, line in itertools.pairwise(lines):
        level = (before.points, before.tiebreaks) == (line.points, line.tiebreaks)
        assert (line.rank == before.rank) == level
    assert lines[0].rank == 1
    assert all(line.rank == k + 1 for k, line in enumerate(lines) if k == 0 or line.rank != lines[k - 1].rank)
    assert {line.entrant.id for line in lines if line.withdrawn} == set(t.withdrawn)


def play(t: Tournament, rng: random.Random, withdrawals: dict[int, str]) -> Tournament:
    """Play ``t`` to the end with random results, withdrawing players before the rounds named; check the standings
    after every round."""
    while not t.is_over:
        if len(t.rounds) + 1 in withdrawals:
            t.withdraw(withdrawals[len(t.rounds) + 1])
        t.pair_next()
        finish_round(t, rng)
        check(t)
    return t


@pytest.mark.parametrize("seed", range(3))
def test_a_64_player_swiss_of_6_rounds(seed: int) -> None:
    """64 players, 6 rounds, random results (draws too), one player withdrawing before round 4 and one during
    round 5 (his game lost by forfeit): after every round the standings equal the plain count."""
    rng = random.Random(seed)
    t = Tournament.create("swiss", entrants(64), rounds=6)
    while not t.is_over:
        if len(t.rounds) == 3:
            t.withdraw("u10")
        t.pair_next()
        if len(t.rounds) == 5:
            forfeited = t.withdraw("u20")
            assert len(forfeited) == 1 and forfeited[0].finished and not forfeited[0].played
        finish_round(t, rng)
        check(t)
    lines = t.standings()
    assert sum(line.points for line in lines) == 6 * 32 - 1  # u10's three rounds away, and a bye never arises


def test_a_swiss_with_byes() -> None:
    """An odd field: byes count a point, and as the player's own points in Buchholz and Sonneborn-Berger."""
    t = play(Tournament.create("swiss", entrants(9), rounds=5), random.Random(3), {3: "u4"})
    assert [len(r.byes) for r in t.rounds] == [1, 1, 0, 0, 0]  # eight left after u4 withdraws


@pytest.mark.parametrize("seed", range(3))
def test_a_10_player_round_robin(seed: int) -> None:
    """Ten players to the end, random results, one player withdrawing after round 4 (his remaining games lost by
    forfeit): after every round the standings (points, Sonneborn-Berger, head-to-head) equal the plain count."""
    rng = random.Random(seed)
    t = Tournament.create("round-robin", entrants(10))
    kept = None
    while not t.is_over:
        if len(t.rounds) == 4:
            t.withdraw("u7")
            kept = next(line.points for line in t.standings() if line.entrant.id == "u7")
        t.pair_next()
        finish_round(t, rng)
        check(t)
    assert len(t.rounds) == 9
    lines = t.standings()
    assert sum(line.points for line in lines) == 45  # every game a point, the forfeits too
    assert next(line.points for line in lines if line.entrant.id == "u7") == kept  # his results stand


def test_tables_of_three_and_four() -> None:
    """Swiss and round robin at tables of four or three, shared places now and then, a withdrawal: the points by
    place and both tie-breaks equal the plain count."""
    rng = random.Random(7)
    for t in (
        Tournament.create("swiss", entrants(13), rounds=5, table_sizes=(4, 3)),
        Tournament.create("round-robin", entrants(7), table_sizes=(3,)),
    ):
        while not t.is_over:
            if len(t.rounds) == 2:
                t.withdraw("u5")
            round_ = t.pair_next()
            for table in round_.tables:
                if table.needs_game:
                    players = list(table.playing)
                    rng.shuffle(players)
                    places = {p: 1 + k - (k > 0 and rng.random() < 0.2) for k, p in enumerate(players)}
                    fixed = {p: 1 + sum(v < places[p] for v in places.values()) for p in players}
                    t.record(round_.number, table.board, fixed)
            check(t)


@pytest.mark.parametrize(
    ("places", "points"),
    [
        ((1, 2), (1, 0)),
        ((1, 1), (Fraction(1, 2), Fraction(1, 2))),
        ((2, 1, 3), (Fraction(1, 2), 1, 0)),
        ((1, 1, 3), (Fraction(3, 4), Fraction(3, 4), 0)),
        ((1, 2, 3, 4), (1, Fraction(2, 3), Fraction(1, 3), 0)),
        ((1, 1, 3, 4), (Fraction(5, 6), Fraction(5, 6), Fraction(1, 3), 0)),
        ((1, 2, 2, 2), (1, Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))),
    ],
)
def test_points_by_place(places: tuple[int, ...], points: tuple) -> None:
    from bot.competition.model import Table

    table = Table(1, tuple(f"p{k}" for k in range(len(places))), places=places)
    assert [Fraction(v, 12) for v in table_points(table).values()] == list(points)


def test_head_to_head_breaks_a_tie() -> None:
    """Four players: A and B end level on points (1½) and Sonneborn-Berger (2); B beat A, so B is second."""
    results = {("A", "B"): "B", ("A", "C"): "A", ("A", "D"): None, ("B", "C"): None, ("B", "D"): "D", ("C", "D"): None}
    players = [Entrant(name, name, 2000 - k) for k, name in enumerate("ABCD")]
    t = Tournament.create("round-robin", players)
    while not t.is_over:
        round_ = t.pair_next()
        for table in round_.tables:
            winner = results[tuple(sorted(table.seats))]
            places = {p: 1 if winner in (None, p) else 2 for p in table.seats}
            t.record(round_.number, table.board, places)
    lines = t.standings()
    assert [(line.rank, line.entrant.id, points_text(line.points)) for line in lines] == [
        (1, "D", "2"),
        (2, "B", "1½"),
        (3, "A", "1½"),
        (4, "C", "1"),
    ]
    assert lines[1].tiebreaks == (Fraction(2), Fraction(1)) and lines[2].tiebreaks == (Fraction(2), Fraction(0))
    check(t)


def test_players_level_on_everything_share_a_rank() -> None:
    """Three players who each beat one other: level on everything, all first, listed by seed."""
    players = [Entrant(name, name, 2000 - k) for k, name in enumerate("ABC")]
    beats = {"A": "B", "B": "C", "C": "A"}
    t = Tournament.create("round-robin", players)
    while not t.is_over:
        round_ = t.pair_next()
        for table in round_.tables:
            a, b = table.seats
            t.record(round_.number, table.board, {a: 1, b: 2} if beats[a] == b else {a: 2, b: 1})
    assert [(line.rank, line.entrant.id) for line in t.standings()] == [(1, "A"), (1, "B"), (1, "C")]


def test_knock_out_standings_by_round_reached() -> None:
    rng = random.Random(1)
    t = Tournament.create("knock-out", entrants(8))
    while not t.is_over:
        t.pair_next()
        finish_round(t, rng, draws=False)
    lines = t.standings()
    assert [line.rank for line in lines] == [1, 2, 3, 3, 5, 5, 5, 5]
    assert [line.tiebreaks for line in lines] == [(4,), (3,), (2,), (2,), (1,), (1,), (1,), (1,)]
    assert lines[0].entrant == t.champion and lines[0].points == 3


@pytest.mark.parametrize(
    ("value", "text"),
    [(Fraction(4), "4"), (Fraction(9, 2), "4½"), (Fraction(1, 2), "½"), (Fraction(8, 3), "2.67"), (Fraction(0), "0")],
)
def test_points_text(value: Fraction, text: str) -> None:
    assert points_text(value) == text
