"""Managing an Audience from its card against the local demo (the real app, the Minds sandbox, the Slack
emulator), as people would: Ada is a workspace admin, Ben a member of #research. Each test reads the exact words a
person sees and checks in Minds what changed — or that nothing did."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from minds_sandbox.ids import stable_id
from tests.e2e.desk import Desk, action_ids, open_desk, shown

SNEAKERS = "Gen Z sneaker buyers in Germany"
SNEAKERS_ID = stable_id("audience", SNEAKERS)
REFUSED = "Only this channel's approvers (`/minds approvers list`) or a workspace admin can do that with this Audience."


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def card(desk: Desk, user: str) -> Any:
    since = await desk.type(user, f'audience "{SNEAKERS}"')
    return await desk.private(user, since, "Coverage of the standard dimensions")


async def press(desk: Desk, user: str, action_id: str, message: Any) -> str:
    since = desk.emu.mark()
    delivery = await desk.emu.click_button(user=user, action_id=action_id, channel=desk.research, ts=message.ts)
    assert delivery.ok, delivery.error
    return since


async def audience_names(desk: Desk) -> list[str]:
    return [a["name"] for a in await desk.minds_api("GET", "/audiences?limit=100")]


async def test_only_a_decider_may_delete_and_the_dialog_names_the_audience_and_its_members(desk: Desk) -> None:
    since = await press(desk, desk.ben, "audience_delete", await card(desk, desk.ben))
    assert REFUSED in shown(await desk.private(desk.ben, since, "approvers"))
    assert SNEAKERS in await audience_names(desk)

    await press(desk, desk.ada, "audience_delete", await card(desk, desk.ada))
    dialog = await desk.modal(desk.ada, "Delete the Audience")
    assert f"Delete the Audience *{SNEAKERS}* and its 12 Minds?" in shown(dialog)
    mark = desk.emu.mark()
    await desk.emu.submit_view(user=desk.ada, view_id=dialog.id)
    done = await desk.private(desk.ada, mark, "Deleted the Audience")
    assert f"Deleted the Audience *{SNEAKERS}* (12 Minds)." in shown(done)
    assert SNEAKERS not in await audience_names(desk)


async def test_a_member_count_that_changed_after_the_dialog_opened_deletes_nothing(desk: Desk) -> None:
    await press(desk, desk.ada, "audience_delete", await card(desk, desk.ada))
    dialog = await desk.modal(desk.ada, "Delete the Audience")
    other = next(a for a in await desk.minds_api("GET", "/audiences?limit=100") if a["name"] != SNEAKERS)
    await desk.minds_api("POST", f"/audiences/{SNEAKERS_ID}/members", {"mindIds": [other["minds"][0]["id"]]})
    mark = desk.emu.mark()
    await desk.emu.submit_view(user=desk.ada, view_id=dialog.id)
    said = shown(await desk.private(desk.ada, mark, "Nothing was deleted"))
    assert f"*{SNEAKERS}* has 13 Minds now, not the 12 Minds the dialog named." in said
    assert SNEAKERS in await audience_names(desk)


async def test_edit_renames_the_audience_and_shares_it_with_the_team(desk: Desk) -> None:
    since = await press(desk, desk.ben, "audience_edit", await card(desk, desk.ben))
    assert REFUSED in shown(await desk.private(desk.ben, since, "approvers"))

    await press(desk, desk.ada, "audience_edit", await card(desk, desk.ada))
    dialog = await desk.modal(desk.ada, "Edit Audience", SNEAKERS)
    mark = desk.emu.mark()
    inputs = {"audience_name/value": "Sneaker fans DE", "audience_team/value": ["shared"]}
    await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs=inputs)
    done = await desk.private(desk.ada, mark, "Saved")
    assert "Saved: the Audience is now *Sneaker fans DE*, shared with the team." in shown(done)
    detail = await desk.minds_api("GET", f"/audiences/{SNEAKERS_ID}")
    assert (detail["name"], detail["isSharedWithTeam"], detail["isPublic"]) == ("Sneaker fans DE", True, False)


async def test_members_are_added_and_removed_after_a_review_that_names_them(desk: Desk) -> None:
    before = await desk.minds_api("GET", f"/audiences/{SNEAKERS_ID}")
    leaving = before["minds"][0]
    joining = next(
        m for m in await desk.minds_api("GET", "/minds?limit=100") if m["id"] not in {x["id"] for x in before["minds"]}
    )

    await press(desk, desk.ada, "audience_members", await card(desk, desk.ada))
    dialog = await desk.modal(desk.ada, "Audience members", "Add Minds", "Remove members")
    assert f"*{SNEAKERS}* has 12 Minds:" in shown(dialog) and leaving["name"] in shown(dialog)
    found = await desk.emu.request_options(
        user=desk.ada, action_id="members_add_search", value=joining["name"], view_id=dialog.id
    )
    picked = [o for o in found if o["value"] == joining["id"]]
    assert [o["text"]["text"] for o in picked] == [joining["name"]], "Minds' search finds the Mind by its name"
    inputs = {"members_add/members_add_search": picked, "members_remove/value": [leaving["id"]]}
    await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs=inputs)
    review = await desk.modal(desk.ada, "Remove from")
    assert f"Add to *{SNEAKERS}*: {joining['name']}" in shown(review)
    assert f"Remove from *{SNEAKERS}*: {leaving['name']}" in shown(review)
    assert "The removed Minds themselves are kept." in shown(review)
    assert [m["id"] for m in (await desk.minds_api("GET", f"/audiences/{SNEAKERS_ID}"))["minds"]] == [
        m["id"] for m in before["minds"]
    ], "nothing changes before the review is confirmed"

    mark = desk.emu.mark()
    await desk.emu.submit_view(user=desk.ada, view_id=review.id)
    done = shown(await desk.private(desk.ada, mark, "Removed from"))
    assert (
        f"Added to *{SNEAKERS}*: {joining['name']}." in done
        and f"Removed from *{SNEAKERS}*: {leaving['name']}." in done
    )
    after = {m["id"] for m in (await desk.minds_api("GET", f"/audiences/{SNEAKERS_ID}"))["minds"]}
    assert joining["id"] in after and leaving["id"] not in after
    assert (await desk.minds_api("GET", f"/minds/{leaving['id']}"))["name"] == leaving["name"], "the Mind is kept"


async def test_a_formation_is_proposed_reviewed_created_recomputed_and_deleted(desk: Desk) -> None:
    listed = await desk.private(
        desk.ben, await press(desk, desk.ben, "audience_formations", await card(desk, desk.ben)), "Formations."
    )
    assert f"*{SNEAKERS}*: 2 Formations." in shown(listed) and "*Age*:" in shown(listed)

    since = await press(desk, desk.ben, "formation_new", listed)
    assert REFUSED in shown(await desk.private(desk.ben, since, "approvers"))

    mine = await desk.private(
        desk.ada, await press(desk, desk.ada, "audience_formations", await card(desk, desk.ada)), "Formations."
    )
    await press(desk, desk.ada, "formation_new", mine)
    ask = await desk.modal(desk.ada, "What should the members be split by?")
    await desk.emu.submit_view(user=desk.ada, view_id=ask.id, inputs={"formation_request/value": "split by location"})
    review = await desk.modal(desk.ada, "Audience by location", "Who belongs to subgroup 1")
    mark = desk.emu.mark()
    await desk.emu.submit_view(user=desk.ada, view_id=review.id, inputs={"formation_name/value": "Cities"})
    made = shown(await desk.private(desk.ada, mark, "Minds is building the Formation"))
    assert "*Cities*" in made and "counts are provisional until it is ready" in made
    cities = next(
        f for f in await desk.minds_api("GET", f"/audiences/{SNEAKERS_ID}/formations") if f["name"] == "Cities"
    )

    again = await desk.private(
        desk.ada, await press(desk, desk.ada, "audience_formations", await card(desk, desk.ada)), "Cities"
    )
    delete_button = f"formation_delete:{cities['id']}"
    confirm = next(
        e["confirm"] for b in again.blocks for e in b.get("elements", []) if e.get("action_id") == delete_button
    )
    assert confirm["text"]["text"].startswith(f"Delete the Formation *Cities* of *{SNEAKERS}*?")
    recomputed = await press(desk, desk.ada, f"formation_recompute:{cities['id']}", again)
    assert "Minds is sorting the current members into *Cities* again" in shown(
        await desk.private(desk.ada, recomputed, "again")
    )

    gone = await press(desk, desk.ada, delete_button, again)
    assert "Deleted the Formation *Cities*." in shown(await desk.private(desk.ada, gone, "Deleted the Formation"))
    names = [f["name"] for f in await desk.minds_api("GET", f"/audiences/{SNEAKERS_ID}/formations")]
    assert names == ["Age", "Location"]


async def test_recalibrate_adds_a_distribution_and_needs_consent_for_shared_members(desk: Desk) -> None:
    other = next(a for a in await desk.minds_api("GET", "/audiences?limit=100") if a["name"] != SNEAKERS)
    await desk.minds_api("POST", f"/audiences/{SNEAKERS_ID}/members", {"mindIds": [other["minds"][0]["id"]]})

    async def recalibrate(*, consent: bool) -> str:
        since = await desk.type(desk.ada, f'recalibrate "{SNEAKERS}"')
        modal = await desk.modal(desk.ada, "A distribution to add")
        inputs: dict[str, Any] = {"requested_distribution/value": "household income"}
        if consent:
            inputs["allow_shared_minds/value"] = ["allow"]
        await desk.emu.submit_view(user=desk.ada, view_id=modal.id, inputs=inputs)
        confirm = await desk.modal(desk.ada, "Distribution to add: “household income”")
        assert ("Members that other Audiences share may change there too." in shown(confirm)) is consent
        await desk.emu.submit_view(user=desk.ada, view_id=confirm.id)
        return since

    since = await recalibrate(consent=False)
    refused = await desk.posted(since, lambda m: "did not recalibrate" in m.text and m.is_reply)
    shared = other["minds"][0]["name"]
    assert refused.text == (
        f"Minds did not recalibrate the Audience: {shared} also belongs to another Audience, and recalibrating would "
        "change it there too. To go ahead, tick “Also change members that other Audiences share”. Nothing changed."
    )

    since = await recalibrate(consent=True)
    await desk.posted(since, lambda m: "Minds recalibrated the Audience" in m.text and m.is_reply)
    sources = (await desk.minds_api("GET", f"/audiences/{SNEAKERS_ID}"))["sources"]
    assert sources[-1]["text"] == "Add a distribution: household income"


async def test_the_card_offers_the_managing_row(desk: Desk) -> None:
    ids = action_ids((await card(desk, desk.ben)).blocks)
    row = ["audience_members", "audience_formations", "audience_edit", "audience_duplicate_named", "audience_delete"]
    assert [a for a in ids if a in row] == row


async def test_follow_and_portraits_from_the_cards_menu(desk: Desk) -> None:
    shown_card = await card(desk, desk.ada)

    async def choose(verb: str) -> str:
        since = desk.emu.mark()
        delivery = await desk.emu.select_option(
            user=desk.ada,
            action_id="audience_more",
            value=f"{verb}:{SNEAKERS_ID}",
            channel=desk.research,
            ts=shown_card.ts,
        )
        assert delivery.ok, delivery.error
        return since

    followed = await desk.private(desk.ada, await choose("follow"), "followed")
    assert f"Minds saved *{SNEAKERS}* for this workspace's account (followed)." in shown(followed)
    unfollowed = await desk.private(desk.ada, await choose("unfollow"), "unfollowed")
    assert f"Minds no longer saves *{SNEAKERS}* for this workspace's account (unfollowed)." in shown(unfollowed)

    await choose("portraits")
    dialog = await desk.modal(desk.ada, "Existing portraits")
    assert f"*{SNEAKERS}*: Minds would make a portrait for 12 of 12 members; 0 already have one." in shown(dialog)
    mark = desk.emu.mark()
    await desk.emu.submit_view(user=desk.ada, view_id=dialog.id, inputs={"portraits_force/value": ["force"]})
    queued = await desk.private(desk.ada, mark, "portraits for")
    assert f"Minds queued 12 portraits for *{SNEAKERS}*; they arrive in the background." in shown(queued)

    refused = await desk.private(desk.ben, await _choose_as(desk, desk.ben, "follow"), "approvers")
    assert REFUSED in shown(refused)


async def _choose_as(desk: Desk, user: str, verb: str) -> str:
    shown_card = await card(desk, user)
    since = desk.emu.mark()
    await desk.emu.select_option(
        user=user, action_id="audience_more", value=f"{verb}:{SNEAKERS_ID}", channel=desk.research, ts=shown_card.ts
    )
    return since


def option_value(modal: Any, block_id: str, text: str) -> str:
    """The value of the option a person reads as ``text`` in the modal's block ``block_id``."""
    block = next(b for b in modal.payload["blocks"] if b.get("block_id") == block_id)
    return next(o["value"] for o in block["element"]["options"] if o["text"]["text"] == text)


