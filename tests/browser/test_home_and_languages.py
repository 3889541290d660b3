"""At the demo page a person opens the bot's Home (Slack tells the bot, which publishes it) and switches their
Slack language: the bot's next private answer is in the new language."""

from __future__ import annotations

from playwright.async_api import Page, expect

from minds_bot import i18n
from minds_bot.render.help import INTRO
from tests.browser.test_demo_page import WAIT_MS, open_channel


async def test_opening_the_home_shows_what_is_waiting_and_offers_to_plan(page: Page) -> None:
    await page.locator("#apps li").first.click()
    home = page.locator("#timeline .home")
    await expect(home).to_contain_text("Waiting for your approval", timeout=WAIT_MS)
    await expect(home).to_contain_text("Digests in your channels")
    await home.get_by_role("button", name="Plan research").first.click()
    dialog = page.locator(".modal").last
    await expect(dialog).to_contain_text("Post the plan in", timeout=WAIT_MS)


async def test_switching_the_language_changes_what_the_bot_says_next(page: Page) -> None:
    await page.locator("#locale-switch").select_option("de-DE")
    await open_channel(page, "research")
    await page.locator("#composer-text").fill("/minds help")
    await page.locator("#composer-text").press("Enter")
    with i18n.speaking("de"):
        german = i18n._(INTRO).split("*")[-1].strip()[:60]  # plain words after the bold product name
    await expect(page.locator("#timeline")).to_contain_text(german, timeout=WAIT_MS)
    await page.locator("#apps li").first.click()
    await expect(page.locator("#timeline .home")).to_contain_text("Minds für Slack", timeout=WAIT_MS)
