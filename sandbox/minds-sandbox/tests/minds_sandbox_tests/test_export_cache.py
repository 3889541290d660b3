"""The sandbox caches Study exports as Minds does (issue 34, row 6): without ``force`` a new request is served the
newest finished file of the same kind and format unchanged — its content and its ``generatedAt`` (the field the
OpenAPI declares on the export status) — however many runs ended since; ``force`` generates it again."""

from __future__ import annotations

import httpx

from minds_sandbox import RunningSandbox
from minds_sandbox_tests.helpers import LAUNCH_STUDY

HOUR = 3600


async def exported(client: httpx.AsyncClient, sandbox: RunningSandbox, **body: object) -> tuple[dict, bytes]:
    request = {"kind": "full_report", "format": "md", **body}
    job = (await client.post(f"/studies/{LAUNCH_STUDY}/export", json=request)).json()["data"]
    sandbox.advance(sandbox.runtime.engine.step)
    params = {"jobId": job["jobId"], "kind": "full_report", "format": "md"}
    status = (await client.get(f"/studies/{LAUNCH_STUDY}/export-status", params=params)).json()["data"]
    assert status["status"] == "completed"
    redirect = await client.get(f"/studies/{LAUNCH_STUDY}/export-download", params={"jobId": job["jobId"]})
    async with httpx.AsyncClient() as anonymous:
        return status, (await anonymous.get(redirect.headers["location"])).content


async def a_finished_run(client: httpx.AsyncClient, sandbox: RunningSandbox) -> dict:
    receipt = (await client.post(f"/studies/{LAUNCH_STUDY}/runs", json={"question": "Which colour fits best?"})).json()
    sandbox.advance(HOUR)
    run = (await client.get(f"/runs/{receipt['data']['runId']}")).json()["data"]
    assert run["status"] == "completed"
    return run


async def test_a_cached_export_keeps_its_file_and_time_until_force(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    first, content = await exported(client, sandbox)
    assert first["generatedAt"] is not None
    run = await a_finished_run(client, sandbox)
    assert run["completedAt"] > first["generatedAt"]

    cached, cached_content = await exported(client, sandbox)
    assert (cached["generatedAt"], cached_content) == (first["generatedAt"], content), "served from the cache"
    (listed,) = (await client.get(f"/studies/{LAUNCH_STUDY}/runs", params={"limit": 1})).json()["data"]
    assert listed["runId"] == run["runId"] and listed["completedAt"] == run["completedAt"]

    forced, forced_content = await exported(client, sandbox, force=True)
    assert forced["generatedAt"] > run["completedAt"]
    assert forced_content != content, "generated again, with the new run's question"


async def test_length_is_honoured_and_another_length_is_another_file(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    _short_status, short = await exported(client, sandbox, length="short")
    _detailed_status, detailed = await exported(client, sandbox, length="detailed")
    assert b"_Length: short._" in short and b"_Length: detailed._" in detailed
    assert len(detailed) > len(short), "a detailed report holds each question's details; a short one does not"
    again, short_again = await exported(client, sandbox, length="short")
    assert short_again == short and again["generatedAt"] == _short_status["generatedAt"], "the cached short one"
