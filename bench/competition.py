"""Tournaments at scale (issue 30): pairing a Swiss round of 1,000 players and the standings of a 1,000-player
tournament, on the pure core (``bot.competition``) the store, the console and Discord call.

**The field.** 1,000 players (ratings spread, so seeds differ) in a two-player Swiss of 10 rounds, played with
random results (45% White wins, 45% Black, 10% draws); two players withdraw on the way (rounds 3 and 6) so the
tie-breaks meet forfeits and the field an odd number: byes. The saved state (JSON text, as the store keeps it) is
taken before each round.

**A round's pairing** is timed as a process would run it: the tournament read from its JSON text, then
``pair_next()`` (the players' history rebuilt from the rounds, the matching found, boards and colours chosen). Each
round's state is paired several times, the rounds interleaved (1, 2, ... 10, 1, 2 ...) so that load on the shared
machine falls on all of them alike; the row gives the median of the slowest round and, in the note, each round's.
**The standings** (points, Buchholz, Sonneborn-Berger, exact) of the finished tournament are timed the same way,
without and with reading the JSON text. For scale, a round of the same field at tables of four (Drogo) is timed too.
"""

from __future__ import annotations

import json
import random
import statistics
import time

from bench.common import Row
from bot.competition import Entrant, Tournament

PLAYERS = 1_000
ROUNDS = 10
#: the rounds before which a player withdraws, and who
WITHDRAWALS = {3: 17, 6: 400}


def _results(t: Tournament, rng: random.Random) -> None:
    """Random results for every game of the current round."""
    round_ = t.current
    assert round_ is not None
    for table in round_.tables:
        if not table.needs_game:
            continue
        players = list(table.playing)
        roll = rng.random()
        if len(players) == 2 and roll < 0.10:
            places = dict.fromkeys(players, 1)
        else:
            if len(players) > 2:
                rng.shuffle(players)
            elif roll < 0.55:  # Black wins
                players.reverse()
            places = {p: k + 1 for k, p in enumerate(players)}
        t.record(round_.number, table.board, places)


def field(players: int, rounds: int, sizes: tuple[int, ...] = (2,)) -> tuple[list[str], str]:
    """The saved state before each round, and the finished tournament's."""
    rng = random.Random(30)
    entrants = [Entrant(f"p{k:04d}", f"Player {k}", round(rng.gauss(1500, 200))) for k in range(players)]
    t = Tournament.create("swiss", entrants, rounds=rounds, table_sizes=sizes)
    before = []
    for number in range(1, rounds + 1):
        if number in WITHDRAWALS:
            t.withdraw(t.entrants[WITHDRAWALS[number] * players // PLAYERS].id)
        before.append(json.dumps(t.to_json()))
        t.pair_next()
        _results(t, rng)
    return before, json.dumps(t.to_json())


def _pair(text: str) -> float:
    """Seconds to read a saved tournament and pair its next round."""
    start = time.perf_counter()
    Tournament.from_json(json.loads(text)).pair_next()
    return time.perf_counter() - start


def _timed(call, repeat: int) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        call()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus


def pairing_rows(players: int, repeat: int) -> list[Row]:
    before, _ = field(players, ROUNDS)
    times: list[list[float]] = [[] for _ in before]
    cpus: list[list[float]] = [[] for _ in before]
    for _ in range(repeat):
        for k, text in enumerate(before):
            cpu = time.process_time()
            times[k].append(_pair(text))
            cpus[k].append(time.process_time() - cpu)
    medians = [statistics.median(t) * 1000 for t in times]
    slowest = max(range(len(medians)), key=lambda k: medians[k])
    target = players == PLAYERS
    each = ", ".join(f"{m:.0f}" for m in medians)
    note = (
        f"slowest: round {slowest + 1}; each round's median (ms): {each}; worst single run "
        f"{max(max(t) for t in times) * 1000:.0f} ms; CPU {statistics.median(cpus[slowest]) * 1000:.0f} ms;"
        f" {repeat} runs of each round, interleaved; JSON read included; withdrawals before rounds 3 and 6"
    )
    return [
        Row(
            "competition",
            f"pair a Swiss round, {players:,} players (median of the slowest round)",
            medians[slowest],
            "ms",
            "<= 1000 ms" if target else "",
            medians[slowest] <= 1000 if target else None,
            note=note,
        )
    ]


def standings_rows(players: int, repeat: int) -> list[Row]:
    _, finished = field(players, ROUNDS)
    t = Tournament.from_json(json.loads(finished))
    bare, bare_cpu = [], []
    loaded = []
    for _ in range(repeat):  # interleaved: the standings alone, then read from the text and the standings
        walls, cpus = _timed(t.standings, 1)
        bare += walls
        bare_cpu += cpus
        walls, _ = _timed(lambda: Tournament.from_json(json.loads(finished)).standings(), 1)
        loaded += walls
    median = statistics.median(bare) * 1000
    target = players == PLAYERS
    tables = sum(len(r.tables) for r in t.rounds)
    note = (
        f"{ROUNDS} rounds, {tables:,} games, 2 withdrawals; CPU {statistics.median(bare_cpu) * 1000:.1f} ms;"
        f" {repeat} runs interleaved with the JSON read"
    )
    return [
        Row(
            "competition",
            f"standings of a {players:,}-player Swiss (median)",
            median,
            "ms",
            "<= 50 ms" if target else "",
            median <= 50 if target else None,
            note=note,
        ),
        Row(
            "competition",
            f"read the saved tournament and its standings, {players:,} players (median)",
            statistics.median(loaded) * 1000,
            "ms",
            note=f"{len(finished) / 1e6:.1f} MB of JSON text",
        ),
    ]


def tables_rows(players: int, repeat: int) -> list[Row]:
    before, _ = field(players, 6, (4, 3))
    times = [[_pair(text) for text in before] for _ in range(repeat)]
    medians = [statistics.median(run[k] for run in times) * 1000 for k in range(len(before))]
    return [
        Row(
            "competition",
            f"pair a Swiss round at tables of 4, {players:,} players (median of the slowest round)",
            max(medians),
            "ms",
            note=f"each round's median (ms): {', '.join(f'{m:.0f}' for m in medians)}; {repeat} runs interleaved",
        )
    ]


def run(quick: bool = False) -> list[Row]:
    players = 200 if quick else PLAYERS
    repeat = 3 if quick else 7
    return pairing_rows(players, repeat) + standings_rows(players, 5 if quick else 21) + tables_rows(players, repeat)
