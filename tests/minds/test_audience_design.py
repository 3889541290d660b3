"""Designing an Audience's sample through the client: an Audience from chosen Minds (its idempotency key, a replay
told apart from a new Audience) and a dataset's segmentation preview (reconciled, never a partial or guessed
review; what an older reply leaves out is "not reported", not zero)."""

from __future__ import annotations

import pytest

from minds_bot.minds import MalformedResponse
from tests.fakes.minds_http import ok
from tests.minds.design_samples import audience_created, segmentation_preview
from tests.minds.samples import uid

PREVIEW = "/audiences/from-brief/segmentation-preview"


async def test_an_audience_from_minds_sends_its_key_and_tells_a_replay_from_a_new_audience(api, client):
    api.on("POST", "/audiences", ok(audience_created(), status=201), ok(audience_created(), status=200))
    first = await client.create_audience(name="Coffee fans", mind_ids=[uid(3001), uid(3001)], idempotency_key="k-1")
    again = await client.create_audience(name="Coffee fans", mind_ids=[uid(3001)], idempotency_key="k-1")
    assert (first.replayed, again.replayed) == (False, True)
    assert api.sent[0].json() == {"name": "Coffee fans", "mindIds": [uid(3001)]}  # no public link unless asked
    assert [s.headers["x-minds-idempotency-key"] for s in api.sent] == ["k-1", "k-1"]


async def test_a_preview_is_reconciled_and_keeps_only_declared_fields(api, client):
    api.on("POST", PREVIEW, ok(segmentation_preview()))
    preview = await client.preview_dataset_segmentation(name="panel.csv", url="https://example.com/panel.csv")
    assert [v.key for v in preview.selected] == ["age_band", "region"]
    assert [v.key for v in preview.held_out] == ["nps"]
    reviewed = preview.reviewed()
    assert "undeclared" not in reviewed
    assert reviewed["dependencyDiscovery"] == {"maxPairs": 45} and reviewed["segmentationColumns"] == [
        "age_band",
        "region",
    ]


async def test_counts_an_older_reply_leaves_out_are_not_reported(api, client):
    older = segmentation_preview()
    for key in ("relationships", "relationshipCount", "functionalDependencies", "dependencyCount"):
        older.pop(key)
    api.on("POST", PREVIEW, ok(older))
    preview = await client.preview_dataset_segmentation(name="panel.csv", url="https://example.com/panel.csv")
    assert preview.relationship_count is None and preview.dependency_count is None


@pytest.mark.parametrize(
    "spoil",
    [
        lambda p: p["rows"].update(used=39),  # fewer rows used than completed
        lambda p: p.update(segmentationColumns=["age_band"]),  # not the selected variables
        lambda p: p["variables"][0]["distribution"][0].update(count=1),  # a distribution not counting the rows
        lambda p: p.update(relationshipCount=3),  # a count that does not match the list
        lambda p: p["file"].update(kind="questionnaire"),  # a screener is no respondent data
    ],
)
async def test_a_preview_that_does_not_reconcile_is_malformed(api, client, spoil):
    reply = segmentation_preview()
    spoil(reply)
    api.on("POST", PREVIEW, ok(reply))
    with pytest.raises(MalformedResponse):
        await client.preview_dataset_segmentation(name="panel.csv", url="https://example.com/panel.csv")
