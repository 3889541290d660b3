"""The whole product as a person meets it in the demo page: help, studies, a plan in #research, a confirmation
answer, approval behind its confirm dialog, progress in the thread, results with charts, and the report
downloaded. Screenshots of each step land in test-artifacts/."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from minds_bot.demo import Demo, running_demo
from minds_sandbox import SandboxConfig
from tests.browser.conftest import ARTIFACTS

WAIT_MS = 30_000
REQUEST = (  # the taglines are given, so Minds asks only who answers
    '/minds plan "Launch positioning" Test three taglines for our new running shoe with Gen Z buyers: '
    "Run further, Made to last, Light on the planet"
)


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[Demo]:
    async with running_demo(page_port=0, workdir=tmp_path, sandbox=SandboxConfig(seconds_per_step=0.1)) as running:
        yield running


async def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / f"research-{name}.png"), full_page=True)


async def slash(page: Page, text: str) -> None:
    await page.locator("#composer-text").fill(text)
    await page.locator("#composer-text").press("Enter")


async def act_as(page: Page, name: str) -> None:
    switch = page.locator("#user-switch")
    value = await switch.locator("option", has_text=name).first.get_attribute("value")
    await switch.select_option(value)


async def test_plan_approve_follow_and_download_the_report(browser: Browser, demo: Demo, tmp_path: Path) -> None:
    context = await browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = await context.new_page()
    await page.goto(demo.page_url)
    await act_as(page, "Ben")
    await page.locator("#channels").get_by_text("# research").click()
    timeline = page.locator("#timeline")

    await slash(page, "/minds help")
    await expect(timeline).to_contain_text("/minds plan <study> <request>", timeout=WAIT_MS)
    await slash(page, "/minds studies")
    await expect(timeline).to_contain_text("Launch positioning", timeout=WAIT_MS)
    await expect(timeline).to_contain_text("Pricing pulse", timeout=WAIT_MS)
    await shot(page, "1-studies")

    await slash(page, REQUEST)
    plan = timeline.locator(".message", has_text="Research plan").last
    await expect(plan).to_contain_text("Revision 1", timeout=WAIT_MS)
    await expect(plan).to_contain_text("Answer 1 more question to approve.", timeout=WAIT_MS)
    await expect(plan.get_by_role("button", name="Approve & run")).to_have_count(0)
    await shot(page, "2-plan")

    first_answer = demo.emulator.state.messages(
        next(c.id for c in demo.emulator.config.channels if c.name == "research")
    )[-1].blocks
    label = next(
        e["text"]["text"]
        for b in first_answer
        if b.get("type") == "actions"
        for e in b["elements"]
        if e.get("action_id", "").startswith("plan_answer:")
    )
    await plan.get_by_role("button", name=label, exact=True).first.click()
    await expect(plan).to_contain_text("Revision 2", timeout=WAIT_MS)

    await act_as(page, "Ada")
    await plan.get_by_role("button", name="Approve & run").click()
    await expect(page.locator("#confirm-dialog")).to_be_visible(timeout=WAIT_MS)
    await expect(page.locator("#confirm-text")).to_contain_text("question", timeout=WAIT_MS)
    await shot(page, "3-confirm")
    await page.locator("#confirm-ok").click()
    await expect(plan).to_contain_text("Approved", timeout=WAIT_MS)
    await expect(plan).not_to_contain_text("nothing runs until someone approves")

    await plan.locator(".replies-link").click()
    thread = page.locator("#thread-timeline")
    await expect(thread.locator(".file-image img").first).to_be_visible(timeout=WAIT_MS)
    report = thread.locator(".file-card", has_text=".md")
    await expect(report).to_be_visible(timeout=WAIT_MS)
    await page.set_viewport_size({"width": 1400, "height": 4000})
    await shot(page, "4-results")

    async with page.expect_download() as download_info:
        await report.get_by_text("Download").click()
    download = await download_info.value
    saved = tmp_path / download.suggested_filename
    await download.save_as(saved)
    assert saved.read_bytes().startswith(b"#")
    await context.close()
