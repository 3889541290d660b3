"""Multi-workspace mode: installs go through Slack's OAuth flow with a one-time state, and the bot token is
stored encrypted for the installed team."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from minds_bot.app import HttpServer, start_http
from minds_bot.settings import Settings
from minds_bot.store import SecretBox
from tests.fakes.slack_web import FakeSlack


@pytest.fixture
async def server(slack: FakeSlack, tmp_path: Path) -> AsyncIterator[HttpServer]:
    settings = Settings(
        slack_client_id="111.222",
        slack_client_secret="client-secret-for-tests",
        slack_signing_secret="signing-secret-for-tests",
        slack_api_url=slack.api_url,
        minds_bot_db=str(tmp_path / "bot.sqlite3"),
        minds_bot_secret_key=SecretBox.generate_key(),
    )
    started = await start_http(settings, host="127.0.0.1", port=0)
    yield started
    await started.stop()


async def install_state(http: httpx.AsyncClient) -> str:
    page = await http.get("/slack/install")
    assert page.status_code == 200
    # Bolt binds the state to the browser with a Secure cookie; httpx keeps Secure cookies for https only.
    cookie = page.headers["set-cookie"].split(";")[0]
    http.headers["cookie"] = cookie
    link = re.search(r'href="(https://slack\.com/oauth/v2/authorize\?[^"]+)"', page.text)
    assert link, "the install page links to Slack's authorize URL"
    query = parse_qs(urlsplit(link.group(1).replace("&amp;", "&")).query)
    assert query["client_id"] == ["111.222"]
    assert "chat:write" in query["scope"][0] and "commands" in query["scope"][0]
    return query["state"][0]


async def test_an_install_saves_the_bot_token_encrypted_for_the_team(server: HttpServer) -> None:
    async with httpx.AsyncClient(base_url=server.base_url) as http:
        state = await install_state(http)
        done = await http.get("/slack/oauth_redirect", params={"code": "code-1", "state": state})
        assert done.status_code == 200
        replay = await http.get("/slack/oauth_redirect", params={"code": "code-1", "state": state})
        assert replay.status_code >= 400  # a state works once
    store = server.bot.services.store
    bot = await store.find_bot(enterprise_id=None, team_id="T0001")
    assert bot is not None and bot.bot_token.get_secret_value() == "xoxb-installed-bot-token"
    client = await server.bot.services.slack.client_for("T0001")
    assert client.token == "xoxb-installed-bot-token"
    raw = Path(server.bot.services.settings.minds_bot_db).read_bytes()
    assert b"xoxb-installed-bot-token" not in raw


async def test_a_forged_state_installs_nothing(server: HttpServer, slack: FakeSlack) -> None:
    async with httpx.AsyncClient(base_url=server.base_url) as http:
        done = await http.get("/slack/oauth_redirect", params={"code": "code-1", "state": "forged"})
    assert done.status_code >= 400
    assert "oauth.v2.access" not in [method for method, _ in slack.calls]
    assert await server.bot.services.store.find_bot(enterprise_id=None, team_id="T0001") is None
