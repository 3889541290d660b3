"""Identity, headers, the secrecy of the key, and the smaller replies (sharing, summary, limits, lists)."""

from __future__ import annotations

import logging

import httpx
import pytest

from minds_bot import __version__
from minds_bot.minds import (
    AudienceJobFailed,
    FromBriefJob,
    MalformedResponse,
    MindsClient,
    SharingState,
)
from tests.fakes.minds_http import envelope, fake_key, ok, raw
from tests.minds.samples import AUDIENCE_ID, STUDY_ID, audience, study_detail, uid


async def test_default_base_url_and_paths_join_under_api_v1():
    async with MindsClient.create(api_key=fake_key()) as minds:
        request = minds._http.build_request("GET", "/studies")
    assert str(request.url) == "https://getminds.ai/api/v1/studies"


async def test_every_request_is_authenticated_and_identified(api, client):
    api.on("GET", "/auth/me", raw({"id": uid(9)}))
    await client.me()
    headers = api.sent[0].headers
    assert headers["authorization"] == f"Bearer {fake_key()}"
    assert headers["user-agent"] == f"minds-bot/{__version__}"


async def test_key_is_not_in_repr_or_logs(api, client, caplog):
    caplog.set_level(logging.DEBUG)
    api.on("GET", "/auth/me", envelope(503), raw({"id": uid(9)}))
    await client.me()
    assert fake_key() not in repr(client)
    assert caplog.records  # the retry was logged...
    assert all(fake_key() not in r.getMessage() for r in caplog.records)  # ...without the key


def test_blank_key_is_refused():
    with pytest.raises(ValueError):
        MindsClient.create(api_key="  ")


@pytest.mark.parametrize(
    ("public", "sharing", "url"),
    [
        (True, False, "https://getminds.ai/s/abc?x=1"),
        (False, True, "https://getminds.ai/s/abc?x=1"),
        (False, False, None),
    ],
)
def test_public_url_only_while_public_and_unchanged(public, sharing, url):
    state = SharingState.model_validate(
        {
            "isPublic": public,
            "isLinkSharingEnabled": sharing,
            "publicShareId": uid(6),
            "sharedStudyUrl": "https://getminds.ai/s/abc?x=1",
        }
    )
    assert state.public_url == url


async def test_sharing_request_and_reply(api, client):
    api.on(
        "PUT",
        f"/studies/{STUDY_ID}/sharing",
        ok({"isPublic": False, "isLinkSharingEnabled": False, "publicShareId": uid(6)}),
    )
    state = await client.set_sharing(STUDY_ID, enabled=False)
    assert state.public_url is None  # a retained share id is not an active link
    assert api.sent[0].json() == {"isLinkSharingEnabled": False}


async def test_duplicate_reports_replay_versus_new_copy(api, client):
    created = {k: v for k, v in study_detail().items() if k != "messages"}
    api.on(
        "POST",
        f"/studies/{STUDY_ID}/duplicate",
        raw({"data": created}, status=201),
        raw({"data": created, "workspaceUrl": "https://getminds.ai/w/1"}, status=200),
    )
    first = await client.duplicate_study(STUDY_ID, idempotency_key="dup-1")
    again = await client.duplicate_study(STUDY_ID, idempotency_key="dup-1")
    assert (first.replayed, again.replayed) == (False, True)
    assert again.workspace_url == "https://getminds.ai/w/1"
    assert [s.headers["idempotency-key"] for s in api.sent] == ["dup-1", "dup-1"]


async def test_summary_reads(api, client):
    api.on(
        "GET",
        f"/studies/{STUDY_ID}/summary",
        ok({"summary": "## Findings", "revision": 4, "isGenerating": True, "blocks": [{"kind": "x"}]}),
    )
    summary = await client.get_summary(STUDY_ID)
    assert (summary.summary, summary.revision, summary.is_generating) == ("## Findings", 4, True)


async def test_summary_without_summary_field_is_malformed(api, client):
    api.on("GET", f"/studies/{STUDY_ID}/summary", ok({"revision": 4}))
    with pytest.raises(MalformedResponse):
        await client.get_summary(STUDY_ID)