async def _recalibrate_with(desk: Desk, inputs: Any, *confirm_words: str) -> tuple[str, Any]:
    """Ada recalibrates from the dialog: ``inputs`` (or a function of the opened modal giving them), then
    confirms once the confirmation shows ``confirm_words``; (mark before, the confirmation)."""
    since = await desk.type(desk.ada, f'recalibrate "{SNEAKERS}"')
    modal = await desk.modal(desk.ada, "research query that replaces the brief")
    await desk.emu.submit_view(user=desk.ada, view_id=modal.id, inputs=inputs(modal) if callable(inputs) else inputs)
    confirm = await desk.modal(desk.ada, "Confirm recalibration", *confirm_words)
    await desk.emu.submit_view(user=desk.ada, view_id=confirm.id)
    return since, confirm


async def test_a_research_query_with_extra_links_and_keywords_replaces_the_brief_and_keeps_the_sources(
    desk: Desk,
) -> None:
    inputs = {
        "query/value": "Sneaker collectors in Austria",
        "sources_links/value": "https://example.com/sneakers\nhttps://example.com/resale",
        "sources_keywords/value": "limited drops, resale, limited drops",
    }
    since, confirm = await _recalibrate_with(desk, inputs, "Research query, replacing the brief")
    assert "Research query, replacing the brief: “Sneaker collectors in Austria”" in shown(confirm)
    assert "Extra links: https://example.com/sneakers, https://example.com/resale" in shown(confirm)
    assert "Extra keywords: limited drops, resale" in shown(confirm)
    request = await desk.posted(since, lambda m: "asked Minds to recalibrate" in m.text)
    assert request.text == (
        f"<@{desk.ada}> asked Minds to recalibrate *{SNEAKERS}* from a new research query: "
        "“Sneaker collectors in Austria”"
    )
    await desk.posted(since, lambda m: "Minds recalibrated the Audience" in m.text and m.is_reply)
    sources = (await desk.minds_api("GET", f"/audiences/{SNEAKERS_ID}"))["sources"]
    assert [(s["kind"], s["text"] or s["url"]) for s in sources if s["kind"] in ("keyword", "link")] == [
        ("keyword", "limited drops"),
        ("keyword", "resale"),
        ("link", "https://example.com/sneakers"),
        ("link", "https://example.com/resale"),
    ]
    assert not [s for s in sources if s["kind"] == "adjustment"], "a replacing query is not kept for replay"


