"""Managing an Audience and its Formations, per the OpenAPI: rename, members, delete, follow, portraits, and a
Formation previewed, created, read, recomputed and deleted. Every JSON reply the ``client`` fixture sees is checked
against the OpenAPI's declared schema."""

from __future__ import annotations

import httpx

from minds_sandbox import RunningSandbox
from minds_sandbox.ids import stable_id
from minds_sandbox_tests.conftest import ContractLog

SNEAKERS = stable_id("audience", "Gen Z sneaker buyers in Germany")
A = f"/audiences/{SNEAKERS}"


async def test_a_rename_needs_a_name_and_changes_only_what_was_sent(
    client: httpx.AsyncClient, contract_log: ContractLog
) -> None:
    assert (await client.put(A, json={"name": "  "})).json()["message"] == "name is required"
    renamed = (await client.put(A, json={"name": " Sneaker fans ", "isSharedWithTeam": True})).json()["data"]
    assert (renamed["name"], renamed["isSharedWithTeam"], renamed["isPublic"]) == ("Sneaker fans", True, False)
    assert ("PUT", "/api/v1/audiences/{audienceId}", 200) in contract_log.checked
    assert (await client.get(A)).json()["data"]["name"] == "Sneaker fans"


async def test_members_are_added_once_and_removed_without_deleting_the_mind(
    client: httpx.AsyncClient, contract_log: ContractLog
) -> None:
    before = (await client.get(A)).json()["data"]
    inside = {x["id"] for x in before["minds"]}
    outsider = next(m for m in (await client.get("/minds?limit=100")).json()["data"] if m["id"] not in inside)
    added = await client.post(f"{A}/members", json={"mindIds": [outsider["id"], outsider["id"]]})
    assert added.json()["data"] == {"added": 1}
    assert ("POST", "/api/v1/audiences/{audienceId}/members", 200) in contract_log.checked
    again = await client.post(f"{A}/members", json={"mindIds": [outsider["id"]]})
    assert again.status_code == 200
    assert (await client.get(A)).json()["data"]["mindCount"] == before["mindCount"] + 1

    unknown = await client.post(f"{A}/members", json={"mindIds": [stable_id("nobody")]})
    assert unknown.status_code == 404
    assert (await client.post(f"{A}/members", json={})).status_code == 400

    removed = await client.delete(f"{A}/members/{outsider['id']}")
    assert (removed.status_code, removed.content) == (204, b"")
    assert (await client.get(A)).json()["data"]["mindCount"] == before["mindCount"]
    assert (await client.get(f"/minds/{outsider['id']}")).status_code == 200


async def test_deleting_an_audience_deletes_its_own_minds_and_answers_404_after(client: httpx.AsyncClient) -> None:
    member = (await client.get(A)).json()["data"]["minds"][0]
    deleted = await client.delete(A)
    assert (deleted.status_code, deleted.content) == (204, b"")
    assert (await client.get(A)).status_code == 404
    assert (await client.get(f"/minds/{member['id']}")).status_code == 404
    assert SNEAKERS not in {a["id"] for a in (await client.get("/audiences?limit=100")).json()["data"]}
    assert (await client.delete(A)).status_code == 404


async def test_follow_unfollow_and_portraits(client: httpx.AsyncClient, contract_log: ContractLog) -> None:
    assert (await client.post(f"{A}/follow")).status_code == 200
    assert (await client.delete(f"{A}/follow")).status_code == 200
    dry = (await client.post(f"{A}/regenerate-images", json={"dry": True, "limit": 3})).json()["data"]
    assert (dry["candidates"], dry["enqueued"], dry["dry"], len(dry["sample"])) == (3, 0, True, 3)
    assert ("POST", "/api/v1/audiences/{audienceId}/regenerate-images", 200) in contract_log.checked


async def test_a_formation_is_previewed_created_built_recomputed_and_deleted(
    client: httpx.AsyncClient, sandbox: RunningSandbox, contract_log: ContractLog
) -> None:
    preview = await client.post(
        f"{A}/formations/preview", json={"userInput": "split by location"}, headers={"Accept": "application/json"}
    )
    proposal = preview.json()["data"]
    assert proposal["hypothesis"]["intent"] == "Audience by location"
    assert ("POST", "/api/v1/audiences/{audienceId}/formations/preview", 200) in contract_log.checked
    assert len((await client.get(f"{A}/formations")).json()["data"]) == 2, "a preview saves nothing"

    created = await client.post(f"{A}/formations", json={"hypothesis": proposal["hypothesis"], "name": "Cities"})
    made = created.json()["data"]
    assert (made["name"], made["status"]) == ("Cities", "building")
    assert ("POST", "/api/v1/audiences/{audienceId}/formations", 200) in contract_log.checked
    detail = (await client.get(f"{A}/formations/{made['id']}")).json()["data"]
    assert (detail["status"], detail["subgroups"]) == ("building", [])
    sandbox.advance(3 * sandbox.runtime.engine.step)
    ready = (await client.get(f"{A}/formations/{made['id']}")).json()["data"]
    assert ready["status"] == "ready"
    assert sum(len(s["memberships"]) for s in ready["subgroups"]) == 12
    assert ("GET", "/api/v1/audiences/{audienceId}/formations/{formationId}", 200) in contract_log.checked
    names = [f["name"] for f in (await client.get(f"{A}/formations")).json()["data"]]
    assert names == ["Cities", "Age", "Location"]

    recomputed = (await client.post(f"{A}/formations/{made['id']}/recompute")).json()["data"]
    assert recomputed == {"id": made["id"], "status": "building"}
    assert ("POST", "/api/v1/audiences/{audienceId}/formations/{formationId}/recompute", 200) in contract_log.checked

    gone = await client.delete(f"{A}/formations/{made['id']}")
    assert (gone.status_code, gone.content) == (204, b"")
    assert (await client.get(f"{A}/formations/{made['id']}")).status_code == 404
    assert [f["name"] for f in (await client.get(f"{A}/formations")).json()["data"]] == ["Age", "Location"]