async def test_audience_limits_zero_cap_is_a_lock_and_duplicate_modes_are_malformed(api, client):
    api.on(
        "GET",
        "/audiences/limits",
        ok({"perAudienceCap": 0, "modes": {"balanced": {"explicitCountCeiling": 20}, "fast": {}}}),
        ok({"perAudienceCap": 10, "modes": [{"mode": "fast"}, {"mode": "fast"}]}),
        ok({"modes": []}),
    )
    limits = await client.audience_limits()
    assert limits.locked and [m.mode for m in limits.modes] == ["balanced", "fast"]
    with pytest.raises(MalformedResponse):
        await client.audience_limits()
    with pytest.raises(MalformedResponse):  # a missing cap is not "unlimited" and not zero
        await client.audience_limits()


async def test_audience_from_brief_job_to_audience(api, client):
    job_id = uid(11)
    api.on(
        "POST",
        "/audiences/from-brief",
        ok({"jobId": job_id, "status": "queued", "progress": 0, "statusUrl": "/x"}, status=202),
    )
    api.on(
        "GET",
        f"/audiences/from-brief/jobs/{job_id}",
        ok({"jobId": job_id, "status": "processing", "progress": 40}),
        ok({"jobId": job_id, "status": "completed", "result": audience(1, "Leeds parents")}),
    )
    job = await client.create_audience_from_brief(text="Parents in Leeds", idempotency_key="brief-1")
    assert isinstance(job, FromBriefJob) and job.status == "queued"
    done = await client.wait_audience_job(job.job_id, wait_seconds=60)
    assert done.result.name == "Leeds parents"
    assert api.sent[0].headers["idempotency-key"] == "brief-1"
    assert api.sent[0].json() == {"text": "Parents in Leeds"}


async def test_audience_job_failure_and_completed_without_audience(api, client):
    api.on(
        "GET",
        "/audiences/from-brief/jobs/j1",
        ok({"jobId": "j1", "status": "failed", "error": {"code": "X", "message": "No sources"}}),
    )
    api.on("GET", "/audiences/from-brief/jobs/j2", ok({"jobId": "j2", "status": "completed"}))
    with pytest.raises(AudienceJobFailed, match="No sources"):
        await client.get_audience_job("j1")
    with pytest.raises(MalformedResponse):
        await client.get_audience_job("j2")


async def test_audience_detail(api, client):
    api.on("GET", f"/audiences/{AUDIENCE_ID}", ok({**audience(0, "Parents"), "isPublic": False}))
    detail = await client.get_audience(AUDIENCE_ID)
    assert detail.name == "Parents" and detail.minds[0].name == "Ana"


TEMPLATE = {
    "id": uid(40),
    "name": "Concept test",
    "revision": 2,
    "isSharedWithTeam": False,
    "canManage": True,
    "canShareWithTeam": True,
    "createdAt": "2025-01-01T00:00:00Z",
    "updatedAt": "2025-01-01T00:00:00Z",
    "configuration": {
        "version": 1,
        "goal": "concept",
        "studyLocale": "en",
        "methodId": "standard",
        "questions": [{"text": "Thoughts?", "response": {"type": "qualitative"}}],
    },
}


async def test_templates_and_drafts_lists(api, client):
    api.on("GET", "/study-templates", raw({"data": [TEMPLATE]}), raw({"data": [{**TEMPLATE, "revision": None}]}))
    api.on("GET", "/study-drafts", raw({"data": []}), raw({}))
    [template] = await client.list_study_templates()
    assert template.configuration.questions[0].response.type == "qualitative"
    with pytest.raises(MalformedResponse):  # a template without its revision is not usable
        await client.list_study_templates()
    assert await client.list_study_drafts() == []  # a valid empty list
    with pytest.raises(MalformedResponse):  # no data at all is not "no drafts"
        await client.list_study_drafts()


async def test_research_methods_catalog_must_say_what_executes(api, client):
    api.on(
        "GET",
        "/research-methods",
        raw(
            {
                "data": [
                    {"id": "maxdiff", "executable": True, "advanced": True},
                    {"id": "conjoint", "executable": False},
                ]
            }
        ),
        raw({"data": [{"id": "nps"}]}),
    )
    methods = await client.research_methods()
    assert [(m.id, m.executable) for m in methods] == [("maxdiff", True), ("conjoint", False)]
    with pytest.raises(MalformedResponse):
        await client.research_methods()


async def test_ids_that_would_change_the_path_are_refused(api, client):
    with pytest.raises(ValueError):
        await client.get_study("../audiences")
    assert api.sent == []


async def test_success_reply_that_is_not_json_is_malformed(api, client):
    api.on("GET", "/auth/me", httpx.Response(200, text="OK"))
    with pytest.raises(MalformedResponse, match="not JSON"):
        await client.me()
