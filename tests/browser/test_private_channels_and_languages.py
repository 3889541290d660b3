"""Private channels and languages at the demo page: a private channel shows a lock and only to its members;
the bot answers in one it was invited to; an admin switches the workspace language, a person their own."""

from __future__ import annotations

from playwright.async_api import Page, expect

from minds_bot.demo import Demo
from tests.browser.test_demo_page import WAIT_MS, slash
from tests.browser.test_research_in_browser import act_as


async def test_a_private_channel_shows_a_lock_and_only_to_its_members(page: Page, demo: Demo) -> None:
    await act_as(page, "Ada")
    channels = page.locator("#channels")
    await expect(channels).to_contain_text("🔒 leadership", timeout=WAIT_MS)
    await expect(channels).to_contain_text("🔒 people-team")
    await expect(channels).to_contain_text("# research")
    await channels.get_by_text("🔒 leadership").click()
    await expect(page.locator("#channel-header")).to_contain_text("🔒 leadership", timeout=WAIT_MS)
    await slash(page, "/minds help")
    await expect(page.locator("#timeline")).to_contain_text("/minds plan <study> <request>", timeout=WAIT_MS)
    await act_as(page, "Chloé")
    await expect(channels).to_contain_text("# research", timeout=WAIT_MS)
    await expect(channels).not_to_contain_text("leadership")
    await expect(channels).not_to_contain_text("people-team")
    await act_as(page, "Ben")
    await expect(channels).to_contain_text("🔒 leadership", timeout=WAIT_MS)
    await expect(channels).not_to_contain_text("people-team")


async def test_only_an_admin_switches_the_workspace_language(page: Page, demo: Demo) -> None:
    await act_as(page, "Ben")
    team = page.locator("#team-locale-switch")
    await expect(team).to_be_disabled(timeout=WAIT_MS)
    await act_as(page, "Ada")
    await expect(team).to_be_enabled(timeout=WAIT_MS)
    await team.select_option("de-DE")
    await expect(team).to_have_value("de-DE", timeout=WAIT_MS)
    assert demo.emulator.state.team_locale == "de-DE"
    assert demo.emulator.state.locales["U01ADA0001"] == "en-GB"  # the admin's own language is untouched
