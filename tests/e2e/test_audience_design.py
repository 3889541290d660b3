"""Designing an Audience's sample from Slack, against the local demo (the real bot, the Slack emulator, the Minds
sandbox): ``/minds audience new`` opens the dialog with the account's limits and builds with the size, name, mode
and links chosen (``create_audience_from_brief``), a public link only when ticked; a CSV of respondents on a Slack
message is previewed for review (``preview_audience_dataset_segmentation``) and built from exactly what was shown;
a screener is refused as respondent data; **New Audience from these Minds** on ``/minds minds`` makes an Audience of
the chosen Minds (``create_audience``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from slack_emulator.state import Message, View
from tests.e2e.desk import Desk, action_ids, open_desk, shown

DATASET = (
    "respondent_id,age_band,region,nps\n"
    "r1,18-34,North,9\nr2,18-34,South,7\nr3,35-54,North,8\nr4,35-54,North,\nr5,55+,South,10\n"
    "r6,18-34,North,6\nr7,35-54,South,9\n"
)
SCREENER = "question,type,options\nQ1,single,Yes|No\nQ2,scale,1-5\n"
BRIEF = "Commuters in Lyon who cycle to work every day"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        await running.faults(run_speed=50)
        yield running


async def open_dialog(desk: Desk) -> View:
    await desk.type(desk.ben, "audience new")
    return await desk.modal(desk.ben, "Size (Minds)", "Creation mode")  # updated once the limits were read


def mode_option(modal: View, mode: str) -> dict[str, Any]:
    for block in modal.payload["blocks"]:
        element = block.get("element") or {}
        if element.get("action_id") == "audience_new_mode_select":
            return next(o for o in element["options"] if o["value"] == mode)
    raise AssertionError("the dialog has no creation mode")


async def ready_in_thread(desk: Desk, since: str) -> Message:
    request = await desk.posted(since, lambda m: "new Audience from this brief" in m.text + shown(m))

    def ready() -> Message | None:
        replies = desk.emu.state.replies(desk.research, request.ts)
        return next((m for m in replies if "is ready with" in m.text), None)

    return await desk.wait(ready)


async def audience_named(desk: Desk, name: str) -> dict[str, Any]:
    listed = await desk.minds_api("GET", "/audiences?limit=100")
    (found,) = [a for a in listed if a["name"] == name]
    return await desk.minds_api("GET", f"/audiences/{found['id']}")


async def test_the_dialog_shows_the_limits_and_builds_with_the_chosen_size_name_mode_and_links(desk: Desk) -> None:
    since = desk.emu.mark()
    modal = await open_dialog(desk)
    text = shown(modal)
    assert "Leave empty and Minds sizes it from the brief (up to 24 Minds). You may ask for up to 50 Minds." in text
    assert [o["text"]["text"] for o in _modes(modal)] == ["Balanced", "Segment coverage", "Benchmark depth"]
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={
            "audience_new_brief_input": BRIEF,
            "audience_new_name_input": "Lyon cyclists",
            "audience_new_size_input": "6",
            "audience_new_mode_select": mode_option(modal, "segment_coverage"),
            "audience_new_links_input": "https://example.com/lyon-mobility-report\nhttps://example.com/velo",
        },
    )
    done = await ready_in_thread(desk, since)
    assert "Audience *Lyon cyclists* is ready with 6 Minds." in done.text
    made = await audience_named(desk, "Lyon cyclists")
    assert len(made["minds"]) == 6 and made["isLinkSharingEnabled"] is False  # no public link unless ticked


def _modes(modal: View) -> list[dict[str, Any]]:
    for block in modal.payload["blocks"]:
        element = block.get("element") or {}
        if element.get("action_id") == "audience_new_mode_select":
            return list(element["options"])
    return []


async def test_a_size_beyond_the_plan_and_a_link_that_is_no_link_are_said_beside_their_fields(desk: Desk) -> None:
    modal = await open_dialog(desk)
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={
            "audience_new_brief_input": BRIEF,
            "audience_new_size_input": "51",
            "audience_new_links_input": "lyon mobility report",
        },
    )
    still = await desk.modal(desk.ben, "Size (Minds)")
    assert still.id == modal.id and still.errors == {
        "audience_new_size": "Give a whole number of Minds from 1 to 50.",
        "audience_new_links": "Each line must be one link starting with https://.",
    }
    assert [a for a in await desk.minds_api("GET", "/audiences?limit=100") if "Lyon" in a["name"]] == []


async def test_a_public_link_is_turned_on_only_when_ticked(desk: Desk) -> None:
    since = desk.emu.mark()
    modal = await open_dialog(desk)
    public = {"value": "public", "text": {"type": "plain_text", "text": "Turn on a public link to this Audience"}}
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={
            "audience_new_brief_input": BRIEF,
            "audience_new_name_input": "Open Lyon cyclists",
            "audience_new_size_input": "3",
            "audience_new_public_box": [public],
        },
    )
    await ready_in_thread(desk, since)
    made = await audience_named(desk, "Open Lyon cyclists")
    assert made["isLinkSharingEnabled"] is True and made["publicShareId"]


async def test_a_dataset_is_previewed_for_review_then_built_from_what_was_shown(desk: Desk) -> None:
    shared = desk.emu.share_file(
        user=desk.ada, channel=desk.research, name="lyon-panel.csv", content=DATASET.encode(), text="our panel"
    )
    since = desk.emu.mark()
    modal = await open_dialog(desk)
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={
            "audience_new_brief_input": BRIEF,
            "audience_new_name_input": "Lyon panel",
            "audience_new_dataset_input": desk.emu.workspace.permalink(shared),
        },
    )
    review = await desk.modal(desk.ben, "Segments that shape the Audience")
    text = shown(review)
    assert "*lyon-panel.csv*: 6 of 7 rows used (every completed respondent row). Minds recommends 6 Minds." in text
    assert "*Age band*: 18-34 50% (3) · 35-54 33.3% (2) · 55+ 16.7% (1)" in text
    assert "Held out (outcomes and drivers, not used to shape it): Nps" in text
    assert "Relationships between variables: 1. Dependencies: 0." in text
    assert "Built in the Benchmark depth mode, which a reviewed dataset needs." in text
    assert [a for a in await desk.minds_api("GET", "/audiences?limit=100") if a["name"] == "Lyon panel"] == []
    await desk.emu.submit_view(user=desk.ben, view_id=review.id, inputs={})
    done = await ready_in_thread(desk, since)
    assert "Audience *Lyon panel* is ready with 6 Minds." in done.text


async def test_a_screener_is_refused_as_respondent_data_and_nothing_is_built(desk: Desk) -> None:
    shared = desk.emu.share_file(user=desk.ada, channel=desk.research, name="screener.csv", content=SCREENER.encode())
    modal = await open_dialog(desk)
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={
            "audience_new_brief_input": BRIEF,
            "audience_new_name_input": "Screened",
            "audience_new_dataset_input": desk.emu.workspace.permalink(shared),
        },
    )
    refused = await desk.modal(desk.ben, "The dataset was not previewed")
    assert "questionnaire or programming grid" in shown(refused)
    assert [a for a in await desk.minds_api("GET", "/audiences?limit=100") if a["name"] == "Screened"] == []


async def test_new_audience_from_the_minds_on_a_minds_page(desk: Desk) -> None:
    since = await desk.type(desk.ben, "minds student")
    listing = await desk.private(desk.ben, since, "New Audience from these Minds")
    listed = await desk.minds_api("GET", "/minds?search=student&limit=10")
    mark = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="audience_from_minds", channel=desk.research, ts=listing.ts)
    modal = await desk.modal(desk.ben, "Type to search your Minds")
    chosen = [o for b in modal.payload["blocks"] for o in ((b.get("element") or {}).get("initial_options") or [])]
    assert [o["value"] for o in chosen] == [m["id"] for m in listed]
    found = await desk.emu.request_options(
        user=desk.ben, action_id="audience_new_minds", value="student", view_id=modal.id
    )
    assert [o["text"]["text"] for o in found] == [m["name"] for m in listed]
    await desk.emu.submit_view(
        user=desk.ben, view_id=modal.id, inputs={"audience_new_name_input": "Students", "audience_new_minds": chosen}
    )
    made = await desk.posted(mark, lambda m: "made the Audience" in m.text)
    assert f"<@{desk.ben}> made the Audience *Students* from {len(listed)} Minds." in made.text
    audience = await audience_named(desk, "Students")
    assert sorted(m["id"] for m in audience["minds"]) == sorted(m["id"] for m in listed)
    assert audience["isLinkSharingEnabled"] is False
    assert "audience_from_minds" in action_ids(listing.blocks)
