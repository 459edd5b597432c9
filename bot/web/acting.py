"""Acting on the web: the same actions as Discord's and the console's, for the signed-in player only.

Every handler here is a POST that passed the rate limits, the Origin check and the CSRF token (see
:mod:`bot.web.app`). The player is the session's, never a field of the form (trusted local play signs in by name
first, see :mod:`bot.web.signin`). A move always carries pbmserv's ``#n`` guard: the move number the page showed,
so a board that moved on meanwhile refuses it in one line. A refusal changes nothing and is answered in one
sentence: the game page with the line on it, or JSON for the page's script. A success goes back to the page
(``303``), or answers JSON.

A move in a game that lives in a Discord thread is committed with the nonce of its board post (the commit marks
the board as still to be posted, as the bot's own moves do): when the bot runs in this process the announcer posts
it at once, and otherwise the bot's sweep, in whichever process, posts it shortly after (see
:mod:`bot.discord.front`). Resignations and answers to proposals mark their board the same way after their commit.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from typing import Any

from aiohttp import web

from bot.actions import MAX_MOVE_TEXT, Result
from bot.web.app import context, page, refusal, sentence, viewer_of, wants_json
from bot.web.boards import position_key, preview_board
from bot.web.forms import read_challenge
from bot.web.game import Refused, game_id_of, game_page, load_view
from bot.web.pages import lobby
from bot.web.taps import MAX_TAPS, TapError

log = logging.getLogger("pbm.web")


def add_routes(app: web.Application) -> None:
    game = r"/g/{id:\d+}"
    app.router.add_get(game + "/taps", taps)
    app.router.add_post(game + "/preview", preview)
    app.router.add_post(game + "/move", move)
    app.router.add_post(game + "/resign", resign)
    app.router.add_post(game + "/propose", propose)
    app.router.add_post(game + "/answer", answer)
    app.router.add_post(game + "/queue", queue)
    app.router.add_post("/challenges", challenge)
    app.router.add_post(r"/challenges/{cid:\d+}/{what:join|accept|decline|withdraw}", answer_challenge)
    app.router.add_get("/settings", settings_page)
    app.router.add_post("/settings/vacation", vacation)
    app.router.add_post("/settings/notify", notify)


def new_nonce() -> str:
    """The nonce of a board post (the Discord front's form: 20 hex characters)."""
    return secrets.token_hex(10)


async def form_of(request: web.Request) -> Mapping[str, str]:
    """The POST's fields as text (a JSON body from the page's script, or a form)."""
    if request.content_type == "application/json":
        try:
            body = await request.json()
        except ValueError:
            raise Refused("The request could not be read.") from None
        if not isinstance(body, dict):
            raise Refused("The request could not be read.")
        return {str(k): str(v) for k, v in body.items() if isinstance(v, str | int)}
    return {k: v for k, v in (await request.post()).items() if isinstance(v, str)}


def signed_in(request: web.Request) -> str:
    """The player acting (:class:`Refused` when nobody is signed in)."""
    player = viewer_of(request).player
    if player is None:
        raise Refused("Sign in to play: use a sign-in link, or sign in with Discord.", 401)
    return player


async def answered(request: web.Request, result: Result, *, status: int | None = None, **shown: Any) -> web.Response:
    """How an action is answered: JSON for the script; else back to the game page (a refusal on it)."""
    if wants_json(request):
        code = 200 if result.ok else status or 400
        return web.json_response({"ok": result.ok, "message": result.message, **shown}, status=code)
    if result.ok:  # a game of a match that ended: the match goes on in its next game, shown at once
        shown_game = result.game_id if result.finished_game is not None else game_id_of(request)
        raise web.HTTPSeeOther(f"/g/{shown_game}")
    return await game_page(request, error=sentence(result.message.splitlines()[0]), status=status or 400)


async def _refused(request: web.Request, exc: Refused) -> web.Response:
    if wants_json(request) or exc.status == 404:
        return refusal(request, str(exc), exc.status)
    return await game_page(request, error=str(exc), status=exc.status)


async def _player_of_game(request: web.Request) -> tuple[str, Any]:
    """The signed-in player and the game's view; :class:`Refused` when they do not play in it."""
    player = signed_in(request)
    view = await load_view(request)
    state = view.result.state
    assert state is not None
    if player not in state.players:
        raise Refused(f"You ({player}) do not play in game {view.game_id}: only its players act in it.", 403)
    return player, view


def _guarded(form: Mapping[str, str]) -> str:
    """The move with its ``#n`` guard: as typed when it has one, else the page's ``guard`` field; a move without
    either is refused (the page always sends it)."""
    text = form.get("move", "").strip()
    if not text:
        raise Refused("Type a move first.")
    if len(text) > MAX_MOVE_TEXT:
        raise Refused(f"A move is at most {MAX_MOVE_TEXT} characters.")
    if "#" in text:
        return text
    guard = form.get("guard", "").strip()
    if not guard.isascii() or not guard.isdigit():
        raise Refused("The move must say which move number it was made on (#n); reload the page and try again.")
    return f"{text}#{guard}"


async def _announce_turn(request: web.Request, result: Result, nonce: str | None) -> None:
    """Tell the Discord front of a new position of a game that lives in a thread: post it now when the bot runs
    here, else leave the mark its sweep posts from (the commit's, or one made now)."""
    ctx = context(request)
    if result.game_id is None or result.state is None:
        return
    row = await ctx.store.load_game(result.game_id)
    if row.channel_id is None:
        return
    if ctx.announcer is None:
        if nonce is None:
            await ctx.store.mark_unposted(result.game_id, new_nonce())
        return
    try:
        await ctx.announcer.turn(result, nonce)
    except Exception:  # the mark stays: the sweep posts it
        log.exception("game %s: the web move could not be posted in Discord now", result.game_id)


async def taps(request: web.Request) -> web.Response:
    """``/g/<id>/taps?tap=cell:c3&tap=...&guard=n``: where the taps so far stand, for the player to move (JSON):
    the places to light next, the complete move they make (if they do) and its notation so far. Nothing is
    played: the page previews the move, then plays it with its ``#n``."""
    ctx = context(request)
    try:
        player = signed_in(request)
        tapped = request.query.getall("tap", [])
        if len(tapped) > MAX_TAPS or any(len(tap) > 40 for tap in tapped):
            raise Refused(f"A move is at most {MAX_TAPS} taps; start again.")
        game_id = game_id_of(request)
        shown = await ctx.actions.show(game_id)
        state = shown.state
        if not shown.ok or state is None:
            raise Refused(sentence(shown.message), 404)
        if player not in state.players:
            raise Refused(f"You ({player}) do not play in game {game_id}: only its players act in it.", 403)
        if shown.to_move != player or shown.status != "active":
            raise Refused(f"It is not your move in game {game_id}.", 409)
        guard = str((shown.move_number or 0) + 1)
        if request.query.get("guard", guard) != guard:
            raise Refused("The board has changed since this page showed it: reload the page to see it.", 409)
        found = ctx.taps.tapper(position_key(state), state).answer(tapped)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    except TapError as exc:
        return refusal(request, str(exc), 400)
    return web.json_response({"ok": True, "guard": guard, **found.to_json()}, headers={"Cache-Control": "no-store"})


async def preview(request: web.Request) -> web.Response:
    """The position after a move, not played, shown only to the player who asked, with "Play" (the move with
    the ``#n`` of the position it was previewed on) and "Cancel"."""
    ctx = context(request)
    try:
        player, view = await _player_of_game(request)
        text = _guarded(await form_of(request))
    except Refused as exc:
        return await _refused(request, exc)
    result = await ctx.actions.preview(view.game_id, player, text)
    if not result.ok or result.state is None:
        return await answered(request, result)
    label = f"preview of move {result.move_number} in game {view.game_id}: the board"
    board = await preview_board(ctx.boards, result.state, label)
    said = [line for line in result.message.splitlines() if not line.startswith("to play it:")]
    shown = {"preview": {"move": result.played, "lines": said, "board": board}}
    if wants_json(request):
        return web.json_response({"ok": True, "message": said[0], **shown})
    return await game_page(request, **shown)


async def move(request: web.Request) -> web.Response:
    """A move (or one of the game's words: roll, double, pass ...), with its ``#n`` guard."""
    ctx = context(request)
    try:
        player, view = await _player_of_game(request)
        text = _guarded(await form_of(request))
    except Refused as exc:
        return await _refused(request, exc)
    nonce = new_nonce() if view.channel_id is not None else None
    result = await ctx.actions.move(view.game_id, player, text, will_post=nonce)
    if result.ok:
        await _announce_turn(request, result, nonce)
    stale = "#" in result.message and "board has changed" in result.message
    return await answered(request, result, status=409 if stale or "changed while" in result.message else 400)


async def resign(request: web.Request) -> web.Response:
    """Resign (in the first round: decline to play), guarded by the page's move number."""
    ctx = context(request)
    try:
        player, view = await _player_of_game(request)
        form = await form_of(request)
    except Refused as exc:
        return await _refused(request, exc)
    guard = form.get("guard", "")
    expected = int(guard) if guard.isascii() and guard.isdigit() and len(guard) < 10 else None
    result = await ctx.actions.resign(view.game_id, player, expected)
    if result.ok:
        await _announce_turn(request, result, None)
    return await answered(request, result, status=409 if "board has changed" in result.message else 400)


async def propose(request: web.Request) -> web.Response:
    """Propose a takeback (``undo``) or a draw; the other players see it on the page (and in the game's Discord
    thread when the bot runs here)."""
    ctx = context(request)
    try:
        player, view = await _player_of_game(request)
        form = await form_of(request)
    except Refused as exc:
        return await _refused(request, exc)
    result = await ctx.actions.propose(view.game_id, player, form.get("what", ""))
    if result.ok and view.channel_id is not None and ctx.announcer is not None:
        try:
            await ctx.announcer.notice(view.game_id, result.message, result.notify)
        except Exception:
            log.exception("game %s: the proposal could not be told in Discord", view.game_id)
    if result.ok and result.state is not None:  # computer players settled it at once
        await _announce_turn(request, result, None)
    return await answered(request, result)


async def answer(request: web.Request) -> web.Response:
    """Accept or reject the game's open proposal."""
    ctx = context(request)
    try:
        player, view = await _player_of_game(request)
        form = await form_of(request)
    except Refused as exc:
        return await _refused(request, exc)
    choice = form.get("answer", "")
    if choice not in ("accept", "reject"):
        return await _refused(request, Refused("Answer a proposal with accept or reject."))
    result = await ctx.actions.answer(view.game_id, player, accept=choice == "accept")
    if result.ok and result.state is not None:
        await _announce_turn(request, result, None)
    return await answered(request, result)


async def queue(request: web.Request) -> web.Response:
    """Queue a line of conditional moves (``d4 e5 d6 e7``), or clear them; only their owner sees them."""
    ctx = context(request)
    try:
        player, view = await _player_of_game(request)
        form = await form_of(request)
    except Refused as exc:
        return await _refused(request, exc)
    line = "clear" if form.get("clear") else form.get("line", "").strip()
    if not line:
        return await _refused(request, Refused("Type a line of moves to queue, like d4 e5."))
    result = await ctx.actions.queue(view.game_id, player, line)
    return await answered(request, result)


async def challenge(request: web.Request) -> web.Response:
    """The new challenge form: checked field by field (mistakes shown beside their fields), then the same
    challenge as Discord's: named players accept it, open seats are taken by anyone; computer players accept at
    once."""
    ctx = context(request)
    try:
        player = signed_in(request)
        form = await form_of(request)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    read = read_challenge(form, player)
    if not read.ok:
        if wants_json(request):
            return web.json_response({"ok": False, "message": next(iter(read.errors.values())), "errors": read.errors})
        return await lobby(request, read, status=400)
    players = [player, *read.opponents]
    result = await ctx.actions.challenge(read.game, players, read.words, open_seats=read.open_seats)
    if not result.ok or result.challenge_id is None:
        read.errors["form"] = sentence(result.message)
        return await lobby(request, read, status=400)
    for computer in [p for p in read.opponents if p.lower().startswith("ai:")]:
        accepted = await ctx.actions.accept(result.challenge_id, computer)
        if accepted.ok and accepted.game_id is not None:
            return _went(request, accepted, f"/g/{accepted.game_id}")
    return _went(request, result, "/")


def _went(request: web.Request, result: Result, where: str) -> web.Response:
    if wants_json(request):
        return web.json_response({"ok": True, "message": result.message, "game_id": result.game_id, "go": where})
    raise web.HTTPSeeOther(where)


async def answer_challenge(request: web.Request) -> web.Response:
    """Join (an open seat), accept, decline or withdraw a challenge; a game that starts opens its page."""
    ctx = context(request)
    try:
        player = signed_in(request)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    raw = request.match_info["cid"]
    if len(raw) > 18:
        return refusal(request, "There is no such challenge.", 404)
    challenge_id, what = int(raw), request.match_info["what"]
    if what in ("join", "accept"):
        result = await ctx.actions.accept(challenge_id, player)
    elif what == "decline":
        result = await ctx.actions.decline(challenge_id, player)
    else:
        result = await ctx.actions.cancel(challenge_id, player)
    if not result.ok:
        return refusal(request, sentence(result.message), 404 if "no challenge" in result.message else 409)
    return _went(request, result, f"/g/{result.game_id}" if result.game_id is not None else "/")


async def settings_page(request: web.Request, *, said: str = "", error: str = "", status: int = 200) -> web.Response:
    """``/settings``: the signed-in player's vacation and notification settings."""
    ctx = context(request)
    try:
        player = signed_in(request)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    bank = await ctx.actions.vacation(player)
    current = await ctx.actions.notify_settings(player)
    return page(
        request,
        "settings.html",
        status=status,
        title="Your settings",
        player=player,
        vacation=sentence(bank.message),
        notify=sentence(current.message),
        said=said,
        error=error,
        dm=await ctx.actions.dm_setting(player) or "off",
        confirm="on" if await ctx.actions.wants_preview(player) else "off",
    )


async def vacation(request: web.Request) -> web.Response:
    """Vacation on or off: the clocks of the player's timed games stand still while the bank lasts."""
    ctx = context(request)
    try:
        player = signed_in(request)
        form = await form_of(request)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    switch = form.get("switch", "")
    if switch not in ("on", "off"):
        return await settings_page(request, error="Choose on or off.", status=400)
    result = await ctx.actions.vacation(player, switch)
    if result.ok and result.notices and ctx.announcer is not None:
        try:
            await ctx.announcer.notices(result.notices)
        except Exception:
            log.exception("the vacation notices of %s could not be told in Discord", player)
    if not result.ok:
        return await settings_page(request, error=sentence(result.message), status=400)
    return await settings_page(request, said=sentence(result.message))


async def notify(request: web.Request) -> web.Response:
    """Quiet hours, time zone, preview before each move (Discord's), DMs about turns."""
    ctx = context(request)
    try:
        player = signed_in(request)
        form = await form_of(request)
    except Refused as exc:
        return refusal(request, str(exc), exc.status)
    quiet = form.get("quiet", "").strip() or None
    tz = form.get("tz", "").strip() or None
    confirm = form.get("confirm") or None
    dm = form.get("dm") or None
    if dm is not None and dm not in ("on", "off"):
        return await settings_page(request, error="DMs are on or off.", status=400)
    if any(value is not None and len(value) > 64 for value in (quiet, tz, confirm)):
        return await settings_page(request, error="A setting is at most 64 characters.", status=400)
    result = await ctx.actions.notify_settings(player, quiet=quiet, tz=tz, confirm=confirm)
    if not result.ok:
        return await settings_page(request, error=sentence(result.message), status=400)
    if dm is not None:
        await ctx.actions.set_dm_setting(player, dm)
    return await settings_page(request, said="Saved.")
