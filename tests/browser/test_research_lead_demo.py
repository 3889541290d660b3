"""Issue 36, the research lead's demo at the demo page: a German concept test and a Korean message test, each
planned as that study type in the requester's language (the German one asks appeal and credibility and asks the
requester to describe the concept; the Korean one asks persuasion and memorability and no price), answered on the
page and run to results; a Van Westendorp study opted in on the page (its checkbox) and run to its acceptable price
range; a person switching their own language and the bot answering them in it. (Uploading an image and asking
Minds about it is ``test_emulator_inputs.py``'s.)"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Locator, Page, expect

from minds_bot.demo import Demo, running_demo
from minds_sandbox import SandboxConfig
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_research_in_browser import act_as, slash

WAIT_MS = 45_000
GERMAN_CONCEPT = (
    "/minds plan \"Launch positioning\" Konzepttest: Wie kommt unser neues Hafer-Müsli 'Morgenglück' bei jungen "
    "Familien an?"
)
KOREAN_MESSAGE = (
    '/minds plan "Launch positioning" 새 광고 메시지가 20대 직장인에게 설득력 있고 기억에 남는지 알고 싶습니다'
)
MUESLI = "das neue Hafer-Müsli „Morgenglück“"
DESCRIPTION = "Knuspriges Hafer-Müsli mit Apfelstücken, ohne Zuckerzusatz, in der Nachfüllpackung"
AD_COPY = "하루 10분, 당신의 퇴근길을 바꾸는 가장 가벼운 습관"


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[Demo]:
    async with running_demo(page_port=0, workdir=tmp_path, sandbox=SandboxConfig(seconds_per_step=0.1)) as running:
        yield running


@pytest.fixture
async def page(browser: Browser, demo: Demo, request: pytest.FixtureRequest) -> AsyncIterator[Page]:
    context = await browser.new_context(viewport={"width": 1400, "height": 1200})
    opened = await context.new_page()
    await opened.goto(demo.page_url)
    yield opened
    ARTIFACTS.mkdir(exist_ok=True)
    await opened.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    await context.close()


def _research(demo: Demo) -> str:
    return next(c.id for c in demo.emulator.config.channels if c.name == "research")


async def _revised(demo: Demo, needle: str, before: str) -> None:
    """Wait until the plan message holding ``needle`` has been replaced by the bot (its next revision)."""
    for _ in range(WAIT_MS // 100):
        latest = next(
            (m for m in reversed(demo.emulator.state.messages(_research(demo))) if needle in str(m.blocks)), None
        )
        if latest is not None and str(latest.blocks) != before:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the plan was not revised")


def _blocks_of(demo: Demo, needle: str) -> str:
    messages = demo.emulator.state.messages(_research(demo))
    return str(next(m.blocks for m in reversed(messages) if needle in str(m.blocks)))


async def _plan_as(page: Page, locale: str, request: str, needle: str) -> Locator:
    """Ben, whose Slack language is ``locale``, asks for a plan in #research; the plan message that names ``needle``."""
    await act_as(page, "Ben")
    await page.locator("#locale-switch").select_option(locale)
    await page.locator("#channels").get_by_text("# research").click()
    await slash(page, request)
    plan = page.locator("#timeline .message", has_text=needle).last
    await expect(plan).to_contain_text("Revision 1", timeout=WAIT_MS)
    return plan


async def _answer_in_words(page: Page, demo: Demo, plan: Locator, needle: str, words: str) -> None:
    """The requester describes the stimulus: Answer… opens a dialog, the words are sent, the plan is revised."""
    before = _blocks_of(demo, needle)
    await plan.get_by_role("button", name="Answer…").first.click()
    dialog = page.locator(".modal").last
    await expect(dialog).to_be_visible(timeout=WAIT_MS)
    await dialog.locator("textarea, input[type=text]").first.fill(words)
    await dialog.locator("footer button.primary").click()
    await _revised(demo, needle, before)


async def _who_answers(demo: Demo, plan: Locator, needle: str) -> None:
    before = _blocks_of(demo, needle)
    await plan.get_by_role("button", name="Gen Z sneaker buyers in Germany", exact=True).first.click()
    await _revised(demo, needle, before)


async def test_a_german_concept_test_asks_appeal_credibility_and_shows_the_concept_described(
    page: Page, demo: Demo
) -> None:
    plan = await _plan_as(page, "de-DE", GERMAN_CONCEPT, "Morgenglück")
    await expect(plan).to_contain_text(f"Wie ansprechend finden Sie {MUESLI}?", timeout=WAIT_MS)
    await expect(plan).to_contain_text(f"Wie glaubwürdig finden Sie {MUESLI}?")
    await expect(plan).to_contain_text(f"Wie passend finden Sie {MUESLI} für Ihre Bedürfnisse?")
    await expect(plan).to_contain_text(f"Wie würden Sie {MUESLI} in ein oder zwei Sätzen beschreiben?")
    await expect(plan).not_to_contain_text("Wie kommt unser neues Hafer-Müsli")  # the request is no stimulus
    await expect(plan).not_to_contain_text("Preis")

    await _who_answers(demo, plan, "Morgenglück")
    await _answer_in_words(page, demo, plan, "Morgenglück", DESCRIPTION)
    await expect(plan).to_contain_text(f"Lesen Sie diese Beschreibung: „{DESCRIPTION}“", timeout=WAIT_MS)
    await expect(plan.get_by_role("button", name="Approve & run")).to_be_visible(timeout=WAIT_MS)

    await act_as(page, "Ada")
    await plan.get_by_role("button", name="Approve & run").click()
    await page.locator("#confirm-ok").click()
    await expect(plan).to_contain_text("Completed", timeout=WAIT_MS)
    await plan.locator(".replies-link").click()
    thread = page.locator("#thread-timeline")
    await expect(thread).to_contain_text(f"Wie glaubwürdig finden Sie {MUESLI}?", timeout=WAIT_MS)
    # the Minds answer in German: the themes of the open answers with their counts, the quotes in German
    await expect(thread).to_contain_text(re.compile(r"\(\d+ von \d+\)"))
    await expect(thread.locator("blockquote").first).to_contain_text(re.compile(r"\b(ich|Ich|mich|mir)\b"))
    await expect(thread).not_to_contain_text(re.compile(r"\(\d+ of \d+\)"))


