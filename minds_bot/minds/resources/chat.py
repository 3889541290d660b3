"""The chat resource: a stateful one-Mind chat and its turns (``/chats``, ``/chats/{id}/messages``).

Must not touch: Slack, the store.
"""

from __future__ import annotations

from minds_bot.minds.models import ChatCreated, ChatReply
from minds_bot.minds.transport import Transport, _data, _drop_none, _json, _parse, _seg


class ChatApi(Transport):
    """``/chats``: never repeated on failure (no idempotency key exists for them)."""

    async def create_chat(self, *, mind_id: str, name: str | None = None) -> ChatCreated:
        """``POST /chats`` for a 1:1 chat whose history Minds keeps. Not repeated on failure (no key)."""
        body = _drop_none({"mindId": mind_id, "name": name})
        resp, info = await self._call("POST", "/chats", json_body=body)
        return _parse(ChatCreated, _data(resp, info), info)

    async def send_chat_message(self, chat_id: str, *, content: str, end_user_name: str | None = None) -> ChatReply:
        """One turn in a stateful chat: only the new message is sent. Not repeated on failure (no key)."""
        body = _drop_none({"content": content, "endUserName": end_user_name})
        resp, info = await self._call("POST", f"/chats/{_seg(chat_id)}/messages", json_body=body)
        return _parse(ChatReply, _json(resp, info), info)
