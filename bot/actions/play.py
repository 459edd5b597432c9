"""Playing: moves, resignations (pbmserv's first-round decline included) and computer players' replies."""

from __future__ import annotations

from bot.actions.base import ActionsBase, changed_meanwhile, one_transaction
from bot.actions.common import (
    MAX_MOVE_TEXT,
    InputError,
    Result,
    _announce,
    _fail,
    _is_computer_name,
    _is_move_fragment,
    _player_to_move,
    _refusal,
    _run_server_loop,
    _stale,
    _without_status,
    closing_status,
    shorten,
    split_move_number,
)
from bot.correspondence.clock import Clock
from bot.correspondence.options import TimeRules
from data.store import (
    GameRow,
    LogEntry,
)
from rules.base import Event, GameDef, GameError, GameState, MoveSyntaxError, Resign

#: the most moves computer players make in a row within one action: a game between computer players stops
#: there, so that a console command ends and the bot's sweep lets go (a default Drogo game runs to about 1,200)
COMPUTER_MOVES_IN_A_ROW = 2000
#: the end of the line a turn says when a computer's move is left to be played after it
FOLLOWS = "move will follow here shortly"


class PlayActions(ActionsBase):
    #: see :data:`COMPUTER_MOVES_IN_A_ROW` (tests lower it on an instance)
    computer_moves_in_a_row = COMPUTER_MOVES_IN_A_ROW

    # ---- moves ---------------------------------------------------------------------------------------------

    @one_transaction
    async def move(
        self,
        game_id: int,
        player: str,
        text: str,
        *,
        alternative: str | None = None,
        will_post: str | None = None,
        arrived: float | None = None,
    ) -> Result:
        """``player`` makes a move written ``text`` (pbmserv notation, optionally ending ``#moveno``); computer
        players to move after it reply at once (see :meth:`_after_action`). ``will_post`` is the nonce under
        which the front will post the board (see :meth:`_commit`); ``arrived`` is when the command reached this
        process (``time.monotonic()``): it is refused if the game changed since (see :meth:`_changed_since`)."""
        played = await self._move_once(
            game_id, player, text, alternative=alternative, will_post=will_post, arrived=arrived
        )
        return await self._after_action(played)

    async def _move_once(
        self,
        game_id: int,
        player: str,
        text: str,
        *,
        alternative: str | None = None,
        queued: bool = False,
        will_post: str | None = None,
        arrived: float | None = None,
    ) -> Result:
        """``player`` makes a move written ``text`` (pbmserv notation, optionally ending ``#moveno``).

        ``alternative`` is another reading of the same input, tried when ``text`` is not a move at all: the
        console passes the input without pbmserv's password word, which it cannot tell from a move by itself.
        ``queued`` marks a move played from the player's conditional moves. A player whose clock has run out
        cannot move any more: the sweep applies the timeout.
        """
        if len(text) > MAX_MOVE_TEXT:
            return _fail(f"a move is at most {MAX_MOVE_TEXT} characters; {shorten(text)} is longer", game_id=game_id)
        try:
            text, expected = split_move_number(text)
            if alternative is not None:
                alternative, _ = split_move_number(alternative)
        except InputError as exc:
            return _fail(str(exc), game_id=game_id)
        if not text:
            return _fail("no move given", game_id=game_id)
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        if row.status != "active":
            return _fail(f"game {game_id} is over", game_id=game_id, game_type=game.name, state=state)
        if player not in state.players:
            return _fail(f"{shorten(player)} is not playing in game {game_id}", game_id=game_id, game_type=game.name)
        stale = _stale(game_id, state, expected)
        if stale is not None:
            stale.game_type = game.name
            return stale
        if self._changed_since(game_id, arrived):
            return changed_meanwhile(game_id)
        out_of_time = await self._out_of_time(row, player)
        if out_of_time is not None:
            return _fail(out_of_time, game_id=game_id, game_type=game.name, state=state, move_number=state.ply)
        seat = state.seat_of(player)
        if text.lower() in ("resign", "forfeit"):
            return await self._resign(row, game, state, player)
        try:
            try:
                move = state.parse_move(text, seat)
            except MoveSyntaxError as whole:
                if alternative is None:
                    raise
                try:
                    move = state.parse_move(alternative, seat)
                except MoveSyntaxError:
                    # Neither reading is a move: blame the one the player meant. A first word that is part of
                    # a move (``13-7`` of ``13-7 bar-``) was no password, so the whole text is what was wrong.
                    if _is_move_fragment(state, text.split()[0], seat):
                        raise whole from None
                    raise
        except GameError as exc:
            return _fail(_refusal(exc), game_id=game_id, game_type=game.name, state=state, move_number=state.ply)
        if isinstance(move, Resign):
            return await self._resign(row, game, state, player)
        move_text, logged = state.move_text(move), state.log_text(move)
        events = state.push(move)
        entries = [LogEntry(state.ply, player, logged, [e.to_json() for e in events], queued=queued)]
        more_entries, more_events = _run_server_loop(state)
        error = await self._commit(
            game_id, row.log_length, entries + more_entries, state, len(row.memory), before=row, will_post=will_post
        )
        if error is not None:
            return error
        result = self._game_result(
            game, game_id, state, _announce(game, player, move_text, events), events + more_events, actor=player
        )
        result.played, result.played_by = move_text, player
        if result.status == "finished" and getattr(state, "match", None) is not None:
            return await self._next_match_game(row, game, state, result)
        return result

    async def _next_match_game(self, row: GameRow, game: GameDef, state: GameState, ended: Result) -> Result:
        """A game of a Backgammon match was won on the board: when the match goes on, its next game starts now, in
        the same transaction, between the same players with the same options and clock (who starts: the opening
        roll, as in every game). The result is about the new game; its message first tells how the last one ended
        and the match's score. When the match is over, ``ended`` as it is."""
        following = state.next_game(self._seed())  # type: ignore[attr-defined]
        if following is None:
            return ended
        told = ended.message.splitlines()  # how the game ended, and the match's score (see _game_result)
        result = await self._start_game(  # type: ignore[attr-defined]
            game,
            dict(row.options),
            list(row.players),
            TimeRules.from_json((row.clock or {}).get("rules")),
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            prefix="\n".join(told) + "\n",
            state=following,
            reply=False,
        )
        assert result.game_id is not None
        await self._match_goes_on(row.id, result.game_id)
        result.events = [*ended.events, *result.events]
        result.played, result.played_by = ended.played, ended.played_by
        result.finished_game = row.id
        assert result.game_id is not None
        await self._continue_where_it_lived(row, result.game_id)
        return result

    async def _continue_where_it_lived(self, row: GameRow, game_id: int) -> None:
        """The next game of a match lives where the last one did, in the same transaction as its start: in its
        Discord thread (the match is one conversation there), and a board of the last game still to be posted
        becomes the new game's, under the same mark (the front posts the new game's board with that nonce; after
        a crash, the sweep posts it), so the post is neither lost nor made twice."""
        if row.thread_id is not None:
            await self.store.set_thread(game_id, row.guild_id, row.channel_id, row.thread_id)
        await self.store.pass_unposted(row.id, game_id)

    async def _out_of_time(self, row: GameRow, player: str) -> str | None:
        """Why ``player`` cannot act any more in this game (their clock ran out), or ``None``."""
        clock = await self._running_clock(Clock.from_json(row.clock), self._clock())
        if not clock.timed or clock.player != player or clock.paused:
            return None
        left = clock.left(self._clock(), await self._tz(player))
        if left is None or left > 0:
            return None
        return f"{player}'s time in game {row.id} has run out: the move was not played (the game ends on time)"

    @one_transaction
    async def resign(self, game_id: int, player: str, expected: int | None = None) -> Result:
        """``player`` resigns (pbmserv semantics: see the module docstring); ``expected`` is the ``#n`` guard.
        Computer players to move afterwards reply at once."""
        return await self._after_action(await self._resign_once(game_id, player, expected))

    async def _resign_once(self, game_id: int, player: str, expected: int | None) -> Result:
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        if row.status != "active":
            return _fail(f"game {game_id} is over", game_id=game_id, game_type=game.name)
        if player not in state.players:
            return _fail(f"{shorten(player)} is not playing in game {game_id}", game_id=game_id, game_type=game.name)
        stale = _stale(game_id, state, expected)
        if stale is not None:
            stale.game_type = game.name
            return stale
        return await self._resign(row, game, state, player)

    async def _resign(self, row: GameRow, game: GameDef, state: GameState, player: str) -> Result:
        match = getattr(state, "match", None)
        # a match's later game is never declined, nor a tournament's (its players were paired to play it)
        first_round = state.ply < len(row.players) and (match is None or match.game == 1)
        if first_round and await self.store.tournament_game(row.id) is None:
            return await self._decline_game(row, game, state, player)
        waiting_on = _player_to_move(state)
        try:
            events = state.resign(state.seat_of(player))
        except GameError as exc:
            return _fail(str(exc), game_id=row.id, game_type=game.name)
        entries = [LogEntry(state.ply, player, "resign", [e.to_json() for e in events])]
        more_entries, more_events = _run_server_loop(state)
        error = await self._commit(row.id, row.log_length, entries + more_entries, state, len(row.memory), before=row)
        if error is not None:
            return error
        # A resignation queued (or withdrawn) out of turn changes nobody's turn: nobody is pinged for it.
        return self._game_result(
            game,
            row.id,
            state,
            events[0].text,
            events + more_events,
            actor=player,
            ping=_player_to_move(state) != waiting_on,
        )

    async def _decline_game(self, row: GameRow, game: GameDef, state: GameState, player: str) -> Result:
        """Resigning in the first round: the player declines. The game is cancelled, and restarted without them
        (as a new game) when enough players remain."""
        reason = f"{player} declined to play"
        state.cancel(reason)
        event = Event("resign", reason, row.players.index(player), {"declined": True})
        decline = [LogEntry(state.ply, player, "decline", [event.to_json()])]
        error = await self._commit(row.id, row.log_length, decline, state, len(row.memory), before=row)
        if error is not None:
            return error
        remaining = [p for p in row.players if p != player]
        cancelled = self._game_result(
            game, row.id, state, f"{reason}; game {row.id} is cancelled", [event], actor=player
        )
        if len(remaining) < game.min_players:
            return cancelled
        try:
            options = game.parse_options(game.format_options(row.options).split(), len(remaining))
        except GameError as exc:
            cancelled.message += f"\nIt cannot restart without {player}: {exc}"
            return cancelled
        result = await self._start_game(
            game,
            options,
            remaining,
            TimeRules.from_json((row.clock or {}).get("rules")),
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            prefix=f"{reason}; game {row.id} is cancelled. ",
        )
        result.events.insert(0, event)
        return result

    # ---- replies made for players -------------------------------------------------------------------------

    async def _after_action(self, result: Result, *, wait: bool = False, will_post: str | None = None) -> Result:
        """After an action that changed a game: while a computer player (``ai:1`` .. ``ai:3``) is to move it
        plays, and while the player to move has a queued line that answers the move just made, that reply is
        played for them (``(Queued)``), each through the same guarded commit as a person's move; the result
        tells what the action and every reply did. Then the clock goes on the result, and players in their quiet
        hours are held rather than pinged. A computer's choice is seeded by the game's seed and the move number,
        so it is the same however often it is asked.

        With a front that plays computers in their turn (``think_now`` given), one search at most is waited for:
        a command (``wait`` false) does not wait for one that would not start at once, and a computer to move
        again after its move is left too; such a turn is left, said in the result, and the front has it played
        (:meth:`computer_reply`), so every move is posted soon after its commit. ``will_post`` marks the
        computer's move's board as still to be posted."""
        if not result.ok or result.state is None or result.game_id is None:
            return result
        state = result.state
        game = state.game
        lines = _without_status(result.message, game, state)
        events = list(result.events)
        private = list(result.private)
        last = result
        computer_moves = 0
        later = ""
        thought = False
        while last.status == "active" and last.to_move is not None:
            player = last.to_move
            assert last.game_id is not None and last.state is not None
            note = ""
            if _is_computer_name(player):
                if self._think is None or last.game_id in self._thinking:
                    break
                if thought and self._think_now is not None:
                    later = f"{player}'s {FOLLOWS}"
                    break
                if computer_moves == self.computer_moves_in_a_row:
                    lines.append(_pause_line(computer_moves))
                    break
                computer_moves += 1
                self._thinking.add(last.game_id)
                try:
                    async with self.store.suspended():  # what came before is committed; nobody waits on a search
                        if not wait and self._think_now is not None and not self._think_now(self.ai_seconds):
                            later = f"{player} is busy with other games: its {FOLLOWS}"
                            break
                        text, note = await self._think(last.state, player, self.ai_seconds)
                finally:
                    self._thinking.discard(last.game_id)
                thought = True
                reply = await self._move_once(last.game_id, player, f"{text}#{last.state.ply + 1}", will_post=will_post)
            else:
                reply, notes = await self._queued_reply(last, player)
                private += notes
                if reply is None:
                    break
            if not reply.ok:  # another action got there first, or the choice was refused: stop, say so, lose nothing
                lines.append(f"{player} could not move: {reply.message}")
                break
            assert reply.state is not None
            reply_lines = _without_status(reply.message, game, reply.state)
            if note:
                reply_lines[0] = f"{reply_lines[0]} ({player} {note})"
            elif not _is_computer_name(player):
                reply_lines[0] = f"{reply_lines[0]} (Queued)"
            lines += reply_lines
            events += reply.events
            last = reply
        if last is not result:
            assert last.state is not None
            summary = closing_status(game, last.state, lines)
            if summary is not None:
                lines.append(summary)
            last.message = "\n".join(line for line in lines if line)
            last.events = events
            human = last.to_move if last.to_move is not None and not _is_computer_name(last.to_move) else None
            last.notify = [human] if human is not None else []
            last.challenge_id = result.challenge_id
        if later:
            last.message = f"{last.message}\n{later}" if last.message else later
        last.private = private
        self._tell_news(last)
        await self._attach_clock(last, ended=True)
        await self._hold_for_quiet_hours(last)
        return last

    @one_transaction
    async def computer_reply(self, game_id: int, *, will_post: str | None = None) -> Result:
        """The computer player to move in ``game_id`` plays one move, waiting for its turn to think as long as it
        takes (and what follows without a search: a queued reply); the result is the turn to post, marked under
        ``will_post``. A game that waits on no computer (any more) or that this process is thinking about already
        is answered as it stands, with no move (``played`` is ``None``)."""
        shown = await self.show(game_id)  # type: ignore[attr-defined]
        if not shown.ok or shown.to_move is None or not _is_computer_name(shown.to_move):
            return shown
        shown.message = ""
        return await self._after_action(shown, wait=True, will_post=will_post)

    async def resume_computers(self, patience: float) -> list[Result]:
        """Computer players whose turn has waited ``patience`` seconds play now, one game after another; each
        result is a turn to post. For the fronts that play computers as they go, without a pool to share: the
        console's ``tick`` and a web UI served without the bot (there every computer to move plays on, up to
        :data:`COMPUTER_MOVES_IN_A_ROW`). The bot has each game played in its turn instead (:meth:`computer_reply`
        through its fair queue)."""
        results = []
        for game_id in await self.computers_waiting(patience):
            moved = await self.computer_reply(game_id)
            if moved.ok and moved.played is not None:
                results.append(moved)
        return results

    async def computers_waiting(self, patience: float) -> list[int]:
        """Games whose computer player has been to move for ``patience`` seconds while this process is not
        thinking about it (the process thinking for it stopped, or its move was refused): the front has each
        played (:meth:`computer_reply`); the guarded commit refuses a second move for the same turn."""
        waiting = await self.store.waiting_on_computers(self._clock() - patience)
        return [game_id for game_id in waiting if game_id not in self._thinking]

    async def _hold_for_quiet_hours(self, result: Result) -> None:
        """Players to ping who are in their quiet hours are not pinged now: a ``deliver`` timer tells them when
        the quiet hours end, and the message says so. A player's pings held in one game are one timer, told as
        one message (see :meth:`data.store.Store.hold_ping`): news (a timeout) always, their turn only if the
        game still waits on them then, at the move it was about."""
        now = self._clock()
        for player in list(result.notify):
            quiet = await self._quiet(player)
            if quiet is None or not quiet.contains(now):
                continue
            release = quiet.ends_after(now)
            turn = player == result.to_move and result.status == "active"
            news = None if turn else result.message.splitlines()[0]
            assert result.game_id is not None
            await self.store.hold_ping(result.game_id, player, release, move_number=result.move_number, news=news)
            result.notify.remove(player)
            result.held[player] = release
            result.message += f"\n({player} will be told later)"  # saying when would tell everyone their hours


def _pause_line(moves: int) -> str:
    """What a game between computer players says when it stops at :data:`COMPUTER_MOVES_IN_A_ROW`."""
    return (
        f"The computer players pause after {moves:,} moves in a row; they play on at the next sweep"
        " (pbm do tick in the console)."
    )
