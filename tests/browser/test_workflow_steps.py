"""A person at the demo page runs a workflow step: **⚙️ Workflow steps** lists the app's steps with their inputs,
**Run workflow step** sends it to the bot, and the run's outputs appear under **Runs** once the bot completes it."""

from __future__ import annotations

from playwright.async_api import Page, expect

from tests.browser.test_demo_page import WAIT_MS

ASK = "[data-callback-id=minds_ask_question]"


async def test_the_ask_step_runs_from_the_page_and_shows_its_outputs(page: Page) -> None:
    await page.locator("#apps").get_by_text("Workflow steps").click()
    await expect(page.locator("#channel-header")).to_contain_text("Workflow steps", timeout=WAIT_MS)
    step = page.locator(ASK)
    await expect(step).to_contain_text("Ask Minds a question")
    await step.get_by_label("Ask Minds a question: study").fill("Launch positioning")
    await step.get_by_label("Ask Minds a question: question").fill("Do you like the new logo?")
    await expect(step.get_by_label("Ask Minds a question: channel")).not_to_have_value("")  # the open channel
    await step.get_by_role("button", name="Run workflow step").click()

    run = page.locator(".step-run").first
    await expect(run).to_contain_text("minds_ask_question", timeout=WAIT_MS)
    await expect(run).to_contain_text("completed", timeout=WAIT_MS)
    await expect(run).to_contain_text("Results: Do you like the new logo?")
    await expect(run).to_contain_text('"thread_link"')
