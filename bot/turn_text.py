"""What a turn says about a game, written once for every front: the headline (the game, its number, who is to move
or how it ended), each player's clock, where a Backgammon match stands, whether the game is rated with each
player's rating, and what just happened. Discord sets these lines in its markdown
(:func:`bot.discord.layout.turn_text`); the web page in its own elements; neither words them again."""

from __future__ import annotations

from bot.actions import Result, status_line


def status_of(result: Result, *, with_reason: bool = True) -> str:
    """The result's status line as the actions write it ("Druid: bob to move (move 2)"), or "" without a
    position; ``with_reason``: as :func:`bot.actions.status_line` takes it."""
    state = result.state
    return status_line(state.game, state, with_reason=with_reason) if state is not None else ""


def headline(result: Result) -> str:
    """The game with its number and who is to move or how it ended: "Druid 1: bob to move (move 2)"."""
    title = result.state.game.title if result.state is not None else (result.game_type or "game").capitalize()
    status = status_of(result)
    what = status.split(": ", 1)[1] if ": " in status else status
    return f"{title} {result.game_id}: {what}" if what else f"{title} {result.game_id}"


def clock_words(result: Result) -> str:
    """Each player's clock in a few words, "alice 6d 23h left · bob 7d per move"; "" for an untimed or finished
    game."""
    state = result.state
    if not result.clock_notes or state is None or state.is_over:
        return ""
    return " · ".join(f"{player} {note}" for player, note in result.clock_notes.items())


def rating_words(result: Result) -> str:
    """Rated or unrated, and each player's rating: "rated: alice 1532, bob 1000?"; "" when unknown."""
    return result.rating_header()


def match_words(result: Result) -> str:
    """Where the Backgammon match of the game shown stands, in the game's words: while the game runs, "Match 1 to 5,
    game 3: alice 2, bob 1" (and whether it is the Crawford game); once it is over, what it did to the match.
    "" for a game that is no match's."""
    words = getattr(result.state, "match_text", None)
    return words() if callable(words) else ""


def running_match_words(result: Result) -> str:
    """:func:`match_words` while the game runs ("" once it is over: what it did to the match is among what
    happened, in full)."""
    state = result.state
    return "" if state is None or state.is_over else match_words(result)


def happened(result: Result) -> str:
    """The result's message without its status line, with or without the reason (the headline says it), nor the
    match's score while the game runs (a line under the headline says it)."""
    said = {status_of(result), status_of(result, with_reason=False), running_match_words(result)}
    return "\n".join(line for line in result.message.splitlines() if line and line not in said)
