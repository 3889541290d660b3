"""A Study template and a Study draft read in full, edited and deleted from Slack, in the demo workspace against the
Minds sandbox: every question is shown, the edit dialog has the fields Minds takes, deleting a template is
confirmed in a dialog naming it, and only those the gate allows may change them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.desk import Desk, action_ids, open_desk, shown

ONLY_ADMINS = "Only a workspace admin or the person who installed Minds can do that."
DRAFT_ADMINS = "Only a workspace admin can do that with this draft. Nothing was changed."


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def template_named(desk: Desk, name: str) -> dict:
    return next(t for t in await desk.minds_api("GET", "/study-templates") if t["name"] == name)


async def open_from_list(desk: Desk, user: str, command: str, action: str, *needles: str) -> object:
    since = await desk.type(user, command)
    listing = await desk.private(user, since, *needles[:1])
    await desk.emu.click_button(user=user, action_id=action, channel=desk.research, ts=listing.ts)
    return await desk.modal(user, *needles[1:])


async def test_an_admin_reads_a_template_in_full_and_edits_its_name_and_questions(desk: Desk) -> None:
    template = await template_named(desk, "Concept test")
    dialog = await open_from_list(
        desk, desk.ada, "templates", f"template_open:{template['id']}", "Concept test", "Question 1 (Open answer)"
    )
    assert "What is your first reaction to this concept?" in shown(dialog)
    assert "*Concept test* · revision 1 · goal concept · method survey · en" in shown(dialog)
    inputs = {"name/value": "Concept test v2", "question_1/value": "What is your very first reaction?"}
    since = desk.emu.mark()
    assert (await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs=inputs)).ok
    await desk.private(desk.ada, since, "Saved the template *Concept test v2* (revision 2).")
    saved = await desk.minds_api("GET", f"/study-templates/{template['id']}")
    assert saved["name"] == "Concept test v2" and saved["revision"] == 2
    assert [q["text"] for q in saved["configuration"]["questions"]] == ["What is your very first reaction?"]
    assert saved["configuration"]["questions"][0]["response"] == {"type": "qualitative"}, "answer formats stay"


async def test_someone_who_is_no_admin_reads_every_question_but_cannot_change_it(desk: Desk) -> None:
    template = await template_named(desk, "Pricing check")
    dialog = await open_from_list(
        desk, desk.ben, "templates", f"template_open:{template['id']}", "Pricing check", "What would you expect to pay"
    )
    assert ONLY_ADMINS in shown(dialog) and "submit" not in dialog.payload
    assert "1. What would you expect to pay for this? (Open answer)" in shown(dialog)


async def test_deleting_a_template_is_confirmed_in_a_dialog_naming_it(desk: Desk) -> None:
    template = await template_named(desk, "Pricing check")
    dialog = await open_from_list(
        desk, desk.ada, "templates", f"template_delete:{template['id']}", "Pricing check", "Delete template"
    )
    assert "Delete the template *Pricing check*?" in shown(dialog)
    assert "Its 1 question and its settings are deleted in Minds." in shown(dialog)
    assert any(t["name"] == "Pricing check" for t in await desk.minds_api("GET", "/study-templates"))
    since = desk.emu.mark()
    assert (await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs={})).ok
    await desk.private(desk.ada, since, "Deleted the template *Pricing check*.")
    assert all(t["name"] != "Pricing check" for t in await desk.minds_api("GET", "/study-templates"))


async def test_a_draft_made_in_minds_is_read_by_anyone_and_edited_by_an_admin(desk: Desk) -> None:
    (draft,) = [d for d in await desk.minds_api("GET", "/study-drafts") if d["name"] == "Holiday gifting"]
    action = f"draft_open:{draft['id']}"
    seen = await open_from_list(desk, desk.ben, "drafts", action, "Holiday gifting", "Minds keeps no questions")
    assert DRAFT_ADMINS in shown(seen) and "submit" not in seen.payload
    await desk.emu.close_view(user=desk.ben, view_id=seen.id)

    dialog = await open_from_list(desk, desk.ada, "drafts", action, "Holiday gifting", "Draft name")
    assert "*Holiday gifting* · revision 1 · draft · mode custom · step questions" in shown(dialog)
    since = desk.emu.mark()
    assert (await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs={"name/value": "Gifting 2027"})).ok
    await desk.private(desk.ada, since, "Saved the draft *Gifting 2027* (revision 2).")
    saved = await desk.minds_api("GET", f"/study-drafts/{draft['id']}")
    assert saved["name"] == "Gifting 2027" and saved["revision"] == 2 and saved["payload"] == draft["payload"]


async def test_the_lists_offer_open_and_the_draft_delete_names_the_draft(desk: Desk) -> None:
    since = await desk.type(desk.ada, "drafts")
    listing = await desk.private(desk.ada, since, "Holiday gifting")
    assert any(a.startswith("draft_open:") for a in action_ids(listing.blocks))
    assert "The draft “Holiday gifting” (revision 1) is deleted in Minds." in shown(listing)
