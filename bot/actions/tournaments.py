"""Tournaments: made, joined and left during their signup, started (by their organiser, or when the signup closes),
played round after round, their standings read; withdrawals and forfeits; cancelled, or a player removed, by the
organiser or a server's moderator. TOURNAMENT API.

The pure core (:mod:`bot.competition`) pairs the rounds and computes the standings; this module keeps it in the
store (:mod:`data.store.tournaments`) and plays its games as ordinary games, with the tournament's options and clock,
in the tournament's channel. Every change of a tournament is written under the version it read, inside the
command's one transaction, so two processes never record a result twice nor pair a round twice.

**A game's end** (a move, a resignation, a timeout, a draw agreed, a moderator's decision) is recorded in the very
commit that ends it (:meth:`TournamentActions._game_over`, called by :meth:`~bot.actions.base.ActionsBase._commit`);
when it was the last game of its round, the next round is paired and its games started in that same transaction.
A drawn knock-out game is played again with the seats swapped, a cancelled game with the same seats. A player who
runs out of time in a tournament game (but in a knock-out, where the loss puts them out anyway) is withdrawn from
the tournament. The sweep records any game whose end was committed without its tournament's part
(:meth:`TournamentActions.record_left_over`) and closes the signups that are due
(:meth:`TournamentActions.signup_closes`).

**What the fronts show** comes as :class:`News` on the result (``Result.news``): a line for the action's own
message, the lines to announce in the tournament's channel, the games started (each a turn to post in its own
thread, or in one thread of its round when the round has many), the turns of games a withdrawal ended, and whether
the standings are worth showing. Each new game's board is marked still to be posted in the commit that makes it
(:meth:`data.store.Store.mark_unposted`, the mark in ``News.marks``), so a crash before the post loses nothing.

* ``create_tournament(game, organiser, format, rounds=, options=, table=, max_players=, signup_until=, ...)``,
  ``join_tournament``, ``leave_tournament`` (once started: a withdrawal), ``start_tournament``,
  ``cancel_tournament``, ``remove_from_tournament`` (``moderator=True``: a server's moderator acts, not the
  organiser);
* ``tournament_standings(id)``: the standings as lines (``items``) and as rows (``data``: ``tournament``,
  ``columns``, ``rows``, ``round``) for a web page or a picture; ``tournaments(game)``: a listing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.actions.base import ActionsBase, one_transaction
from bot.actions.common import InputError, Result, _fail, _is_computer_name, _run_server_loop, forfeit_seat
from bot.actions.tournament_text import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    byes_line,
    describe,
    final_round,
    format_name,
    past,
    places_of,
    read_format,
    read_signup_until,
    read_table,
    stage,
    standing_line,
    tiebreak_text,
    when_text,
    winner_line,
)
from bot.correspondence.options import parse_time_rules, split_options, split_seat_options
from bot.text import count
from data.store import DamagedRowError, LogEntry, NotFoundError, StaleWriteError, TournamentGame, TournamentRow
from rules import registry
from rules.base import Event, GameDef, GameError, GameState

if TYPE_CHECKING:
    from bot.actions.settings import ServerSettings
    from bot.competition import Tournament

#: how many times a change is tried when another process changed the tournament between reading and writing
ATTEMPTS = 5
#: the longest reason kept for a removal or a cancellation
MAX_REASON = 300


@dataclass
class News:
    """What happened to a tournament that the fronts show (see the module docstring): ``summary``, one line for
    the message of the action that caused it; ``lines``, the announcement for the tournament's channel; ``games``,
    the games started, each a turn to post (in ``round``; each board's mark in ``marks``, by game); ``turns``,
    running games that a withdrawal or a cancellation changed, each a turn to post in its thread; ``standings``: a
    round or the tournament ended, so the standings are worth showing."""

    tournament_id: int
    guild_id: int | None
    channel_id: int | None
    summary: str
    lines: list[str] = field(default_factory=list)
    games: list[Result] = field(default_factory=list)
    marks: dict[int, str] = field(default_factory=dict)
    turns: list[Result] = field(default_factory=list)
    round: int | None = None
    standings: bool = False


@dataclass
class _Change:
    """What one write to a running tournament does besides its state: the announcement's lines, the action's
    summary, the boards to start (round, board, attempt, players in seat order), the players withdrawn (their
    running games are ended after the write, with the reason), and whether a round ended."""

    lines: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    starts: list[tuple[int, int, int, tuple[str, ...]]] = field(default_factory=list)
    forfeits: list[tuple[str, str]] = field(default_factory=list)
    round_over: bool = False
    #: where each new round's heading is in ``lines``: its boards are listed under it
    headings: dict[int, int] = field(default_factory=dict)


def _told(turn: Result) -> list[str]:
    """What a game a withdrawal ended says, without its ratings (they are in the game's own thread)."""
    return [line for line in turn.message.splitlines() if not line.startswith("ratings: ")]


def _busy(tournament_id: int) -> Result:
    return _fail(f"tournament {tournament_id} is being changed by many at once; try again")


def _reason(text: str | None) -> str:
    return " ".join((text or "").split())[:MAX_REASON]


class TournamentActions(ActionsBase):
    """Tournaments (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: what a game's end did to its tournament, by game, until the action that ended it reports it
        self._news: dict[int, list[News]] = {}

    # ---- signup ----------------------------------------------------------------------------------------------

    @one_transaction
    async def create_tournament(
        self,
        game_name: str,
        organiser: str,
        format_word: str,
        *,
        rounds: int | None = None,
        options: Sequence[str] = (),
        table: str | None = None,
        max_players: int | None = None,
        signup_until: str | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        settings: ServerSettings | None = None,
    ) -> Result:
        """``organiser`` opens a tournament of ``game_name`` for signup. ``options`` are every game's (the game's
        own, the clock, ``-unrated``; a Backgammon ``-match=n`` is the game's own), checked as a challenge's for
        each table size (``table``: :func:`read_table`); ``signup_until`` (:func:`read_signup_until`) starts it by
        itself; ``settings``: the server's (the game offered there, the organiser within its tournaments limit)."""
        try:
            game = registry.get(game_name)
            format_ = read_format(format_word)
            sizes = read_table(table, game)
            words, range_words = split_seat_options(list(options))
            if range_words:
                raise InputError("a rating range is for open challenges: a tournament is open to every player")
            game_words, server_words = split_options(words)
            parse_time_rules(server_words)
            for size in sizes:
                game.parse_options(game_words, size)
            until = None if signup_until is None else read_signup_until(signup_until, self._clock())
        except (GameError, InputError) as exc:
            return _fail(str(exc))
        refused = _refusal(format_, sizes, rounds, max_players, organiser)
        if refused is None and settings is not None and guild_id is not None:
            refused = await self._over_limit(settings, guild_id, game, organiser)
        if refused is not None:
            return _fail(refused)
        tournament_id = await self.store.create_tournament(
            game.name,
            format_,
            words,
            sizes,
            organiser,
            rounds=rounds,
            max_players=max_players,
            signup_until=until,
            guild_id=guild_id,
            channel_id=channel_id,
        )
        row = await self.store.load_tournament(tournament_id, to_write=True)
        parts = [f"{organiser} organises tournament {tournament_id}: {describe(row)}"]
        if max_players is not None:
            parts.append(f"up to {count(max_players, 'player')}")
        parts.append(f"the signup closes at {when_text(until)}" if until else f"{organiser} starts it")
        return Result(ok=True, message="; ".join(parts), game_type=game.name, data=_facts(row))

    async def _over_limit(self, settings: ServerSettings, guild_id: int, game: GameDef, organiser: str) -> str | None:
        """In a server: the game must be offered there, and the organiser within the tournaments limit."""
        from bot.actions.limits import over_limit

        if not settings.offered(game.name):
            return f"{game.title} is not offered in this server"
        have = await self.store.tournaments_organised(guild_id, organiser)
        return over_limit("tournaments", have) if have >= settings.limit("tournaments") else None

    @one_transaction
    async def join_tournament(self, tournament_id: int, player: str, *, guild_id: int | None = None) -> Result:
        """``player`` enters a tournament during its signup."""
        if _is_computer_name(player):
            return _fail("computer players do not play in tournaments")
        for _attempt in range(ATTEMPTS):
            row = await self._tournament_in(tournament_id, guild_id)
            if isinstance(row, Result):
                return row
            if row.status != "signup":
                return _fail(f"tournament {tournament_id} has {past(row.status)}: its signup is over")
            if player in row.entrants:
                return _fail(f"you are in tournament {tournament_id} already")
            if row.max_players is not None and len(row.entrants) >= row.max_players:
                return _fail(f"tournament {tournament_id} is full ({count(row.max_players, 'player')})")
            entrants = [*row.entrants, player]
            await self.store.ensure_player(player)
            try:
                await self.store.save_tournament(row.id, row.version, entrants=entrants)
            except StaleWriteError:
                continue
            said = f"{player} joined tournament {tournament_id} ({count(len(entrants), 'player')})"
            return Result(ok=True, message=said, players=entrants, game_type=row.game_type)
        return _busy(tournament_id)

    @one_transaction
    async def leave_tournament(self, tournament_id: int, player: str, *, guild_id: int | None = None) -> Result:
        """``player`` leaves a tournament: during its signup, simply; once it has started, they withdraw, and their
        games without a result are lost by forfeit (their finished ones stand)."""
        return await self._take_out(tournament_id, player, None, by=player, guild_id=guild_id)

    @one_transaction
    async def remove_from_tournament(
        self,
        tournament_id: int,
        by: str,
        player: str,
        reason: str | None = None,
        *,
        moderator: bool = False,
        guild_id: int | None = None,
    ) -> Result:
        """The organiser (or, with ``moderator``, a moderator of the server) takes ``player`` out of a tournament,
        as if they had withdrawn, for ``reason``."""
        row = await self._tournament_in(tournament_id, guild_id)
        if isinstance(row, Result):
            return row
        if by != row.organiser and not moderator:
            return _fail(f"only {row.organiser}, who organised tournament {tournament_id}, or a moderator can do that")
        why = _reason(reason) or f"removed by {by}"
        return await self._take_out(tournament_id, player, why, by=by, guild_id=guild_id)

    async def _take_out(
        self, tournament_id: int, player: str, why: str | None, *, by: str, guild_id: int | None
    ) -> Result:
        """``player`` out of a tournament: off the list during the signup, withdrawn once it runs (``why``: a
        removal's reason; ``None``: they left)."""
        from bot.competition import CompetitionError

        whose = "you are" if by == player else f"{player} is"
        for _attempt in range(ATTEMPTS):
            row = await self._tournament_in(tournament_id, guild_id)
            if isinstance(row, Result):
                return row
            verb = "left" if why is None else "was removed from"
            if row.status == "signup":
                if player not in row.entrants:
                    return _fail(f"{whose} not in tournament {tournament_id}")
                entrants = [p for p in row.entrants if p != player]
                try:
                    await self.store.save_tournament(row.id, row.version, entrants=entrants)
                except StaleWriteError:
                    continue
                said = f"{player} {verb} tournament {tournament_id} ({count(len(entrants), 'player')} left)"
                return Result(ok=True, message=said, players=entrants, game_type=row.game_type)
            if row.status != "running" or row.state is None:
                return _fail(f"tournament {tournament_id} has {past(row.status)}")
            try:
                t = _tournament(row)
                if player not in t.seeded:
                    return _fail(f"{whose} not in tournament {tournament_id}")
                change = _Change()
                self._withdraw_entrant(t, row, player, why or "they withdrew", change)
                self._advance(t, row, change)
            except CompetitionError as exc:
                return _fail(str(exc))
            news = await self._write(row, t, change)
            if news is None:
                continue
            verb = "withdrew from" if why is None else "was removed from"
            news.summary = f"{player} {verb} tournament {tournament_id}: their games without a result are lost"
            result = Result(ok=True, message=news.summary, news=[news], game_type=row.game_type, items=news.lines[1:])
            await self._forfeit(news, row, change, result)
            result.items += [line for turn in news.turns for line in _told(turn)]
            return result
        return _busy(tournament_id)

    # ---- starting and cancelling -----------------------------------------------------------------------------

    @one_transaction
    async def start_tournament(
        self, tournament_id: int, by: str, *, moderator: bool = False, guild_id: int | None = None
    ) -> Result:
        """The organiser (or a moderator) closes the signup and starts the tournament: it is seeded by rating and
        its first round's games start at once."""
        row = await self._tournament_in(tournament_id, guild_id)
        if isinstance(row, Result):
            return row
        if by != row.organiser and not moderator:
            return _fail(f"only {row.organiser}, who organised tournament {tournament_id}, or a moderator can do that")
        return await self._start(tournament_id, strict=True)

    async def signup_closes(self, tournament_id: int) -> list[Any]:
        """The signup deadline's timer (the sweep claimed it): the tournament starts, or with too few players is
        cancelled; a notice for the fronts either way (none when it had started or ended already)."""
        from bot.actions.clocks import Notice

        result = await self._start(tournament_id, strict=False)
        return [Notice("tournament", result.message, None, [], result)] if result.ok else []

    async def _start(self, tournament_id: int, *, strict: bool) -> Result:
        """Seed the players by rating and pair round 1, starting its games. ``strict`` (the organiser asked): too
        few players is refused; otherwise (the signup closed) the tournament is cancelled then, and a Swiss that
        asked for more rounds than its players allow plays as many as they do."""
        from bot.competition import CompetitionError, Entrant, Tournament
        from bot.ratings import MU, SIGMA, display

        for _attempt in range(ATTEMPTS):
            try:
                row = await self.store.load_tournament(tournament_id, to_write=True)
            except (NotFoundError, DamagedRowError) as exc:
                return _fail(str(exc))
            if row.status != "signup":
                return _fail(f"tournament {tournament_id} has {past(row.status)}")
            rated = await self.store.ratings_of(row.game_type, row.entrants)
            entrants = [
                Entrant(p, p, float(display(MU, SIGMA) if p not in rated else display(rated[p].mu, rated[p].sigma)))
                for p in row.entrants
            ]
            rounds, note = row.rounds, ""
            most = max(1, len(entrants) - 1 + len(entrants) % 2)
            if row.format == "swiss" and rounds is not None and rounds > most and not strict and len(entrants) >= 2:
                players = count(len(entrants), "player")
                rounds, note = most, f" ({count(rounds, 'round')} were planned; {players} allow {most})"
            try:
                t = Tournament.create(row.format, entrants, rounds=rounds, table_sizes=row.table_sizes)
            except CompetitionError as exc:
                if strict:
                    return _fail(str(exc))
                closed = f"the signup of tournament {row.id} closed with {count(len(entrants), 'player')}"
                return await self._cancel(row, f"{closed}: it is cancelled ({exc})")
            change = _Change()
            change.lines.append(f"Tournament {row.id} has started: {count(len(entrants), 'player')}{note}")
            self._advance(t, row, change)
            news = await self._write(row, t, change, status="running")
            if news is None:
                continue
            news.summary = news.lines[0]
            message = "\n".join([news.lines[0], describe(row._replace(state=t.to_json())), *news.lines[1:]])
            return Result(ok=True, message=message, news=[news], game_type=row.game_type)
        return _busy(tournament_id)

    @one_transaction
    async def cancel_tournament(
        self,
        tournament_id: int,
        by: str,
        reason: str | None = None,
        *,
        moderator: bool = False,
        guild_id: int | None = None,
    ) -> Result:
        """The organiser (or a moderator) cancels a tournament that is not over: its running games end without a
        result (and do not count for the ratings), and it has no winner."""
        row = await self._tournament_in(tournament_id, guild_id)
        if isinstance(row, Result):
            return row
        if by != row.organiser and not moderator:
            return _fail(f"only {row.organiser}, who organised tournament {tournament_id}, or a moderator can do that")
        if row.status not in ("signup", "running"):
            return _fail(f"tournament {tournament_id} has {past(row.status)}")
        why = _reason(reason)
        return await self._cancel(row, f"tournament {row.id} was cancelled by {by}" + (f": {why}" if why else ""))

    async def _cancel(self, row: TournamentRow, said: str) -> Result:
        """Cancel a tournament and end its running games without a result; ``said``: how and why."""
        for _attempt in range(ATTEMPTS):
            try:
                await self.store.save_tournament(row.id, row.version, status="cancelled")
            except StaleWriteError:
                row = await self.store.load_tournament(row.id, to_write=True)
                if row.status not in ("signup", "running"):
                    return _fail(f"tournament {row.id} has {past(row.status)}")
                continue
            said = said[0].upper() + said[1:]
            news = News(row.id, row.guild_id, row.channel_id, said, [said])
            for game_id in await self.store.running_tournament_games(row.id):
                ended = await self._end_game(game_id, None, f"tournament {row.id} was cancelled")
                if ended is not None:
                    news.turns.append(ended)
            if news.turns:
                news.lines.append(f"{count(len(news.turns), 'running game')} ended without a result")
            message = "\n".join(news.lines)
            return Result(ok=True, message=message, news=[news], game_type=row.game_type)
        return _busy(row.id)

    # ---- reading ---------------------------------------------------------------------------------------------

    async def tournament_standings(self, tournament_id: int, *, guild_id: int | None = None) -> Result:
        """A tournament as it stands: what it is, its players (during the signup) or its standings and the current
        round's boards. ``items`` are the lines; ``data`` holds ``tournament`` (its facts), ``columns`` and
        ``rows`` (one per player: ``rank``, ``player``, ``points``, ``tiebreaks``, ``games``, ``withdrawn``, and
        ``cells``, the row as the columns show it) and ``round`` (the current round's boards: ``board``,
        ``game_id``, ``players``, ``line``), for a web page or a picture to lay out."""
        from bot.competition import TIEBREAKS, CompetitionError, points_text

        row = await self._tournament_in(tournament_id, guild_id, to_write=False)
        if isinstance(row, Result):
            return row
        data = _facts(row)
        head = f"Tournament {row.id}: {describe(row)}, organised by {row.organiser}"
        if row.state is None:
            closes = f"; the signup closes at {when_text(row.signup_until)}" if row.signup_until else ""
            where = "signing up" if row.status == "signup" else past(row.status).removeprefix("been ")
            data.update(columns=[], rows=[], round=[])
            players = ", ".join(row.entrants) or "nobody yet"
            items = [f"{count(len(row.entrants), 'player')}: {players}"]
            return Result(ok=True, message=f"{head} ({where}{closes})", items=items, game_type=row.game_type, data=data)
        try:
            t = _tournament(row)
        except CompetitionError as exc:
            return _fail(f"tournament {row.id} cannot be read: {exc}")
        final = final_round(t)
        columns = ["rank", "player", "points", *TIEBREAKS[t.format], "games"]
        rows = []
        for s in t.standings():
            breaks = [tiebreak_text(t.format, value, final) for value in s.tiebreaks]
            points = points_text(s.points)
            cells = [str(s.rank), s.entrant.name, points, *breaks, str(s.played)]
            rows.append(
                {
                    "rank": s.rank,
                    "player": s.entrant.name,
                    "points": points,
                    "tiebreaks": breaks,
                    "games": s.played,
                    "withdrawn": s.withdrawn,
                    "cells": cells,
                }
            )
        boards = await self._round_boards(row, t)
        data.update(columns=columns, rows=rows, round=boards)
        items = [standing_line(s, t.format, final) for s in t.standings()]
        if boards and row.status == "running" and t.current is not None:
            items += [f"round {t.current.number}:", *(f"  {board['line']}" for board in boards)]
        message = f"{head}: {stage(row, t)}"
        return Result(ok=True, message=message, items=items, game_type=row.game_type, data=data)

    async def tournaments(self, game_name: str | None = None, *, guild_id: int | None = None) -> Result:
        """The tournaments signing up or running (of one game, or all; of one server, or everywhere), newest
        first: a line each (``items``), and in ``data["tournaments"]`` each one's ``id`` and ``line`` (the line
        after its number) for a web page."""
        game_type = None
        if game_name is not None:
            try:
                game_type = registry.get(game_name).name
            except GameError as exc:
                return _fail(str(exc))
        rows, total = await self.store.list_tournaments(guild_id=guild_id, game_type=game_type)
        kind = f"{registry.get(game_type).title} " if game_type else ""
        if not rows:
            return Result(ok=True, message=f"no {kind}tournament is signing up or running", game_type=game_type)
        shown = f", the {len(rows)} newest shown" if total > len(rows) else ""
        listed = []
        for row in rows:
            if row.status == "signup":
                where = f"signing up, {count(len(row.entrants), 'player')}"
            else:
                where = f"round {len((row.state or {}).get('rounds') or ())} being played"
            listed.append({"id": row.id, "line": f"{describe(row)} ({where}), organised by {row.organiser}"})
        message = f"{count(total, f'{kind}tournament')} signing up or running{shown}"
        items = [f"tournament {t['id']}: {t['line']}" for t in listed]
        return Result(ok=True, message=message, items=items, game_type=game_type, data={"tournaments": listed})

    async def _round_boards(self, row: TournamentRow, t: Tournament) -> list[dict[str, Any]]:
        """The current round's boards: each one's latest game, players and result so far; then the byes."""
        current = t.current
        if current is None:
            return []
        games = {(g.round, g.board): g.game_id for g in await self.store.tournament_games(row.id)}
        boards = []
        for table in current.tables:
            game_id = games.get((current.number, table.board))
            if not table.finished:
                result = "being played"
            elif not table.played:
                result = f"{table.playing[0]} won by forfeit" if table.playing else "both forfeited"
            else:
                firsts = [p for p in table.playing if table.place_of(p) == 1]
                result = f"{firsts[0]} won" if len(firsts) == 1 else f"{' and '.join(firsts)} shared first place"
            where = f"game {game_id}, " if game_id is not None else ""
            line = f"board {table.board}: {where}{' v '.join(table.seats)}: {result}"
            boards.append({"board": table.board, "game_id": game_id, "players": list(table.seats), "line": line})
        if current.byes:
            line = byes_line(current.byes)
            boards.append({"board": None, "game_id": None, "players": list(current.byes), "line": line})
        return boards

    # ---- a game's end ----------------------------------------------------------------------------------------

    async def _game_over(self, game_id: int, state: GameState) -> None:
        """A tournament game ended (the commit that ended it calls this, in its transaction): record it."""
        link = await self.store.tournament_game(game_id)
        if link is None or link.recorded or _match_goes_on(state):
            return
        for news in await self._record(link, state):
            if news.summary or news.lines or news.games or news.turns:
                self._news.setdefault(game_id, []).append(news)

    async def _match_goes_on(self, ended: int, following: int) -> None:
        """A Backgammon match of a tournament goes on: its next game plays on the board."""
        await self.store.carry_tournament_game(ended, following)

    def _tell_news(self, result: Result) -> None:
        if result.game_id is None:
            return
        for news in self._news.pop(result.game_id, []):
            if news.summary:
                result.message += f"\n{news.summary}"
            result.items += news.lines
            result.news.append(news)

    async def record_left_over(self) -> list[Any]:
        """Record the tournament games whose end was committed without their tournament's part (a crash in
        between, or an ending committed outside a command's transaction); a notice for each that changed a
        tournament."""
        from bot.actions.clocks import Notice

        notices = []
        for game_id in await self.store.unrecorded_tournament_games():
            async with self.store.atomic():
                loaded = await self._load(game_id)
                link = await self.store.tournament_game(game_id)
                if isinstance(loaded, Result) or link is None or link.recorded or _match_goes_on(loaded[2]):
                    continue
                found = await self._record(link, loaded[2])
            for news in found:
                if news.lines or news.games or news.turns:
                    result = Result(ok=True, message="\n".join(news.lines or [news.summary]), news=[news])
                    notices.append(Notice("tournament", result.message, None, [], result))
        return notices

    async def _record(self, link: TournamentGame, state: GameState) -> list[News]:
        """Record a finished game in its tournament (or play its board again: a cancelled game, a drawn knock-out
        game), withdraw who ran out of time, and pair the next round when this was the last game of its round, all
        under the tournament's version; then end the running games of those withdrawn. The news of it (none when
        the tournament is not running: the game is only marked recorded)."""
        from bot.competition import CompetitionError

        async with self.store.atomic():
            for _attempt in range(ATTEMPTS):
                row = await self.store.load_tournament(link.tournament_id, to_write=True)
                if row.status != "running" or row.state is None:
                    try:
                        await self.store.save_tournament(row.id, row.version, recorded=link.game_id)
                    except StaleWriteError:
                        continue
                    return []
                try:
                    t = _tournament(row)
                    change = _result(t, link, state)
                    if t.format != "knock-out":  # a knock-out's loser is out anyway
                        for seat in sorted(state.timed_out):
                            player = state.players[seat]
                            if player in t.seeded and player not in t.withdrawn and not t.is_over:
                                why = f"{player} ran out of time in game {link.game_id}"
                                self._withdraw_entrant(t, row, player, why, change)
                    self._advance(t, row, change)
                except CompetitionError as exc:
                    line = f"tournament {row.id} could not take the result of game {link.game_id}: {exc}"
                    return [News(row.id, row.guild_id, row.channel_id, line, [line])]
                news = await self._write(row, t, change, recorded=link.game_id)
                if news is None:
                    continue
                found = [news]
                if change.forfeits:
                    result = Result(ok=True, message="", news=[])
                    await self._forfeit(news, row, change, result)
                    found += result.news
                return found
            raise StaleWriteError(f"tournament {link.tournament_id} keeps changing")

    def _withdraw_entrant(self, t: Tournament, row: TournamentRow, player: str, why: str, change: _Change) -> None:
        """Withdraw ``player``: their unfinished games are lost by forfeit (those running are ended after the
        write); the others at a table of three or four play on."""
        t.withdraw(player)
        change.lines.append(f"{player} is out of tournament {row.id} ({why}): their games without a result are lost")
        change.summary.append(f"{player} is out of tournament {row.id}")
        change.forfeits.append((player, why))

    def _advance(self, t: Tournament, row: TournamentRow, change: _Change) -> None:
        """When the current round is complete: pair the next one (again while a new round is complete at once,
        every board of it decided by forfeits), or end the tournament."""
        while t.current is None or t.current.complete:
            if t.current is not None:
                change.round_over = True
                change.summary.append(f"round {t.current.number} of tournament {row.id} is over")
            if t.is_over:
                change.lines.append(winner_line(t, row.id)[0].upper() + winner_line(t, row.id)[1:])
                change.summary.append(winner_line(t, row.id))
                return
            round_ = t.pair_next()
            boards = [table for table in round_.tables if table.needs_game]
            change.headings[round_.number] = len(change.lines)
            change.lines.append(
                f"Round {round_.number} of {t.planned} of tournament {row.id}: {count(len(boards), 'game')}"
            )
            change.starts += [(round_.number, table.board, 1, table.playing) for table in boards]
            for table in round_.tables:
                if table.finished:
                    change.lines.append(f"  board {table.board}: {' v '.join(table.seats)}: decided by forfeit")
            if round_.byes:
                change.lines.append(f"  {byes_line(round_.byes)}")
            if round_.note:
                change.lines.append(f"  {round_.note}")
            change.summary.append(f"round {round_.number} of tournament {row.id} has started")

    async def _write(
        self,
        row: TournamentRow,
        t: Tournament,
        change: _Change,
        *,
        status: str | None = None,
        recorded: int | None = None,
    ) -> News | None:
        """Save the tournament under the version read (``None``: another process changed it meanwhile, and
        nothing was written) and start the games the change needs; the news of it."""
        over = t.is_over and t.current is not None and t.current.complete
        try:
            await self.store.save_tournament(
                row.id, row.version, status="finished" if over else status, state=t.to_json(), recorded=recorded
            )
        except StaleWriteError:
            return None
        news = News(row.id, row.guild_id, row.channel_id, "; ".join(change.summary))
        news.standings = change.round_over or over
        listed: dict[int, list[str]] = {}
        for round_, board, attempt, players in change.starts:
            result, mark = await self._start_board(row, round_, board, attempt, players)
            assert result.game_id is not None
            news.games.append(result)
            news.round = round_
            if mark is not None:
                news.marks[result.game_id] = mark
            versus = " v ".join(players)
            if attempt == 1:
                listed.setdefault(round_, []).append(f"  board {board}: game {result.game_id}, {versus}")
            else:
                again = f"Board {board} of round {round_} is played again as game {result.game_id}"
                change.lines.append(f"{again}: {versus}")
        for index, line in enumerate(change.lines):
            news.lines.append(line)
            news.lines += next((listed[r] for r, at in change.headings.items() if at == index and r in listed), [])
        return news

    async def _start_board(
        self, row: TournamentRow, round_: int, board: int, attempt: int, players: Sequence[str]
    ) -> tuple[Result, str | None]:
        """Start a board's game with the tournament's options and clock, in its channel; its board marked still to
        be posted (and the mark returned) when it lives in Discord."""
        import secrets

        game = registry.get(row.game_type)
        game_words, server_words = split_options(row.options)
        again = " (played again)" if attempt > 1 else ""
        result = await self._start_game(  # type: ignore[attr-defined]
            game,
            game.parse_options(game_words, len(players)),
            list(players),
            parse_time_rules(server_words),
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            prefix=f"Tournament {row.id}, round {round_}, board {board}{again}: ",
        )
        assert result.game_id is not None
        await self.store.add_tournament_game(result.game_id, row.id, round_, board, attempt)
        if row.channel_id is None:
            return result, None
        mark = secrets.token_hex(10)
        await self.store.mark_unposted(result.game_id, mark)
        return result, mark

    # ---- ending games ----------------------------------------------------------------------------------------

    async def _forfeit(self, news: News, row: TournamentRow, change: _Change, result: Result) -> None:
        """End the running games of the players a change withdrew (a game of two is lost; with more players they
        are out and the others play on): each a turn on ``news``; what their ends did in turn goes on
        ``result.news``."""
        for player, why in change.forfeits:
            for game_id in await self.store.running_tournament_games(row.id, player):
                ended = await self._end_game(game_id, player, why)
                if ended is not None:
                    news.turns.append(ended)
                    result.news += ended.news
                    ended.news = []

    async def _end_game(self, game_id: int, player: str | None, why: str) -> Result | None:
        """A running tournament game: ``player`` leaves it (as if they had resigned: a game of two is lost, with
        more the others play on), or (``None``) it is cancelled, for ``why``; through the same guarded commit as a
        move. The game's turn, or ``None`` when it was over already."""
        for _attempt in range(ATTEMPTS):
            loaded = await self._load(game_id)
            if isinstance(loaded, Result):
                return None
            row, game, state = loaded
            if row.status != "active":
                return None
            if player is None:
                outcome = f"cancelled: {why}"
                text = f"game {game_id} was cancelled ({why}); it does not count for the ratings"
                state.cancel(outcome)
                events = [Event("cancel", text, None, {"reason": why, "outcome": outcome})]
                entries = [LogEntry(state.ply, None, "cancel", [e.to_json() for e in events])]
            else:
                seat = state.seat_of(player)
                if seat in state.resigned or seat in state.queued_resign:
                    return None
                text = f"{player} left game {game_id}: {why}"
                events = [Event("forfeit", text, seat, {"reason": why}), *forfeit_seat(state, seat)]
                entries = [LogEntry(state.ply, player, "forfeit", [e.to_json() for e in events])]
                more_entries, more_events = _run_server_loop(state)
                entries, events = entries + more_entries, events + more_events
            if await self._commit(game_id, row.log_length, entries, state, len(row.memory), before=row) is None:
                result = self._game_result(game, game_id, state, text, events, actor=None)
                result.notify = [p for p in state.players if p != player and not _is_computer_name(p)]
                return await self._after_action(result)  # type: ignore[attr-defined]
        return None

    # ---- helpers ---------------------------------------------------------------------------------------------

    async def _tournament_in(
        self, tournament_id: int, guild_id: int | None, *, to_write: bool = True
    ) -> TournamentRow | Result:
        """A tournament of the server (any, for the console); another server's is answered as if there were none.
        ``to_write``: read in the command's transaction, for a write that follows."""
        try:
            row = await self.store.load_tournament(tournament_id, to_write=to_write)
        except NotFoundError:
            return _fail(f"there is no tournament {tournament_id}")
        except DamagedRowError as exc:
            return _fail(str(exc))
        if guild_id is not None and row.guild_id != guild_id:
            return _fail(f"there is no tournament {tournament_id} in this server")
        return row


def _tournament(row: TournamentRow) -> Tournament:
    """The pure tournament of a started row (:class:`bot.competition.CompetitionError` when it does not read)."""
    from bot.competition import Tournament

    return Tournament.from_json(row.state)


def _match_goes_on(state: GameState) -> bool:
    """Whether a finished game is a Backgammon match's game that the match plays on after (its board's result is
    the match's, which a later game decides)."""
    end = state.match_end() if getattr(state, "match", None) is not None else None  # type: ignore[attr-defined]
    return end is not None and not end.over


def _result(t: Tournament, link: TournamentGame, state: GameState) -> _Change:
    """What a game's end does to its board: its result recorded, or the board played again (a cancelled game,
    with the same seats; a drawn knock-out game, with the seats swapped)."""
    change = _Change()
    table = t.rounds[link.round - 1].table(link.board)
    outcome = state.outcome()
    if table.finished or outcome is None:  # decided by a withdrawal already
        return change
    where = f"board {link.board} of round {link.round}"
    if outcome.cancelled:
        change.starts.append((link.round, link.board, link.attempt + 1, table.playing))
        change.summary.append(f"game {link.game_id} was cancelled: {where} is played again")
        return change
    places = places_of(state, table.playing)
    if t.format == "knock-out" and list(places.values()).count(1) > 1:
        change.starts.append((link.round, link.board, link.attempt + 1, tuple(reversed(table.playing))))
        change.summary.append(f"game {link.game_id} was drawn: {where} is played again, the seats swapped")
        return change
    t.record(link.round, link.board, places)
    return change


def _refusal(
    format_: str, sizes: tuple[int, ...], rounds: int | None, max_players: int | None, organiser: str
) -> str | None:
    """Why a tournament cannot be made so (``None``: it can)."""
    if _is_computer_name(organiser):
        return "computer players do not organise tournaments"
    if format_ == "knock-out" and sizes != (2,):
        return "a knock-out is for games of two: choose swiss or round-robin for tables of three or four"
    if format_ == "swiss" and rounds is None:
        return "a Swiss needs its number of rounds"
    if format_ != "swiss" and rounds is not None:
        return f"a {format_name(format_)} has as many rounds as its players need: leave the number of rounds out"
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        return f"a Swiss has 1 to {MAX_ROUNDS} rounds, not {rounds}"
    fewest = max(2, min(sizes))
    if max_players is not None and not fewest <= max_players <= MAX_PLAYERS:
        return f"a tournament takes {fewest} to {MAX_PLAYERS} players, not {max_players}"
    return None


def _facts(row: TournamentRow) -> dict[str, Any]:
    """A tournament's facts, as ``Result.data["tournament"]`` carries them."""
    players = len(row.entrants) if row.state is None else len(row.state.get("entrants") or ())
    return {
        "tournament": {
            "id": row.id,
            "game": row.game_type,
            "format": row.format,
            "options": row.options,
            "table_sizes": row.table_sizes,
            "status": row.status,
            "organiser": row.organiser,
            "players": players,
            "max_players": row.max_players,
            "signup_until": row.signup_until,
            "guild_id": row.guild_id,
            "channel_id": row.channel_id,
            "description": describe(row),
        }
    }
