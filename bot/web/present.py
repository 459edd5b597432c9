"""A game as the web page shows it, built from the same actions every front uses (``show``, ``history``) and worded
by :mod:`bot.turn_text`: the public view (board, whose turn, clocks as seconds the page counts down, the move list,
options, ratings, the result) that every viewer sees and Server-Sent Events push, and what only a player sees
beside it (their legal moves and the game's one-word commands, their queued lines, a proposal to answer).

Nothing here reads or writes a dice seed or a future roll: the public view names the fields it shows one by one.

**Kept views** (:class:`Views`): a view is built once per game version (its log length, deadline and status: every
move, clock pause and ending changes it), position (``?at=n``) and board view, and shared by every viewer, the
pages and the event streams alike; the next move makes it stale. A request reads the game's version first (one
primary-key read, shared by every request that waits for one at the same time: :class:`VersionReader`) so a page is
never older than the request. A view is kept only when its own version (read after its position) is the one read
before the build, so a move committed halfway through a build never hides behind a kept view (one committed later
only makes its move list newer than its version, and the next request reads the new version and builds again).
The newest :data:`VIEWS_KEPT` are kept.
Pages also want a view at most :data:`FRESH_SECONDS` old: its clocks (seconds left, "6d 21h left") and the
players' ratings change without a move. One up to :data:`STALE_SECONDS` old is still served while a fresh one is
built in the background, so nobody waits for a rebuild that only moves the clocks on; an older one is rebuilt
first.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.actions import Actions, Result
from bot.correspondence.clock import Clock
from bot.turn_text import clock_words, headline, match_words, rating_words
from bot.web.boards import TOP, BoardCache, board_of, view_refusal
from bot.web.kept import KeptPage
from data.store import GameRow, NotFoundError, Store, StoreError
from rules import registry
from rules.base import GameError

#: a numbered line of ``history``: "  12. alice (6-5): 13-8,6-5 (Auto)"
_HISTORY_LINE = re.compile(r"^\s*(?P<n>\d+)\. (?P<text>.*)$")
log = logging.getLogger("pbm.web")

#: the most move-list entries a view carries (the newest; the page says how many came before)
HISTORY_SHOWN = 500
#: views kept per process (each holds its board's SVG and the pages made from it: 50 to 250 KB)
VIEWS_KEPT = 128
#: the age in seconds after which a page's view is rebuilt (its clocks and ratings change without a move)
FRESH_SECONDS = 1.0
#: the oldest view (of the game's current version) a page is still made from while a fresh one is built
STALE_SECONDS = 10.0

#: a game's version as the store reads it: (log length, deadline, status)
Version = tuple[int, float | None, str]


@dataclass
class GameView:
    """What every viewer of a game sees (:meth:`public`), the :class:`Result` it comes from, and the game's
    stored facts the page shows beside it."""

    result: Result
    at: int | None
    view: str
    version: str
    options: str
    rules: str
    history: list[dict[str, Any]]
    history_skipped: int
    board: dict[str, str]
    channel_id: int | None
    extra_commands: tuple[str, ...]
    as_of: float = 0.0
    #: the game that followed this one in its Backgammon match (``None``: none, or not yet)
    next_game: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def game_id(self) -> int:
        assert self.result.game_id is not None
        return self.result.game_id

    @property
    def current(self) -> bool:
        """Whether this is the game as it stands (not a past position)."""
        return self.at is None

    def public(self) -> dict[str, Any]:
        """The view as JSON for the page's scripts and the event stream: the same for everyone."""
        return self.data


def version_text(version: tuple[int, float | None, str]) -> str:
    """A game's version (:meth:`data.store.web.WebStore.game_versions`) as the event stream's id: it changes with
    every move, clock pause and ending."""
    log_length, deadline, status = version
    return f"{log_length}-{status}-{'' if deadline is None else int(deadline)}"


