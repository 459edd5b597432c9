"""What players can do, independent of where they type it: challenge, accept, decline, cancel, move, resign,
show, history, games, moves, help; ratings: leaderboards, profiles, head-to-head. ACTIONS API READY.

Both fronts (the console now, Discord) call :class:`Actions` and only present the :class:`Result` it returns:
the message, the events, who must be notified, and the state to draw. Game logic lives in ``rules``; storage in
``data``; this module is the server loop of pbmserv between them:

* a move is parsed against the stored position, applied, followed by every move the server must make for the
  next players (a forced pass, Backgammon's only legal play, a queued resignation falling due), each logged as
  ``(Auto)``, and all of it committed in one transaction under the stale-move guard before anything is shown;
* a resignation during the first round means "I decline to play", as in pbmserv: the game is cancelled, or
  restarted without that player when enough players remain;
* any earlier position is a replay of the log.

Results never raise for a player's mistake: ``ok`` is false and ``message`` says what was wrong, and nothing was
changed. Player ids are plain strings: a console name, or for Discord the user's handle at first sight, kept
for good in the players table beside their Discord id (``Store.ensure_player(player_id, discord_id)``,
``Store.player_by_discord_id``), so that the same person is the same player in both fronts.

Notes for fronts:

* Ratings (:mod:`bot.actions.ratings`): ``leaderboard(game, variant_words, page, members)``, ``player_rating(game,
  player)``, ``profile(player)``, ``head_to_head(player, other)`` return their rows in ``Result.data`` for embeds and
  page buttons; ``rating_series(player)`` feeds :func:`render.chart.rating_chart`; ``display_rating(player, game)``
  is the number an open challenge's rating range is checked against. A result about a game carries ``rated``,
  ``ratings`` (each player's, as shown) and, when the action ended a rated game, ``rating_changes``.
* ``Result.notify`` names the players to ping (the player to move, after a turn change) and nobody else;
  a result's picture is :func:`bot.board_files.picture` (the same for both fronts); drawing it is Pillow's CPU
  work, which the Discord front runs in an executor.
* ``Result.events`` are the things that happened (rolls, hits, captures, auto moves, passes); ``message``
  already lists their texts, one per line, and ends with the status line.
* ``moves(game_id, prefix)`` feeds autocomplete (at most 25, prefix-filtered); ``move`` re-validates everything.
* ``move(..., text)`` accepts ``#n`` at the end of ``text`` (pbmserv's stale-board guard); a front with buttons
  puts the move number it showed into the button's action so a second click is refused as stale.
* The game's own commands (``GameDef.extra_commands``: ``roll``, ``double``, ``take``, ``drop``, ``greedy``,
  ``manual`` for Backgammon; ``pass``, ``swap`` for Druid) are moves: ``move(game_id, player, "roll")``.
* Servers (:mod:`bot.actions.settings`, :mod:`bot.actions.limits`, :mod:`bot.actions.moderation`): a server's
  settings (``server_settings(guild_id)``, read once per command, and their setters), challenges checked against
  them (``challenge_in_server``, ``may_join``; :class:`bot.actions.limits.CommandRate` for the command rate), and
  moderators' actions (``admin_cancel``, ``admin_decide``, ``admin_forfeit``, ``admin_challenges``, ``admin_log``).
* Tournaments (:mod:`bot.actions.tournaments`): made, joined, started, played, read; ``Result.news`` carries what an
  action did to a tournament (a new round's games to post, the end), whatever the action was (a move that ended
  the last game of a round starts the next).
* The Discord front lives in ``bot.discord`` and provides ``create_bot(config)`` (no side effects at import),
  ``run_bot(config) -> int`` and ``sync_commands(config) -> int`` with :class:`bot.config.Config`; ``bot.cli``
  calls the last two for ``pbm run`` and ``pbm sync``.
"""

from __future__ import annotations

from bot.actions.analysis import AnalysisActions
from bot.actions.challenges import ChallengeActions
from bot.actions.clocks import ClockActions, Notice
from bot.actions.common import (
    MAX_ID,
    MAX_MOVE_TEXT,
    MOVE_LIST_LIMIT,
    PAGE_SIZE,
    REPLAY_FRAMES,
    RESERVED_NAMES,
    InputError,
    Result,
    _run_server_loop,
    check_player_name,
    decide_now,
    parse_number,
    shorten,
    split_move_number,
    status_line,
    think_here,
)
from bot.actions.limits import LimitActions
from bot.actions.looking import LookingActions
from bot.actions.moderation import ModerationActions
from bot.actions.play import PlayActions
from bot.actions.proposals import ProposalActions
from bot.actions.queue import QueueActions
from bot.actions.ratings import BOARD_PAGE, RatingActions
from bot.actions.settings import SettingsActions
from bot.actions.tournaments import TournamentActions

__all__ = [
    "BOARD_PAGE",
    "MAX_ID",
    "MAX_MOVE_TEXT",
    "MOVE_LIST_LIMIT",
    "PAGE_SIZE",
    "REPLAY_FRAMES",
    "RESERVED_NAMES",
    "Actions",
    "InputError",
    "Notice",
    "Result",
    "_run_server_loop",
    "check_player_name",
    "decide_now",
    "parse_number",
    "shorten",
    "split_move_number",
    "status_line",
    "think_here",
]


class Actions(
    ChallengeActions,
    PlayActions,
    LookingActions,
    ClockActions,
    ProposalActions,
    QueueActions,
    AnalysisActions,
    RatingActions,
    SettingsActions,
    LimitActions,
    ModerationActions,
    TournamentActions,
):
    """Every action a front can take; each group lives in its own module (see the package docstring)."""
