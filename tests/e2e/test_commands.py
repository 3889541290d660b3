"""Every ``/minds`` subcommand tried as a new user would: the real bot in HTTP mode, the Slack emulator's
signed requests, the Minds sandbox behind it. Each test checks what a person would notice — the text shown,
the buttons offered, the dialog that opens, the file attached, nothing posted twice."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from slack_emulator.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown

LAUNCH = "Launch positioning"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def study_id(desk: Desk, name: str) -> str:
    return next(s["id"] for s in await desk.minds_api("GET", "/studies?limit=100") if s["name"] == name)


# ---- help and browsing


async def test_help_lists_every_command_privately_once(desk: Desk) -> None:
    since = await desk.type(desk.ben, "help")
    answer = await desk.private(desk.ben, since, "/minds plan")
    for command in (
        "studies",
        "audiences",
        "minds [query]",
        "study <study>",
        "ask",
        "runs",
        "summary",
        "export",
        "share",
        "duplicate",
        "audience new",
        "digest add",
        "approvers",
        "connect",
    ):
        assert f"/minds {command}" in shown(answer), f"help does not mention /minds {command}"
    assert "refresh [force] [short|standard|detailed]" in shown(answer)
    assert "once every confirmation question is answered" in shown(answer)
    assert "same key" not in shown(answer), "help says what a person gets, not how the bot does it"
    assert len(desk.privates(desk.ben, since)) == 1
    assert desk.channel_since(since) == [], "help is private"


async def test_studies_page_ten_at_a_time_with_next_and_previous(desk: Desk) -> None:
    for number in range(1, 12):
        await desk.minds_api("POST", "/studies", {"name": f"Tagline test {number:02d}"})
    since = await desk.type(desk.ben, "studies")
    first = await desk.private(desk.ben, since, "Studies 1–10 of 13")
    assert "browse_next" in action_ids(first.blocks)
    assert "Tagline test 11" in shown(first) and LAUNCH not in shown(first), "newest first"
    assert sum(a.startswith("minds_rerun:") for a in action_ids(first.blocks)) == 10, "each Study has Open"

    await desk.emu.click_button(user=desk.ben, action_id="browse_next", channel=desk.research, ts=first.ts)
    second = await desk.private(desk.ben, since, "Studies 11–13 of 13")
    assert LAUNCH in shown(second) and "Pricing pulse" in shown(second)
    assert "browse_prev" in action_ids(second.blocks) and "browse_next" not in action_ids(second.blocks)


async def test_audiences_show_their_mind_counts(desk: Desk) -> None:
    since = await desk.type(desk.ben, "audiences")
    answer = await desk.private(desk.ben, since, "Audiences 1–3 of 3")
    assert "Gen Z sneaker buyers in Germany* — 12 Minds" in shown(answer)
    assert "Korean skincare enthusiasts* — 16 Minds" in shown(answer)


async def test_minds_with_a_query_finds_by_name_and_says_when_nothing_matches(desk: Desk) -> None:
    mind = (await desk.minds_api("GET", "/minds?limit=1"))[0]["name"]
    since = await desk.type(desk.ben, f"minds {mind}")
    found = await desk.private(desk.ben, since, mind)
    assert "No Mind matches" not in shown(found)

    since = await desk.type(desk.ben, "minds Zyxwvut Qqq")
    nothing = await desk.private(desk.ben, since, "No Mind matches")
    assert "Zyxwvut Qqq" in shown(nothing)


# ---- the Study card and its buttons


async def card(desk: Desk, user: str) -> Any:
    since = await desk.type(user, f'study "{LAUNCH}"')
    return await desk.private(user, since, "Recent runs")


async def test_study_card_shows_audiences_runs_and_four_buttons(desk: Desk) -> None:
    shown_card = await card(desk, desk.ben)
    text = shown(shown_card)
    assert "Gen Z sneaker buyers in Germany — 12 Minds" in text and "Korean skincare enthusiasts — 16 Minds" in text
    assert "completed" in text and "Public link: off" in text
    assert {"study_plan", "study_ask", "study_summary", "study_export"} <= set(action_ids(shown_card.blocks))


async def test_card_ask_button_opens_the_dialog_with_the_study_chosen(desk: Desk) -> None:
    shown_card = await card(desk, desk.ben)
    await desk.emu.click_button(user=desk.ben, action_id="study_ask", channel=desk.research, ts=shown_card.ts)
    modal = await desk.modal(desk.ben, "question_input")
    assert LAUNCH in shown(modal), "the Study is already chosen"


async def test_card_summary_button_shows_the_summary(desk: Desk) -> None:
    shown_card = await card(desk, desk.ben)
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="study_summary", channel=desk.research, ts=shown_card.ts)
    summary = await desk.private(desk.ben, since, f"Summary of {LAUNCH}")
    assert "Most chose" in shown(summary)


async def test_card_plan_button_opens_the_plan_request_dialog(desk: Desk) -> None:
    shown_card = await card(desk, desk.ben)
    await desk.emu.click_button(user=desk.ben, action_id="study_plan", channel=desk.research, ts=shown_card.ts)
    modal = await desk.modal(desk.ben)
    assert modal.payload.get("submit"), "a dialog to submit the research request"


async def test_card_export_button_attaches_the_report_in_a_thread(desk: Desk) -> None:
    shown_card = await card(desk, desk.ben)
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="study_export", channel=desk.research, ts=shown_card.ts)
    parent = await desk.posted(since, lambda m: f"Export of {LAUNCH}" in m.text and not m.is_reply)
    reply = await desk.posted(since, lambda m: bool(m.files), thread_ts=parent.ts)
    assert [desk.emu.state.files[f].name for f in reply.files] == ["launch-positioning-full-report.md"]


# ---- ask, runs, summary


async def test_ask_one_question_gets_a_result_in_the_thread(desk: Desk) -> None:
    question = "Would you pay 20 euros more for a shoe made from recycled ocean plastic?"
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {question}')
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)
    assert question in parent.text

    def result() -> bool:
        replies = desk.emu.state.replies(desk.research, parent.ts)
        return any("answers_show" in action_ids(m.blocks) for m in replies)

    await desk.wait(result)
    charts = [f for m in desk.emu.state.replies(desk.research, parent.ts) for f in m.files]
    assert charts and all(desk.emu.state.files[f].name.endswith(".png") for f in charts)
    assert len([m for m in desk.channel_since(since) if "asked" in m.text and not m.is_reply]) == 1


async def test_ask_without_a_question_opens_the_dialog_and_its_answer_is_asked(desk: Desk) -> None:
    since = await desk.type(desk.ben, f'ask "{LAUNCH}"')
    modal = await desk.modal(desk.ben, "question_input", LAUNCH)
    # The Study and the channel are already chosen; the person only types the question.
    await desk.emu.submit_view(
        user=desk.ben, view_id=modal.id, inputs={"question_input": "Which colour should the shoe come in?"}
    )
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)
    assert "Which colour should the shoe come in?" in parent.text
    assert desk.emu.state.modal_stack(desk.ben) == []


async def test_ask_with_no_study_opens_a_searchable_pick_dialog(desk: Desk) -> None:
    since = await desk.type(desk.ben, "ask")
    modal = await desk.modal(desk.ben, "study_options", "question_input")
    options = await desk.emu.request_options(user=desk.ben, action_id="study_options", value="pric", view_id=modal.id)
    assert [o["text"]["text"] for o in options] == ["Pricing pulse"]
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={
            "where_select": desk.research,
            "study_options": options[0],
            "question_input": "Is 12 dollars a month fair for this service?",
        },
    )
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)
    assert "Pricing pulse" in parent.text


def block_lines(message: Any) -> list[str]:
    """The run lines of a message's sections, as Slack receives them (mrkdwn): bulleted, or numbered."""
    texts = [block["text"]["text"] for block in message.blocks if isinstance(block.get("text"), dict)]
    return [line for text in texts for line in text.splitlines() if re.match(r"(• |\d+\. )", line)]


