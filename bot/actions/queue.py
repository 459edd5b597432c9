"""Conditional moves (pbmserv's ``queue``, Lichess's forecasts) and previews.

Two players: a line is moves in turn, the opponent's first: ``d4 e5 d6 e7`` means "if they play d4, I reply
e5; if they then play d6, I reply e7". When the opponent moves, the lines that begin with that move give the
reply; lines that do not are dropped, each with a private notice. Three or four players: a line is just the
player's next move, played when their turn comes if it is still legal (pbmserv). Each move of a line is read when
stored (its notation) and judged when due (its legality); a line that no longer fits is dropped, never played.
Backgammon has none: the dice decide what can be played.
"""

from __future__ import annotations

from bot.actions.base import ActionsBase
from bot.actions.common import MAX_MOVE_TEXT, Result, _fail, _player_to_move, shorten, split_move_number
from bot.text import count
from rules.base import GameError, GameState, MoveSyntaxError

#: the most lines a player may store for one game, and the most moves in a line
MAX_LINES = 20
MAX_LINE_MOVES = 40


class QueueActions(ActionsBase):
    async def queue(self, game_id: int, player: str, line: str | None = None) -> Result:
        """Store a line of conditional moves for ``player`` (``line``), list their lines (``None``), or remove
        them (``clear``). Lines are stored only while it is not the player's turn."""
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        fields = {"game_id": game_id, "game_type": game.name}
        if player not in state.players:
            return _fail(f"{shorten(player)} is not playing in game {game_id}", **fields)
        if game.name == "backgammon":
            return _fail("Backgammon has no conditional moves: the dice decide what can be played", **fields)
        stored = await self.store.queued_lines(game_id, player)
        if line is None:
            items = [" ".join(q.moves) for q in stored]
            message = (
                f"{player} has {count(len(items), 'queued line')} in game {game_id}"
                if items
                else (f"{player} has no queued lines in game {game_id}")
            )
            return Result(ok=True, message=message, items=items, **fields)
        if line.strip().lower() == "clear":
            await self.store.replace_queued_lines(game_id, player)
            return Result(ok=True, message=f"{player}'s queued lines in game {game_id} are cleared", **fields)
        if row.status != "active":
            return _fail(f"game {game_id} is over", **fields)
        if _player_to_move(state) == player:
            return _fail("it is your turn: make your move; queue moves for when it is not", **fields)
        if len(stored) >= MAX_LINES:
            return _fail(f"at most {MAX_LINES} lines can be queued in a game; clear some first", **fields)
        if len(line) > MAX_MOVE_TEXT * 4:
            return _fail(f"a queued line is at most {MAX_MOVE_TEXT * 4} characters", **fields)
        words = line.replace(",", " ").split()
        if not words:
            return _fail("no moves given", **fields)
        two = len(state.players) == 2
        if two and len(words) < 2:
            return _fail(
                "a line starts with the opponent's move and then yours, like 'd4 e5' (if they play d4, reply e5)",
                **fields,
            )
        if not two and len(words) != 1:
            return _fail("with more than two players, queue just your next move", **fields)
        if len(words) > MAX_LINE_MOVES:
            return _fail(f"a line is at most {MAX_LINE_MOVES} moves", **fields)
        try:
            moves = _read_line(state, words) if two else [_read(state, words[0])]
        except ValueError as exc:
            return _fail(str(exc), **fields)
        await self.store.add_queued_line(game_id, player, moves)
        meaning = (
            " ".join(f"if {moves[k]}, reply {moves[k + 1]};" for k in range(0, len(moves) - 1, 2)).rstrip(";")
            if two
            else f"{moves[0]} when your turn comes, if it is still legal"
        )
        return Result(
            ok=True,
            message=f"queued for {player} in game {game_id}: {meaning}",
            items=[" ".join(q.moves) for q in stored] + [" ".join(moves)],
            **fields,
        )

    async def _queued_reply(self, last: Result, player: str) -> tuple[Result | None, list[tuple[str, str]]]:
        """The reply ``player``'s queued lines make to the position of ``last`` (``None`` when none applies),
        and private notices of the lines dropped. The lines kept are what remains of those that matched."""
        assert last.game_id is not None and last.state is not None
        game_id, state = last.game_id, last.state
        stored = await self.store.queued_lines(game_id, player)
        if not stored:
            return None, []
        notes: list[tuple[str, str]] = []
        two = len(state.players) == 2
        if two:
            # the opponent's move, if the action was theirs (a forced pass after the player's own move is not)
            theirs = last.played if last.played_by not in (None, player) else None
            played = (theirs or "").lower()
            matching = [q for q in stored if q.moves[0].lower() == played and len(q.moves) >= 2]
            for q in stored:
                if q not in matching:
                    why = f"the opponent played {theirs}" if theirs else "the opponent did not move as the line says"
                    notes.append((player, _dropped(game_id, q.moves, why)))
        else:
            matching = stored
        for q in matching:
            reply_text = q.moves[1] if two else q.moves[0]
            reply = await self._move_once(game_id, player, f"{reply_text}#{state.ply + 1}", queued=True)
            if reply.ok:
                kept = [
                    q2.moves[2:]
                    for q2 in matching
                    if two and q2.moves[1].lower() == reply_text.lower() and len(q2.moves) >= 4
                ]
                for q2 in matching:
                    if q2 is not q and q2.moves[2:] not in kept:
                        notes.append((player, _dropped(game_id, q2.moves, f"{reply_text} was played instead")))
                await self.store.replace_queued_lines(game_id, player, kept)
                return reply, notes
            if reply.game_id is not None and "changed while" in reply.message:
                return None, notes  # another action got there first: leave the lines for the next turn
            notes.append((player, _dropped(game_id, q.moves, f"{reply_text} is not legal now ({reply.message})")))
        await self.store.replace_queued_lines(game_id, player)
        return None, notes

    async def preview(self, game_id: int, player: str, text: str, *, alternative: str | None = None) -> Result:
        """The position after ``player``'s move ``text``, without playing it (pbmserv ``preview``). The answer
        says how to play it with the ``#n`` guard of this position, so a board that moves on meanwhile refuses
        the confirmation. ``alternative`` is another reading, as for :meth:`move` (without a password word)."""
        try:
            text, expected = split_move_number(text)
            if alternative is not None:
                alternative = split_move_number(alternative)[0]
        except ValueError as exc:
            return _fail(str(exc), game_id=game_id)
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        fields = {"game_id": game_id, "game_type": game.name}
        if row.status != "active":
            return _fail(f"game {game_id} is over", **fields)
        if player not in state.players:
            return _fail(f"{shorten(player)} is not playing in game {game_id}", **fields)
        if expected is not None and expected != state.ply + 1:
            return _fail(f"game {game_id} is at move #{state.ply + 1}, not #{expected}", **fields)
        if not text or len(text) > MAX_MOVE_TEXT:
            return _fail("give the move to preview", **fields)
        number = state.ply + 1
        after = state.clone()
        try:
            try:
                move = after.parse_move(text, state.seat_of(player))
            except MoveSyntaxError:
                if alternative is None:
                    raise
                move = after.parse_move(alternative, state.seat_of(player))
            move_text = after.move_text(move)
            events = after.push_preview(move)
        except GameError as exc:
            return _fail(str(exc), **fields)
        lines = [f"preview of move {number} in game {game_id}: {player} plays {move_text} (not played)"]
        lines += [e.text for e in events if e.text]
        lines.append(f"to play it: {game.name} move {game_id} {player} {move_text}#{number}")
        result = Result(
            ok=True,
            message="\n".join(lines),
            move_number=number,
            state=after,
            to_move=_player_to_move(state),
            status="active",
            players=list(state.players),
            played=f"{move_text}#{number}",
            **fields,
        )
        result.legal_moves = []
        return result


