"""Headless Chromium (Debian's /usr/bin/chromium, installed by scripts/test when missing) driven by Playwright,
against the running demo. Screenshots land in test-artifacts/ for a human to look at."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright

from minds_bot.demo import Demo, running_demo

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# The machine's network is closed: keep Chromium from reaching out at start.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    path = os.environ.get("MINDS_BOT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    assert Path(path).exists(), "Chromium is missing: scripts/test installs Debian's chromium package"
    return path


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
        yield launched
        await launched.close()


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[Demo]:
    async with running_demo(page_port=0, workdir=tmp_path) as running:
        yield running


@pytest.fixture
async def page(browser: Browser, demo: Demo, request: pytest.FixtureRequest) -> AsyncIterator[Page]:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    opened = await context.new_page()
    await opened.goto(demo.page_url)
    yield opened
    ARTIFACTS.mkdir(exist_ok=True)
    await opened.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    await context.close()
