"""Issue #24 rows 3, 4, 5 and "charts say what they show", end to end through the real app against the sandbox:
a standalone question's result says its base and n per Audience — a multiselect in % of respondents, several
answers allowed, in Minds' option order; an ordered list in Minds' order with the option nobody chose at 0%; a
standalone 0–10 question (no method in Minds' data) as a scale that says so, a guided run whose calculations mark
NPS as an NPS (issue 34: never from the word "recommend") — and a chart drawn from the same result is uploaded
beside it, saying so."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from slack_emulator.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown

LAUNCH = "Launch positioning"
GEN_Z = "*Gen Z sneaker buyers in Germany*"
KOREA = "*Korean skincare enthusiasts*"
NPS_PLAN = 'plan "Launch positioning" An NPS study of our new running shoe with Gen Z buyers, in 8 questions'
SAME_CHART = "The chart above draws these same answers: % of respondents per option, per Audience, with n."


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def asked(desk: Desk, question: str) -> str:
    """``/minds ask`` in the launch Study; what the result shows (its one chart uploaded in the thread)."""
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {question}')
    parent = await desk.posted(since, lambda m: "asked" in m.text and not m.is_reply)

    def result() -> Message | None:
        replies = desk.emu.state.replies(desk.research, parent.ts)
        return next((m for m in replies if "answers_show" in action_ids(m.blocks)), None)

    message = await desk.wait(result)
    files = [f for m in desk.emu.state.replies(desk.research, parent.ts) for f in m.files]
    assert [desk.emu.state.files[f].name for f in files] == ["answers.png"]
    return shown(message)


async def test_a_multiselect_result_is_in_percent_of_respondents_with_n_per_audience(desk: Desk) -> None:
    text = await asked(
        desk,
        "Which of these matter to you when buying shoes? Select all that apply "
        "(Price, Quality, Design, Sustainability)",
    )
    assert (
        f"{GEN_Z} (% of respondents · several answers allowed · n=12): "
        "Price 50% · Quality 58% · Design 17% · Sustainability 42%"
    ) in text
    assert (
        f"{KOREA} (% of respondents · several answers allowed · n=16): "
        "Price 25% · Quality 50% · Design 0% · Sustainability 25%"
    ) in text
    assert SAME_CHART in text


async def test_an_ordered_list_keeps_minds_order_and_shows_an_unchosen_option_at_zero(desk: Desk) -> None:
    text = await asked(desk, "How often do you buy new sneakers? (Never / Rarely / Sometimes / Often / Always)")
    assert f"{GEN_Z} (% of respondents · n=12): Never 0% · Rarely 17% · Sometimes 33% · Often 42% · Always 8%" in text
    # Sneakers are not the skincare Audience's field: it buys them less often, never as an enthusiast.
    assert f"{KOREA} (% of respondents · n=16): Never 12% · Rarely 31% · Sometimes 56% · Often 0% · Always 0%" in text


async def test_a_standalone_recommend_question_is_a_scale_and_says_minds_named_no_method(desk: Desk) -> None:
    """Issue 34 row 1: the word "recommend" decides nothing; ``/minds ask`` carries no method, so the 0–10 scale
    is shown as a scale and says so once (the same in every language: tests/e2e/test_meaning.py)."""
    text = await asked(desk, "How likely are you to recommend our recycled sneakers to a friend?")
    assert f"{GEN_Z} (n=12): mean 6.0 on 0–10 · top-2-box 25%" in text
    assert f"{KOREA} (n=16): mean 4.4 on 0–10 · top-2-box 0%" in text
    assert text.count("_Minds named no method for this 0–10 scale: shown as a scale (mean), not as an NPS._") == 1
    assert "NPS −" not in text and "promoters" not in text


async def test_a_guided_nps_run_shows_the_nps_per_audience_and_says_the_flags_caveat_once(desk: Desk) -> None:
    plan = await desk.answered_plan(desk.ben, NPS_PLAN)
    await desk.emu.select_option(
        user=desk.ada, action_id="plan_opt_in", value=["advanced"], channel=desk.research, ts=plan.ts
    )
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)

    def thread() -> str:
        """What the thread reads: each reply's blocks' text (its text when it has no blocks), as a person sees it."""
        said = []
        for m in desk.emu.state.replies(desk.research, plan.ts):
            said += [b["text"]["text"] for b in m.blocks if isinstance(b.get("text"), dict)] if m.blocks else [m.text]
            said += [
                e["text"] for b in m.blocks for e in b.get("elements", []) if "text" in e and b["type"] == "context"
            ]
        return "\n".join(said)

    await desk.wait(lambda: "Completed:" in thread() and "% of respondents per option" in thread())
    text = thread()
    assert (
        "*Q7. How likely are you to recommend the new running shoe to a friend or colleague?*\n"
        "Gen Z sneaker buyers in Germany (n=12): NPS −67 · promoters (9–10) 8% · passives (7–8) 17% · "
        "detractors (0–6) 75%\n"
        # Running shoes are not the skincare Audience's field: none of it would recommend them.
        "Korean skincare enthusiasts (n=16): NPS −100 · promoters (9–10) 0% · passives (7–8) 0% · "
        "detractors (0–6) 100%"
    ) in text
    assert (
        "Gen Z sneaker buyers in Germany (% of respondents · several answers allowed · n=9): "
        "Quality 56% · Brand reputation 44% · Sustainability 22% · Recommendations 0% · Price 11%"
    ) in text
    assert "_Asked of 26 of 28 Minds (routed by Q3); shares are of those asked._" in text  # the routed follow-up
    assert "(s)" not in text.split("Completed:")[-1]
    assert text.count("not proof of error") <= 1
    assert "The same shares as the results above: % of respondents per option, per Audience." in text
