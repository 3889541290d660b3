"""Chats with one Mind: replies in character that answer the message and remember the chat, every reply valid
against the OpenAPI, and a Mind still training (the ``training_minds`` knob) says so and is not answered."""

from __future__ import annotations

import httpx

from minds_sandbox import RunningSandbox
from minds_sandbox_tests.conftest import ContractLog
from minds_sandbox_tests.test_faults import put_faults


async def a_mind(client: httpx.AsyncClient) -> dict:
    return (await client.get("/minds", params={"limit": 1})).json()["data"][0]


async def test_a_chat_keeps_its_history_and_every_reply_matches_the_contract(
    client: httpx.AsyncClient, contract_log: ContractLog
) -> None:
    mind = await a_mind(client)
    created = await client.post("/chats", json={"mindId": mind["id"], "name": "Slack thread"})
    assert created.status_code == 201
    chat = created.json()["data"]
    assert chat["name"] == "Slack thread" and [m["id"] for m in chat["minds"]] == [mind["id"]]

    first = await client.post(
        f"/chats/{chat['id']}/messages", json={"content": "Would you buy a serum in recycled packaging?"}
    )
    second = await client.post(f"/chats/{chat['id']}/messages", json={"content": "And at 120 euros?"})
    assert first.status_code == second.status_code == 200
    assert (
        first.json()["content"].startswith(("Yes, I would.", "Maybe.", "Probably not.")) and first.json()["messageId"]
    )
    # The chat remembers what the first turn was about: the price is judged for skincare.
    assert "120 EUR is more than I would spend." in second.json()["content"]
    assert {("POST", "/api/v1/chats", 201), ("POST", "/api/v1/chats/{chatId}/messages", 200)} <= contract_log.checked
    assert contract_log.violations == []


async def test_a_mind_still_training_is_not_answered(client: httpx.AsyncClient, sandbox: RunningSandbox) -> None:
    mind = await a_mind(client)
    assert (await put_faults(sandbox, training_minds=[mind["id"]])).status_code == 200
    detail = (await client.get(f"/minds/{mind['id']}")).json()["data"]
    assert detail["readyToChat"] is False and detail["trainingStatus"] == "running"
    chat = (await client.post("/chats", json={"mindId": mind["id"]})).json()["data"]
    refused = await client.post(f"/chats/{chat['id']}/messages", json={"content": "Hello?"})
    assert refused.status_code == 409 and refused.json()["data"]["code"] == "SPARK_NOT_READY"


async def test_empty_messages_and_unknown_chats_are_refused(client: httpx.AsyncClient) -> None:
    mind = await a_mind(client)
    chat = (await client.post("/chats", json={"mindId": mind["id"]})).json()["data"]
    assert (await client.post(f"/chats/{chat['id']}/messages", json={"content": "  "})).status_code == 400
    assert (await client.post("/chats/nope/messages", json={"content": "Hi"})).status_code == 404
    assert (await client.post("/chats", json={})).status_code == 400


async def test_a_chat_with_several_minds_answers_with_each_attributed_and_is_deleted(
    client: httpx.AsyncClient, contract_log: ContractLog
) -> None:
    minds = (await client.get("/minds", params={"limit": 2})).json()["data"]
    created = await client.post("/chats", json={"mindIds": [m["id"] for m in minds], "name": "Launch debate"})
    assert created.status_code == 201
    chat = created.json()["data"]
    assert [m["id"] for m in chat["minds"]] == [m["id"] for m in minds]
    turn = await client.post(f"/chats/{chat['id']}/messages", json={"content": "Would you buy a serum at 40 EUR?"})
    assert turn.status_code == 200
    spoken = turn.json()["messages"]
    assert [s["mind"] for s in spoken] == [{"id": m["id"], "name": m["name"]} for m in minds]
    assert all(s["content"] and s["messageId"] for s in spoken)
    assert ("POST", "/api/v1/chats/{chatId}/messages", 200) in contract_log.checked

    deleted = await client.delete(f"/chats/{chat['id']}")
    assert deleted.status_code == 204 and deleted.content == b""
    assert (await client.post(f"/chats/{chat['id']}/messages", json={"content": "Still there?"})).status_code == 404
    assert (await client.get(f"/minds/{minds[0]['id']}")).status_code == 200, "the Minds stay"
    assert contract_log.violations == []
