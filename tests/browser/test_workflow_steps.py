"""A person at the demo page runs a workflow step: **⚙️ Workflow steps** lists the app's steps with the inputs a
person types (the step's "run_by" is not one: Slack fills it with whoever runs the workflow, here the person at the
keyboard), **Run workflow step** sends it to the bot, and the run's outputs appear under **Runs** once the bot
completes it; the question's thread says that person asked."""

from __future__ import annotations

from playwright.async_api import Page, expect

from minds_bot.demo import Demo
from tests.browser.test_demo_page import WAIT_MS

ASK = "[data-callback-id=minds_ask_question]"


async def test_the_ask_step_runs_from_the_page_as_the_person_at_the_keyboard(page: Page, demo: Demo) -> None:
    await page.locator("#apps").get_by_text("Workflow steps").click()
    await expect(page.locator("#channel-header")).to_contain_text("Workflow steps", timeout=WAIT_MS)
    step = page.locator(ASK)
    await expect(step).to_contain_text("Ask Minds a question")
    await expect(step.get_by_label("Ask Minds a question: run_by")).to_have_count(0)  # nobody types who runs it
    await expect(step).to_contain_text("run_by: @ada (filled by Slack: whoever runs the workflow)")
    await step.get_by_label("Ask Minds a question: study").fill("Launch positioning")
    await step.get_by_label("Ask Minds a question: question").fill("Do you like the new logo?")
    await expect(step.get_by_label("Ask Minds a question: channel")).not_to_have_value("")  # the open channel
    await step.get_by_role("button", name="Run workflow step").click()

    run = page.locator(".step-run").first
    await expect(run).to_contain_text("minds_ask_question", timeout=WAIT_MS)
    await expect(run).to_contain_text("completed", timeout=WAIT_MS)
    await expect(run).to_contain_text("Results: Do you like the new logo?")
    await expect(run).to_contain_text('"thread_link"')
    emu = demo.emulator
    ada = next(u.id for u in emu.config.users if u.name == "ada")
    (execution,) = emu.state.functions.values()
    assert execution.inputs["run_by"]["id"] == ada
    channel = execution.inputs["channel"]
    assert any(f"<@{ada}> asked" in m.text for m in emu.state.messages(channel))
