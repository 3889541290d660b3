"""Deleting a Study and naming a copy, typed in the demo workspace against the Minds sandbox: the delete dialog
names the Study, what goes with it and what stays; only an admin may delete; a copy takes the name given."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.desk import Desk, action_ids, open_desk, shown

PRICING = "Pricing pulse"
LAUNCH = "Launch positioning"
ONLY_ADMINS = "Only a workspace admin or the person who installed Minds can do that."


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def study_named(desk: Desk, name: str) -> dict:
    return next(s for s in await desk.minds_api("GET", "/studies?limit=100") if s["name"] == name)


async def test_an_admin_deletes_a_study_after_a_dialog_naming_it_and_what_goes_with_it(desk: Desk) -> None:
    study = await desk.minds_api("GET", f"/studies/{(await study_named(desk, PRICING))['id']}")
    audiences = [a["name"] for a in study["audiences"]]
    since = await desk.type(desk.ada, f'study delete "{PRICING}"')
    dialog = await desk.modal(desk.ada, "Delete Study")
    said = shown(dialog)
    assert f"Delete the Study *{PRICING}* (`{study['id']}`)?" in said
    assert "*Deleted with it:* its " in said and "its runs, summary, charts, heatmaps and exports." in said
    assert all(f"*{name}*" in said for name in audiences) and "and their Minds, which other Studies may use." in said
    assert "This cannot be undone." in said
    assert PRICING in await desk.study_names(), "nothing is deleted before the dialog is submitted"

    delivery = await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs={})
    assert delivery.ok, delivery.error
    deleted = f"Deleted the Study *{PRICING}*. Its Audiences and their Minds were not deleted."
    await desk.private(desk.ada, since, deleted)
    assert PRICING not in await desk.study_names()
    left = [a["name"] for a in await desk.minds_api("GET", "/audiences?limit=100")]
    assert set(audiences) <= set(left), "the Audiences stay"
    assert desk.channel_since(since) == [], "said privately"


async def test_someone_who_is_no_admin_is_told_who_may_and_nothing_is_deleted(desk: Desk) -> None:
    since = await desk.type(desk.ben, f'study delete "{PRICING}"')
    refused = await desk.private(desk.ben, since, ONLY_ADMINS)
    assert "Delete Study" not in shown(refused)
    assert PRICING in await desk.study_names()


async def test_the_study_cards_delete_button_opens_the_same_dialog(desk: Desk) -> None:
    since = await desk.type(desk.ada, f'study "{LAUNCH}"')
    card = await desk.private(desk.ada, since, "Plan research")
    assert "study_delete" in action_ids(card.blocks)
    await desk.emu.click_button(user=desk.ada, action_id="study_delete", channel=desk.research, ts=card.ts)
    dialog = await desk.modal(desk.ada, f"Delete the Study *{LAUNCH}*")
    await desk.emu.close_view(user=desk.ada, view_id=dialog.id)
    assert LAUNCH in await desk.study_names(), "closing the dialog deletes nothing"


async def test_a_copy_takes_the_name_typed_after_as(desk: Desk) -> None:
    since = await desk.type(desk.ben, f'duplicate "{LAUNCH}" as "Launch Q3 refresh"')
    await desk.private(desk.ben, since, f"Duplicated *{LAUNCH}* as *Launch Q3 refresh*.")
    names = await desk.study_names()
    assert names.count("Launch Q3 refresh") == 1 and f"{LAUNCH} (copy)" not in names


async def test_the_study_card_lists_each_answered_question_with_its_results(desk: Desk) -> None:
    """Questions asked outside Slack (seeded in Minds) are listed on the card; Results shows one with n."""
    since = await desk.type(desk.ben, f'study "{PRICING}"')
    card = await desk.private(desk.ben, since, "*Results by question* (also those asked in Minds):")
    rows = [b for b in card.blocks if (b.get("accessory") or {}).get("action_id") == "study_result"]
    assert rows, "each answered question has a Results button"
    title = rows[0]["text"]["text"].removeprefix("• ").rsplit(" · ", 1)[0]
    await desk.emu.click_button(user=desk.ben, action_id="study_result", channel=desk.research, ts=card.ts)
    shown_result = await desk.private(desk.ben, since, "*Results:*")
    assert f"*Results:* {title}" in shown(shown_result), "the results of the question pressed"
    assert "n=" in shown(shown_result) and "Show answers" in shown(shown_result)


async def two_audience_study(desk: Desk) -> dict:
    audiences = [a["id"] for a in await desk.minds_api("GET", "/audiences?limit=100")][:2]
    made = await desk.minds_api("POST", "/studies", {"name": "Refill test", "audienceIds": audiences})
    return await desk.minds_api("GET", f"/studies/{made['id']}")


async def test_the_cards_ask_dialog_asks_only_the_audiences_left_in(desk: Desk) -> None:
    study = await two_audience_study(desk)
    first, *others = study["audiences"]
    assert others, "the Study has more than one Audience"
    since = await desk.type(desk.ada, 'study "Refill test"')
    card = await desk.private(desk.ada, since, "Plan research")
    await desk.emu.click_button(user=desk.ada, action_id="study_ask", channel=desk.research, ts=card.ts)
    dialog = await desk.modal(desk.ada, "Audiences that answer")
    assert all(a["name"] in shown(dialog) for a in study["audiences"])
    question = "Would you pay 3 EUR for a refill?"
    inputs = {"question/question_input": question, "audiences/audiences_select": [first["id"]]}
    assert (await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs=inputs)).ok
    result = await desk.posted(since, lambda m: "*Results:*" in shown(m) or "*Themes:*" in shown(m))
    assert f"*{first['name']}*" in shown(result)
    assert all(f"*{a['name']}*" not in shown(result) for a in others), "only the Audience left in answered"
    run = (await desk.minds_api("GET", f"/studies/{study['id']}/runs?limit=1"))[0]
    assert run["status"] == "completed"


async def test_leaving_no_audience_in_is_said_on_the_field(desk: Desk) -> None:
    study = await two_audience_study(desk)
    since = await desk.type(desk.ada, 'study "Refill test"')
    card = await desk.private(desk.ada, since, "Plan research")
    await desk.emu.click_button(user=desk.ada, action_id="study_ask", channel=desk.research, ts=card.ts)
    dialog = await desk.modal(desk.ada, "Audiences that answer")
    inputs = {"question/question_input": "Would you pay 3 EUR for a refill?", "audiences/audiences_select": []}
    delivery = await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs=inputs)
    assert "Pick at least one Audience." in json.dumps(delivery.body, default=str, ensure_ascii=False)
    assert await desk.minds_api("GET", f"/studies/{study['id']}/runs") == [], "nothing was asked"
