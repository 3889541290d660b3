"""Deleting a Study and naming a copy, typed in the demo workspace against the Minds sandbox: the delete dialog
names the Study, what goes with it and what stays; only an admin may delete; a copy takes the name given."""

from __future__ import annotations

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