def history_entries(items: list[str]) -> list[dict[str, Any]]:
    """The move list as entries: a numbered move (``n``: the position after it) or a note (``n``: ``None``)."""
    out = []
    for line in items:
        found = _HISTORY_LINE.match(line)
        if found:
            out.append({"n": int(found["n"]), "text": found["text"]})
        else:
            out.append({"n": None, "text": line.strip()})
    return out


async def game_view(
    actions: Actions, boards: BoardCache, game_id: int, at: int | None = None, view: str = TOP
) -> GameView | Result:
    """The view of a game (after move ``at``, or as it stands) with its board drawn in ``view``; a refusal
    :class:`Result` for an unknown or unreadable game, a move number it does not have, or a view its boards are
    not drawn in (refused before anything is drawn)."""
    shown = await actions.show(game_id, at)
    if not shown.ok or shown.state is None:
        return shown
    refused = view_refusal(shown.state.game.name, view)
    if refused is not None:
        return Result(ok=False, message=refused, game_id=game_id)
    try:  # read after the position, so the view's version is never older than what it shows (see Views)
        row = await actions.store.load_game(game_id)
    except NotFoundError as exc:
        return Result(ok=False, message=str(exc), game_id=game_id)
    except StoreError as exc:
        return Result(ok=False, message=f"game {game_id} cannot be read: {exc}", game_id=game_id)
    listed = await actions.history(game_id)
    entries = history_entries(listed.items if listed.ok else [])
    skipped = max(0, len(entries) - HISTORY_SHOWN)
    entries = entries[skipped:]
    state = shown.state
    game = state.game
    label = f"{headline(shown)}: the board" + (" in 3D" if view == "3d" else "")
    board = await board_of(boards, state, shown.seat_ratings() or None, label, view)
    version = version_text((row.log_length, row.deadline, row.status))
    rules = Clock.from_json(row.clock).rules.describe() if row.clock is not None else "untimed"
    view = GameView(
        result=shown,
        at=at,
        view=view,
        version=version,
        options=game.format_options(row.options),
        rules=rules,
        history=entries,
        history_skipped=skipped,
        board=board,
        channel_id=row.channel_id,
        extra_commands=tuple(game.extra_commands),
        as_of=actions.store.now(),
        next_game=await next_match_game(actions, row),
    )
    view.data = _public_data(view, row.players)
    return view


async def next_match_game(actions: Actions, row: GameRow) -> int | None:
    """The game that followed ``row``'s in its Backgammon match, where the match goes on (``None``: a game that
    is no match's, still running, or the match's last)."""
    if row.match_id is None or row.match_game is None or row.status == "active":
        return None
    games = await actions.store.match_game_ids(row.match_id)
    return games[row.match_game] if len(games) > row.match_game else None


def _public_data(view: GameView, seats: list[str]) -> dict[str, Any]:
    """The public view's JSON (see :meth:`GameView.public`)."""
    result = view.result
    state = result.state
    assert state is not None
    running = (
        result.to_move if result.clock_notes.get(result.to_move or "") not in (None, "paused (vacation)") else None
    )
    return {
        "game_id": view.game_id,
        "game": state.game.name,
        "title": state.game.title,
        "players": list(state.players),
        "seats": seats,
        "at": view.at,
        "view": view.view,
        "move_number": result.move_number,
        "guard": (result.move_number or 0) + 1 if result.to_move is not None and view.current else None,
        "status": result.status,
        "to_move": result.to_move,
        "winners": result.winners,
        "headline": headline(result),
        "clock": {player: round(seconds) for player, seconds in result.clock.items()},
        "clock_words": clock_words(result),
        "clock_notes": dict(result.clock_notes) if not state.is_over else {},
        "running": running,
        "rated": result.rated,
        "ratings": result.ratings,
        "rating_words": rating_words(result),
        # a Backgammon match's game: the match as --json gives it, and where it stands in words (None, "": none)
        "match": result.match(),
        "match_words": match_words(result),
        "next_game": view.next_game,
        "options": view.options,
        "rules": view.rules,
        "board": view.board,
        "history": view.history,
        "history_skipped": view.history_skipped,
        "version": view.version,
        # when the clocks above were read (the server's time): a page that gets this view later counts from here
        "as_of": view.as_of,
    }