async def test_runs_are_named_by_date_first_question_n_and_state_not_by_id(desk: Desk) -> None:
    study = await study_id(desk, LAUNCH)
    runs = await desk.minds_api("GET", f"/studies/{study}/runs?limit=10")
    since = await desk.type(desk.ben, f"runs {LAUNCH}")
    answer = await desk.private(desk.ben, since, f"Recent runs of {LAUNCH}")
    assert block_lines(answer) == [
        "1. <!date^1764666600^{date_short_pretty} {time}|2025-12-02 09:10 UTC> · “In a sentence or two, what is "
        "your first reaction to the recycled-material running shoe?” (+7 more questions) · n=28 · completed"
    ]  # the seeded run was not posted by the bot here: no thread link; numbered as /minds compare reads runs
    assert runs and all(run["runId"][:8] not in shown(answer) for run in runs), "no run is named by its id"


async def test_a_run_the_bot_posted_links_to_its_thread_from_the_study_card(desk: Desk) -> None:
    request = f'plan "{LAUNCH}" Test three taglines for our new running shoe with Gen Z buyers'
    plan = await desk.answered_plan(desk.ben, request)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    await desk.wait(lambda: desk.emu.state.replies(desk.research, plan.ts))  # the run is followed in the thread
    runs = await desk.minds_api("GET", f"/studies/{await study_id(desk, LAUNCH)}/runs?limit=1")
    shown_card = await card(desk, desk.ben)
    first = next(line for line in block_lines(shown_card) if line.startswith("• <!date^"))
    assert first.startswith("• <!date^") and " · “" in first, first
    assert first.endswith(f" · <{desk.emu.workspace.permalink(plan)}|thread>"), first
    assert runs[0]["runId"][:8] not in shown(shown_card)


