"""The chat resource: a stateful chat with one Mind or several, its turns, and deleting it (``/chats``,
``/chats/{id}/messages``, ``DELETE /chats/{id}``).

Must not touch: Slack, the store.
"""

from __future__ import annotations

from collections.abc import Sequence

from minds_bot.minds.errors import MalformedResponse
from minds_bot.minds.models import ChatCreated, ChatReply
from minds_bot.minds.models.chat import ChatMultiReply
from minds_bot.minds.transport import Transport, _data, _drop_none, _json, _parse, _seg


class ChatApi(Transport):
    """``/chats``: never repeated on failure (no idempotency key exists for them)."""

    async def create_chat(
        self, *, mind_id: str | None = None, mind_ids: Sequence[str] = (), name: str | None = None
    ) -> ChatCreated:
        """``POST /chats`` for a chat whose history Minds keeps: with one Mind (``mind_id``) or several
        (``mind_ids``, a multi-Mind chat). Not repeated on failure (no key). The reply must name every Mind asked."""
        several = list(mind_ids) if len(mind_ids) > 1 else None
        one = mind_id or (mind_ids[0] if len(mind_ids) == 1 else None)
        body = _drop_none({"mindId": None if several else one, "mindIds": several, "name": name})
        resp, info = await self._call("POST", "/chats", json_body=body)
        chat = _parse(ChatCreated, _data(resp, info), info)
        if several and {m.id for m in chat.minds} != set(several):
            raise MalformedResponse("the chat created does not hold the Minds asked for", request=info)  # verbatim
        return chat

    async def send_chat_message(
        self, chat_id: str, *, content: str, end_user_name: str | None = None
    ) -> ChatReply | ChatMultiReply:
        """One turn in a stateful chat: only the new message is sent. A one-Mind chat answers ``content``; a
        multi-Mind chat ``messages``, each attributed to its Mind. Not repeated on failure (no key)."""
        body = _drop_none({"content": content, "endUserName": end_user_name})
        resp, info = await self._call("POST", f"/chats/{_seg(chat_id)}/messages", json_body=body)
        payload = _json(resp, info)
        if isinstance(payload, dict) and "messages" in payload:
            return _parse(ChatMultiReply, payload, info)
        return _parse(ChatReply, payload, info)

    async def delete_chat(self, chat_id: str) -> None:
        """``DELETE /chats/{id}`` (the chat's owner only): its messages go, the Minds stay. Success is ``204``
        with no body; anything else is no proof of a delete. Never repeated."""
        resp, info = await self._call("DELETE", f"/chats/{_seg(chat_id)}")
        if resp.status_code != 204 and resp.content.strip():
            detail = "a chat delete answered with a body instead of an empty reply"  # verbatim
            raise MalformedResponse(detail, request=info)
