"""Study drafts in the client: requests as the OpenAPI declares them, a keyed create that may be repeated, a
delete that must be empty, and a consume that must return this draft as ``consumed``."""

from __future__ import annotations

import pytest

from minds_bot.minds import MalformedResponse
from tests.fakes.minds_http import FakeMindsAPI, make_client, ok, raw
from tests.minds.samples import uid
from tests.minds.test_request_schema import problems

DRAFT = uid(51)


def draft(**extra: object) -> dict:
    return {
        "id": DRAFT,
        "userId": uid(52),
        "name": "Cups: plan revision 1",
        "mode": "custom",
        "currentStep": "questions",
        "revision": 1,
        "status": "draft",
        "payload": {"version": 1, "state": {"studyId": uid(53)}},
        "studyId": None,
        "startRequestId": None,
        "startLeaseExpiresAt": None,
        "createdAt": "2026-01-01T00:00:00Z",
        "updatedAt": "2026-01-01T00:00:00Z",
        **extra,
    }


async def test_create_delete_and_consume_match_the_declared_requests() -> None:
    api = FakeMindsAPI()
    api.on("POST", "/study-drafts", ok(draft(), status=201))
    api.on("DELETE", f"/study-drafts/{DRAFT}", raw(None, status=204))
    api.on("POST", f"/study-drafts/{DRAFT}/consume", ok(draft(status="consumed", studyId=uid(53))))
    async with make_client(api) as minds:
        created = await minds.create_study_draft(name="Cups", state={"studyId": uid(53)}, idempotency_key="k-1")
        await minds.delete_study_draft(DRAFT)
        consumed = await minds.consume_study_draft(DRAFT, expected_revision=1, study_id=uid(53))
    assert created.payload is not None and created.payload.state == {"studyId": uid(53)}
    assert consumed.status == "consumed"
    assert api.to("POST", "/study-drafts")[0].json()["idempotencyKey"] == "k-1"
    assert [p for sent in api.sent for p in problems(sent)] == []


async def test_a_consume_reply_that_is_not_consumed_is_malformed() -> None:
    api = FakeMindsAPI()
    api.on("POST", f"/study-drafts/{DRAFT}/consume", ok(draft()))
    async with make_client(api) as minds:
        with pytest.raises(MalformedResponse):
            await minds.consume_study_draft(DRAFT, expected_revision=1)


async def test_a_delete_with_a_body_is_not_proof_of_a_delete() -> None:
    api = FakeMindsAPI()
    api.on("DELETE", f"/study-drafts/{DRAFT}", raw({"data": draft()}))
    async with make_client(api) as minds:
        with pytest.raises(MalformedResponse):
            await minds.delete_study_draft(DRAFT)


async def test_saving_a_template_matches_the_declared_request_and_checks_the_reply() -> None:
    configuration = {
        "version": 1,
        "goal": "concept",
        "studyLocale": "en",
        "methodId": "survey",
        "questions": [{"text": "First reaction?", "response": {"type": "qualitative"}}],
    }
    template = {
        "id": uid(61),
        "name": "Coffee",
        "revision": 1,
        "configuration": configuration,
        "isSharedWithTeam": False,
        "canManage": True,
        "canShareWithTeam": False,
        "createdAt": "2026-01-01T00:00:00Z",
        "updatedAt": "2026-01-01T00:00:00Z",
    }
    api = FakeMindsAPI()
    api.on("POST", "/study-templates", ok(template, status=201), ok({**template, "name": "Other"}, status=201))
    async with make_client(api) as minds:
        saved = await minds.save_study_template(name="Coffee", configuration=configuration, request_id=uid(62))
        assert saved.id == uid(61)
        with pytest.raises(MalformedResponse):
            await minds.save_study_template(name="Coffee", configuration=configuration, request_id=uid(63))
    assert [p for sent in api.sent for p in problems(sent)] == []
