"""What a load run must prove, checked from what it collected: no acknowledged move lost, none applied twice, one
board per move, every game replaying from its log to its stored snapshot.

The evidence comes from three independent places: the players (the moves whose board they saw, the answers to
every interaction), the database (each game's move log, and ``pbm check``'s replay of it) and the fake Discord
(the messages with a picture in each game's thread). :func:`problems` is a pure function of that evidence, so a
test can hand it doctored evidence and see it object.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

#: what the bot answers to a move it refused because the game had moved on: the second of two taps, or a
#: player typing again a move the killed process had played
REFUSED_AS_STALE = ("it is not your turn", "changed while your move was being made")


#: what the load run records for a move whose "thinking…" reply the bot removed: played in its game's thread, the
#: turn posted there is the answer (a refusal is always answered in words)
ANSWERED_BY_THE_TURN = "(the turn in its thread)"


def answer_kind(reply: str | None) -> str:
    """``done`` (answered "Done", or by the turn in its thread: :data:`ANSWERED_BY_THE_TURN`), ``refused`` (as
    stale: see :data:`REFUSED_AS_STALE`), ``none`` (never answered) or ``other``. (The load test calls an
    interaction the killed process never answered ``killed``.)"""
    if reply is None:
        return "none"
    if reply == ANSWERED_BY_THE_TURN or reply.startswith("Done"):
        return "done"
    if any(reason in reply for reason in REFUSED_AS_STALE):
        return "refused"
    return "other"


@dataclass
class GameEvidence:
    """One game: the moves acknowledged to its players (their board came back, in order), the moves answered
    "Done", its move log as (position in the log, player, text), the boards the fake counted in its thread, and
    what ``pbm check`` found wrong (``None``: it replays to its snapshot). (Positions, not move numbers: Druid's
    swap does not advance the move number.)"""

    game_id: int
    confirmed: list[str]
    done: list[str]
    log: list[tuple[int, str, str]]
    boards: int
    replay: str | None = None


@dataclass
class MoveEvidence:
    """One move sent: how each interaction carrying it was answered (see :func:`answer_kind`; ``killed`` when the
    process that had it was killed first), and whether it was typed again after the kill."""

    game_id: int
    text: str
    answers: list[str]
    duplicate: bool
    retried: bool
    #: the words of the answers of kind ``other``
    other_words: list[str] = field(default_factory=list)


@dataclass
class Evidence:
    """Everything a run collected."""

    games: list[GameEvidence]
    moves: list[MoveEvidence]
    unanswered: int = 0
    #: error lines of the bot processes' logs
    failures: list[str] = field(default_factory=list)


def problems(evidence: Evidence) -> list[str]:
    """Every way the run failed its proofs, one line each; empty when all hold."""
    found: list[str] = []
    if evidence.unanswered:
        found.append(f"{evidence.unanswered} move(s) never had their board posted")
    for game in evidence.games:
        found += _game_problems(game)
    found += _answer_problems(evidence.moves)
    found += [f"bot log: {line}" for line in evidence.failures[:5]]
    if len(evidence.failures) > 5:
        found.append(f"bot log: {len(evidence.failures) - 5} more error line(s)")
    return found


def _game_problems(game: GameEvidence) -> list[str]:
    found = []
    texts = [text for _, _, text in game.log]
    positions = [seq for seq, _, _ in game.log]
    where = f"game {game.game_id}"
    if positions != list(range(1, len(positions) + 1)):
        repeated = sorted(n for n, count in Counter(positions).items() if count > 1)
        found.append(f"{where}: its log's positions are not 1..{len(positions)} (repeated: {repeated})")
    if texts[: len(game.confirmed)] != game.confirmed:
        found.append(f"{where}: acknowledged moves are missing from its log (a move lost)")
    if len(texts) > len(game.confirmed):
        found.append(
            f"{where}: {len(texts)} moves in its log but {len(game.confirmed)} acknowledged (a move applied twice?)"
        )
    missing = Counter(game.done) - Counter(texts)
    if missing:
        found.append(f"{where}: moves answered Done are not in its log: {sorted(missing)}")
    if game.boards != len(texts):
        found.append(f"{where}: {game.boards} boards posted for {len(texts)} moves")
    if game.replay is not None:
        found.append(f"{where}: {game.replay}")
    return found


def _answer_problems(moves: list[MoveEvidence]) -> list[str]:
    found = []
    for move in moves:
        kinds = Counter(move.answers)
        where = f"game {move.game_id}, move {move.text}"
        if kinds["done"] > 1:
            found.append(f"{where}: answered Done {kinds['done']} times (sent {len(move.answers)} times)")
        if kinds["other"]:
            found.append(f"{where}: answered other than Done or a refusal as stale: {move.other_words[:1]}")
        if kinds["none"]:
            found.append(f"{where}: {kinds['none']} of its interactions never answered by a live process")
        if kinds["killed"]:
            continue  # the killed process never answered what it had in hand; the log says what it played
        if kinds["done"] != 1 or kinds["refused"] != len(move.answers) - 1:
            found.append(f"{where}: answers {sorted(move.answers)}; expected one Done and the rest refused as stale")
    return found
