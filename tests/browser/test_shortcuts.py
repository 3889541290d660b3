"""A person at the demo page uses a message's ⋯ menu ("Ask Minds about this" opens its dialog with the words)
and sees a Minds link unfurl into a card."""

from __future__ import annotations

from playwright.async_api import Page, expect

from minds_bot.demo import Demo
from tests.browser.test_demo_page import WAIT_MS, open_channel

QUESTION = "Would runners pay 20 euros more for a shoe made from recycled plastic?"


async def test_ask_minds_about_a_message_from_its_menu(page: Page) -> None:
    await open_channel(page, "research")
    await page.locator("#composer-text").fill(QUESTION)
    await page.locator("#composer-text").press("Enter")
    message = page.locator("#timeline .message", has_text=QUESTION).last
    await expect(message).to_be_visible(timeout=WAIT_MS)

    await message.get_by_role("button", name="More actions").click()
    await message.get_by_role("button", name="Ask Minds about this").click()

    dialog = page.locator(".modal").last
    await expect(dialog).to_contain_text("Ask Minds about this", timeout=WAIT_MS)
    await expect(dialog).to_contain_text("goes to the Study's Minds as one question")
    await expect(dialog.locator("textarea")).to_have_value(QUESTION)


async def test_a_study_link_shows_its_card_under_the_message(page: Page, demo: Demo) -> None:
    minds = await demo.bot.bot.services.minds.client_for(demo.emulator.config.team_id)
    launch = next(s for s in [s async for s in minds.iter_studies(max_items=20)] if s.name == "Launch positioning")
    await open_channel(page, "research")
    await page.locator("#composer-text").fill(f"The launch study: https://getminds.ai/studies/{launch.id}")
    await page.locator("#composer-text").press("Enter")
    card = page.locator("#timeline .message .unfurl").last
    await expect(card).to_contain_text("Launch positioning", timeout=WAIT_MS)
    await expect(card).to_contain_text("Minds Study")
