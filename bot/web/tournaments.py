"""The tournaments on the web, for anyone to read: ``/t`` lists those signing up or running, ``/t/<id>`` shows one
(what it plays, its players during the signup; once started its standings with the tie-breaks, who withdrew, and
the current round's boards, each linked to its game). Everything comes from :mod:`bot.actions.tournaments`."""

from __future__ import annotations

from aiohttp import web

from bot.actions import InputError, parse_number
from bot.web.app import context, page, refusal, sentence


def add_routes(app: web.Application) -> None:
    app.router.add_get("/t", listing)
    app.router.add_get("/t/{number}", standings)


async def listing(request: web.Request) -> web.Response:
    """``/t``: the tournaments signing up or running, newest first, each linked to its page."""
    result = await context(request).actions.tournaments()
    items = result.data.get("tournaments", [])
    said = sentence(result.message)
    return page(request, "tournaments.html", title="Tournaments", said=said[:1].upper() + said[1:], items=items)


async def standings(request: web.Request) -> web.Response:
    """``/t/<id>``: one tournament as it stands."""
    try:
        number = parse_number(request.match_info["number"], "tournament number")
    except InputError as exc:
        return refusal(request, sentence(str(exc)), 404)
    result = await context(request).actions.tournament_standings(number)
    if not result.ok:
        return refusal(request, sentence(result.message), 404)
    data = result.data
    facts = data["tournament"]
    heading, _, said = result.message.partition(": ")
    return page(
        request,
        "tournament.html",
        title=f"Tournament {facts['id']}",
        heading=heading,
        said=said,
        facts=facts,
        columns=data["columns"],
        rows=data["rows"],
        boards=[board for board in data["round"] if facts["status"] == "running"],
        entrants=result.items if not data["rows"] else [],
    )