async def test_summary_and_refresh_both_show_the_summary(desk: Desk) -> None:
    since = await desk.type(desk.ben, f"summary {LAUNCH}")
    first = await desk.private(desk.ben, since, f"Summary of {LAUNCH}")
    assert "Most chose" in shown(first)
    since = await desk.type(desk.ben, f'summary "{LAUNCH}" refresh')
    refreshed = await desk.private(desk.ben, since, f"Summary of {LAUNCH}")
    assert "Most chose" in shown(refreshed)
    assert not [e for e in desk.privates(desk.ben, since) if "went wrong" in e.text]
    since = await desk.type(desk.ben, f'summary "{LAUNCH}" refresh force short')
    await desk.private(desk.ben, since, f"Summary of {LAUNCH}")
    studies = await desk.minds_api("GET", "/studies?limit=100")
    launch = next(s["id"] for s in studies if s["name"] == LAUNCH)
    assert (await desk.minds_api("GET", f"/studies/{launch}/summary"))["length"] == "short"


# ---- export


async def test_export_with_format_and_kind_attaches_that_file_once(desk: Desk) -> None:
    since = await desk.type(desk.ben, f'export "{LAUNCH}" pdf brief')
    parent = await desk.posted(since, lambda m: f"Export of {LAUNCH}" in m.text and not m.is_reply)
    reply = await desk.posted(since, lambda m: bool(m.files), thread_ts=parent.ts)
    (file_id,) = reply.files
    assert desk.emu.state.files[file_id].name == "launch-positioning-executive-brief.pdf"
    assert (desk.emu.file_content(file_id) or b"").startswith(b"%PDF")
    await desk.wait(lambda: "attached below" in desk.emu.state.messages(desk.research)[-1].text)
    files = [f for m in desk.channel_since(since) for f in m.files]
    assert files == [file_id], "one export, one file"


async def test_an_unsupported_export_says_minds_reason_plainly(desk: Desk) -> None:
    since = await desk.type(desk.ben, f"export {LAUNCH} sav")
    failed = await desk.posted(since, lambda m: "export failed" in m.text)
    assert "(EXPORT_FAILED)" in failed.text
    assert "cannot produce full_report as sav" in failed.text, "Minds' own reason, not a guess"
    assert "Nothing was attached" in failed.text
    assert not [f for m in desk.channel_since(since) for f in m.files]


# ---- share, duplicate


async def test_share_on_asks_first_then_shows_the_link_and_off_turns_it_off(desk: Desk) -> None:
    sid = await study_id(desk, LAUNCH)
    since = await desk.type(desk.ben, f'share "{LAUNCH}" on')
    # By default turning a link on needs an approver (tests/e2e/test_spend_consent.py); Ada approves.
    hold = await desk.posted(since, lambda m: "wants to turn the public link" in m.text)
    await desk.emu.click_button(user=desk.ada, action_id="spend_hold_approve", channel=desk.research, ts=hold.ts)
    prompt = await desk.private(desk.ben, since, "Turn on the public link")
    assert "publicly readable" in shown(prompt)
    assert (await desk.minds_api("GET", f"/studies/{sid}"))["isLinkSharingEnabled"] is False, "nothing yet"

    await desk.emu.click_button(user=desk.ben, action_id="share_on_confirmed", channel=desk.research, ts=prompt.ts)
    on = await desk.private(desk.ben, since, "is on:")
    study = await desk.minds_api("GET", f"/studies/{sid}")
    assert study["isLinkSharingEnabled"] is True and study["publicShareId"] in on.text

    since = await desk.type(desk.ben, f'share "{LAUNCH}" off')
    off = await desk.private(desk.ben, since, "is off")
    assert "http" not in off.text
    assert (await desk.minds_api("GET", f"/studies/{sid}"))["isLinkSharingEnabled"] is False


