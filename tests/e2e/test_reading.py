"""Issue 24 rows 8, 11 and 14 through the real app: what a research lead reads in the digest, the summary and
the "Show answers" pages — rendered Markdown, each answer once, pages both ways, every answer as a CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from slack_emulator.state import Ephemeral
from tests.e2e.desk import Desk, action_ids, open_desk, shown

LAUNCH = "Launch positioning"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def _answers_page(desk: Desk) -> tuple[str, Ephemeral]:
    question = "Would you pay 20 euros more for a shoe made from recycled ocean plastic?"
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {question}')
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)
    result = await desk.posted(since, lambda m: "answers_show" in action_ids(m.blocks), thread_ts=parent.ts)
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="answers_show", channel=desk.research, ts=result.ts)
    return parent.ts, await desk.private(desk.ben, since, "Answers to “", "page 1 of")


def _page(desk: Desk, needle: str) -> Ephemeral | None:
    return next((e for e in desk.emu.state.ephemerals(desk.ben) if needle in shown(e)), None)


async def test_show_answers_shows_each_answer_once_pages_both_ways_and_attaches_a_csv(desk: Desk) -> None:
    thread_ts, first = await _answers_page(desk)
    for line in [b["text"]["text"] for b in first.blocks if b.get("type") == "section"]:
        head, _, rest = line.partition("\n")
        said = head.split(" — ", 1)[-1]
        # The value once; the Mind's words below it only when they say more than the value (never the value again).
        assert rest.strip() != said and rest.count(said) <= 1, f"an answer is printed once, not twice: {line!r}"
    ids = action_ids(first.blocks)
    assert "answers_prev" not in ids and "answers_csv" in ids
    assert "answers_next" in ids  # more than one page: Next, then Previous back to page 1
    await desk.emu.click_button(user=desk.ben, action_id="answers_next", channel=desk.research, ts=first.ts)
    second = await desk.wait(lambda: _page(desk, "page 2 of"))  # the private page is replaced in place
    assert "answers_prev" in action_ids(second.blocks)
    await desk.emu.click_button(user=desk.ben, action_id="answers_prev", channel=desk.research, ts=second.ts)
    first = await desk.wait(lambda: _page(desk, "page 1 of"))
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="answers_csv", channel=desk.research, ts=first.ts)
    reply = await desk.posted(since, lambda m: bool(m.files), thread_ts=thread_ts)
    assert "as CSV (persona, Audience, value, scale value, option position, message)." in reply.text
    (file_id,) = reply.files
    assert desk.emu.state.files[file_id].name == "answers.csv"
    content = desk.emu.file_content(file_id)
    assert content is not None
    rows = list(csv.reader(io.StringIO(content.decode("utf-8"))))
    assert rows[0] == ["Persona", "Audience", "Value", "Scale value", "Option position", "Message"]
    assert len(rows) > 1 and all(len(r) == 6 for r in rows)


async def test_the_digest_shows_the_summary_as_rendered_markdown_and_whether_it_is_current(desk: Desk) -> None:
    since = await desk.type(desk.ben, f'digest add daily 09:00 Europe/Berlin "{LAUNCH}"')
    added = await desk.private(desk.ben, since, "added")
    digest_id = added.text.split("`")[1]
    since = await desk.type(desk.ben, f"digest now {digest_id}")
    news = await desk.posted(since, lambda m: not m.is_reply and "*Summary*" in shown(m))
    (summary,) = [b["text"]["text"] for b in news.blocks if "*Summary*" in b.get("text", {}).get("text", "")]
    assert summary.startswith(f"*Summary*\n*{LAUNCH}*\n\n• *In a sentence or two, what is your first reaction"), summary
    assert "#" not in summary and "**" not in summary and "for the rest)" in summary
    # ... and whether it includes the newest finished run, in the words /minds summary uses (the seeded summary
    # was generated after the seeded runs)
    assert summary.endswith(", after the latest run finished."), summary[-200:]
    assert "Generated <!date^" in summary


async def test_a_study_list_says_questions_asked(desk: Desk) -> None:
    since = await desk.type(desk.ben, "studies")
    listed = await desk.private(desk.ben, since, LAUNCH)
    assert " messages · " not in shown(listed)
    studies = await desk.minds_api("GET", "/studies?limit=100")
    launch = next(s for s in studies if s["name"] == LAUNCH)
    asked = launch["questionCount"]
    assert asked < launch["messageCount"], "answers are messages too"
    said = f"{asked} question asked" if asked == 1 else f"{asked} questions asked"
    assert f"*{LAUNCH}*\\n{said} · " in shown(listed)  # shown() is JSON: the line break reads \\n


async def test_a_summary_older_than_the_latest_run_says_so_and_refresh_brings_it_up_to_date(desk: Desk) -> None:
    study = next(s for s in await desk.minds_api("GET", "/studies?limit=100") if s["name"] == LAUNCH)
    await _answers_page(desk)  # a run that finishes after the saved summary was generated
    since = await desk.type(desk.ben, f'summary "{LAUNCH}"')
    stale = await desk.private(desk.ben, since, f"Summary of {LAUNCH}", "before the latest run finished")
    assert "it does not include that run. Refresh to include every finished run." in shown(stale)
    refresh = next(
        e
        for b in stale.blocks
        if b.get("type") == "actions"
        for e in b["elements"]
        if e["action_id"] == "minds_rerun:summary"
    )
    assert refresh["value"] == f"summary {study['id']} refresh"  # exactly `/minds summary <study> refresh`
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="minds_rerun:summary", channel=desk.research, ts=stale.ts)
    fresh = await desk.private(desk.ben, since, f"Summary of {LAUNCH}", "after the latest run finished.")
    assert "before the latest run finished" not in shown(fresh)
