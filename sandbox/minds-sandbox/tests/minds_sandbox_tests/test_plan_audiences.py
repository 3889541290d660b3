"""The preview body says which Audiences a revision's run asks once an answer narrowed them (``audienceIds``, an
assumed field), and lists the answered confirmation questions (``answeredConfirmations``)."""

from __future__ import annotations

import uuid

import httpx

from minds_sandbox.ids import stable_id
from minds_sandbox_tests.helpers import LAUNCH_STUDY, plan, planned_revision

SNEAKERS = "Gen Z sneaker buyers in Germany"


async def test_an_audience_answer_narrows_the_revision_and_the_preview_says_so(client: httpx.AsyncClient) -> None:
    first = await planned_revision(client, LAUNCH_STUDY, "How do Gen Z sneaker buyers feel about 140 EUR?")
    assert "audienceIds" not in first and first["answeredConfirmations"] == {}
    [question] = first["confirmationQuestions"]
    assert question["text"] == "Which Audiences should answer this plan?"
    body = {"draftPlanId": first["draftPlanId"], "revision": 1, "answers": {question["id"]: SNEAKERS}}
    second = (await plan(client, LAUNCH_STUDY, body, key=str(uuid.uuid4()))).json()["data"]
    assert second["audienceIds"] == [stable_id("audience", SNEAKERS)]
    assert second["answeredConfirmations"] == {question["id"]: SNEAKERS}


async def test_all_attached_audiences_leaves_the_studys_selection(client: httpx.AsyncClient) -> None:
    first = await planned_revision(client, LAUNCH_STUDY, "How do Gen Z sneaker buyers feel about 140 EUR?")
    body = {"draftPlanId": first["draftPlanId"], "revision": 1, "answers": {"cq1": "All attached Audiences"}}
    second = (await plan(client, LAUNCH_STUDY, body, key=str(uuid.uuid4()))).json()["data"]
    assert "audienceIds" not in second
