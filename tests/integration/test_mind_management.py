"""Creating and managing a Mind and its knowledge, client against the sandbox: the key chosen before creating is
reused by a retry (one Mind), training moves from queued to ready on the clock, a retrain while training is a
conflict, knowledge is listed with its processing, and deletes leave nothing behind."""

from __future__ import annotations

import uuid

import pytest

from minds_bot.minds import Conflict, InvalidRequest, NotFound
from tests.integration.conftest import Harness


async def test_a_mind_is_created_once_per_key_and_trains_on_the_clock(h: Harness) -> None:
    key = str(uuid.uuid4())
    inputs = {"name": "Nora Nights", "discipline": "Nursing", "mode": "keywords", "keywords": ["night shifts"]}
    created = await h.minds.create_mind(**inputs, idempotency_key=key)  # type: ignore[arg-type]
    again = await h.minds.create_mind(**inputs, idempotency_key=key)  # type: ignore[arg-type]
    assert again.data.id == created.data.id, "a retry with the same key is the same Mind"
    assert [e.idempotency_key for e in h.log.matching("POST", "/api/v1/minds")] == [key, key]
    assert created.training.status == "queued" and not created.training.ready_to_chat

    with pytest.raises(Conflict):
        await h.minds.retrain_mind(created.data.id)
    h.advance(h.step)
    assert (await h.minds.mind_training(created.data.id)).status == "running"
    h.advance(2 * h.step)
    trained = await h.minds.mind_training(created.data.id)
    assert trained.status == "completed" and trained.ready_to_chat
    assert (await h.minds.retrain_mind(created.data.id)).status == "queued"


async def test_knowledge_is_added_listed_and_deleted_and_the_mind_goes_for_good(h: Harness) -> None:
    created = await h.minds.create_mind(
        name="Pia Pharmacist", discipline="Pharmacy", mode="clone", persona_context="A pharmacist in Leeds",
        idempotency_key=str(uuid.uuid4()),
    )  # fmt: skip
    mind_id = created.data.id
    added = await h.minds.add_mind_knowledge(
        mind_id, description="Opening hours survey", file={"name": "survey.pdf", "url": "https://example.com/s.pdf"}
    )
    assert added.processing is not None and added.processing.status == "queued"
    listed = await h.minds.list_mind_knowledge(mind_id)
    assert [i.description for i in listed.items] == ["Opening hours survey"] and listed.total == 1
    h.advance(h.step)
    assert (await h.minds.mind_knowledge_status(mind_id, added.id)).ready_for_retrieval
    renamed = await h.minds.update_mind(mind_id, name="Pia P.")
    assert renamed.name == "Pia P."
    with pytest.raises(InvalidRequest):
        await h.minds.add_mind_knowledge(mind_id, description="", link="https://example.com/a")
    await h.minds.delete_mind_knowledge(mind_id, added.id)
    assert (await h.minds.list_mind_knowledge(mind_id)).items == []
    await h.minds.delete_mind(mind_id)
    with pytest.raises(NotFound):
        await h.minds.get_mind(mind_id)