async def test_an_instruction_longer_than_slacks_metadata_reaches_minds_whole(desk: Desk) -> None:
    instruction = "skew younger and " + "more urban " * 260  # 2,877 characters: more than private_metadata holds
    since, _confirm = await _recalibrate_with(desk, {"instruction/value": instruction}, "Instruction:")
    await desk.posted(since, lambda m: "Minds recalibrated the Audience" in m.text and m.is_reply)
    sources = (await desk.minds_api("GET", f"/audiences/{SNEAKERS_ID}"))["sources"]
    assert [s["text"] for s in sources if s["kind"] == "adjustment"] == [instruction.strip()]


async def test_selection_mode_keeps_only_the_picked_grounded_distributions(desk: Desk) -> None:
    grounding = (await desk.minds_api("GET", f"/audiences/{SNEAKERS_ID}"))["grounding"]
    assert [d["name"] for d in grounding["distributions"]] == ["Age", "Gender", "Household income"]

    def picked(modal: Any) -> dict[str, Any]:
        values = [option_value(modal, "selection", name) for name in ("Age", "Region")]
        return {"mode/value": "selection", "selection/value": values}

    since, confirm = await _recalibrate_with(desk, picked, "Selection mode")
    assert "Selection mode, no new research: only these distributions drive the members: Age, Region" in shown(confirm)
    assert "No new research: Minds re-allocates the members to the distributions you picked." in shown(confirm)
    request = await desk.posted(since, lambda m: "asked Minds to recalibrate" in m.text)
    assert request.text == (
        f"<@{desk.ada}> asked Minds to recalibrate *{SNEAKERS}* on a selection of its grounded distributions"
    )
    await desk.posted(since, lambda m: "Minds recalibrated the Audience" in m.text and m.is_reply)
    after = (await desk.minds_api("GET", f"/audiences/{SNEAKERS_ID}"))["grounding"]
    assert [d["name"] for d in after["distributions"]] == ["Age", "Region"]


