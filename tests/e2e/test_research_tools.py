"""The research tools tried in the local demo as a research team would: the method catalogue, an Audience's
card and its buttons, asking an Audience directly, invitations, recalibration and model connections. The real
bot in HTTP mode, the Slack emulator's signed requests, the Minds sandbox behind it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from slack_emulator.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown

SNEAKERS = "Gen Z sneaker buyers in Germany"
LAUNCH = "Launch positioning"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def audience_card(desk: Desk, user: str) -> object:
    since = await desk.type(user, f'audience "{SNEAKERS}"')
    return await desk.private(user, since, "Coverage of the standard dimensions")


async def test_help_lists_the_research_tools(desk: Desk) -> None:
    since = await desk.type(desk.ben, "help")
    answer = shown(await desk.private(desk.ben, since, "/minds plan"))
    for command in ("methods", "audience <name>", "ask audience", "recalibrate", "invite", "models"):
        assert f"/minds {command}" in answer, f"help does not mention /minds {command}"


async def test_methods_says_which_run_and_a_plan_request_gets_a_hint(desk: Desk) -> None:
    since = await desk.type(desk.ben, "methods")
    listed = shown(await desk.private(desk.ben, since, "Research methods in Minds"))
    assert "*MaxDiff* (`maxdiff`) — runnable" in listed
    assert "not runnable (planned)" in listed and "alternative to review: MaxDiff" in listed
    assert "needs: pricePoints, currency" in listed

    since = await desk.type(desk.ben, f'plan "{LAUNCH}" Rank our six features with a MaxDiff and a Conjoint')
    hint = shown(await desk.private(desk.ben, since, "Methods you asked for"))
    assert "*MaxDiff*: Minds can run it" in hint and "*Conjoint*: listed by Minds but not runnable" in hint


async def test_audience_card_shows_coverage_formations_and_its_buttons(desk: Desk) -> None:
    card = await audience_card(desk, desk.ben)
    text = shown(card)
    assert "12 Minds" in text and "sourced: age" in text and "missing: household size" in text
    assert "*Age*:" in text and "*Location*:" in text and "Builds: none in progress" in text
    managing = {"audience_members", "audience_formations", "audience_edit", "audience_duplicate_named"}
    assert {"audience_ask", "audience_delete"} | managing <= set(action_ids(card.blocks))  # type: ignore[attr-defined]


async def test_audience_card_duplicate_dialog_makes_one_copy_under_the_name_given(desk: Desk) -> None:
    card = await audience_card(desk, desk.ben)
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="audience_duplicate_named", channel=desk.research, ts=card.ts)  # type: ignore[attr-defined]
    dialog = await desk.modal(desk.ben, "Name of the copy", f"{SNEAKERS} (copy)", "Mind allowance")
    await desk.emu.submit_view(user=desk.ben, view_id=dialog.id, inputs={"copy_name/value": "Sneakers, Berlin panel"})
    await desk.private(desk.ben, since, "Duplicated", "Sneakers, Berlin panel")
    names = [a["name"] for a in await desk.minds_api("GET", "/audiences?limit=100")]
    assert names.count("Sneakers, Berlin panel") == 1 and f"{SNEAKERS} (copy)" not in names


async def test_ask_audience_says_a_private_study_is_created_and_answers_in_the_thread(desk: Desk) -> None:
    before = await desk.study_names()
    question = "What would make you pay full price for a sneaker?"
    since = await desk.type(desk.ben, f'ask audience "{SNEAKERS}" {question}')
    notice = await desk.private(desk.ben, since, "private Study")
    assert "creates a new private Study in Minds" in shown(notice)
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)
    assert question in parent.text

    def result() -> bool:
        replies = desk.emu.state.replies(desk.research, parent.ts)
        return any("answers_show" in action_ids(m.blocks) for m in replies)

    await desk.wait(result)
    created = [n for n in await desk.study_names() if n not in before]
    assert len(created) == 1 and created[0].startswith(f"Ask {SNEAKERS}")


async def test_invite_is_confirmed_then_reports_the_undelivered_address(desk: Desk) -> None:
    since = await desk.type(desk.ada, f'invite "{LAUNCH}" ana@example.com bob@nowhere.invalid')
    prompt = await desk.private(desk.ada, since, "Send invitations")
    await desk.emu.click_button(user=desk.ada, action_id="invite_confirmed", channel=desk.research, ts=prompt.ts)
    done = shown(await desk.private(desk.ada, since, "Could not deliver"))
    assert "ana@example.com" in done and "bob@nowhere.invalid (Mailbox unavailable)" in done

    since = await desk.type(desk.ben, f'invite "{LAUNCH}" ana@example.com')
    assert "workspace admins" in shown(await desk.private(desk.ben, since, "owner"))


async def test_recalibrate_confirms_then_shows_calibrating_and_ready_in_a_thread(desk: Desk) -> None:
    await desk.faults(run_speed=0.05)  # slow enough to see "Calibrating…"
    since = await desk.type(desk.ada, f'recalibrate "{SNEAKERS}"')
    modal = await desk.modal(desk.ada, "What should change?")
    await desk.emu.submit_view(user=desk.ada, view_id=modal.id, inputs={"instruction/value": "make women 60%"})
    confirm = await desk.modal(desk.ada, "Which members may change")
    assert "at most all 12 Minds" in shown(confirm)
    await desk.emu.submit_view(user=desk.ada, view_id=confirm.id)
    request = await desk.posted(since, lambda m: "asked Minds to recalibrate" in m.text)
    assert "make women 60%" in request.text

    def line(needle: str) -> Message | None:
        return next((m for m in desk.emu.state.replies(desk.research, request.ts) if needle in m.text), None)

    await desk.wait(lambda: line("4 retraining"))
    await desk.faults(run_speed=50)
    await desk.wait(lambda: line("every member is ready"))

    since = await desk.type(desk.ben, f'recalibrate "{SNEAKERS}"')
    assert "workspace admins" in shown(await desk.private(desk.ben, since, "owner"))


async def test_models_lists_the_verified_connection_first(desk: Desk) -> None:
    since = await desk.type(desk.ben, "models")
    answer = shown(await desk.private(desk.ben, since, "Model connections: 1 of 2 verified"))
    assert answer.index("Team Azure GPT") < answer.index("Local Llama")
    assert "*not verified*: structuredOutput not available" in answer
    await desk.faults(model_connections=False)
    since = await desk.type(desk.ben, "models")
    await desk.private(desk.ben, since, "not enabled on this Minds server")


async def test_audience_card_export_button_attaches_the_brief_in_a_thread(desk: Desk) -> None:
    card = await audience_card(desk, desk.ben)
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="audience_export", channel=desk.research, ts=card.ts)  # type: ignore[attr-defined]
    # the button runs `/minds export audience <id> md` (one implementation with the typed command)
    parent = await desk.posted(since, lambda m: "asked for the Audience brief" in m.text and not m.is_reply)
    reply = await desk.posted(since, lambda m: bool(m.files), thread_ts=parent.ts)
    [file_id] = reply.files
    assert (desk.emu.file_content(file_id) or b"").startswith(f"# {SNEAKERS}".encode())


async def test_files_shared_in_a_thread_become_sources_of_a_new_audience(desk: Desk) -> None:
    await desk.faults(run_speed=50)
    top = desk.emu.share_file(user=desk.ben, channel=desk.research, name="brief.md", content=b"# Cafe owners\n")
    shared = desk.emu.share_file(
        user=desk.ben,
        channel=desk.research,
        name="survey.csv",
        content="city,answer\nLisbon,oat milk\nPorto,caf\u00e9\n".encode(),
        thread_ts=top.ts,
    )
    since = desk.emu.mark()
    delivery = await desk.emu.message_shortcut(
        user=desk.ben, callback_id="minds_audience_from_files", channel=desk.research, ts=shared.ts
    )
    assert delivery.ok
    modal = await desk.modal(desk.ben, "survey.csv")
    await desk.emu.submit_view(user=desk.ben, view_id=modal.id, inputs={"value": "Cafe owners in Portugal"})
    note = await desk.private(desk.ben, since, "imported 1 source file")
    assert "survey.csv" in shown(note) and "checksums match" in shown(note)
    request = await desk.posted(since, lambda m: "new Audience from this brief" in m.text + shown(m))
    assert "Cafe owners in Portugal" in shown(request)

    def ready() -> Message | None:
        return next((m for m in desk.emu.state.replies(desk.research, request.ts) if "is ready with" in m.text), None)

    await desk.wait(ready)
    newest = (await desk.minds_api("GET", "/audiences?limit=1"))[0]
    detail = await desk.minds_api("GET", f"/audiences/{newest['id']}")
    assert [s["filename"] for s in detail["sources"] if s["kind"] == "file"] == ["survey.csv"]


async def test_audience_card_ask_button_asks_one_question_in_a_new_private_study(desk: Desk) -> None:
    card = await audience_card(desk, desk.ben)
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="audience_ask", channel=desk.research, ts=card.ts)  # type: ignore[attr-defined]
    modal = await desk.modal(desk.ben, "Ask an Audience", SNEAKERS)
    await desk.emu.submit_view(user=desk.ben, view_id=modal.id, inputs={"value": "Which colour do you wear most?"})
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)
    assert "Which colour do you wear most?" in parent.text
    await desk.private(desk.ben, since, "creates a new private Study in Minds")


async def test_a_result_about_an_image_gets_a_heatmap_after_the_cost_is_confirmed_and_no_export(
    desk: Desk,
) -> None:
    question = "What catches your eye first in this ad? https://cdn.example.com/ad.png"
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {question}')
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)

    def result() -> Message | None:
        replies = desk.emu.state.replies(desk.research, parent.ts)
        return next((m for m in replies if "result_heatmap" in action_ids(m.blocks)), None)

    answered = await desk.wait(result)
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="result_heatmap", channel=desk.research, ts=answered.ts)
    prompt = await desk.private(desk.ben, since, "Start heatmap")
    assert "needs Premium and uses one response per Mind" in shown(prompt)
    await desk.emu.click_button(user=desk.ben, action_id="heatmap_start", channel=desk.research, ts=prompt.ts)

    def analysis() -> Message | None:
        replies = desk.emu.state.replies(desk.research, parent.ts)
        return next((m for m in replies if "Heatmap of the image" in shown(m)), None)

    await desk.wait(analysis)
    # the export is of website heatmaps only (catalogue rule 91): an image's result does not offer it
    assert "Export heatmap" not in shown(answered) and "result_heatmap_export" not in action_ids(answered.blocks)


async def test_a_result_about_a_website_offers_export_heatmap_and_attaches_the_zip(desk: Desk) -> None:
    question = "How does our launch page feel? https://shop.example.com/launch"
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {question}')
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)

    def result() -> Message | None:
        replies = desk.emu.state.replies(desk.research, parent.ts)
        return next((m for m in replies if "result_heatmap_export" in action_ids(m.blocks)), None)

    answered = await desk.wait(result)
    assert "Export heatmap" in shown(answered) and "result_heatmap" not in action_ids(answered.blocks)
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="result_heatmap_export", channel=desk.research, ts=answered.ts)
    archive = await desk.posted(since, lambda m: bool(m.files), thread_ts=parent.ts)
    assert (desk.emu.file_content(archive.files[0]) or b"").startswith(b"PK")
