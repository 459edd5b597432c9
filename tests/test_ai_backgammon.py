"""The backgammon player's cube handling on positions with known answers, the fallback evaluator, and game
analysis checked against gnubg-nn's own numbers."""

from __future__ import annotations

import gnubg_nn
import pytest

import ai
from ai import analysis
from ai import backgammon as bg
from rules.backgammon import GAME, BackgammonState
from rules.base import Resign

# O to roll in a short race, 54 pips against 57: a double, and a take (about 70% to win)
DOUBLE_TAKE = ({19: 3, 20: 3, 21: 3, 22: 2, 23: 2, 24: 2}, {1: 2, 2: 2, 3: 3, 4: 3, 5: 3, 6: 2})
# O to roll, 48 pips against 59: doubling wins at once, the opponent must drop
DOUBLE_PASS = ({19: 3, 20: 3, 21: 3, 22: 3, 23: 2, 24: 1}, {1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2})
# an even long race, 108 pips each: no double, an easy take
NO_DOUBLE = ({13: 3, 16: 3, 18: 3, 20: 3, 22: 3}, {12: 3, 9: 3, 7: 3, 5: 3, 3: 3})
# O two checkers from home, X has borne off nothing and is far away: playing on for the gammon beats cashing
TOO_GOOD = ({13: 5, 14: 5, 15: 5}, {1: 1, 2: 1})


def at_phase(position: tuple[dict, dict], phase: str) -> BackgammonState:
    """O (seat 0) to roll or double (``decide``), or X to answer O's double (``answer``), in manual mode."""
    x, o = position
    state = BackgammonState.from_points(["oscar", "xena"], x, o, (1, 2), "O")
    data = state.to_json()
    data["board"].update(phase=phase, dice=[], manual=[True, True])
    return GAME.load(data)


def test_a_clear_double_is_offered_and_taken() -> None:
    for level in ai.LEVELS:
        offer = ai.decide(at_phase(DOUBLE_TAKE, "decide"), level, seed=1)
        assert offer.text == "double" and offer.note.startswith("doubles: ") and "% to win" in offer.note
        answer = ai.decide(at_phase(DOUBLE_TAKE, "answer"), level, seed=1)
        assert answer.text == "take" and answer.note.startswith("takes: ")


def test_a_clear_pass_is_doubled_and_dropped() -> None:
    state = at_phase(DOUBLE_PASS, "answer")
    decision = ai.decide(state, 2, seed=1)
    assert decision.text == "drop" and decision.note.startswith("drops: ")
    assert state.move_text(state.parse_move(decision.text, 1)) == "drop"
    assert ai.decide(at_phase(DOUBLE_PASS, "decide"), 2, seed=1).text == "double"


def test_no_double_in_an_even_race_and_none_when_too_good() -> None:
    quiet = ai.decide(at_phase(NO_DOUBLE, "decide"), 2, seed=1)
    assert quiet.text == "roll" and "not enough to double" in quiet.note
    assert ai.decide(at_phase(NO_DOUBLE, "answer"), 2, seed=1).text == "take"
    greedy = ai.decide(at_phase(TOO_GOOD, "decide"), 2, seed=1)
    assert greedy.text == "roll" and "too good" in greedy.note


def test_the_ai_never_offers_a_double_its_own_take_rule_calls_wrong() -> None:
    """Whenever the AI doubles, taking or dropping (by its own numbers) leaves it better off than rolling."""
    for position in (DOUBLE_TAKE, DOUBLE_PASS, NO_DOUBLE, TOO_GOOD):
        state = at_phase(position, "decide")
        view = bg.cube_view(state, 0, 2)
        if ai.decide(state, 2, seed=1).text == "double":
            answer = view.double_take if view.should_take else view.double_pass
            assert answer > view.no_double


