"""Takebacks and draws by agreement (pbmserv's ``propose``): one player proposes, every other player still in
the game must accept. Silence never changes a game: a proposal not accepted within the game's move time (a week
for untimed games) counts as rejected, unlike pbmserv where silence accepted. A proposal holds only for the
position it was made in: the commit that moves the game on voids it (see :func:`data.store.core._close_proposals`),
so a refusal never needs to write.

A takeback removes the last action made by a player (and the server's moves after it) from the live game; the
log keeps it, followed by an ``undo`` entry, and the history shows it taken back. Backgammon's play is taken
back with the dice already rolled (the generator is not rewound), and its dice and cube actions are final.
"""

from __future__ import annotations

from bot.actions.base import ActionsBase, one_transaction
from bot.actions.common import Result, _fail, _is_computer_name, replay_steps, shorten, start_of, taken_back
from bot.correspondence.clock import Clock
from bot.correspondence.periods import DAY
from bot.text import count
from data.store import DamagedRowError, LogEntry, LogRow, StaleWriteError
from rules.base import Event, GameError, GameState

KINDS = ("undo", "draw")


class ProposalActions(ActionsBase):
    @one_transaction
    async def propose(self, game_id: int, player: str, kind: str) -> Result:
        """``player`` proposes to take back the last move (``undo``) or to draw (``draw``)."""
        kind = kind.lower()
        if kind not in KINDS:
            return _fail(f"one can propose undo or draw, not {shorten(kind)!r}", game_id=game_id)
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        fields = {"game_id": game_id, "game_type": game.name}
        if row.status != "active":
            return _fail(f"game {game_id} is over", **fields)
        if player not in state.players or state.seat_of(player) in state.resigned:
            return _fail(f"{shorten(player)} is not playing in game {game_id}", **fields)
        clock = Clock.from_json(row.clock)
        if kind == "undo":
            if clock.rules.noundo:
                return _fail(f"game {game_id} was started with -noundo: moves cannot be taken back", **fields)
            target = _undo_target(await self.store.log(game_id), game.final_commands)
            if isinstance(target, str):
                return _fail(target, **fields)
            what = f"take back move {target.number} ({target.player_id}: {target.text})"
        else:
            if not game.draws:
                return _fail(f"{game.title} has no draws", **fields)
            what = "agree to a draw"
        others = [p for seat, p in enumerate(state.players) if p != player and seat not in state.resigned]
        days = clock.rules.days if clock.timed else 7
        try:
            proposal_id = await self.store.create_proposal(
                game_id, kind, player, row.log_length, expires_at=self._clock() + days * DAY
            )
        except StaleWriteError:
            return _fail(f"game {game_id} already has an open proposal: answer it first", **fields)
        result = Result(
            ok=True,
            message=f"{player} proposes to {what} in game {game_id} (proposal {proposal_id}); "
            f"{', '.join(others)}: accept or reject within {count(days, 'day')} (no answer counts as a rejection)",
            notify=[p for p in others if not _is_computer_name(p)],
            players=list(state.players),
            challenge_id=proposal_id,
            status="open",
            **fields,
        )
        computers = [p for p in others if _is_computer_name(p)]
        for computer in computers:  # computer players agree to take a move back, and decline draws
            answered = await self.answer(game_id, computer, accept=kind == "undo")
            result.message += "\n" + answered.message
            if answered.ok and answered.status != "open":  # settled: carried out, or rejected
                result.state, result.status, result.notify = answered.state, answered.status, answered.notify
                result.to_move, result.move_number = answered.to_move, answered.move_number
                break
        return result

    @one_transaction
    async def answer(self, game_id: int, player: str, *, accept: bool) -> Result:
        """``player`` accepts or rejects the open proposal of a game; when the last one needed accepts, it is
        carried out through the same guarded commit as a move. A refusal changes nothing."""
        proposal = await self.store.last_proposal(game_id)
        if proposal is None or proposal.status not in ("open", "void"):
            return _fail(f"game {game_id} has no open proposal", game_id=game_id)
        loaded = await self._load(game_id)
        if isinstance(loaded, Result):
            return loaded
        row, game, state = loaded
        fields = {"game_id": game_id, "game_type": game.name, "challenge_id": proposal.id}
        if player not in state.players:
            return _fail(f"{shorten(player)} is not playing in game {game_id}", **fields)
        if proposal.status == "void" or row.log_length != proposal.log_length or row.status != "active":
            return _fail(f"proposal {proposal.id} no longer holds: game {game_id} has moved on", **fields)
        if proposal.expires_at is not None and proposal.expires_at <= self._clock():
            return _fail(f"proposal {proposal.id} was not answered in time: it counts as rejected", **fields)
        if player in proposal.accepted:
            who = "made" if player == proposal.proposer else "accepted"
            return _fail(f"you have already {who} proposal {proposal.id}", **fields)
        if not accept:
            if not await self._settle(proposal.id, "rejected"):
                return _fail(f"proposal {proposal.id} has just been settled", **fields)
            return Result(
                ok=True,
                message=f"{player} rejected {proposal.proposer}'s {_named(proposal.kind)} in game {game_id}",
                notify=[proposal.proposer],
                status="rejected",
                **fields,
            )
        accepted = [*proposal.accepted, player]
        needed = [p for seat, p in enumerate(state.players) if seat not in state.resigned and p not in accepted]
        if needed:
            try:
                await self.store.update_proposal(proposal.id, accepted=accepted)
            except StaleWriteError:
                return _fail(f"proposal {proposal.id} has just been settled", **fields)
            return Result(
                ok=True,
                message=f"{player} accepted {proposal.proposer}'s {_named(proposal.kind)} in game {game_id}; "
                f"waiting for {', '.join(needed)}",
                status="open",
                **fields,
            )
        outcome = await (
            self._take_back(row, game, state, proposal.proposer, proposal.id)
            if proposal.kind == "undo"
            else self._agree_draw(row, game, state, player, proposal.id)
        )
        if not outcome.ok:
            return outcome
        outcome.challenge_id = proposal.id
        return await self._after_action(outcome)

    async def _settle(self, proposal_id: int, status: str) -> bool:
        try:
            await self.store.update_proposal(proposal_id, status=status)
        except StaleWriteError:
            return False
        return True

    async def expire_proposal(self, proposal_id: int) -> Result | None:
        """A proposal's time is up unanswered: it counts as rejected. ``None`` when it was already settled."""
        try:
            proposal = await self.store.load_proposal(proposal_id)
        except (DamagedRowError, GameError, LookupError):
            return None
        if proposal.status != "open" or not await self._settle(proposal_id, "expired"):
            return None
        return Result(
            ok=True,
            message=f"{proposal.proposer}'s {_named(proposal.kind)} in game {proposal.game_id} was not answered in "
            "time: it counts as rejected",
            game_id=proposal.game_id,
            challenge_id=proposal.id,
            notify=[proposal.proposer],
            status="expired",
        )

    async def _take_back(self, row, game, state: GameState, proposer: str, proposal_id: int) -> Result:
        log = await self.store.log(row.id)
        target = _undo_target(log, game.final_commands)
        if isinstance(target, str):
            return _fail(target, game_id=row.id, game_type=game.name)
        earlier: GameState | None = None
        replaying = start_of(game, row)
        for entry, now_state in replay_steps(replaying, log):
            if entry.seq == target.seq - 1:
                earlier = now_state.clone()
        if earlier is None:  # the target is the first action: back to the start
            earlier = start_of(game, row)
        earlier.adopt_dice(state)
        text = f"move {target.number} ({target.player_id}: {target.text}) was taken back"
        event = Event("undo", text, None, {"seq": target.seq})
        entries = [LogEntry(earlier.ply, proposer, "undo", [event.to_json()])]
        error = await self._commit(
            row.id,
            row.log_length,
            entries,
            earlier,
            len(row.memory),
            before=row,
            memory_reset=True,
            refill=True,
            proposal=proposal_id,
        )
        if error is not None:
            return error
        await self.store.replace_queued_lines(row.id, None)
        return self._game_result(game, row.id, earlier, text, [event], actor=None)

    async def _agree_draw(self, row, game, state: GameState, player: str, proposal_id: int) -> Result:
        events = state.agree_draw()
        entries = [LogEntry(state.ply, player, "draw", [e.to_json() for e in events])]
        error = await self._commit(
            row.id, row.log_length, entries, state, len(row.memory), before=row, proposal=proposal_id
        )
        if error is not None:
            return error
        return self._game_result(game, row.id, state, "the players agreed to a draw", events, actor=None)


def _undo_target(log: list[LogRow], final: tuple[str, ...]) -> LogRow | str:
    """The action a takeback removes: the last one a player made (the server's moves after it go with it), or
    why there is none to take back."""
    undone = taken_back(log)
    for entry in reversed(log):
        if entry.seq in undone or entry.auto:
            continue
        if entry.text in final:
            return f"the last action ({entry.player_id}: {entry.text}) cannot be taken back"
        if entry.text in ("resign", "decline", "timeout", "draw"):
            return f"the last action ({entry.player_id}: {entry.text}) cannot be taken back"
        return entry
    return "no move has been made yet"


def _named(kind: str) -> str:
    return "takeback proposal" if kind == "undo" else "draw proposal"