def _read_line(state: GameState, words: list[str]) -> list[str]:
    """A two-player line read move by move in the position it would make (both players' moves are in it, and the
    games that queue are without chance, so each move is judged exactly where it would be played): each in its
    canonical notation; a move that is no move, or could not be played there, is refused."""
    future = state.clone()
    out = []
    for word in words:
        who = future.players[future.to_move] if future.to_move is not None else "nobody"
        try:
            move = future.parse_move(word, None)
        except MoveSyntaxError as exc:
            raise ValueError(f"{shorten(word)} is not a move: {exc.reason}") from None
        except GameError as exc:
            raise ValueError(f"{shorten(word)} could not be played by {who} in that line: {exc}") from None
        out.append(future.move_text(move))
        future.push(move)
        while (forced := future.forced_move()) is not None:
            future.push(forced)
        if future.is_over and len(out) < len(words):
            raise ValueError(f"the game would be over after {out[-1]}: the line is longer than the game")
    return out


def _read(state: GameState, word: str) -> str:
    """A queued next move in three- or four-player games, read in the current position for its notation (its
    legality is judged when the player's turn comes): canonical when it is legal now, else as typed."""
    try:
        move = state.parse_move(word, None)
    except MoveSyntaxError as exc:
        raise ValueError(f"{shorten(word)} is not a move: {exc.reason}") from None
    except GameError:
        return word.strip().lower()
    return state.move_text(move)


def _dropped(game_id: int, moves: list[str], why: str) -> str:
    return f"your queued line '{' '.join(moves)}' in game {game_id} was dropped: {why}"
