"""The rest of the Minds toolbox against the local demo, as people would use it: cancelling a run from its
progress message, talking to a Mind in a thread, and a Study's analytics."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.desk import Desk, action_ids, open_desk, shown

LAUNCH = "Launch positioning"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def test_cancel_a_question_from_its_progress_message(desk: Desk) -> None:
    await desk.faults(run_speed=0.001)  # the run stays live long enough to be cancelled
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" Would you buy a shoe made from ocean plastic?')
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)
    progress = await desk.posted(since, lambda m: "run_cancel" in action_ids(m.blocks), thread_ts=parent.ts)

    mark = desk.emu.mark()
    await desk.emu.click_button(user=desk.chloe, action_id="run_cancel", channel=desk.research, ts=progress.ts)
    await desk.private(desk.chloe, mark, "can cancel this run")

    await desk.emu.click_button(user=desk.ben, action_id="run_cancel", channel=desk.research, ts=progress.ts)
    await desk.private(desk.ben, mark, "Minds accepted the cancellation")
    ended = await desk.posted(mark, lambda m: "cancelled" in m.text and m.is_reply, thread_ts=parent.ts)
    assert "no answers" in shown(ended)
    replies = desk.emu.state.replies(desk.research, parent.ts)
    assert not [m for m in replies if "run_cancel" in action_ids(m.blocks)], "the button is gone once cancelled"


async def a_mind(desk: Desk) -> dict:
    return (await desk.minds_api("GET", "/minds?limit=1"))[0]


async def test_chat_with_a_mind_in_a_thread(desk: Desk) -> None:
    mind = await a_mind(desk)
    since = await desk.type(desk.ben, f"minds {mind['name']}")
    listing = await desk.private(desk.ben, since, mind["name"], "Chat")
    chat_button = next(a for a in action_ids(listing.blocks) if a == f"minds_rerun:chat:{mind['id']}")
    mark = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id=chat_button, channel=desk.research, ts=listing.ts)
    header = await desk.posted(mark, lambda m: "opened a chat with" in shown(m) and not m.is_reply)
    assert mind["name"] in shown(header) and "Synthetic" in shown(header)

    asked = desk.emu.mark()
    await desk.emu.post_message(
        user=desk.chloe,
        channel=desk.research,
        text="Would you buy sneakers made from ocean plastic?",
        thread_ts=header.ts,
    )
    first = await desk.posted(asked, lambda m: "Synthetic answer" in shown(m), thread_ts=header.ts)
    # The first Mind is a skincare enthusiast: it answers the question, and says shoes are not its field.
    assert "Honestly, I don't know much about shoes, so I have no strong view." in first.text
    asked = desk.emu.mark()
    await desk.emu.post_message(user=desk.ben, channel=desk.research, text="And at 120 euros?", thread_ts=header.ts)
    second = await desk.posted(asked, lambda m: "Synthetic answer" in shown(m), thread_ts=header.ts)
    assert "shoes" in second.text  # the same Minds chat remembers what the first turn was about


async def test_a_mind_still_training_is_not_called(desk: Desk) -> None:
    mind = await a_mind(desk)
    await desk.faults(training_minds=[mind["id"]])
    since = await desk.type(desk.ben, f"chat {mind['id']}")
    await desk.private(desk.ben, since, "still training")
    assert not [m for m in desk.channel_since(since) if "opened a chat" in m.text]


async def test_analytics_button_on_the_card_posts_figures_and_a_chart(desk: Desk) -> None:
    since = await desk.type(desk.ben, f'study "{LAUNCH}"')
    card = await desk.private(desk.ben, since, "Recent runs")
    assert "study_analytics" in action_ids(card.blocks)
    mark = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="study_analytics", channel=desk.research, ts=card.ts)
    posted = await desk.posted(mark, lambda m: f"Analytics — {LAUNCH}" in shown(m) and not m.is_reply)
    assert "questions analysed" in shown(posted) and "most chosen" in shown(posted)

    def charted() -> bool:
        return any(m.files for m in desk.emu.state.replies(desk.research, posted.ts))

    await desk.wait(charted)
    await desk.private(desk.ben, mark, "posted in the channel")


async def test_study_new_creates_a_study_with_audiences_picked_in_the_dialog(desk: Desk) -> None:
    since = await desk.type(desk.ben, "study new Autumn sneakers")
    modal = await desk.modal(desk.ben, "study_new_audiences", "Autumn sneakers")
    options = await desk.emu.request_options(
        user=desk.ben, action_id="study_new_audiences", value="sneaker", view_id=modal.id
    )
    assert [o["text"]["text"] for o in options] == ["Gen Z sneaker buyers in Germany (12 Minds)"]
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={
            "where_select": desk.research,
            "study_new_name_input": "Autumn sneakers",
            "study_new_audiences": options,
        },
    )
    card = await desk.private(desk.ben, since, "Recent runs", "Autumn sneakers")
    assert "Gen Z sneaker buyers in Germany — 12 Minds" in shown(card)
    assert (await desk.study_names()).count("Autumn sneakers") == 1


async def test_export_a_mind_profile_and_an_audience_brief_into_threads(desk: Desk) -> None:
    mind = await a_mind(desk)
    since = await desk.type(desk.ben, f"export mind {mind['id']}")
    asked = await desk.posted(since, lambda m: "persona profile of" in m.text and not m.is_reply)

    def attached(parent: str) -> bool:
        return any(m.files for m in desk.emu.state.replies(desk.research, parent))

    await desk.wait(lambda: attached(asked.ts))
    (file_id,) = [f for m in desk.emu.state.replies(desk.research, asked.ts) for f in m.files]
    assert desk.emu.file_content(file_id).startswith(f"# {mind['name']}".encode())  # type: ignore[union-attr]

    since = await desk.type(desk.ben, "export audience Gen Z sneaker buyers in Germany pdf")
    brief = await desk.posted(since, lambda m: "Audience brief of" in m.text and not m.is_reply)
    await desk.wait(lambda: attached(brief.ts))
    (pdf_id,) = [f for m in desk.emu.state.replies(desk.research, brief.ts) for f in m.files]
    assert desk.emu.file_content(pdf_id).startswith(b"%PDF")  # type: ignore[union-attr]


async def test_duplicate_an_audience(desk: Desk) -> None:
    since = await desk.type(desk.ben, "duplicate audience Gen Z sneaker buyers in Germany")
    await desk.private(desk.ben, since, "Duplicated", "12 Minds")
    names = [a["name"] for a in await desk.minds_api("GET", "/audiences?limit=100")]
    assert names.count("Gen Z sneaker buyers in Germany (copy)") == 1


async def test_save_a_plan_as_a_draft_list_resume_and_delete_it(desk: Desk) -> None:
    since = await desk.type(desk.ben, f'plan "{LAUNCH}" Test three taglines for our new running shoe')
    plan = await desk.posted(since, lambda m: "Research plan" in m.text and "plan_save_draft" in action_ids(m.blocks))
    mark = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="plan_save_draft", channel=desk.research, ts=plan.ts)
    await desk.private(desk.ben, mark, "Saved as draft")

    mark = await desk.type(desk.ben, "drafts")
    listing = await desk.private(desk.ben, mark, "Study drafts", f"{LAUNCH}: plan revision 1")
    resume = next(a for a in action_ids(listing.blocks) if a.startswith("draft_resume:"))
    await desk.emu.click_button(user=desk.ben, action_id=resume, channel=desk.research, ts=listing.ts)
    # an open plan (Approve waits until Minds' confirmation questions are answered, so look for the plan's
    # own Save as draft rather than Approve)
    reopened = await desk.posted(
        mark, lambda m: m.ts != plan.ts and "Research plan" in m.text and "plan_save_draft" in action_ids(m.blocks)
    )
    assert "revision 1" in reopened.text

    mark = await desk.type(desk.ben, "drafts")
    listing = await desk.private(desk.ben, mark, f"{LAUNCH}: plan revision 1")
    delete = next(a for a in action_ids(listing.blocks) if a.startswith("draft_delete:"))
    await desk.emu.click_button(user=desk.ben, action_id=delete, channel=desk.research, ts=listing.ts)
    await desk.private(desk.ben, mark, "Deleted the draft")
    names = [d["name"] for d in await desk.minds_api("GET", "/study-drafts")]
    assert f"{LAUNCH}: plan revision 1" not in names


async def test_use_a_template_to_plan_research(desk: Desk) -> None:
    since = await desk.type(desk.ben, "templates")
    listing = await desk.private(desk.ben, since, "Study templates", "Concept test")
    use = next(a for a in action_ids(listing.blocks) if a.startswith("template_use:"))
    drafts_before = len(await desk.minds_api("GET", "/study-drafts"))
    await desk.emu.click_button(user=desk.ben, action_id=use, channel=desk.research, ts=listing.ts)
    modal = await desk.modal(desk.ben, "first reaction to this concept")
    await desk.private(desk.ben, since, "Made the draft")
    assert len(await desk.minds_api("GET", "/study-drafts")) == drafts_before + 1
    await desk.emu.submit_view(user=desk.ben, view_id=modal.id, inputs={"study/value": LAUNCH})
    # an open plan; Approve waits until Minds' confirmation questions are answered
    plan = await desk.posted(since, lambda m: "Research plan" in m.text and "plan_save_draft" in action_ids(m.blocks))
    assert LAUNCH in plan.text


async def test_save_a_plan_as_a_template(desk: Desk) -> None:
    since = await desk.type(desk.ben, f'plan "{LAUNCH}" Test three taglines for our new running shoe')
    plan = await desk.posted(
        since, lambda m: "Research plan" in m.text and "plan_save_template" in action_ids(m.blocks)
    )
    await desk.emu.click_button(user=desk.ben, action_id="plan_save_template", channel=desk.research, ts=plan.ts)
    modal = await desk.modal(desk.ben, "Template name")
    await desk.emu.submit_view(
        user=desk.ben,
        view_id=modal.id,
        inputs={"template_name/value": "Tagline test", "template_goal/value": "concept"},
    )
    await desk.private(desk.ben, since, "Saved the template “Tagline test”")
    saved = [t for t in await desk.minds_api("GET", "/study-templates") if t["name"] == "Tagline test"]
    assert len(saved) == 1 and saved[0]["configuration"]["goal"] == "concept"
