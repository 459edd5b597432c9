"""Tournaments for every game, pure: formats, pairings and standings, with no I/O, clock, database or Discord.

The store keeps a tournament as one row of JSON text; the console, Discord and the web call the methods below
on it and save it back under the same guarded commit as a move, so two processes never pair a round twice.
Everything is deterministic: the same saved state gives the same next round in any process (ties are broken by
seed, never by dict or set order or by chance).

How a caller uses it::

    from bot.competition import CompetitionError, Entrant, Tournament

    t = Tournament.create("swiss", [Entrant("u1", "Ann", 1630), ...], rounds=6)   # seeds from the ratings
    round_ = t.pair_next()                   # a Round; refused while a game of the current one is unfinished
    for table in round_.tables:
        if table.needs_game:                 # start a game: table.playing in seat order (seat 0 moves first)
            ...
    t.record(round_.number, table.board, {"u1": 1, "u2": 2})   # a game's places; a draw of two is 1, 1
                                             # (bot.ratings.placing gives a finished game's places by seat)
    t.withdraw("u3")                         # his unfinished games are lost by forfeit; returns those tables
    t.standings()                            # [Standing(rank, entrant, points, played, tiebreaks, withdrawn)]
    t.is_over, t.champion                    # champion: a knock-out's winner
    text = json.dumps(t.to_json()); t = Tournament.from_json(json.loads(text))

Every refusal is a :class:`CompetitionError` whose message is one plain sentence a player can be shown, and it
leaves the tournament unchanged.

* Formats (:data:`FORMATS`): ``round-robin`` (:mod:`~bot.competition.roundrobin`), ``swiss``
  (:mod:`~bot.competition.swiss` for games of two, :mod:`~bot.competition.tables` for tables of three or four)
  and ``knock-out`` (:mod:`~bot.competition.knockout`, two-player games only).
* Points by place and the exact units they are kept in: :mod:`~bot.competition.scoring`.
* Standings and tie-breaks: :mod:`~bot.competition.standings` (names of each format's tie-breaks:
  :data:`TIEBREAKS`).
* What a round had to give up (a repeat no pairing could avoid, a colour out of turn) is in ``Round.note``.
"""

from bot.competition.model import (
    FORMATS,
    KNOCK_OUT,
    ROUND_ROBIN,
    SWISS,
    CompetitionError,
    Entrant,
    Round,
    Table,
)
from bot.competition.scoring import points_text
from bot.competition.standings import TIEBREAKS, Standing
from bot.competition.tournament import Tournament

__all__ = [
    "FORMATS",
    "KNOCK_OUT",
    "ROUND_ROBIN",
    "SWISS",
    "TIEBREAKS",
    "CompetitionError",
    "Entrant",
    "Round",
    "Standing",
    "Table",
    "Tournament",
    "points_text",
]