async def test_a_hypothesis_with_a_reserved_or_repeated_id_is_refused(client: httpx.AsyncClient) -> None:
    groups = [{"id": "a", "label": "A", "definition": "x"}, {"id": "__other", "label": "B", "definition": "y"}]
    refused = await client.post(f"{A}/formations", json={"hypothesis": {"intent": "i", "subgroups": groups}})
    assert (refused.status_code, refused.json()["message"]) == (400, "Invalid hypothesis")
    one = {"intent": "i", "subgroups": groups[:1]}
    assert (await client.post(f"{A}/formations", json={"hypothesis": one})).status_code == 400


async def test_recalibrating_members_another_audience_shares_needs_consent(
    client: httpx.AsyncClient, contract_log: ContractLog
) -> None:
    others = [a for a in (await client.get("/audiences?limit=100")).json()["data"] if a["id"] != SNEAKERS]
    borrowed = others[0]["minds"][0]
    await client.post(f"{A}/members", json={"mindIds": [borrowed["id"]]})
    refused = await client.post(f"{A}/recalibrate", json={"instruction": "skew younger"})
    assert refused.status_code == 409
    shared = refused.json()["data"]
    assert shared["code"] == "AUDIENCE_MINDS_SHARED"
    assert shared["sharedMinds"][0]["mindName"] == borrowed["name"]

    body = {"instruction": "skew younger", "requestedDistribution": "household income", "allowSharedMinds": True}
    assert (await client.post(f"{A}/recalibrate", json=body)).status_code == 200
    assert ("POST", "/api/v1/audiences/{audienceId}/recalibrate", 200) in contract_log.checked
    sources = (await client.get(A)).json()["data"]["sources"]
    assert [s["text"] for s in sources if s["kind"] == "adjustment"][-2:] == [
        "skew younger",
        "Add a distribution: household income",
    ]


async def test_a_recalibration_query_and_extra_sources_persist_the_sources_but_not_the_query(
    client: httpx.AsyncClient, contract_log: ContractLog
) -> None:
    body = {
        "query": "Sneaker collectors in Austria",
        "sources": {"links": ["https://example.com/sneakers"], "keywords": ["limited drops", "resale"]},
    }
    assert (await client.post(f"{A}/recalibrate", json=body)).status_code == 200
    assert ("POST", "/api/v1/audiences/{audienceId}/recalibrate", 200) in contract_log.checked
    sources = (await client.get(A)).json()["data"]["sources"]
    assert [(s["kind"], s["text"] or s["url"]) for s in sources if s["kind"] in ("keyword", "link")] == [
        ("keyword", "limited drops"),
        ("keyword", "resale"),
        ("link", "https://example.com/sneakers"),
    ]
    assert not [s for s in sources if s["kind"] == "adjustment"]


async def test_selection_mode_sets_the_active_distributions_from_the_review_universe(
    client: httpx.AsyncClient, contract_log: ContractLog
) -> None:
    grounding = (await client.get(A)).json()["data"]["grounding"]
    assert [d["name"] for d in grounding["distributions"]] == ["Age", "Gender", "Household income"]
    universe = {d["name"]: d for d in grounding["reviewDistributions"]}
    assert list(universe) == ["Age", "Gender", "Household income", "Region"]

    picked = [universe["Age"], universe["Region"]]
    assert (await client.post(f"{A}/recalibrate", json={"distributions": picked})).status_code == 200
    after = (await client.get(A)).json()["data"]["grounding"]
    assert [d["name"] for d in after["distributions"]] == ["Age", "Region"]
    assert [d["name"] for d in after["reviewDistributions"]] == list(universe)


async def test_a_distribution_not_in_the_review_universe_is_refused(client: httpx.AsyncClient) -> None:
    made_up = {"name": "Shoe size", "distribution": [{"label": "42", "pct": 100, "sourceIdx": 0}]}
    refused = await client.post(f"{A}/recalibrate", json={"distributions": [made_up]})
    assert (refused.status_code, refused.json()["message"]) == (
        400,
        "Not in this Audience's review universe: Shoe size",
    )
    mixed = await client.post(f"{A}/recalibrate", json={"distributions": [], "query": "x"})
    assert (mixed.status_code, mixed.json()["message"]) == (400, "Selection mode cannot be combined with query")
    added = await client.post(f"{A}/recalibrate", json={"requestedDistribution": "Shoe size"})
    assert added.status_code == 200
    names = [d["name"] for d in (await client.get(A)).json()["data"]["grounding"]["distributions"]]
    assert names == ["Age", "Gender", "Household income", "Shoe size"]
