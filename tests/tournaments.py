"""What the tournament tests share: a store and actions on a clock the test moves, tournaments filled with players,
their games played out by computer players (level 1, as ``ai:1`` plays) through the same ``move`` a person uses,
and the standings computed again from the games table alone, without :mod:`bot.competition`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from bot.actions import Actions, Result
from data.store import Store

#: a Monday morning, UTC
T0 = 1_795_000_000.0


class Clock:
    """The actions' clock, moved by the test."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def open_actions(target: str | Path, clock: Clock | None = None) -> Actions:
    """Actions on the store at ``target``, seeded, on ``clock``; computer players never move by themselves."""
    store = await Store.open(target)
    seeds = iter(range(1, 10**6))
    return Actions(store, seed_source=lambda: next(seeds), clock=clock or Clock(), think=None)


async def filled(
    actions: Actions,
    game: str,
    format_: str,
    players: Sequence[str],
    *,
    rounds: int | None = None,
    options: Sequence[str] = (),
    table: str | None = None,
    **where: Any,
) -> Result:
    """A tournament made by the first player, joined by every player, and started; the start's result."""
    made = await actions.create_tournament(
        game, players[0], format_, rounds=rounds, options=list(options), table=table, **where
    )
    assert made.ok, made.message
    number = made.data["tournament"]["id"]
    for player in players:
        joined = await actions.join_tournament(number, player, guild_id=where.get("guild_id"))
        assert joined.ok, joined.message
    started = await actions.start_tournament(number, players[0], guild_id=where.get("guild_id"))
    assert started.ok, started.message
    return started


async def computer_move(actions: Actions, game_id: int) -> Result:
    """The level-1 computer's move for whoever is to move in a game, played with the ``#n`` guard."""
    from ai import decide

    shown = await actions.show(game_id)
    assert shown.ok and shown.state is not None and shown.to_move is not None, shown.message
    state = shown.state
    choice = decide(state, 1, seed=state.seed, move_number=state.ply, max_seconds=0.02)
    return await actions.move(game_id, shown.to_move, f"{choice.text}#{state.ply + 1}")


async def play_out(actions: Actions, tournament_id: int, *, most: int = 100_000) -> list[Result]:
    """Play every game of a tournament to its end, round after round, by computer moves; the results that carried
    news (a round over, the next one started, the end)."""
    told = []
    for _ in range(most):
        running = await actions.store.running_tournament_games(tournament_id)
        if not running:
            return told
        moved = await computer_move(actions, running[0])
        assert moved.ok, moved.message
        if moved.news:
            told.append(moved)
    raise AssertionError(f"tournament {tournament_id} did not end within {most} moves")


async def games_by_round(actions: Actions, tournament_id: int) -> dict[int, list[tuple[list[str], list[int] | None]]]:
    """Each round's decisive games, read from the games table: the players in seat order and the winning seats
    (``None``: a draw); a board played again counts by its last game."""
    last: dict[tuple[int, int], int] = {}
    for link in await actions.store.tournament_games(tournament_id):
        last[(link.round, link.board)] = link.game_id  # attempts come in order
    rounds: dict[int, list[tuple[list[str], list[int] | None]]] = defaultdict(list)
    for (number, _board), game_id in sorted(last.items()):
        row = await actions.store.load_game(game_id)
        assert row.status == "finished", (game_id, row.status)
        outcome = row.outcome or {}
        winners = list(outcome.get("winners") or []) or None
        rounds[number].append((list(row.snapshot["players"]), winners))
    return rounds


def independent_standings(
    format_: str, entrants: Sequence[str], rounds: dict[int, list[tuple[list[str], list[int] | None]]]
) -> dict[str, tuple[int, Fraction, tuple[Fraction, ...]]]:
    """Each player's rank, points and tie-breaks computed from the games alone, by the rules as written (two
    players a game, nobody withdrawn): a win 1, a draw 1/2; a Swiss bye 1. Swiss: Buchholz (the opponents'
    points; a bye counts as an opponent with the player's own points), then Sonneborn-Berger (the points of the
    opponents beaten, half those drawn; a bye: the player's own). Round robin: Sonneborn-Berger, then the points
    taken from the others level on both."""
    points: dict[str, Fraction] = dict.fromkeys(entrants, Fraction(0))
    meetings: dict[str, list[tuple[str | None, Fraction]]] = defaultdict(list)  # opponent (None: a bye), result
    for number in sorted(rounds):
        seated = set()
        for players, winners in rounds[number]:
            a, b = players
            seated.update(players)
            result_a = Fraction(1, 2) if winners is None else Fraction(1 if 0 in winners else 0)
            points[a] += result_a
            points[b] += 1 - result_a
            meetings[a].append((b, result_a))
            meetings[b].append((a, 1 - result_a))
        for player in entrants:
            if player not in seated and format_ == "swiss":
                points[player] += 1
                meetings[player].append((None, Fraction(1)))
    keys: dict[str, tuple[Fraction, ...]] = {}
    for player in entrants:
        against = [points[player] if other is None else points[other] for other, _ in meetings[player]]
        sb = sum((result * value for (_, result), value in zip(meetings[player], against, strict=True)), Fraction(0))
        keys[player] = (sum(against, Fraction(0)), sb) if format_ == "swiss" else (sb,)
    if format_ == "round-robin":
        level: dict[tuple[Fraction, ...], list[str]] = defaultdict(list)
        for player in entrants:
            level[(points[player], *keys[player])].append(player)
        for player in entrants:
            group = level[(points[player], *keys[player])]
            h2h = sum((r for other, r in meetings[player] if other in group and len(group) > 1), Fraction(0))
            keys[player] = (*keys[player], h2h)
    ordered = sorted(entrants, key=lambda p: (points[p], *keys[p]), reverse=True)
    ranks: dict[str, tuple[int, Fraction, tuple[Fraction, ...]]] = {}
    for position, player in enumerate(ordered):
        previous = ordered[position - 1] if position else None
        same = previous is not None and (points[previous], *keys[previous]) == (points[player], *keys[player])
        rank = ranks[previous][0] if same and previous is not None else position + 1
        ranks[player] = (rank, points[player], keys[player])
    return ranks


def as_shown(value: Fraction) -> str:
    """A value as the standings write it."""
    from bot.competition import points_text

    return points_text(value)
