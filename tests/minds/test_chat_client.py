"""Talking to a Mind: the client's chat calls send what the OpenAPI declares, parse what Minds answers
(a one-Mind reply is top level, without ``data``), never repeat a turn on failure, and name a Mind still
training instead of calling it."""

from __future__ import annotations

import pytest

from minds_bot.minds import MalformedResponse, MindNotReady, ServerError
from tests.fakes.minds_http import FakeMindsAPI, envelope, make_client, ok, raw
from tests.minds.samples import uid
from tests.minds.test_request_schema import problems

MIND = uid(31)
CHAT = uid(32)


def mind_detail(*, ready: bool = True) -> dict:
    return {
        "id": MIND,
        "name": "Mia",
        "description": "22-year-old student in Berlin",
        "type": "user",
        "tags": [],
        "isPublic": False,
        "isLinkSharingEnabled": False,
        "knowledgeItemCount": 0,
        "readyToChat": ready,
        "trainingStatus": "completed" if ready else "running",
        "profileImageUrl": "https://img.test/mia.png",
        "createdAt": "2026-01-01T00:00:00Z",
        "updatedAt": "2026-01-01T00:00:00Z",
    }


def chat_api() -> FakeMindsAPI:
    api = FakeMindsAPI()
    api.on("GET", f"/minds/{MIND}", ok(mind_detail()))
    created = {"id": CHAT, "name": "Chat", "createdAt": "2026-01-01T00:00:00Z", "minds": [{"id": MIND, "name": "Mia"}]}
    api.on("POST", "/chats", ok(created, status=201))
    api.on("POST", f"/chats/{CHAT}/messages", raw({"content": "It depends on the price.", "messageId": "m1"}))
    return api


async def test_chat_calls_match_the_declared_requests_and_parse_the_replies() -> None:
    api = chat_api()
    async with make_client(api) as minds:
        mind = await minds.get_mind(MIND)
        chat = await minds.create_chat(mind_id=MIND, name="Slack: #research")
        reply = await minds.send_chat_message(chat.id, content="Would you buy it?", end_user_name="Ben")
    assert mind.ready_to_chat and mind.profile_image_url == "https://img.test/mia.png"
    assert chat.id == CHAT and [m.name for m in chat.minds] == ["Mia"]
    assert reply.content == "It depends on the price." and reply.message_id == "m1"
    assert [p for sent in api.sent for p in problems(sent)] == []
    assert api.to("POST", f"/chats/{CHAT}/messages")[0].json() == {"content": "Would you buy it?", "endUserName": "Ben"}


async def test_a_mind_still_training_is_a_typed_error() -> None:
    api = chat_api()
    api.set("POST", f"/chats/{CHAT}/messages", envelope(409, code="SPARK_NOT_READY", message="training"))
    async with make_client(api) as minds:
        with pytest.raises(MindNotReady):
            await minds.send_chat_message(CHAT, content="Hi")


async def test_a_failed_turn_is_not_sent_again_and_a_reply_without_content_is_malformed() -> None:
    api = chat_api()
    api.set("POST", f"/chats/{CHAT}/messages", envelope(500, message="boom"), raw({"content": "late"}))
    async with make_client(api) as minds:
        with pytest.raises(ServerError):
            await minds.send_chat_message(CHAT, content="Hi")
        assert len(api.to("POST", f"/chats/{CHAT}/messages")) == 1
        api.set("POST", f"/chats/{CHAT}/messages", raw({"messageId": "m2"}))
        with pytest.raises(MalformedResponse):
            await minds.send_chat_message(CHAT, content="Hi")
