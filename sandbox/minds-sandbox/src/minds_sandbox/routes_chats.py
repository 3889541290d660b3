"""Chats with one Mind or several: ``POST /chats`` (``mindId`` or ``mindIds``), ``POST /chats/{chatId}/messages``
(the one-Mind reply, or the multi-Mind ``messages`` — one per Mind, in speaking order, each naming its Mind) and
``DELETE /chats/{chatId}`` (204, its messages gone, the Minds untouched).

Owns: creating a stateful chat, keeping its transcript, and a deterministic in-character reply per Mind per
turn that answers the message (``voices.chat_reply``: "Which brands do you wear now?" gets brands, a price
question a price, a topic outside the Mind's field an honest "not my field"). A Mind listed in the
``training_minds`` fault knob is still training: its detail says so (``readyToChat: false``) and a message to it
answers 409 ``SPARK_NOT_READY``.
Must not contain: anything of the bot.
"""

from __future__ import annotations

import random
from typing import Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from minds_sandbox import answer_language, voices
from minds_sandbox.clock import iso
from minds_sandbox.engine import with_audience
from minds_sandbox.errors import bad_request, conflict, not_found
from minds_sandbox.http_support import lookup, ok, parse, read_json, runtime
from minds_sandbox.respondents import role, with_article
from minds_sandbox.routes_minds import advance
from minds_sandbox.runtime import Runtime
from minds_sandbox.state import Record
from minds_sandbox.views import mind_ref

MAX_MESSAGE_CHARS = 20_000


class ChatBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    mindId: str | None = None
    mindIds: list[str] | None = None
    audienceIds: list[str] | None = None
    name: str | None = None
    description: str | None = None


class MessageBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    content: str | None = Field(default=None, max_length=MAX_MESSAGE_CHARS)
    message: str | None = Field(default=None, max_length=MAX_MESSAGE_CHARS)
    role: Literal["user", "system"] = "user"
    endUserName: str | None = Field(default=None, max_length=120)


def is_training(rt: Runtime, mind_id: str) -> bool:
    """The fault knob holds it in training, or a Mind created through the API has not finished training."""
    mind = rt.state.minds.get(mind_id)
    if mind is not None and mind.get("training") is not None:
        advance(rt, mind)
        if mind["training"]["status"] != "completed":
            return True
    return mind_id in rt.faults.training_minds


async def create_chat(request: web.Request) -> web.Response:
    rt = runtime(request)
    body = parse(ChatBody, await read_json(request))
    if body.audienceIds:
        raise bad_request("The sandbox offers Mind chats only; send mindId or mindIds")
    asked = body.mindIds or ([body.mindId] if body.mindId else [])
    if not asked:
        raise bad_request("At least one of mindId, mindIds, or audienceIds is required")
    minds = [lookup(rt.state.minds, mind_id, "Mind") for mind_id in dict.fromkeys(asked)]
    chat = {
        "id": rt.state.new_id("chat"),
        "name": body.name or "API Chat",
        "description": body.description,
        "mindId": minds[0]["id"],
        "mindIds": [m["id"] for m in minds],
        "createdAt": rt.clock.now(),
        "messages": [],
    }
    rt.state.chats[chat["id"]] = chat
    rt.state.touch()
    return ok(_chat_view(chat, *minds), status=201)


async def send_message(request: web.Request) -> web.Response:
    rt = runtime(request)
    chat = lookup(rt.state.chats, request.match_info["chat_id"], "Chat")
    body = parse(MessageBody, await read_json(request))
    text = (body.message if body.message is not None else body.content or "").strip()
    if not text:
        raise bad_request("Message content is required")
    message_id = rt.state.new_id("chat-message")
    chat["messages"].append({"id": message_id, "role": body.role, "content": text})
    rt.state.touch()
    if body.role == "system":
        return web.json_response({"messageId": message_id, "role": "system"})
    found = [rt.state.minds.get(m) for m in chat.get("mindIds") or [chat["mindId"]]]
    minds = [m for m in found if m is not None and m.get("deletedAt") is None]
    if len(minds) < len(found):  # a Mind of this chat was deleted since it started
        raise not_found("Mind")
    if any(is_training(rt, mind["id"]) for mind in minds):
        raise conflict("This Mind is still training", code="SPARK_NOT_READY")
    said = tuple(m["content"] for m in chat["messages"] if m["role"] == "user")
    spoken = []
    for mind in minds:
        reply = _reply(rt, mind, text, turn=len(said), earlier=said[:-1], locale=request.headers.get("x-locale"))
        reply_id = rt.state.new_id("chat-message")
        chat["messages"].append({"id": reply_id, "role": "assistant", "content": reply, "mindId": mind["id"]})
        spoken.append({"content": reply, "messageId": reply_id, "mind": {"id": mind["id"], "name": mind["name"]}})
    if len(minds) > 1:
        return web.json_response({"messages": spoken})
    return web.json_response({"content": spoken[0]["content"], "messageId": spoken[0]["messageId"]})


async def delete_chat(request: web.Request) -> web.Response:
    rt = runtime(request)
    chat = lookup(rt.state.chats, request.match_info["chat_id"], "Chat")
    del rt.state.chats[chat["id"]]
    rt.state.touch()
    return web.Response(status=204)


def _chat_view(chat: Record, *minds: Record) -> dict[str, object]:
    return {
        "id": chat["id"],
        "name": chat["name"],
        "description": chat["description"],
        "createdAt": iso(chat["createdAt"]),
        "minds": [mind_ref(mind) for mind in minds],
    }


def _reply(
    rt: Runtime, mind: Record, text: str, *, turn: int, earlier: tuple[str, ...], locale: str | None = None
) -> str:
    """In character, answering what was asked, deterministic, in the language of the ``x-locale`` header when the
    sandbox writes it, else of the message ("Wie viel würden Sie zahlen?" is answered in German); a later turn that
    names no topic keeps to the topic of the earlier ones ("And at 120 euros?" after a shoe question is about
    shoes)."""
    rng = random.Random(f"{rt.state.seed}|chat|{mind['id']}|{turn}|{text}")
    persona = mind.get("persona")
    language = answer_language.language_of(locale, text)
    if not persona:
        reply = voices.chat_unknown(mind["description"] or mind["name"], language)
    else:
        speaking = with_audience(rt.state, mind)
        reply = voices.chat_reply(
            mind=speaking,
            message=text,
            rng=rng,
            role_phrase=with_article(role(persona["occupation"])),
            earlier=earlier,
            language=language,
        )
    return reply
