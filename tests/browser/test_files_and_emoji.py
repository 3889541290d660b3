"""The demo page shows what Slack shows: an image file inline as a picture (not a download card) and an emoji
shortcode as the emoji itself, from a built-in map (no network)."""

from __future__ import annotations

from playwright.async_api import Page, expect
from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.demo import Demo
from minds_bot.render.bars import Panel, draw_panels
from tests.browser.test_demo_page import WAIT_MS, open_channel


def research_channel(demo: Demo) -> str:
    return next(c.id for c in demo.emulator.config.channels if c.name == "research")


async def test_an_image_file_shows_inline_and_a_shortcode_as_an_emoji(page: Page, demo: Demo) -> None:
    client = AsyncWebClient(token=demo.emulator.config.bot_token, base_url=demo.emulator.api_url)
    channel = research_channel(demo)
    png = draw_panels([Panel(title="Q1. Price", options=["Yes", "No"], values={"Gen Z": [75.0, 25.0]}, unit="%")])
    await client.chat_postMessage(channel=channel, text=":white_check_mark: Completed :paperclip: :not_an_emoji:")
    await client.files_upload_v2(file=png, filename="q1.png", title="Q1", channel=channel)
    await client.files_upload_v2(file=b"# Report\n", filename="report.md", title="Report", channel=channel)

    await open_channel(page, "research")
    timeline = page.locator("#timeline")
    await expect(timeline).to_contain_text("✅ Completed 📎 :not_an_emoji:", timeout=WAIT_MS)
    image = timeline.locator("figure.file-image img")
    await expect(image).to_have_count(1, timeout=WAIT_MS)
    await expect(image).to_have_attribute("alt", "Q1")
    width = await image.evaluate("img => img.complete ? img.naturalWidth : 0")
    assert width > 0, "the picture itself loads from the emulator, as Slack shows it"
    await expect(timeline.locator(".file-card", has_text="report.md")).to_be_visible()
    await expect(timeline.locator(".file-card", has_text="q1.png")).to_have_count(0)
