"""The research-tool routes: Audience progress and Formations, recalibration, model connections, invitations.
Every response the ``client`` fixture sees is checked against the OpenAPI's declared schema."""

from __future__ import annotations

import hashlib

import httpx

from minds_sandbox import RunningSandbox, cli
from minds_sandbox.ids import stable_id
from minds_sandbox_tests.conftest import OTHER_KEY, ContractLog, make_client
from minds_sandbox_tests.helpers import LAUNCH_STUDY
from minds_sandbox_tests.test_cli import parse
from minds_sandbox_tests.test_faults import put_faults

SNEAKERS = stable_id("audience", "Gen Z sneaker buyers in Germany")


async def test_audience_detail_carries_coverage_calibration_and_sources(
    client: httpx.AsyncClient, contract_log: ContractLog
) -> None:
    detail = (await client.get(f"/audiences/{SNEAKERS}")).json()["data"]
    statuses = {d["status"] for d in detail["grounding"]["research"]["dimensionCoverage"]["dimensions"]}
    assert statuses == {"sourced", "proxy", "assumed", "missing"}
    assert detail["calibration"] == {"active": False, "startedAt": None}
    assert ("GET", "/api/v1/audiences/{audienceId}", 200) in contract_log.checked


async def test_formations_count_every_member_and_validate(client: httpx.AsyncClient, contract_log: ContractLog) -> None:
    formations = (await client.get(f"/audiences/{SNEAKERS}/formations")).json()["data"]
    assert [f["name"] for f in formations] == ["Age", "Location"]
    for formation in formations:
        assert sum(s["_count"]["memberships"] for s in formation["subgroups"]) == 12
    assert ("GET", "/api/v1/audiences/{audienceId}/formations", 200) in contract_log.checked


async def test_recalibration_calibrates_then_retrains_then_settles(
    client: httpx.AsyncClient, sandbox: RunningSandbox, contract_log: ContractLog
) -> None:
    done = await client.post(f"/audiences/{SNEAKERS}/recalibrate", json={"instruction": "make women 60%"})
    assert done.status_code == 200
    counts = done.json()["data"]
    assert counts["retrainingMembers"] == 4 and counts["addedMembers"] == 0
    assert ("POST", "/api/v1/audiences/{audienceId}/recalibrate", 200) in contract_log.checked

    again = await client.post(f"/audiences/{SNEAKERS}/recalibrate", json={})
    assert again.status_code == 409, "one recalibration at a time"
    detail = (await client.get(f"/audiences/{SNEAKERS}")).json()["data"]
    assert detail["calibration"]["active"] is True
    assert detail["sources"][-1] == {**detail["sources"][-1], "kind": "adjustment", "text": "make women 60%"}

    sandbox.advance(4 * sandbox.runtime.engine.step)
    assert (await client.get(f"/audiences/{SNEAKERS}")).json()["data"]["calibration"]["active"] is False
    progress = (await client.get(f"/audiences/{SNEAKERS}/progress")).json()["data"]
    assert progress["building"] == 4
    sandbox.advance(5 * sandbox.runtime.engine.step)
    assert (await client.get(f"/audiences/{SNEAKERS}/progress")).json()["data"]["building"] == 0


async def test_model_connections_page_by_cursor_and_can_be_disabled(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    first = (await client.get("/model-connections")).json()
    assert first["data"][0]["verifiedAt"] and first["pagination"]["nextCursor"]
    second = (await client.get("/model-connections", params={"cursor": first["pagination"]["nextCursor"]})).json()
    assert second["data"][0]["verifiedAt"] is None and second["pagination"]["nextCursor"] is None
    await put_faults(sandbox, model_connections=False)
    assert (await client.get("/model-connections")).status_code == 404


async def test_invitations_report_undeliverable_addresses(client: httpx.AsyncClient, contract_log: ContractLog) -> None:
    reply = await client.post(
        f"/studies/{LAUNCH_STUDY}/invitations", json={"emails": ["ana@example.com", "bob@nowhere.invalid"]}
    )
    data = reply.json()["data"]
    assert data["invited"] == ["ana@example.com"]
    assert data["emailFailures"] == [{"email": "bob@nowhere.invalid", "reason": "Mailbox unavailable"}]
    assert (await client.post(f"/studies/{LAUNCH_STUDY}/invitations", json={"emails": []})).status_code == 400


def test_the_cli_can_start_a_server_without_model_connections() -> None:

    assert cli.config_from_args(parse()).faults.model_connections is True
    assert cli.config_from_args(parse("--no-model-connections")).faults.model_connections is False


async def test_source_import_is_content_addressed_and_from_brief_takes_only_own_files(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    body = {"files": [{"name": "survey.csv", "content": "age\n21\n"}]}
    first = (await client.post("/audiences/source-import", json=body)).json()["data"]
    again = (await client.post("/audiences/source-import", json=body)).json()["data"]
    assert first == again and first["files"][0]["sha256"] == hashlib.sha256(b"age\n21\n").hexdigest()
    bad = await client.post("/audiences/source-import", json={"files": [{"name": "deck.pdf", "content": "x"}]})
    assert bad.status_code == 400

    files = [{"name": "survey.csv", "url": first["files"][0]["url"]}]
    built = await client.post("/audiences/from-brief", json={"text": "Cafe owners", "files": files})
    assert built.status_code == 202
    async with make_client(sandbox, ContractLog(), key=OTHER_KEY) as other:
        foreign = await other.post("/audiences/from-brief", json={"text": "Cafe owners", "files": files})
    assert foreign.status_code == 400 and foreign.json()["data"]["code"] == "FOREIGN_FILE"