async def test_duplicate_names_the_copy_and_a_redelivered_request_makes_no_second_copy(
    desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[bytes, dict[str, str]]] = []
    interactions = desk.emu.interactions
    original_post = interactions._post

    async def recording_post(kind: str, *, body: bytes, headers: dict[str, str]) -> Any:
        sent.append((body, headers))
        return await original_post(kind, body=body, headers=headers)

    monkeypatch.setattr(interactions, "_post", recording_post)
    since = await desk.type(desk.ben, "duplicate Pricing pulse")
    first = await desk.private(desk.ben, since, "Duplicated *Pricing pulse* as *Pricing pulse (copy)*")
    assert "already made" not in first.text
    assert (await desk.study_names()).count("Pricing pulse (copy)") == 1

    body, headers = sent[-1]  # the very same signed delivery again, as a retrying proxy would send it
    since = desk.emu.mark()
    replayed = await original_post("slash_command", body=body, headers=headers)
    assert replayed.status == 200 and not replayed.body  # acknowledged, and nothing more
    await desk.private(desk.ben, await desk.type(desk.ben, "help"), "/minds plan")
    assert not [e for e in desk.privates(desk.ben, since) if "Duplicated" in e.text]
    assert (await desk.study_names()).count("Pricing pulse (copy)") == 1


# ---- audiences from a brief


async def test_audience_new_reads_the_limits_then_shows_progress_then_the_audience(desk: Desk) -> None:
    await desk.faults(run_speed=0.05)  # builds take a few seconds, so the progress line can be seen
    since = await desk.type(desk.ben, "audience new Young urban cyclists in Berlin who commute daily")
    request = await desk.posted(since, lambda m: "new Audience from this brief" in m.text + shown(m))
    assert "Young urban cyclists in Berlin" in shown(request)

    def progress_line() -> Message | None:
        return next((m for m in desk.emu.state.replies(desk.research, request.ts) if "Building" in m.text), None)

    progress = await desk.wait(progress_line)
    assert "Your plan allows up to 50 Minds per Audience" in shown(progress), "limits are read before building"

    def ready() -> Message | None:
        return next((m for m in desk.emu.state.replies(desk.research, request.ts) if "is ready with" in m.text), None)

    done = await desk.wait(ready)
    assert done.ts == progress.ts, "the progress line in the thread becomes the result"
    assert "Young Urban Cyclists" in done.text and "8 Minds" in done.text
    names = [a["name"] for a in await desk.minds_api("GET", "/audiences?limit=100")]
    assert sum("Young Urban Cyclists" in n for n in names) == 1


# ---- digests, approvers, connect


async def test_digest_add_list_now_remove(desk: Desk) -> None:
    since = await desk.type(desk.ben, f'digest add daily 09:00 Europe/Berlin "{LAUNCH}"')
    added = await desk.private(desk.ben, since, "added")
    assert "every day at 09:00 (Europe/Berlin)" in added.text
    digest_id = added.text.split("`")[1]

    since = await desk.type(desk.ben, "digest list")
    listed = await desk.private(desk.ben, since, digest_id)
    assert "every day at 09:00" in shown(listed)

    since = await desk.type(desk.ben, f"digest now {digest_id}")
    await desk.private(desk.ben, since, f"Digest `{digest_id}` posted")
    news = await desk.posted(since, lambda m: not m.is_reply)
    assert LAUNCH in shown(news)
    runs = await desk.minds_api("GET", f"/studies/{await study_id(desk, LAUNCH)}/runs?limit=10")
    first = "In a sentence or two, what is your first reaction to the recycled-material running shoe?"
    assert f"• Research run “{first}” (" in shown(news), "a run is named by its first question"
    assert all(run["runId"][:8] not in shown(news) for run in runs)

    since = await desk.type(desk.ben, f"digest remove {digest_id}")
    await desk.private(desk.ben, since, f"Digest `{digest_id}` removed")
    since = await desk.type(desk.ben, "digest list")
    await desk.private(desk.ben, since, "No digests yet")


async def test_approvers_add_list_remove_by_an_admin_and_refused_to_others(desk: Desk) -> None:
    since = await desk.type(desk.chloe, f"approvers add <@{desk.ben}>")
    refused = await desk.private(desk.chloe, since, "Only workspace admins")
    assert "can now approve" not in refused.text

    since = await desk.type(desk.ada, f"approvers add <@{desk.ben}>")
    await desk.private(desk.ada, since, f"<@{desk.ben}> can now approve")
    since = await desk.type(desk.chloe, "approvers list")
    await desk.private(desk.chloe, since, f"Approvers in this channel: <@{desk.ben}>")

    since = await desk.type(desk.ada, f"approvers remove <@{desk.ben}>")
    await desk.private(desk.ada, since, f"<@{desk.ben}> no longer approve")
    since = await desk.type(desk.ada, "approvers list")
    await desk.private(desk.ada, since, "no approvers yet")


async def test_connect_opens_the_key_dialog_for_the_admin_and_refuses_others(desk: Desk) -> None:
    await desk.type(desk.ada, "connect")
    modal = await desk.modal(desk.ada, "Minds API key")
    assert "minds_key_input" in shown(modal)

    since = await desk.type(desk.ben, "connect")
    await desk.private(desk.ben, since, "Only workspace admins")
    assert desk.emu.state.modal_stack(desk.ben) == []
