"""Fixtures shared by the foundation tests: the fake Slack Web API the HTTP-mode bot talks to."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakes.slack_web import FakeSlack, fake_slack


@pytest.fixture
async def slack() -> AsyncIterator[FakeSlack]:
    async with fake_slack() as fake:
        yield fake
