"""Issue 25's first five minutes, as a newcomer meets them at the demo page: the README's pricing example planned
on a Study whose Audience fits it, revised with "add an open why question" (the new question appears and the
revision says it was added), answered, approved and read — and a second, unrelated question asked of the same
Study gets other answers: other quotes, other shares. Both results say they were simulated locally."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Locator, Page, expect

from minds_bot.demo import Demo, running_demo
from minds_sandbox import SandboxConfig
from slack_emulator.state import Message
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_research_in_browser import act_as, slash
from tests.e2e.desk import shown

WAIT_MS = 45_000
PRICING = (
    '/minds plan "Launch positioning" How do Gen Z sneaker buyers in Germany feel about a 140 EUR price for our '
    "new running shoe?"
)
WHY = "Why would you, or would you not, buy the new running shoe at 140 EUR?"
UNRELATED = '/minds ask "Launch positioning" Would a third-party label make a carbon-neutral claim more credible?'
SIMULATED = "Simulated locally"


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[Demo]:
    async with running_demo(page_port=0, workdir=tmp_path, sandbox=SandboxConfig(seconds_per_step=0.1)) as running:
        yield running


async def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / f"first-five-minutes-{name}.png"), full_page=True)


def _research(demo: Demo) -> str:
    return next(c.id for c in demo.emulator.config.channels if c.name == "research")


def _quotes(messages: list[Message]) -> set[str]:
    """The quoted answers a thread shows (a Mind's words between “ and ”)."""
    text = "\n".join(shown(m) for m in messages)
    return {q.strip() for q in re.findall(r"“([^”]{25,})”", text)}


def _shares(messages: list[Message]) -> list[str]:
    """Every "Option 58%" share a thread's result lines give, in order."""
    text = "\n".join(shown(m) for m in messages)
    return re.findall(r"(?:·|: )\s*([^·:\n\\]{1,40}? \d{1,3}%)", text)


async def _thread_of(demo: Demo, ts: str, needle: str) -> list[Message]:
    channel = _research(demo)

    def ready() -> list[Message] | None:
        replies = demo.emulator.state.replies(channel, ts)
        return replies if any(needle in shown(m) for m in replies) else None

    return await demo.emulator.wait_for(ready, timeout=WAIT_MS / 1000)


async def test_a_newcomer_plans_revises_runs_and_reads_answers_that_depend_on_the_question(
    browser: Browser, demo: Demo
) -> None:
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await context.new_page()
    await page.goto(demo.page_url)
    await act_as(page, "Ben")
    await page.locator("#channels").get_by_text("# research").click()
    timeline = page.locator("#timeline")

    await slash(page, PRICING)
    plan: Locator = timeline.locator(".message", has_text="Research plan").last
    await expect(plan).to_contain_text("Revision 1", timeout=WAIT_MS)
    await expect(plan).to_contain_text("What is the most you would pay for the new running shoe?")
    await plan.get_by_role("button", name="Gen Z sneaker buyers in Germany", exact=True).first.click()
    await expect(plan).to_contain_text("Revision 2", timeout=WAIT_MS)

    await plan.get_by_role("button", name="Revise…").click()
    dialog = page.locator(".modal").last
    await expect(dialog).to_contain_text("Minds will revise revision 2", timeout=WAIT_MS)
    await dialog.locator("textarea").fill("add an open why question")
    await dialog.get_by_role("button", name="Revise", exact=True).click()
    await expect(plan).to_contain_text("Revision 3", timeout=WAIT_MS)
    await expect(plan).to_contain_text(WHY)
    await expect(plan).to_contain_text("Changed since revision 2:")
    await expect(plan).to_contain_text(f": {WHY}")
    await expect(plan).to_contain_text(re.compile(r"Added Q\d+: Why would you"))
    await _shot(page, "1-revised")

    await act_as(page, "Ada")
    await plan.get_by_role("button", name="Approve & run").click()
    await expect(page.locator("#confirm-dialog")).to_be_visible(timeout=WAIT_MS)
    await page.locator("#confirm-ok").click()
    await expect(plan).to_contain_text("Completed", timeout=WAIT_MS)

    await plan.locator(".replies-link").click()
    thread = page.locator("#thread-timeline")
    await expect(thread).to_contain_text(WHY, timeout=WAIT_MS)
    await expect(thread).to_contain_text(SIMULATED)
    await _shot(page, "2-results")
    plan_ts = next(m.ts for m in demo.emulator.state.messages(_research(demo)) if "Revision 3" in shown(m))
    first = await _thread_of(demo, plan_ts, WHY)

    await page.locator("#thread-close").click()
    await slash(page, UNRELATED)
    asked = timeline.locator(".message", has_text="third-party label").last
    await expect(asked).to_be_visible(timeout=WAIT_MS)
    await asked.locator(".replies-link").click()
    await expect(thread).to_contain_text("%", timeout=WAIT_MS)
    await expect(thread).to_contain_text(SIMULATED)
    await _shot(page, "3-unrelated")
    ask_ts = next(m.ts for m in demo.emulator.state.messages(_research(demo)) if "third-party label" in shown(m))
    second = await _thread_of(demo, ask_ts, "%")

    first_quotes, second_quotes = _quotes(first), _quotes(second)
    assert first_quotes and second_quotes
    assert not first_quotes & second_quotes, "an unrelated question gets its own answers, never the same quotes"
    assert _shares(second) and not set(_shares(second)) <= set(_shares(first))
    await context.close()
