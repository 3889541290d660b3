"""Row 2: one workspace, one key. The operator's ``MINDS_API_KEY`` serves exactly one workspace: in
single-workspace mode the bot token's own (from ``auth.test``), in OAuth mode only the workspace named by
``MINDS_BOT_DEFAULT_TEAM_ID`` — without it the bot refuses to start and ``minds-bot check`` says why. A request
from another workspace, or from an external member of a Slack Connect channel, gets a polite private refusal
and no Minds request is made with the operator's key."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from minds_bot.app import HttpServer, start_http
from minds_bot.render.access import OTHER_WORKSPACE
from minds_bot.services import NotConnected
from minds_bot.settings import Settings, SettingsError, load_settings
from minds_bot.store import SecretBox
from tests.fakes.bot import SIGNING_SECRET, TEAM, BotHarness, bot_harness, use_fake_minds
from tests.fakes.minds_http import FakeMindsAPI, page
from tests.fakes.slack_requests import button_click, command_body, interaction_body, signed_headers
from tests.fakes.slack_web import FakeSlack, fake_slack

OTHER_TEAM = "T0002"
GUEST_TEAM = "T0EXT"  # a Slack Connect guest's home workspace
OPERATOR_KEY = "minds_" + "a" * 48
ANSWER_SECONDS = 10.0
REPO = Path(__file__).resolve().parents[2]


def record_keys(services: object, api: FakeMindsAPI, keys: list[str]) -> None:
    """Every Minds client the bot builds is the fake, and the key it was built with is noted."""
    use_fake_minds(services, api)  # type: ignore[arg-type]
    fake_build = services.minds.build  # type: ignore[attr-defined]

    def build(api_key: str, limiter: object = None) -> object:
        keys.append(api_key)
        return fake_build(api_key, limiter=limiter)

    services.minds.build = build  # type: ignore[attr-defined]


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as harness:
        harness.minds_api.on("GET", "/studies", page([], total=0, offset=0))
        yield harness


async def command_from(bot: BotHarness, *, team: str, user_team: str | None = None) -> None:
    body = command_body(
        text="studies",
        team=team,
        channel="C0001",
        user="U0009",
        response_url=bot.slack.response_url("outsider"),
        trigger="outsider.1",
    )
    if user_team is not None:
        body += f"&user_team={user_team}"
    assert (await bot.send(body)).status == 200


# --- single-workspace mode --------------------------------------------------------------------------------


async def test_the_installed_workspace_is_served_with_the_operators_key(bot: BotHarness) -> None:
    await command_from(bot, team=TEAM)
    answer = json.dumps(await bot.reply())
    assert OTHER_WORKSPACE not in answer and "not connected" not in answer
    assert len(bot.minds_api.to("GET", "/studies")) == 1


async def test_another_workspace_gets_a_polite_refusal_and_no_minds_request(bot: BotHarness) -> None:
    await command_from(bot, team=OTHER_TEAM)
    assert await bot.refusal() == OTHER_WORKSPACE
    assert bot.minds_api.sent == []


async def test_a_slack_connect_guest_running_a_command_is_refused(bot: BotHarness) -> None:
    await command_from(bot, team=TEAM, user_team=GUEST_TEAM)
    assert await bot.refusal() == OTHER_WORKSPACE
    assert bot.minds_api.sent == []


async def test_a_slack_connect_guest_pressing_a_button_is_refused(bot: BotHarness) -> None:
    payload = button_click(
        team=TEAM,
        channel="C0001",
        user="U0009",
        action_id="study_export",
        value="00000000-0000-4000-8000-000000000101",
        action_ts="1733150000.000001",
        message_ts="1.000",
        response_url=bot.slack.response_url("guest-click"),
        trigger="guest.1",
    )
    payload["user"]["team_id"] = GUEST_TEAM
    payload["is_ext_shared_channel"] = True
    assert (await bot.send(interaction_body(payload))).status == 200
    assert await bot.refusal() == OTHER_WORKSPACE
    assert bot.minds_api.sent == []
    assert bot.slack.calls_to("chat.postMessage") == []


async def test_a_slack_connect_guest_submitting_a_dialog_sees_the_refusal_in_it(bot: BotHarness) -> None:
    payload = {
        "type": "view_submission",
        "team": {"id": TEAM},
        "user": {"id": "U0009", "team_id": GUEST_TEAM},
        "trigger_id": "guest.1",
        "view": {
            "type": "modal",
            "id": "VGUEST",
            "callback_id": "plan_request",
            "private_metadata": "{}",
            "state": {"values": {}},
        },
    }
    response = await bot.send(interaction_body(payload))
    answer = json.loads(response.body)
    assert answer["response_action"] == "update"
    assert OTHER_WORKSPACE in json.dumps(answer["view"])
    assert bot.minds_api.sent == []


async def test_the_operators_key_is_never_handed_out_for_another_team(bot: BotHarness) -> None:
    """Below the middleware too: a flow asking for another team's client gets "not connected"."""
    assert await bot.services.minds.client_for(TEAM) is not None
    with pytest.raises(NotConnected):
        await bot.services.minds.client_for(OTHER_TEAM)
    assert not await bot.services.minds.is_connected(OTHER_TEAM)


# --- OAuth mode -------------------------------------------------------------------------------------------


def oauth_settings(slack: FakeSlack, db: Path, **extra: str) -> Settings:
    return Settings(
        slack_client_id="111.222",
        slack_client_secret="client-secret-for-tests",
        slack_signing_secret=SIGNING_SECRET,
        slack_api_url=slack.api_url,
        minds_bot_db=str(db),
        minds_bot_secret_key=SecretBox.generate_key(),
        minds_api_key=OPERATOR_KEY,
        **extra,
    )