def plays(view: GameView, viewer: str | None) -> bool:
    """Whether ``viewer`` plays in the game and the view is of the game as it stands (their controls show)."""
    state = view.result.state
    return viewer is not None and state is not None and viewer in state.players and view.current


def player_extras(view: GameView, viewer: str | None) -> dict[str, Any]:
    """What the viewer sees beside the public view when they play in the game: whether it is their move, their
    legal moves (the typed ones, and the game's one-word commands apart), and in a match what resigning does."""
    result = view.result
    if not plays(view, viewer):
        return {
            "viewer": viewer,
            "plays": False,
            "my_move": False,
            "legal_moves": [],
            "words": [],
            "resign_question": None,
        }
    mine = result.to_move == viewer and result.status == "active"
    legal = result.legal_move_texts() if mine else []
    words = [m for m in legal if m in view.extra_commands]
    return {
        "viewer": viewer,
        "plays": True,
        "my_move": mine,
        "legal_moves": [m for m in legal if m not in view.extra_commands],
        "words": words,
        # in a match, resigning resigns the match: the page says so beside the button
        "resign_question": result.resign_question(viewer),
    }


def game_title(name: str) -> str:
    """A game's title ("Druid") from its name, or the name itself for a game this pbm does not know."""
    try:
        return registry.get(name).title
    except GameError:
        return name.capitalize()