async def test_a_korean_message_test_asks_persuasion_and_memorability_without_price_and_runs(
    page: Page, demo: Demo
) -> None:
    plan = await _plan_as(page, "ko-KR", KOREAN_MESSAGE, "새 광고 메시지")
    await expect(plan).to_contain_text("새 광고 메시지는 얼마나 설득력이 있습니까?", timeout=WAIT_MS)
    await expect(plan).to_contain_text("새 광고 메시지는 얼마나 기억에 남습니까?")
    await expect(plan).to_contain_text("새 광고 메시지는 이를 전하는 브랜드와 얼마나 잘 맞습니까?")
    for price_word in ("가격", "지불", "얼마를"):
        await expect(plan).not_to_contain_text(price_word)

    await _who_answers(demo, plan, "새 광고 메시지")
    await _answer_in_words(page, demo, plan, "새 광고 메시지", AD_COPY)
    await expect(plan).to_contain_text(AD_COPY, timeout=WAIT_MS)

    await act_as(page, "Ada")
    await plan.get_by_role("button", name="Approve & run").click()
    await expect(page.locator("#confirm-dialog")).to_be_visible(timeout=WAIT_MS)
    await page.locator("#confirm-ok").click()
    await expect(plan).to_contain_text("Completed", timeout=WAIT_MS)
    await plan.locator(".replies-link").click()
    thread = page.locator("#thread-timeline")
    await expect(thread).to_contain_text("새 광고 메시지는 얼마나 설득력이 있습니까?", timeout=WAIT_MS)
    await expect(thread).to_contain_text("새 광고 메시지는 얼마나 기억에 남습니까?")
    await expect(thread).not_to_contain_text("지불")


VAN_WESTENDORP = (
    '/minds plan "Pricing pulse" Use Van Westendorp to find the acceptable price of our new laptop dock for US IT '
    "procurement leads"
)


async def _answer_until_approvable(demo: Demo, plan: Locator, needle: str) -> None:
    """Press the first offered answer to each of Minds' questions until the plan offers Approve & run."""
    for _ in range(6):
        latest = next(m for m in reversed(demo.emulator.state.messages(_research(demo))) if needle in str(m.blocks))
        actions = [e for b in latest.blocks if b.get("type") == "actions" for e in b["elements"]]
        if any(e.get("action_id") == "plan_approve" for e in actions):
            return
        answer = next(e["text"]["text"] for e in actions if e.get("action_id", "").startswith("plan_answer:"))
        await plan.get_by_role("button", name=answer, exact=True).first.click()
        await _revised(demo, needle, str(latest.blocks))
    raise AssertionError("the plan still asks after six answers")


async def test_a_van_westendorp_study_is_opted_in_on_the_page_and_runs_to_its_acceptable_price_range(
    page: Page, demo: Demo
) -> None:
    await act_as(page, "Ben")
    await page.locator("#channels").get_by_text("# research").click()
    await slash(page, VAN_WESTENDORP)
    plan = page.locator("#timeline .message", has_text="Research plan").last
    await expect(plan).to_contain_text("Advanced methods in this plan", timeout=WAIT_MS)
    await expect(plan).not_to_contain_text("use Van Westendorp to find")  # the method is no part of the topic
    await _answer_until_approvable(demo, plan, "Research plan")

    await act_as(page, "Ada")
    box = plan.get_by_role("checkbox", name="I opt in to the advanced methods above")
    await box.check()
    await plan.get_by_role("button", name="Approve & run").click()
    await page.locator("#confirm-ok").click()
    await expect(plan).to_contain_text("Completed", timeout=WAIT_MS)
    await plan.locator(".replies-link").click()
    thread = page.locator("#thread-timeline")
    await expect(thread).to_contain_text("Van Westendorp price sensitivity", timeout=WAIT_MS)
    await expect(thread).to_contain_text("Acceptable price range:")


async def test_a_person_who_switches_their_language_is_answered_in_it(page: Page, demo: Demo) -> None:
    await act_as(page, "Ben")
    await page.locator("#channels").get_by_text("# research").click()
    timeline = page.locator("#timeline")
    await page.locator("#locale-switch").select_option("es-ES")
    await slash(page, "/minds help")
    await expect(timeline).to_contain_text("este resumen", timeout=WAIT_MS)
    await page.locator("#locale-switch").select_option("de-DE")
    await slash(page, "/minds help")
    await expect(timeline).to_contain_text("diese Übersicht", timeout=WAIT_MS)
