"""REST routes of an interaction's answers: the initial response (the callback) and the interaction webhook's
followups and original-response fetch, edit and delete.

Reproduced from Discord: the callback answers ``?with_response=1`` with the created message so views bind to its
id; the first followup after a deferred ("thinking") reply replaces that reply and pings nobody; ``@original`` of
a component interaction answered by updating its message is that message. Refused: a response type that does not
fit the interaction (400/50035 at ``type``), a second initial response (400/40060), a deferred reply flagged
anything but ephemeral, an interaction not answered within the deadline (3 s: 404/10062), and followups and edits
of the original response once the interaction is 15 minutes old on the fake's clock (401/50027).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tests.fakediscord import payloads as p
from tests.fakediscord.limits import ApiError, check_choices, check_message
from tests.fakediscord.records import Attachment, Interaction, Message
from tests.fakediscord.replies import json_response
from tests.fakediscord.routes.messages import MessageRoutes

#: seconds an interaction token serves followups and edits of the original response
TOKEN_LIFETIME = 15 * 60
#: the callback types Discord accepts for each interaction type (a modal submit from a button may also update
#: that button's message): 4 message, 5 deferred message, 6 deferred update, 7 update, 8 autocomplete choices,
#: 9 modal, 12 launch activity
_CALLBACKS = {2: (4, 5, 9, 12), 3: (4, 5, 6, 7, 9, 12), 4: (8,), 5: (4, 5)}
_MODAL_FROM_COMPONENT = (4, 5, 6, 7)


class WebhookRoutes(MessageRoutes):
    """The interaction callback and webhook routes (see the module)."""

    def _interaction_by_token(self, token: str) -> Interaction:
        """The interaction a webhook route names; after :data:`TOKEN_LIFETIME` its token is refused, as Discord
        refuses followups and edits of the original response 15 minutes after the interaction."""
        record = self._by_token.get(token)
        if record is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        if self._now() - record.sent_at > TOKEN_LIFETIME:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return record

    async def _callback(self, request: web.Request) -> web.Response:
        record = self.interactions.get(int(request.match_info["interaction_id"]))
        if record is None or record.token != request.match_info["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        body, files = await self._read_body(request)
        if record.callbacks:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if self._now() - record.sent_at > self.interaction_deadline:
            raise ApiError(404, 10062, "Unknown interaction")
        self._check_callback(record, body)
        record.callbacks.append(body)
        record.acked_at = self._now()
        resource = await self._apply_callback(record, body.get("type"), body.get("data") or {}, files)
        answer: dict[str, Any] = {"interaction": {"id": str(record.id), "type": record.type}, "resource": resource}
        message = resource.get("message")
        if message is not None:
            flags = int(message.get("flags") or 0)
            answer["interaction"].update(
                response_message_id=message["id"],
                response_message_loading=bool(flags & p.LOADING),
                response_message_ephemeral=bool(flags & p.EPHEMERAL),
            )
        await self._notify()
        return json_response(answer)

    @staticmethod
    def _check_callback(record: Interaction, body: dict[str, Any]) -> None:
        """Refuse a response type that does not fit the interaction (an autocomplete answer to a command, an
        update of a message a command does not have, a modal answering a modal), and a deferred reply flagged
        anything but ephemeral (a layout message comes with the edit of the original response)."""
        kind = body.get("type")
        allowed = _CALLBACKS.get(record.type, ())
        if record.type == 5 and record.clicked_id is not None:
            allowed = _MODAL_FROM_COMPONENT
        if kind not in allowed:
            choices = "{" + ", ".join(str(a) for a in allowed) + "}"
            error = {"_errors": [{"code": "BASE_TYPE_CHOICES", "message": f"Value must be one of {choices}."}]}
            raise ApiError(400, 50035, "Invalid Form Body", {"type": error})
        flags = int((body.get("data") or {}).get("flags") or 0)
        if kind == 5 and flags & ~p.EPHEMERAL:
            error = {"_errors": [{"code": "MESSAGE_FLAGS_INVALID", "message": "Only EPHEMERAL may be set."}]}
            raise ApiError(400, 50035, "Invalid Form Body", {"data": {"flags": error}})

    async def _apply_callback(
        self, record: Interaction, kind: int | None, data: dict[str, Any], files: list[Attachment]
    ) -> dict[str, Any]:
        if kind == 4:
            check_message(data, [f.filename for f in files], prefix=["data"])
        if kind in (4, 5):
            if kind == 5:
                data = {"flags": p.LOADING | (int(data.get("flags") or 0) & p.EPHEMERAL)}
            message = self._store_message(record.channel_id, data, files, record=record, pings=kind == 4)
            record.original_id = message.id
            return {"type": kind, "message": message.payload}
        if kind == 7:
            target = self._clicked_message(record)
            check_message(data, [f.filename for f in files], prefix=["data"], current=target.payload)
            self._edit(target, data, files)
            return {"type": 7, "message": target.payload}
        if kind == 8:
            check_choices(list(data.get("choices") or []))
            record.choices = list(data.get("choices") or [])
        if kind in (6, 8, 9, 12):
            return {"type": kind}
        raise ApiError(400, 50035, f"Invalid Form Body: unknown interaction callback type {kind}")

    def _clicked_message(self, record: Interaction) -> Message:
        message = self.messages.get(record.clicked_id) if record.clicked_id is not None else None
        if message is None or message.deleted:
            raise ApiError(400, 50035, "Invalid Form Body: this interaction has no message to update")
        return message

    async def _post_followup(self, request: web.Request) -> web.Response:
        record = self._interaction_by_token(request.match_info["token"])
        if not record.callbacks:
            raise ApiError(404, 10015, "Unknown Webhook")
        body, files = await self._read_body(request)
        check_message(body, [f.filename for f in files])
        original = self.messages.get(record.original_id) if record.original_id else None
        if original is not None and original.loading and not original.deleted:
            self._edit(original, body, files)
        else:
            original = self._store_message(record.channel_id, body, files, record=record, pings=True)
        await self._notify()
        return json_response(original.payload)

    def _webhook_message(self, request: web.Request) -> Message:
        """The message a webhook route names: one the interaction produced, or (``@original`` of a component
        interaction answered by updating its message, types 6 and 7) the message whose component was used."""
        record = self._interaction_by_token(request.match_info["token"])
        raw = request.match_info["message_id"]
        if raw == "@original" and record.original_id is None and record.response_type in (6, 7):
            message = self.messages.get(record.clicked_id) if record.clicked_id is not None else None
            if message is None or message.deleted:
                raise ApiError(404, 10008, "Unknown Message")
            return message
        mid = record.original_id if raw == "@original" else int(raw)
        message = self.messages.get(mid) if mid is not None else None
        if message is None or message.deleted or message not in record.messages:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        return json_response(self._webhook_message(request).payload)

    async def _patch_webhook_message(self, request: web.Request) -> web.Response:
        message = self._webhook_message(request)
        body, files = await self._read_body(request)
        check_message(body, [f.filename for f in files], current=message.payload)
        self._edit(message, body, files)
        await self._notify()
        return json_response(message.payload)

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        self._webhook_message(request).deleted = True
        await self._notify()
        return web.Response(status=204)
