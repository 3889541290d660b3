"""The demo page behaves like Slack where a newcomer notices: it opens in #research as the console says, says
the answers are simulated, turns a typed @name into a mention (in a message and in /minds approvers add), and
lets any message start a thread."""

from __future__ import annotations

import httpx
from playwright.async_api import Page, expect

from minds_bot.demo import Demo
from tests.browser.test_demo_page import WAIT_MS, slash


async def test_the_page_opens_in_research_and_says_the_answers_are_simulated(page: Page, demo: Demo) -> None:
    await expect(page.locator("#channel-header")).to_contain_text("# research", timeout=WAIT_MS)
    notice = page.locator("#notice")
    await expect(notice).to_be_visible()
    await expect(notice).to_contain_text("the answers come from a local Minds simulator, not from Minds")
    await page.goto(demo.emulator.base_url + "/")  # without the console's #channel=research, too
    await expect(page.locator("#channel-header")).to_contain_text("# research", timeout=WAIT_MS)
    await expect(page.locator("#notice")).to_be_visible()


async def test_a_typed_at_name_becomes_a_mention_and_an_unknown_one_stays_text(page: Page, demo: Demo) -> None:
    await expect(page.locator("#channel-header")).to_contain_text("# research", timeout=WAIT_MS)
    await slash(page, "@chloe could you approve? @zed too")
    message = page.locator("#timeline .message").filter(has_text="could you approve?")
    await expect(message.locator(".mention")).to_have_text("@chloe", timeout=WAIT_MS)
    await expect(message).to_contain_text("@zed too")
    await expect(message.locator(".mention")).to_have_count(1)


async def test_approvers_add_at_chloe_names_chloe(page: Page, demo: Demo) -> None:
    await expect(page.locator("#channel-header")).to_contain_text("# research", timeout=WAIT_MS)
    await slash(page, "/minds approvers add @chloe")
    answer = page.locator("#timeline .message.ephemeral").filter(has_text="can now approve")
    await expect(answer.locator(".mention")).to_have_text("@chloe", timeout=WAIT_MS)


async def test_a_message_without_replies_starts_a_thread(page: Page, demo: Demo) -> None:
    await expect(page.locator("#channel-header")).to_contain_text("# research", timeout=WAIT_MS)
    await slash(page, "Kick-off for the pricing study")
    message = page.locator("#timeline .message").filter(has_text="Kick-off for the pricing study")
    await expect(message).to_be_visible(timeout=WAIT_MS)
    await expect(message.locator(".replies-link")).to_have_count(0)
    await message.get_by_role("button", name="Reply in thread").click()
    thread = page.locator("#thread")
    await expect(thread).to_be_visible()
    await expect(thread).to_contain_text("Kick-off for the pricing study")
    await page.locator("#thread-text").fill("First reply in the thread")
    await page.locator("#thread-text").press("Enter")
    await expect(page.locator("#thread-timeline")).to_contain_text("First reply in the thread", timeout=WAIT_MS)
    await expect(message.locator(".replies-link")).to_have_text("1 reply", timeout=WAIT_MS)


async def test_a_chat_with_a_mind_continues_from_the_page(page: Page, demo: Demo) -> None:
    key = demo.bot.bot.services.settings.minds_api_key
    assert key is not None
    async with httpx.AsyncClient(base_url=demo.minds_url) as http:
        listed = await http.get("/minds?limit=1", headers={"Authorization": f"Bearer {key.get_secret_value()}"})
    mind = listed.json()["data"][0]
    await expect(page.locator("#channel-header")).to_contain_text("# research", timeout=WAIT_MS)
    await slash(page, f"/minds chat {mind['id']}")
    header = page.locator("#timeline .message").filter(has_text="opened a chat with")
    await expect(header).to_be_visible(timeout=WAIT_MS)
    await header.get_by_role("button", name="Reply in thread").click()
    await page.locator("#thread-text").fill("Would you buy sneakers made from ocean plastic?")
    await page.locator("#thread-text").press("Enter")
    answer = page.locator("#thread-timeline .message").filter(
        has_text="Synthetic answer", has_not_text="opened a chat with"
    )
    await expect(answer).to_be_visible(timeout=WAIT_MS)
