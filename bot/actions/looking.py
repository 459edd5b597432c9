"""Looking without changing anything: boards, earlier positions, replays, histories, listings, legal moves, help."""

from __future__ import annotations

import json

from bot.actions.base import ActionsBase
from bot.actions.common import (
    MOVE_LIST_LIMIT,
    PAGE_SIZE,
    REPLAY_FRAMES,
    Result,
    _apply_logged,
    _fail,
    _first_event_text,
    _game_line,
    _legal_texts,
    _player_to_move,
    _rolled,
    _spread,
    _winners,
    replay_steps,
    shorten,
    start_of,
    status_line,
)
from bot.correspondence.options import describe_options
from bot.correspondence.periods import format_left
from bot.text import count
from data.rows import GameSummary
from data.store import (
    DamagedRowError,
    GameRow,
    StoreError,
)
from rules import registry
from rules.base import GameDef, GameError, GameState, StateFormatError


class LookingActions(ActionsBase):
    # ---- looking -------------------------------------------------------------------------------------------

    async def show(self, game_id: int, at: int | None = None) -> Result:
        """The game as it stands, or after move ``at`` (a replay of the log)."""
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        if at is None:
            shown = self._game_result(game, game_id, state, status_line(game, state), [], actor=None, ping=False)
            return await self._attach_clock(shown)
        if not 0 <= at <= row.move_number:
            return _fail(f"game {game_id} has moves 0 to {row.move_number}; there is no move {at}", game_id=game_id)
        try:
            past = await self.replay(row, until=at)
        except (StoreError, GameError, StateFormatError) as exc:
            return _fail(f"game {game_id} cannot be replayed: {exc}", game_id=game_id)
        result = self._game_result(game, game_id, past, f"game {game_id} after move {at}", [], actor=None, ping=False)
        result.move_number = at
        return result

    async def replay(self, row: GameRow, until: int | None = None) -> GameState:
        """Rebuild a game from its seed and its log, up to move number ``until`` (all of it by default). After a
        takeback a move number comes again: the position shown is the latest one at that number."""
        game = registry.get(row.type)
        state = start_of(game, row)
        log = await self.store.log(row.id)
        if not any(entry.text == "undo" for entry in log):
            for entry in log:
                if until is not None and entry.number > until:
                    break
                _apply_logged(state, entry)
            return state
        if until is None:
            final = state
            for _entry, final in replay_steps(state, log):  # noqa: B007 (the last position is the answer)
                pass
            return final
        found = state.clone() if until == 0 else None
        for _entry, now in replay_steps(state, log):
            if now.ply == until:
                found = now.clone()
        if found is None:
            raise DamagedRowError(f"no position at move {until}")
        return found

    async def replay_frames(self, game_id: int, first: int | None = None, last: int | None = None) -> Result:
        """The positions of a game for an animated replay, from move ``first`` (default: the start) to move
        ``last`` (default: the end): ``frames`` holds (state, caption) pairs, one per move, each caption naming
        the move that led to it. At most :data:`REPLAY_FRAMES` positions are kept, spread evenly (first and last
        always), and ``message`` says so."""
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        first = 0 if first is None else first
        last = state.ply if last is None else last
        if not 0 <= first < last <= state.ply:
            return _fail(f"game {game_id} has moves 0 to {state.ply}: choose a range inside it", game_id=game_id)
        try:
            log = await self.store.log(game_id)
        except DamagedRowError as exc:
            return _fail(str(exc), game_id=game_id)
        before = [entry for entry in log if entry.number <= first]
        moves = [entry for entry in log if first < entry.number <= last]
        wanted = len(moves) + 1
        keep = set(_spread(wanted, REPLAY_FRAMES))
        replaying = start_of(game, row)
        try:
            steps = replay_steps(replaying, log)
            for _entry, (_logged, after) in zip(before, steps, strict=False):
                replaying = after
            frames = [(replaying.clone(), "the start" if first == 0 else f"after move {first}")]
            for index, (entry, (_logged, replaying)) in enumerate(zip(moves, steps, strict=False), start=1):
                if index in keep:
                    who = f"{entry.player_id}: " if entry.player_id else ""
                    made = " (Auto)" if entry.auto else " (Queued)" if entry.queued else ""
                    text = game.history_moves(entry.text, entry.events)[0] if game.history_moves else entry.text
                    frames.append((replaying.clone(), f"{entry.number}. {who}{text}{made}"))
        except (GameError, DamagedRowError) as exc:
            return _fail(f"game {game_id} cannot be replayed: {exc}", game_id=game_id)
        note = "" if wanted <= REPLAY_FRAMES else f"; {len(frames)} of its {wanted} positions, spread evenly"
        result = Result(
            ok=True,
            message=f"{game.title} game {game_id}, moves {first} to {last}{note}",
            game_id=game_id,
            game_type=game.name,
            move_number=state.ply,
            status=row.status,
            players=list(state.players),
        )
        result.frames = frames
        return result

    async def history(self, game_id: int) -> Result:
        """The move list, one line per logged action, with ``(Auto)`` marking what the server played and, for a
        game of chance, the dice the player moved with (``bob (6-5): 13-8,6-5``), read from the logged roll
        events. The moves the server made inside an action (Dragons' auto moves, :attr:`GameDef.history_moves`)
        follow it, each on a line of its own without a number, marked ``(Auto)``. A resignation asked for out of
        turn (or withdrawn) is a note without a number; the resignation itself appears once, where it took
        effect. No replay: the cost is one read of the log."""
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        try:
            log = await self.store.log_lines(game_id, every_event=game.history_moves is not None)
        except DamagedRowError as exc:
            return _fail(str(exc), game_id=game_id)
        lines: list[str] = []
        dice = start_of(game, row).turn_context()  # the opening roll is not logged
        previous_number = 0
        shown: dict[int, tuple[range, str]] = {}  # action number -> (its lines, the dice before it)
        for seq, entry in enumerate(log, start=1):
            if entry.text == "resign" and entry.made != 1 and entry.number == previous_number:
                lines.append(f"      ({_first_event_text(entry.events_json) or f'{entry.player_id} asked to resign'})")
                continue
            if entry.text == "undo":
                first = _undone_from(entry.events_json)
                for taken in range(first, seq):
                    for index in shown[taken][0] if taken in shown else ():
                        if not lines[index].endswith("(taken back)"):
                            lines[index] += "  (taken back)"
                dice = shown[first][1] if first in shown else dice
                lines.append(f"      ({entry.player_id}'s takeback accepted: {_first_event_text(entry.events_json)})")
                previous_number = entry.number
                continue
            first_line, dice_before = len(lines), dice
            previous_number = entry.number
            play = entry.text not in game.extra_commands and entry.player_id is not None
            context = dice if play else ""
            if play:
                dice = ""  # a play uses the dice up
            dice = _rolled(entry.events_json) or dice
            by = entry.player_id or "moderator"  # a moderator's cancel or decision: nobody's at the board
            who = f"{by} ({context})" if context else by
            made = {1: " (Auto)", 2: " (Queued)"}.get(entry.made, "")
            text, autos = _history_moves(game, entry.text, entry.events_json)
            lines.append(f"{entry.number:>4}. {who}: {text}{made}")
            lines.extend(f"      {entry.player_id}: {auto} (Auto)" for auto in autos)
            shown[seq] = (range(first_line, len(lines)), dice_before)
        header = f"{game.title} game {game_id}: {', '.join(row.players)}"
        opts = game.format_options(row.options)
        if opts:
            header += f" ({opts})"
        return Result(
            ok=True,
            message=header + "\n" + status_line(game, state),
            game_id=game_id,
            game_type=game.name,
            move_number=state.ply,
            status=row.status,
            items=lines,
            players=list(state.players),
            to_move=_player_to_move(state),
            winners=_winners(state),
            legal_moves=_legal_texts(state),
        )

    async def games(
        self, player: str | None, which: str = "active", game_type: str | None = None, page: int = 1
    ) -> Result:
        """Games of a player (pbmserv ``games userid [all|active|inactive|next]``), newest first, a page of
        :data:`PAGE_SIZE` at a time; ``next`` lists the games waiting on that player. Without a player: every
        game of the type. The message says how many there are and how many more pages follow."""
        if which not in ("all", "active", "inactive", "next"):
            return _fail(f"unknown filter {shorten(which)!r} (all, active, inactive or next)")
        if which == "next" and player is None:
            return _fail("'next' lists the games waiting on a player: name the player")
        if page < 1:
            return _fail("pages are numbered from 1")
        if game_type is not None:
            try:
                game_type = registry.get(game_type).name
            except GameError as exc:
                return _fail(str(exc))
        rows, total = await self.store.list_games(
            player_id=player, which=which, game_type=game_type, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE
        )
        now = self._clock()
        lines = [_game_line(r) + _time_left(r, now) for r in rows]
        kind = "" if which == "all" else f"{which} "
        if game_type is not None:
            kind += f"{registry.get(game_type).title} "
        listed = count(total, f"{kind}game")
        if total == 0:
            message = f"no {kind}games" + ("" if player is None else f" for {player}")
        elif not lines:
            held = f"there {'is' if total == 1 else 'are'} {listed}" if player is None else f"{player} has {listed}"
            return _fail(f"{held}: there is no page {page}")
        else:
            message = listed + ("" if player is None else f" for {player}")
            first = (page - 1) * PAGE_SIZE + 1
            if total > len(lines):
                message += f", {first}-{first + len(lines) - 1} shown"
                left = total - (first + len(lines) - 1)
                if left > 0:
                    message += f"; {left} more (page {page + 1})"
        return Result(ok=True, message=message, items=lines, game_type=game_type)

    async def moves(self, game_id: int, prefix: str = "", limit: int | None = MOVE_LIST_LIMIT) -> Result:
        """The legal moves of the current position whose text starts with ``prefix`` (case-insensitive), at most
        ``limit`` of them (all with ``None``; Discord's autocomplete takes 25), in the game's canonical notation;
        ``message`` gives the full count."""
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        if state.is_over:
            return _fail(f"game {game_id} is over", game_id=game_id, game_type=game.name)
        wanted = prefix.strip().lower()
        every = _legal_texts(state)
        matching = [text for text in every if text.lower().startswith(wanted)]
        shown = matching if limit is None else matching[:limit]
        more = f" (first {len(shown)} shown)" if len(matching) > len(shown) else ""
        seat = state.to_move
        who = state.players[seat] if seat is not None else "nobody"
        return Result(
            ok=True,
            message=f"{count(len(matching), 'legal move')} for {who}{more}",
            game_id=game_id,
            game_type=game.name,
            move_number=state.ply,
            to_move=_player_to_move(state),
            items=shown,
            status=row.status,
            legal_moves=every,
        )

    async def players_of(self, game_id: int) -> list[str]:
        """The seats of a game (empty when there is no such game or it cannot be read)."""
        loaded = await self._load(game_id)
        return [] if isinstance(loaded, Result) else list(loaded[2].players)

    def help(self, game_name: str | None = None) -> Result:
        """Rules summary, options and notation of a game; or the list of games and the options every game takes
        (the clock, takebacks, ratings, open seats), which a newcomer needs before the first challenge."""
        if game_name is None:
            lines = [f"{g.name}: {g.summary}" for g in (registry.get(n) for n in registry.names())]
            lines.append("Options every game takes, at the challenge (druid challenge -days=3 -weekends alice bob):")
            lines += [f"  {line}" for line in describe_options()]
            return Result(ok=True, message="Games: " + ", ".join(registry.names()), items=lines)
        try:
            game = registry.get(game_name)
        except GameError as exc:
            return _fail(str(exc))
        options = [opt.describe() for opt in game.options] + [f"{line} (every game)" for line in describe_options()]
        players = (
            f"{game.min_players} players"
            if game.min_players == game.max_players
            else f"{game.min_players} to {game.max_players} players"
        )
        text = f"**{game.title}** ({players}): {game.summary}\n\n{game.help}\n\n**Moves.** {game.notation}"
        return Result(ok=True, message=text, game_type=game.name, items=options)


def _undone_from(events_json: str) -> int:
    """The first action a logged takeback took back."""
    events = json.loads(events_json)
    return int(events[0].get("data", {}).get("seq", 0)) if events else 0


def _history_moves(game: GameDef, text: str, events_json: str) -> tuple[str, list[str]]:
    """A logged action's text as the history shows it, and the moves the server made inside it
    (:attr:`GameDef.history_moves`; the text alone for most games). Events that do not read as JSON (a damaged
    row) leave the logged text: the history still lists every action."""
    if game.history_moves is None:
        return text, []
    try:
        events = json.loads(events_json)
    except ValueError:
        return text, []
    if not isinstance(events, list):
        return text, []
    return game.history_moves(text, [event for event in events if isinstance(event, dict)])


def _time_left(row: GameSummary, now: float) -> str:
    """How long the player to move has before their deadline, for listings (``, 3d 4h left``)."""
    if row.status != "active" or row.deadline is None:
        return ""
    return f", {format_left(row.deadline - now)} left"
