"""Moderation: a server's moderators (or the console's operator) cancel a game, decide one, forfeit a member from
all their games, remove a member's open challenges, and read what moderators did. MODERATION API.

Every action names the moderator and a reason; the players are told the reason, and the audit log keeps who did
what, when and why (:meth:`data.store.Store.add_audit`). ``guild_id`` is the server the moderator acts in: only
its games and challenges are touched, and a game of another server is answered as if there were none. The
console's operator passes ``None``: every game and challenge.

A game is ended through the same guarded commit as a move (:meth:`bot.actions.base.ActionsBase._commit`): of two
moderators (or a moderator and a move) acting at once, one commits and the other reads the game again and is
answered by what it finds, so a game is ended once. What was done is in the move log, so the game replays as it
stands (:func:`bot.actions.common._apply_logged`): ``cancel`` and ``decide`` are logged by nobody at the board,
with the moderator, the reason and the winners in the event's data; ``forfeit`` by the player removed.

* **cancel**: the game ends without a result; it does not count for the ratings.
* **decide**: one player wins, every other loses, rated like any finished game unless ``rated`` is false (the
  game is then marked unrated, as if started ``-unrated``).
* **forfeit**: in every running game of the member, they are out as if they had resigned: with one opponent left,
  that opponent wins; with more the others play on (at once when it is the member's turn, else when their turn
  comes, played by the server). A game still in its first round is cancelled instead, as pbmserv treats a
  resignation then. Their open challenges, made or received, are withdrawn.

Results about a game are turns for the front to post in its thread, pinging every player still in it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from bot.actions.base import ActionsBase
from bot.actions.common import (
    Result,
    _fail,
    _is_computer_name,
    _run_server_loop,
    cancelled_by_moderator,
    decided_by_moderator,
    forfeit_seat,
    parse_number,
    shorten,
)
from bot.correspondence.clock import Clock
from bot.text import count
from data.store import AuditRow, ChallengeRow, GameRow, LogEntry, StaleWriteError
from rules.base import Event, GameDef, GameState

#: how often an action on a game is tried when the game changed between reading and writing it
ATTEMPTS = 5
#: the longest reason kept (it is shown in the game's thread)
MAX_REASON = 300
#: audit entries a page shows
AUDIT_PAGE = 20


#: what ending a game logs, the events it caused, and the line that says it
Ending = tuple[list[LogEntry], list[Event], str]


class _Refused(Exception):
    """An action on a game that cannot be done (the message says why); nothing was changed."""


@dataclass
class Moderated(Result):
    """What an action on a member did: ``games`` are the games it changed, each a turn for the front to post in
    its thread; ``challenges`` (of :class:`Result`) the challenges it withdrew."""

    games: list[Result] = field(default_factory=list)


def read_reason(text: str | None) -> str | None:
    """A moderator's reason as it is kept and shown: one line, at most :data:`MAX_REASON` characters; ``None``
    when none was given."""
    flat = " ".join((text or "").split())
    return flat[:MAX_REASON] or None


def _humans(players: list[str]) -> list[str]:
    return [p for p in dict.fromkeys(players) if not _is_computer_name(p)]


class ModerationActions(ActionsBase):
    """Moderators' actions (see the module docstring)."""

    async def admin_cancel(self, game_id: int, moderator: str, reason: str | None, *, guild_id: int | None) -> Result:
        """End a running game without a result, for ``reason``; everyone in it is told why."""
        why = read_reason(reason)
        if why is None:
            return _fail("give a reason: the players are told it", game_id=game_id)

        def act(row: GameRow, game: GameDef, state: GameState) -> Ending:
            text = f"game {row.id} was cancelled by a moderator: {why}; it does not count for the ratings"
            state.cancel(cancelled_by_moderator(why))
            event = Event("cancel", text, None, {"moderator": moderator, "reason": why})
            return [LogEntry(state.ply, None, "cancel", [event.to_json()])], [event], text

        result = await self._end(game_id, guild_id, act)
        if result.ok:
            await self._audit(result, guild_id, moderator, "cancel", why, f"cancelled game {game_id}")
        return result

    async def admin_decide(
        self,
        game_id: int,
        moderator: str,
        winner: str,
        reason: str | None,
        *,
        rated: bool = True,
        guild_id: int | None,
    ) -> Result:
        """End a running game with ``winner`` winning and everyone else losing, for ``reason``; rated unless
        ``rated`` is false."""
        why = read_reason(reason)
        if why is None:
            return _fail("give a reason: the players are told it", game_id=game_id)

        def act(row: GameRow, game: GameDef, state: GameState) -> Ending:
            if winner not in state.players:
                raise _Refused(f"{shorten(winner)} is not playing in game {row.id}")
            seat = state.seat_of(winner)
            if seat in state.resigned:
                raise _Refused(f"{winner} is out of game {row.id} ({state.out_reason(seat)}): they cannot win it")
            state.decide([seat], decided_by_moderator(why))
            text = f"{winner} wins game {row.id}: {decided_by_moderator(why)}"
            data = {"moderator": moderator, "reason": why, "winners": [seat], "rated": rated}
            event = Event("decide", text, seat, data)
            return [LogEntry(state.ply, None, "decide", [event.to_json()])], [event], text

        result = await self._end(game_id, guild_id, act, unrated=not rated)
        if result.ok:
            said = f"decided game {game_id} for {winner}" + ("" if rated else " (unrated)")
            await self._audit(result, guild_id, moderator, "decide", why, said)
        return result

    async def admin_forfeit(self, player: str, moderator: str, reason: str | None, *, guild_id: int | None) -> Result:
        """Remove ``player`` from every running game of theirs (in the server, or everywhere for the console) and
        withdraw their open challenges, made or received (see the module docstring)."""
        why = read_reason(reason)
        if why is None:
            return _fail("give a reason: the players are told it")
        games: list[Result] = []
        notes: list[str] = []
        for game_id in await self.store.running_game_ids(player, guild_id):
            result = await self._forfeit_one(game_id, player, why)
            if result.ok:
                games.append(result)
            notes.append(result.message.splitlines()[0] if result.ok else f"game {game_id}: {result.message}")
        withdrawn = await self._withdraw(player, guild_id, named=True)
        if not games and not withdrawn:
            where = " in this server" if guild_id is not None else ""
            return _fail(f"{shorten(player)} has no running game and no open challenge{where}; nothing to do")
        said = f"forfeited {player} from {count(len(games), 'game')}" + (
            f" and withdrew {count(len(withdrawn), 'open challenge')}" if withdrawn else ""
        )
        lines = [f"{said[0].upper()}{said[1:]}: {why}", *notes]
        if withdrawn:
            lines.append(f"challenges withdrawn: {', '.join(str(row.id) for row in withdrawn)}")
        detail = {"games": [r.game_id for r in games], "challenges": [row.id for row in withdrawn]}
        await self.store.add_audit(guild_id, moderator, "forfeit", player, why, {"said": said, **detail})
        return Moderated(ok=True, message="\n".join(lines), games=games, challenges=withdrawn, players=[player])

    async def admin_challenges(
        self, player: str, moderator: str, reason: str | None, *, guild_id: int | None
    ) -> Result:
        """Withdraw every open challenge ``player`` made (in the server, or everywhere for the console)."""
        why = read_reason(reason)
        if why is None:
            return _fail("give a reason: it is shown on the challenges withdrawn")
        withdrawn = await self._withdraw(player, guild_id, named=False)
        if not withdrawn:
            where = " in this server" if guild_id is not None else ""
            return _fail(f"{shorten(player)} has no open challenge{where}; nothing to withdraw")
        numbers = ", ".join(str(row.id) for row in withdrawn)
        said = f"withdrew {count(len(withdrawn), 'open challenge')} of {player} ({numbers})"
        await self.store.add_audit(
            guild_id, moderator, "challenges", player, why, {"said": said, "challenges": [r.id for r in withdrawn]}
        )
        return Moderated(ok=True, message=f"{said[0].upper()}{said[1:]}: {why}", challenges=withdrawn, players=[player])

    async def admin_log(self, guild_id: int | None, page_word: str | None = None) -> Result:
        """What moderators did, newest first, :data:`AUDIT_PAGE` a page: in a server, or (``None``) everywhere."""
        page = 1 if page_word is None else parse_number(page_word, "page number", 10**6)
        rows, total = await self.store.audit_log(guild_id, limit=AUDIT_PAGE, offset=(page - 1) * AUDIT_PAGE)
        pages = max(1, -(-total // AUDIT_PAGE))
        if not rows:
            empty = "moderators have done nothing yet" if total == 0 else f"there are only {count(pages, 'page')}"
            return Result(ok=total == 0, message=empty)
        return Result(
            ok=True,
            message=f"What moderators did: {count(total, 'entry', 'entries')}, page {page} of {pages}",
            items=[audit_line(row) for row in rows],
        )

    # ---- steps ---------------------------------------------------------------------------------------------

    async def _end(
        self,
        game_id: int,
        guild_id: int | None,
        act: Callable[[GameRow, GameDef, GameState], Ending],
        *,
        unrated: bool = False,
    ) -> Result:
        """Apply ``act`` (it ends the game, and says what to log) to the game as it stands and commit it under the
        game's guard; read again when the game changed meanwhile. Everyone still in the game is told."""
        for _attempt in range(ATTEMPTS):
            loaded = await self._game_in(game_id, guild_id)
            if isinstance(loaded, Result):
                return loaded
            row, game, state = loaded
            try:
                entries, events, text = act(row, game, state)
            except _Refused as refused:
                return _fail(str(refused), game_id=game_id, game_type=game.name)
            before = _marked_unrated(row) if unrated else row
            if await self._commit(game_id, row.log_length, entries, state, len(row.memory), before=before) is None:
                result = self._game_result(game, game_id, state, text, events, actor=None)
                result.notify = _humans(list(state.players))
                return await self._after_action(result)
        return _fail(f"game {game_id} keeps changing; try again", game_id=game_id)

    async def _forfeit_one(self, game_id: int, player: str, why: str) -> Result:
        """Remove ``player`` from one running game (see the module docstring)."""
        for _attempt in range(ATTEMPTS):
            loaded = await self._load(game_id)
            if isinstance(loaded, Result):
                return loaded
            row, game, state = loaded
            if row.status != "active" or player not in state.players:
                return _fail(f"game {game_id} is over already", game_id=game_id)
            seat = state.seat_of(player)
            if seat in state.resigned or seat in state.queued_resign:
                return _fail(f"{player} is leaving game {game_id} already", game_id=game_id)
            declinable = await self.store.tournament_game(game_id) is None
            entries, events, text = _forfeiting(row, state, seat, why, declinable=declinable)
            if await self._commit(game_id, row.log_length, entries, state, len(row.memory), before=row) is None:
                result = self._game_result(game, game_id, state, text, events, actor=None)
                result.notify = _humans([p for p in state.players if p != player])
                return await self._after_action(result)
        return _fail(f"game {game_id} keeps changing; try again", game_id=game_id)

    async def _game_in(self, game_id: int, guild_id: int | None) -> tuple[GameRow, GameDef, GameState] | Result:
        """A running game of the server (any, for the console); another server's is answered as if there were
        none."""
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        if guild_id is not None and row.guild_id != guild_id:
            return _fail(f"there is no game {game_id} in this server", game_id=game_id)
        outcome = state.outcome()
        if row.status != "active" or outcome is not None:
            ended = f" ({outcome.reason})" if outcome is not None else ""
            return _fail(f"game {game_id} is over already{ended}", game_id=game_id, game_type=game.name)
        return row, game, state

    async def _withdraw(self, player: str, guild_id: int | None, *, named: bool) -> list[ChallengeRow]:
        """Withdraw the open challenges ``player`` made (with ``named``, also those naming them); those withdrawn."""
        withdrawn = []
        for row in await self.store.member_challenges(player, guild_id, named=named):
            try:
                await self.store.update_challenge(row.id, status="cancelled")
            except StaleWriteError:
                continue  # answered meanwhile
            withdrawn.append(row)
        return withdrawn

    async def _audit(
        self, result: Result, guild_id: int | None, moderator: str, action: str, why: str, said: str
    ) -> None:
        """Record an action on a game under the game's server (the console's too, so the server sees it)."""
        assert result.game_id is not None
        row = await self.store.load_game(result.game_id)
        where = row.guild_id if guild_id is None else guild_id
        await self.store.add_audit(where, moderator, action, f"game {result.game_id}", why, {"said": said})


def _forfeiting(row: GameRow, state: GameState, seat: int, why: str, *, declinable: bool = True) -> Ending:
    """What removing ``seat`` does to a game, as log entries, events and the line saying it; ``declinable``: a
    game still in its first round is cancelled (not a tournament's game, which is lost like any other)."""
    player = state.players[seat]
    match = getattr(state, "match", None)
    # the first round (of a match, its first game's): the game is cancelled, as a resignation then declines it
    if declinable and state.ply < len(row.players) and (match is None or match.game == 1):
        reason = f"{player} left before the first round was over ({why})"
        state.cancel(cancelled_by_moderator(reason))
        text = f"game {row.id} was cancelled by a moderator: {reason}; it does not count for the ratings"
        event = Event("cancel", text, None, {"reason": reason})
        return [LogEntry(state.ply, None, "cancel", [event.to_json()])], [event], text
    text = f"{player} was removed from game {row.id} by a moderator: {why}"
    removed = Event("forfeit", text, seat, {"reason": why})
    events = [removed, *forfeit_seat(state, seat)]
    entries = [LogEntry(state.ply, player, "forfeit", [e.to_json() for e in events])]
    more_entries, more_events = _run_server_loop(state)
    return entries + more_entries, events + more_events, text


def _marked_unrated(row: GameRow) -> GameRow:
    """The game as read, its clock's rules marked unrated: the commit that ends it then rates nothing, and the
    game shows as unrated from then on."""
    clock = Clock.from_json(row.clock)
    clock.rules = replace(clock.rules, unrated=True)
    return row._replace(clock=clock.to_json())


def audit_line(row: AuditRow) -> str:
    """One audit entry: when (UTC), who, what, why."""
    when = datetime.fromtimestamp(row.created_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
    said = str(row.detail.get("said") or f"{row.action} {row.target}")
    why = f": {row.reason}" if row.reason else ""
    return f"{when}: {row.moderator} {said}{why}"
