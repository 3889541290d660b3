"""Bad input of every kind, and Minds failing, as a person in Slack sees it: a clear private answer that
says what to type or what happened — never a crash, never a silent cut, never "nothing found" for an error."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.desk import Desk, open_desk, shown

LAUNCH = "Launch positioning"
CRASH = ("Something went wrong", "reference ")


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


# What a person types → words the private answer must show.
USAGE_CASES: list[tuple[str, tuple[str, ...]]] = [
    ("stdies", ("I don't know `stdies`", "Did you mean `/minds studies`?")),
    ("sumary Launch positioning", ("Did you mean `/minds summary`?",)),
    ("frobnicate", ("I don't know `frobnicate`", "/minds help")),
    ("share x maybe", ("/minds share <study> on", "off")),
    ("share", ("/minds share <study> on",)),
    ("digest add daily 25:00", ("“25:00” is not a time of day", "HH:MM")),
    ("digest add weekly someday 09:00", ("“someday” is not a day of the week",)),
    ('digest add cron "0 9 * *"', ("five quoted fields",)),
    ("digest add daily 09:00 Mars/Olympus", ("Mars/Olympus",)),
    ("digest remove", ("/minds digest remove <id>",)),
    ("digest now dg-nope", ("dg-nope",)),
    ("approvers add ben", ("@mentions", "/minds approvers add @ana @ben")),
    ("approvers promote <@U01BEN0002>", ("/minds approvers add @someone",)),
    ("audience", ("/minds audience new <brief>",)),
    ("export", ('/minds export "<study>"',)),
    ("runs", ("/minds runs <study>",)),
    ("duplicate", ("/minds duplicate <study>",)),
    ("runs No such study anywhere", ("Nothing named “No such study anywhere”", "`/minds studies` lists them")),
]


async def test_every_kind_of_bad_input_gets_a_clear_usage_message(desk: Desk) -> None:
    for text, needles in USAGE_CASES:
        since = await desk.type(desk.ben, text)
        answer = await desk.private(desk.ben, since, *needles)
        assert not any(c in answer.text for c in CRASH), f"/minds {text} crashed: {answer.text}"
    assert desk.channel_since("0.000000") == [], "usage mistakes are never posted to the channel"
    assert desk.emu.state.modal_stack(desk.ben) == []


async def test_empty_quotes_open_the_pick_dialog_instead_of_failing(desk: Desk) -> None:
    since = await desk.type(desk.ben, 'study ""')
    modal = await desk.modal(desk.ben, "Pick the Study")
    assert "study_options" in shown(modal)
    await desk.emu.close_view(user=desk.ben, view_id=modal.id)

    await desk.type(desk.ben, 'ask "" Would you wear these shoes to work?')
    modal = await desk.modal(desk.ben, "question_input")
    assert "Would you wear these shoes to work?" in shown(modal), "the question typed is kept"
    assert not [e for e in desk.privates(desk.ben, since) if any(c in e.text for c in CRASH)]


async def test_an_unclosed_quote_runs_to_the_end_as_people_mean_it(desk: Desk) -> None:
    since = await desk.type(desk.ben, f'study "{LAUNCH}')
    card = await desk.private(desk.ben, since, "Recent runs")
    assert LAUNCH in shown(card)


async def test_a_question_over_the_limit_is_refused_with_the_limit_and_one_at_it_is_shown_whole(desk: Desk) -> None:
    question = "Thinking about " + " and ".join(f"feature number {n}" for n in range(200)) + ", which matters most?"
    assert len(question) > 3000
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {question}')
    refused = await desk.private(desk.ben, since, "A question can be at most 2,000 characters")
    assert f"(yours has {len(question):,})" in refused.text and "feature number 150" not in shown(refused)
    assert desk.channel_since(since) == [], "nothing was posted or asked"

    question = "Thinking about " + " and ".join(f"feature number {n}" for n in range(80)) + ", which matters most?"
    assert 1500 < len(question) <= 2000
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {question}')
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)
    assert question in parent.text, "the question is shown whole"
    answer = await desk.posted(since, lambda m: "No run was started" in m.text, thread_ts=parent.ts)
    assert "research brief" in answer.text, "Minds' reason is given"
    assert not [e for e in desk.privates(desk.ben, since) if any(c in e.text for c in CRASH)]


# ---- Minds failing


async def test_rate_limiting_says_when_to_try_again(desk: Desk) -> None:
    await desk.faults(throttle_rate=1.0, retry_after_seconds=600)
    since = await desk.type(desk.ben, "studies")
    answer = await desk.private(desk.ben, since, "rate limiting")
    assert "Try again in about 10 minutes" in answer.text
    assert "Studies" not in answer.text and "No Study" not in answer.text


async def test_minds_unavailable_is_said_plainly(desk: Desk) -> None:
    await desk.faults(error_rates={"GET */studies*": 1.0}, error_status=503)
    since = await desk.type(desk.ben, f"runs {LAUNCH}")
    answer = await desk.private(desk.ben, since, "unavailable")
    assert "nothing was started" in answer.text.lower() or "nothing was charged" in answer.text.lower()
    assert "Nothing named" not in answer.text


@pytest.mark.parametrize("mode", ["missing_pagination", "data_not_list", "empty_page"])
async def test_a_malformed_list_is_an_error_never_no_studies(desk: Desk, mode: str) -> None:
    await desk.faults(malformed_lists=mode)
    since = await desk.type(desk.ben, "studies")
    answer = await desk.private(desk.ben, since, "could not read")
    assert "nothing is assumed" in answer.text
    everything = " ".join(shown(e) for e in desk.privates(desk.ben, since))
    assert "Studies 1" not in everything and "No Study" not in everything and "of 0" not in everything


async def test_a_spent_allowance_says_upgrade_required_and_starts_nothing(desk: Desk) -> None:
    before = await desk.minds_api("GET", f"/studies/{await _launch_id(desk)}/runs?limit=50")
    await desk.allowance(0)
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" Would you buy a shoe made from recycled plastic?')
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)
    refusal = await desk.posted(since, lambda m: "allowance is used up" in m.text, thread_ts=parent.ts)
    assert "upgrade is required" in refusal.text and "Nothing was started" in refusal.text
    after = await desk.minds_api("GET", f"/studies/{await _launch_id(desk)}/runs?limit=50")
    assert len(after) == len(before), "no run was started"
    assert not [f for m in desk.channel_since(since) for f in m.files], "no chart for a run that never ran"


async def _launch_id(desk: Desk) -> str:
    return next(s["id"] for s in await desk.minds_api("GET", "/studies?limit=100") if s["name"] == LAUNCH)
