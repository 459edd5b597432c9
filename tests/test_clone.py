"""``state.clone()`` gives an independent copy in every game and variant. Druid, Drogo and Dragons copy their states
field by field (a search clones thousands of positions, see ``DruidState.clone``), so a field left shared by mistake
would let moves on a copy change the original: here a clone is played on, the original must not move, and the
original then played the same way must end equal to the clone, derived data included."""

from __future__ import annotations

import pytest

from rules.memory import unpack
from rules.rng import Rng
from tests.test_ai_players import VARIANTS, reachable, variant_id

#: memos of the current position (judgements, groups, choices, plays found so far): filled by asking, not by playing
MEMOS = ("_verdicts", "_groups", "_lookups", "_choices", "_plays", "_listed")


def _fields(state) -> dict:
    """Everything a state holds but its memos, compared by value. Drogo's set of positions seen is built only once
    asked often; where it exists it must hold exactly the packed memory's positions."""
    fields = {name: value for name, value in vars(state).items() if name not in MEMOS}
    seen = fields.pop("_seen", None)
    if seen is not None:
        assert seen == set(unpack(fields["_memory"]))
    return _plain(fields)


def _plain(value):
    """``value`` with every object that has no equality of its own (Dragons' bands) turned into its fields."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if type(value) in (list, tuple):
        return type(value)(_plain(item) for item in value)
    if type(value).__eq__ is object.__eq__ and (hasattr(value, "__dict__") or hasattr(type(value), "__slots__")):
        names = getattr(type(value), "__slots__", None) or list(vars(value))
        return (type(value).__name__, {name: _plain(getattr(value, name)) for name in names})
    return value


def _play(state, rng: Rng, plies: int) -> list:
    moves = []
    for _ in range(plies):
        if state.is_over:
            break
        move = state.forced_move()
        if move is None:
            move = rng.choice(list(state.legal_moves))
        state.push(move)
        moves.append(move)
    return moves


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
@pytest.mark.parametrize("depth", [0, 6, 40])
def test_a_clone_played_on_leaves_the_original_alone(variant, depth: int) -> None:
    game, words, players = variant
    for seed in range(3):
        original = reachable(game, words, players, seed, depth)
        before_json, before_fields = original.to_json(), _fields(original.clone())
        before_moves = sorted(map(str, original.legal_moves))
        copy = original.clone()
        assert copy.to_json() == before_json
        played = _play(copy, Rng(seed + 99), 12)
        assert original.to_json() == before_json
        assert sorted(map(str, original.legal_moves)) == before_moves
        assert _fields(original) == before_fields
        for move in played:
            original.push(move)
        assert original.to_json() == copy.to_json()
        assert _fields(original) == _fields(copy)
