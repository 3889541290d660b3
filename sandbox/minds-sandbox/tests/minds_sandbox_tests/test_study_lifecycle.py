"""Deleting a Study and naming a copy in the sandbox: a delete answers 204 with no body and takes the Study's runs
and exports with it (its Audiences stay); a copy takes the name it is given — replies matching the declared
schemas."""

from __future__ import annotations

import uuid

import httpx

from minds_sandbox_tests.conftest import ContractLog
from minds_sandbox_tests.helpers import LAUNCH_STUDY, PRICING_STUDY


async def test_a_deleted_study_is_gone_with_its_runs_and_its_audiences_stay(
    client: httpx.AsyncClient, contract_log: ContractLog
) -> None:
    study = (await client.get(f"/studies/{PRICING_STUDY}")).json()["data"]
    audiences = [a["id"] for a in study["audiences"]]
    asked = await client.post(f"/studies/{PRICING_STUDY}/runs", json={"question": "Would you pay 5 EUR?"})
    assert asked.status_code == 202

    deleted = await client.delete(f"/studies/{PRICING_STUDY}")
    assert deleted.status_code == 204 and deleted.content == b""
    assert (await client.get(f"/studies/{PRICING_STUDY}")).status_code == 404
    assert (await client.get(f"/runs/{asked.json()['data']['runId']}")).status_code == 404
    listed = (await client.get("/studies?limit=100")).json()["data"]
    assert PRICING_STUDY not in [s["id"] for s in listed] and LAUNCH_STUDY in [s["id"] for s in listed]
    for audience_id in audiences:
        assert (await client.get(f"/audiences/{audience_id}")).status_code == 200
    assert (await client.delete(f"/studies/{PRICING_STUDY}")).status_code == 404
    assert ("GET", "/api/v1/studies", 200) in contract_log.checked


async def test_a_copy_takes_the_name_it_is_given(client: httpx.AsyncClient) -> None:
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    made = await client.post(f"/studies/{LAUNCH_STUDY}/duplicate", json={"name": "Launch Q3"}, headers=headers)
    assert made.status_code == 201 and made.json()["data"]["name"] == "Launch Q3"
    assert (await client.post(f"/studies/{LAUNCH_STUDY}/duplicate", json={"name": ""})).status_code == 400
