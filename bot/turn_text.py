"""What a turn says about a game, written once for every front: the headline (the game, its number, who is to move
or how it ended), each player's clock, whether the game is rated with each player's rating, and what just
happened. Discord sets these lines in its markdown (:func:`bot.discord.layout.turn_text`); the web page in its own
elements; neither words them again."""

from __future__ import annotations

from bot.actions import Result, status_line


def status_of(result: Result) -> str:
    """The result's status line as the actions write it ("Druid: bob to move (move 2)"), or "" without a
    position."""
    state = result.state
    return status_line(state.game, state) if state is not None else ""


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


def happened(result: Result) -> str:
    """The result's message without its status line (the headline says it)."""
    status = status_of(result)
    return "\n".join(line for line in result.message.splitlines() if line and line != status)