class VersionReader:
    """Reads games' versions, one query for every request waiting at the same time: a request joins the next
    read to start (never one already running, which may have missed a commit the request has seen), so what it
    gets is at least as new as the request."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._waiting: dict[int, list[asyncio.Future[Version | None]]] = {}
        self._reading: asyncio.Task[None] | None = None
        #: queries made (the benchmark and the tests count them)
        self.reads = 0

    async def read(self, game_id: int) -> Version | None:
        """The game's version (``None``: there is no such game), read after this call began."""
        waiter: asyncio.Future[Version | None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(game_id, []).append(waiter)
        if self._reading is None:
            self._reading = asyncio.create_task(self._read_all())
        return await waiter

    async def _read_all(self) -> None:
        """Answer every waiting request, a batch at a time, until none waits."""
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, {}
                self.reads += 1
                try:
                    found = await self.store.game_versions(list(batch))
                except Exception as exc:
                    for waiters in batch.values():
                        for waiter in waiters:
                            if not waiter.done():
                                waiter.set_exception(exc)
                    continue
                for game_id, waiters in batch.items():
                    for waiter in waiters:
                        if not waiter.done():
                            waiter.set_result(found.get(game_id))
        finally:
            self._reading = None


@dataclass
class Kept:
    """A view built for one version, when (the app's clock), and what is made from it for every viewer alike:
    the pages by viewer kind (see :mod:`bot.web.game`) and the event the live pages get."""

    view: GameView
    built: float
    #: by kind of viewer: (signed in, trusted local play)
    pages: dict[tuple[bool, bool], KeptPage] = field(default_factory=dict)
    event: bytes | None = None


class Views:
    """The kept views of the games being looked at (see the module docstring): by game, position and board
    view, the newest :data:`VIEWS_KEPT`; concurrent requests for a view not built yet share one build."""

    def __init__(
        self, actions: Actions, boards: BoardCache, clock: Callable[[], float], size: int = VIEWS_KEPT
    ) -> None:
        self.actions = actions
        self.boards = boards
        self.clock = clock
        self.size = size
        self.versions = VersionReader(actions.store)
        #: views built (the benchmark and the tests count them)
        self.builds = 0
        self._kept: OrderedDict[tuple[int, int | None, str], Kept] = OrderedDict()
        self._building: dict[tuple[int, int | None, str], tuple[str, asyncio.Future[Kept | Result]]] = {}
        self._refreshing: set[asyncio.Task[Kept | Result]] = set()

    async def get(
        self, game_id: int, at: int | None = None, view: str = TOP, max_age: float | None = FRESH_SECONDS
    ) -> Kept | Result:
        """The view of the game as it stands now (after move ``at``), its board in ``view``: the kept one when it
        is of the game's current version and at most ``max_age`` seconds old (``None``: any age), or at most
        :data:`STALE_SECONDS` old while a fresh one is built in the background; else built now. A refusal
        :class:`Result` as :func:`game_view` gives one."""
        found = await self.versions.read(game_id)
        if found is None:  # no such game: its refusal, worded by the actions
            return await game_view(self.actions, self.boards, game_id, at, view)
        wanted = version_text(found)
        key = (game_id, at, view)
        kept = self._kept.get(key)
        if kept is not None and kept.view.version == wanted:
            age = self.clock() - kept.built
            stale = max_age is not None and age > max_age
            if stale and age <= STALE_SECONDS:
                self._refresh(key, wanted)
            if not stale or age <= STALE_SECONDS:
                self._kept.move_to_end(key)
                return kept
        pending = self._building.get(key)
        if pending is not None and pending[0] == wanted:  # read after a read of our version: as new as we need
            return await asyncio.shield(pending[1])
        return await self._build(key, wanted)

    def _refresh(self, key: tuple[int, int | None, str], wanted: str) -> None:
        """Build a fresh view in the background, unless one is being built."""
        if key in self._building:
            return
        task = asyncio.create_task(self._fill(key, wanted, self._claim(key, wanted)))
        self._refreshing.add(task)
        task.add_done_callback(self._refreshed)

    def _refreshed(self, task: asyncio.Task[Kept | Result]) -> None:
        self._refreshing.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a game's view could not be rebuilt in the background", exc_info=task.exception())

    async def settled(self) -> None:
        """Wait until the views being built in the background are built."""
        while self._refreshing:
            await asyncio.gather(*self._refreshing, return_exceptions=True)

    def __len__(self) -> int:
        """How many views are kept."""
        return len(self._kept)

    async def _build(self, key: tuple[int, int | None, str], wanted: str) -> Kept | Result:
        """Build a view others may wait for (see :meth:`_fill`)."""
        return await self._fill(key, wanted, self._claim(key, wanted))

    def _claim(self, key: tuple[int, int | None, str], wanted: str) -> asyncio.Future[Kept | Result]:
        """Say a view of ``wanted`` is being built for ``key``: what the requests that come meanwhile wait for
        (claimed at once, so a build is never started twice)."""
        future: asyncio.Future[Kept | Result] = asyncio.get_running_loop().create_future()
        self._building[key] = (wanted, future)
        return future

    async def _fill(
        self, key: tuple[int, int | None, str], wanted: str, future: asyncio.Future[Kept | Result]
    ) -> Kept | Result:
        """Build the view claimed by ``future``; keep it only if its own version is ``wanted``, the one read
        before the build (see the module docstring)."""
        try:
            game_id, at, board = key
            self.builds += 1
            made = await game_view(self.actions, self.boards, game_id, at, board)
            answer: Kept | Result = made if isinstance(made, Result) else Kept(made, self.clock())
            if isinstance(answer, Kept) and answer.view.version == wanted:
                self._keep(key, answer)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a build nobody else waited for must not warn
            raise
        finally:
            if self._building.get(key, (None, None))[1] is future:
                del self._building[key]
        future.set_result(answer)
        return answer

    def _keep(self, key: tuple[int, int | None, str], kept: Kept) -> None:
        self._kept[key] = kept
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