def test_oauth_mode_with_an_install_wide_key_is_refused_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {
        "SLACK_CLIENT_ID": "111.222",
        "SLACK_CLIENT_SECRET": "client-secret-for-tests",
        "MINDS_API_KEY": OPERATOR_KEY,
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("MINDS_BOT_DEFAULT_TEAM_ID", raising=False)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    (problem,) = caught.value.problems
    assert problem.startswith("MINDS_API_KEY: in OAuth mode") and "MINDS_BOT_DEFAULT_TEAM_ID" in problem
    assert OPERATOR_KEY not in problem


def test_minds_bot_check_says_why(tmp_path: Path) -> None:
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "MINDS_"))}
    env = {
        **keep,
        "PYTHONPATH": str(REPO),
        "SLACK_CLIENT_ID": "111.222",
        "SLACK_CLIENT_SECRET": "client-secret-for-tests",
        "SLACK_SIGNING_SECRET": SIGNING_SECRET,
        "MINDS_API_KEY": OPERATOR_KEY,
    }
    result = subprocess.run(
        [sys.executable, "-m", "minds_bot", "check"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "MINDS_BOT_DEFAULT_TEAM_ID" in result.stderr and "Traceback" not in result.stderr
    assert OPERATOR_KEY not in result.stderr + result.stdout


@pytest.fixture
async def slack() -> AsyncIterator[FakeSlack]:
    async with fake_slack() as fake:
        yield fake


async def install_t0001(server: HttpServer) -> None:
    """T0001 installs the app through Slack's OAuth flow (the fake Slack answers oauth.v2.access for T0001)."""
    from tests.foundation.test_oauth import install_state

    async with httpx.AsyncClient(base_url=server.base_url) as http:
        state = await install_state(http)
        done = await http.get("/slack/oauth_redirect", params={"code": "code-1", "state": state})
        assert done.status_code == 200


async def studies_over_http(server: HttpServer, slack: FakeSlack) -> dict[str, object]:
    body = command_body(
        text="studies", team=TEAM, channel="C0001", user="U0001", response_url=slack.response_url(), trigger="1.2"
    )
    async with httpx.AsyncClient(base_url=server.base_url) as http:
        # The HTTP status of a listener that fails after its ack is row 9's (tests of the verification gate).
        await http.post("/slack/events", content=body, headers=signed_headers(body, secret=SIGNING_SECRET))
    return await asyncio.wait_for(slack.responses.get(), ANSWER_SECONDS)


@pytest.mark.parametrize(
    ("default_team", "served"), [("T0009", False), (TEAM, True)], ids=["key-of-another-team", "key-of-this-team"]
)
async def test_in_oauth_mode_the_key_serves_only_the_named_workspace(
    slack: FakeSlack, tmp_path: Path, default_team: str, served: bool
) -> None:
    server = await start_http(
        oauth_settings(slack, tmp_path / "bot.sqlite3", minds_bot_default_team_id=default_team),
        host="127.0.0.1",
        port=0,
    )
    api, keys = FakeMindsAPI(), []
    api.on("GET", "/studies", page([], total=0, offset=0))
    record_keys(server.bot.services, api, keys)
    try:
        await install_t0001(server)
        answer = await studies_over_http(server, slack)
    finally:
        await server.stop()
    if served:
        assert keys == [OPERATOR_KEY] and len(api.to("GET", "/studies")) == 1
    else:
        assert "not connected to Minds yet" in str(answer) and "/minds connect" in str(answer)
        assert keys == [] and api.sent == []


# --- the rule itself --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("teams", "installed_team", "installed_org", "org", "external", "served"),
    [
        ({"T1"}, "T1", None, None, False, True),
        ({"T1", "T2"}, "T1", None, None, False, False),  # a Slack Connect guest from T2 in T1's channel
        ({"T1", "E1"}, "T1", "E1", "E1", False, True),  # a Grid workspace install names its org too
        ({"T7"}, None, "E1", "E1", False, True),  # an org-wide install serves the org's workspaces
        ({"T7", "T9"}, None, "E1", "E1", True, False),  # ... but not a guest in a channel shared outside the org
        ({"T7"}, None, "E1", "E2", False, False),  # another org
        ({"T7"}, "T1", "E1", "E1", False, False),  # a workspace install does not serve its org's other workspaces
    ],
)
def test_who_is_served(
    teams: set[str],
    installed_team: str | None,
    installed_org: str | None,
    org: str | None,
    external: bool,
    served: bool,
) -> None:
    from minds_bot.slack.workspace import is_served

    assert (
        is_served(teams, installed_team=installed_team, installed_org=installed_org, org=org, external=external)
        is served
    )


def test_every_team_a_request_names_for_the_person_is_read() -> None:
    from minds_bot.slack.workspace import acting_teams

    command = {"command": "/minds", "team_id": "T1", "user_team": "T2"}
    action = {"type": "block_actions", "team": {"id": "T1"}, "user": {"id": "U1", "team_id": "T3"}}
    event = {"type": "event_callback", "team_id": "T1", "event": {"user_team": "T4"}}
    assert acting_teams(command, actor_team=None) == {"T1", "T2"}
    assert acting_teams(action, actor_team=None) == {"T1", "T3"}
    assert acting_teams(event, actor_team="T5") == {"T4", "T5"}
    # Odd shapes are not read; the team Bolt took from the request always is.
    assert acting_teams({"user": "U1", "team": "T1"}, actor_team=None, request_team="T1") == {"T1"}