async def test_the_dialog_refuses_mixed_modes_and_both_an_instruction_and_a_query_and_sends_nothing(
    desk: Desk,
) -> None:
    async def refused(inputs: dict[str, str]) -> dict[str, str]:
        await desk.type(desk.ada, f'recalibrate "{SNEAKERS}"')
        modal = await desk.modal(desk.ada, "research query that replaces the brief")
        await desk.emu.submit_view(user=desk.ada, view_id=modal.id, inputs=inputs)
        still = await desk.modal(desk.ada, "research query that replaces the brief")
        assert still.id == modal.id
        await desk.emu.close_view(user=desk.ada, view_id=modal.id)
        return dict(still.errors)

    assert await refused({"instruction/value": "skew younger", "query/value": "Austria"}) == {
        "query": "Give an instruction or a research query that replaces the brief, not both."
    }
    assert await refused({"mode/value": "selection", "sources_keywords/value": "resale"}) == {
        "mode": "Selection mode sends only the picked distributions: empty the research fields or pick Research."
    }
    assert await refused({"sources_links/value": "example.com/sneakers"}) == {
        "sources_links": "Each line must be one link starting with https://."
    }
    sources = (await desk.minds_api("GET", f"/audiences/{SNEAKERS_ID}"))["sources"]
    assert [s["kind"] for s in sources] == ["brief"]