def test_the_fallback_evaluator_plays_and_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bg, "gnubg_nn", None)
    from ai.match import Setup, play_one

    setup = Setup("backgammon", (), ("ai:2", "random"), seed=9, seconds=None)
    results = [play_one(setup, index) for index in range(6)]
    assert sum(result.shares[0] for result in results) >= 5
    state = at_phase(DOUBLE_PASS, "decide")
    assert ai.decide(state, 3, seed=1).text == "double"


def recorded_game(seed: int) -> list[tuple[int, str]]:
    """A game between ai:1 and ai:2 in manual mode, as the move log keeps it: (seat, text)."""
    state = GAME.new({"force": False}, ["ann", "ben"], seed)
    log: list[tuple[int, str]] = []
    for seat in (0, 1):
        log.append((seat, "manual"))
        state.push(state.parse_move("manual", seat))
    while not state.is_over:
        forced = state.forced_move()
        seat = state.to_move
        text = state.move_text(forced) if forced is not None else ai.choose_move(state, 1 + seat, seed=seed)
        log.append((seat, text))
        move = state.parse_move(text, seat)
        if isinstance(move, Resign):
            state.resign(seat)
        else:
            state.push(move)
    return log


def test_analysis_matches_gnubgs_own_best_move_equities() -> None:
    records = analysis.replay({"force": False}, ["ann", "ben"], 11, recorded_game(11))
    result = analysis.analyze(records)
    plays = [r for r in result.ratings if r.kind == "play"]
    assert len(plays) >= 10
    for rating in plays:
        state, _, seat = records[rating.index]
        me, opp = bg.sides(state, seat)
        _, entries = gnubg_nn.best_move(bg.gnubg_board(me, opp), *state.dice, n=0, list=1)
        assert rating.best_equity == pytest.approx(entries[0][3], abs=1e-6)
        assert rating.played_equity <= rating.best_equity + 1e-9
        best = state.parse_move(rating.best, seat)
        after = state.clone()
        after.push(best)
        # gnubg's best result, seen from the opponent now on roll, is the position the best play reaches
        mover, opponent = gnubg_nn.board_from_position_key(entries[0][0])
        colour = state.colour[seat]
        assert list(mover) == after.points[colour][1:26] and list(opponent) == after.points[1 - colour][1:26]
    assert {p.player for p in result.players} == {"ann", "ben"}
    assert all(p.decisions > 0 for p in result.players)
    assert "error rate" in result.text()


def test_marks_follow_the_usual_thresholds() -> None:
    assert [analysis.mark_for(x) for x in (0.0, 0.039, 0.04, 0.08, 0.159, 0.16, 0.5)] == [
        "",
        "",
        "doubtful",
        "error",
        "error",
        "blunder",
        "blunder",
    ]


def test_a_weak_play_is_marked() -> None:
    """The worst legal play of an opening 6-5 (gnubg's last choice) is a blunder; the best is not marked."""
    state = GAME.new({"force": True}, ["ann", "ben"], 4)
    me, opp = bg.sides(state, state.turn)
    keys = bg.gnubg_keys(state, me, opp)
    ranking = bg.ranked(me, opp, state.dice, 0)
    worst = state.move_text(state.plays()[keys[ranking[-1][0]]])
    best = state.move_text(state.plays()[keys[ranking[0][0]]])
    result = analysis.analyze([(state, worst, state.turn), (state, best, state.turn)])
    assert result.ratings[0].mark == "blunder" and result.ratings[0].best == best
    assert result.ratings[1].mark == "" and result.ratings[1].lost == 0


def test_cube_actions_are_rated() -> None:
    records = [(at_phase(DOUBLE_PASS, "decide"), "roll", 0), (at_phase(DOUBLE_PASS, "answer"), "take", 1)]
    result = analysis.analyze(records)
    roll, take = result.ratings
    assert roll.kind == "cube" and roll.best == "double" and roll.lost > 0
    assert take.kind == "answer" and take.best == "drop" and take.lost > 0


def test_without_gnubg_analysis_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bg, "gnubg_nn", None)
    with pytest.raises(analysis.AnalysisUnavailable, match="pip install"):
        analysis.analyze([])
