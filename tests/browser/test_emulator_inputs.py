"""Block Kit inputs the demo page offers as Slack does: a Van Westendorp plan's advanced-method opt-in ticked on
the page and the plan approved; a new Study's Audiences picked from the bot's options (multi_external_select);
a ``<!date^…>`` shown as a date, not "@date"; an image uploaded with 📎 and asked about ("Ask Minds about
this"); a dialog's time picker and checkbox submitted as set."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from minds_bot.demo import Demo, running_demo
from minds_bot.render.bars import Panel, draw_panels
from minds_sandbox import SandboxConfig
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_research_in_browser import act_as, slash

WAIT_MS = 30_000
VAN_WESTENDORP = (
    '/minds plan "Pricing pulse" What would US IT procurement leads pay for our new laptop dock? Use Van Westendorp'
)


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[Demo]:
    async with running_demo(page_port=0, workdir=tmp_path, sandbox=SandboxConfig(seconds_per_step=0.1)) as running:
        yield running


@pytest.fixture
async def page(browser: Browser, demo: Demo, request: pytest.FixtureRequest) -> AsyncIterator[Page]:
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    opened = await context.new_page()
    await opened.goto(demo.page_url)
    yield opened
    ARTIFACTS.mkdir(exist_ok=True)
    await opened.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    await context.close()


async def test_a_van_westendorp_plan_is_opted_in_on_the_page_and_approved(page: Page, demo: Demo) -> None:
    await act_as(page, "Ben")
    await page.locator("#channels").get_by_text("# research").click()
    timeline = page.locator("#timeline")
    await slash(page, VAN_WESTENDORP)
    plan = timeline.locator(".message", has_text="Research plan").last
    await expect(plan).to_contain_text("Advanced methods in this plan", timeout=WAIT_MS)
    research = next(c.id for c in demo.emulator.config.channels if c.name == "research")
    for _ in range(6):  # answer Minds' questions until the plan can be approved
        latest = next(m for m in reversed(demo.emulator.state.messages(research)) if "Research plan" in str(m.blocks))
        ids = [e.get("action_id", "") for b in latest.blocks if b.get("type") == "actions" for e in b["elements"]]
        if "plan_approve" in ids:
            break
        answer = next(
            e["text"]["text"]
            for b in latest.blocks
            if b.get("type") == "actions"
            for e in b["elements"]
            if e.get("action_id", "").startswith("plan_answer:")
        )
        await plan.get_by_role("button", name=answer, exact=True).first.click()
        await _changed(demo, research, latest.ts, str(latest.blocks))
    await expect(plan.get_by_role("button", name="Approve & run")).to_be_visible(timeout=WAIT_MS)
    await act_as(page, "Ada")
    box = plan.get_by_role("checkbox", name="I opt in to the advanced methods above")
    await expect(box).to_be_visible(timeout=WAIT_MS)
    await expect(plan).not_to_contain_text("[checkboxes]")
    await box.check()
    await expect(box).to_be_checked()
    await plan.get_by_role("button", name="Approve & run").click()
    await page.locator("#confirm-ok").click()
    await expect(plan).to_contain_text("Approved", timeout=WAIT_MS)
    approve = next(d for d in reversed(demo.emulator.interactions.deliveries) if d.kind == "block_actions")
    assert approve.ok


async def _changed(demo: Demo, channel: str, ts: str, before: str) -> None:
    """Wait until the bot has replaced the message's blocks (the next revision of the plan)."""
    for _ in range(WAIT_MS // 100):
        now = demo.emulator.state.find_message(channel, ts)
        if now is not None and str(now.blocks) != before:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the plan was not revised")


async def test_a_new_study_picks_its_audiences_from_the_bots_options(page: Page, demo: Demo) -> None:
    await page.locator("#channels").get_by_text("# research").click()
    await slash(page, "/minds study new Audience pick")
    modal = page.locator(".modal")
    await expect(modal).to_contain_text("New Study", timeout=WAIT_MS)
    await expect(modal).not_to_contain_text("[multi_external_select]")
    await modal.get_by_role("button", name="Search").click()
    audiences = modal.locator(".external-select select")
    await expect(audiences.locator("option").first).to_be_attached(timeout=WAIT_MS)
    first = await audiences.locator("option").first.get_attribute("value")
    await audiences.select_option([first or ""])
    await modal.get_by_role("button", name="Create").click()
    await expect(modal).to_have_count(0, timeout=WAIT_MS)
    submitted = next(d for d in reversed(demo.emulator.interactions.deliveries) if d.kind == "view_submission")
    assert submitted.ok


async def test_a_slack_date_token_shows_the_date_and_an_unknown_token_its_fallback(page: Page) -> None:
    await expect(page.locator("#channel-header")).to_contain_text("# research", timeout=WAIT_MS)
    shown = await page.evaluate(
        """() => [
            "<!date^1765000000^{date_short} at {time}|6 Dec 2025>",
            "<!date^1765000000^{date_num}|fallback>",
            "<!date^1765000000^{no_such_token}|the fallback>",
            "<!date^soon^{date}|when it is due>",
        ].map((text) => {
            const div = document.createElement("div");
            div.innerHTML = window.BlockKit.mrkdwn(text, { viewer: { locale: "en-US", tz: "UTC" } });
            return div.textContent;
        })"""
    )
    assert shown == ["Dec 6, 2025 at 5:46 AM", "12/06/2025", "the fallback", "when it is due"]
    assert not any("@date" in s for s in shown)


async def test_an_image_uploaded_on_the_page_is_asked_about_and_answered(page: Page, demo: Demo) -> None:
    await act_as(page, "Ada")
    await page.locator("#channels").get_by_text("# research").click()
    await page.locator("#composer-text").fill("Would you buy this shoe?")
    png = draw_panels([Panel(title="Shoe", options=["Yes", "No"], values={"Gen Z": [60.0, 40.0]}, unit="%")])
    await page.locator("#composer-file").set_input_files({"name": "shoe.png", "mimeType": "image/png", "buffer": png})
    shared = page.locator("#timeline .message", has_text="Would you buy this shoe?")
    await expect(shared.locator("figure.file-image img")).to_be_visible(timeout=WAIT_MS)
    await expect(page.locator("#composer-text")).to_have_value("")

    await act_as(page, "Ben")
    await shared.get_by_role("button", name="More actions").click()
    await shared.get_by_role("button", name="Ask Minds about this").click()
    modal = page.locator(".modal")
    await expect(modal).to_contain_text("Stimulus:", timeout=WAIT_MS)
    await expect(modal).to_contain_text("shoe.png")
    study = modal.locator(".external-select").first
    await study.get_by_role("searchbox").fill("launch")
    await study.get_by_role("button", name="Search").click()
    await expect(study.locator("option", has_text="Launch positioning")).to_be_attached(timeout=WAIT_MS)
    await study.locator("select").select_option(label="Launch positioning")
    await modal.locator("footer button.primary").click()
    await expect(modal).to_have_count(0, timeout=WAIT_MS)
    await expect(shared.locator(".replies-link")).to_be_visible(timeout=WAIT_MS)


async def test_a_dialogs_checkbox_and_time_are_submitted_as_ticked(page: Page, demo: Demo) -> None:
    await page.locator("#channels").get_by_text("# research").click()
    await slash(page, "/minds digest list")
    await page.get_by_role("button", name="Add a digest").first.click()
    modal = page.locator(".modal")
    await expect(modal).to_contain_text("Quiet periods", timeout=WAIT_MS)
    await expect(modal).not_to_contain_text("[timepicker]")
    await expect(modal).not_to_contain_text("[checkboxes]")
    await modal.locator("input[type=time]").fill("07:30")
    await modal.locator("[data-input-key='weekday/value']").select_option("monday")
    if not await modal.locator("[data-input-key='tz/value']").input_value():
        await modal.locator("[data-input-key='tz/value']").fill("Europe/London")
    await modal.get_by_role("checkbox", name="Post nothing when there is no news").check()
    await modal.locator("footer button.primary").click()
    await expect(modal).to_have_count(0, timeout=WAIT_MS)
    await slash(page, "/minds digest list")
    listed = page.locator("#timeline .message.ephemeral").last
    await expect(listed).to_contain_text("every Monday at 07:30 (Europe/London)", timeout=WAIT_MS)
    await expect(listed).to_contain_text("quiet periods skipped")  # the ticked checkbox reached the bot
