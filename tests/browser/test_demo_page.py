"""A person at the demo page: pick #research, type a /minds command, read the bot's private answer."""

from __future__ import annotations

from playwright.async_api import Page, expect

WAIT_MS = 15_000


async def open_channel(page: Page, name: str) -> None:
    await page.locator("#channels").get_by_text(f"# {name}").click()
    await expect(page.locator("#channel-header")).to_contain_text(name, timeout=WAIT_MS)


async def slash(page: Page, text: str) -> None:
    await page.locator("#composer-text").fill(text)
    await page.locator("#composer-text").press("Enter")


async def test_help_appears_only_for_the_person_who_asked(page: Page) -> None:
    await open_channel(page, "research")
    await slash(page, "/minds help")
    timeline = page.locator("#timeline")
    await expect(timeline).to_contain_text("/minds plan <study> <request>", timeout=WAIT_MS)
    await expect(timeline).to_contain_text("Only visible to you", timeout=WAIT_MS)


async def test_an_unknown_word_gets_a_suggestion(page: Page) -> None:
    await open_channel(page, "research")
    await slash(page, "/minds stuides")
    await expect(page.locator("#timeline")).to_contain_text("Did you mean /minds studies?", timeout=WAIT_MS)
