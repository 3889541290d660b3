"""Issue #17 rows 1, 3, 5 and 9 through the real bot over HTTP: nothing acts on a request before its signature
is checked, a refusal is one WARNING line without the body, and a verified payload the listeners cannot read
is refused with 400 instead of a 500, a traceback or Bolt's 404 after three seconds."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlencode

import pytest
from slack_bolt.request.async_request import AsyncBoltRequest

from minds_bot.render.digest import ADD_DIGEST_ACTION
from minds_bot.render.plan_dialogs import VIEW_ANSWER
from minds_bot.slack.gate import is_slack_url
from minds_bot.slack.refusals import WINDOW_SECONDS as REFUSAL_WINDOW
from minds_bot.slack.refusals import RefusalLog
from tests.fakes.minds_http import fake_key
from tests.fakes.slack_requests import FORM, JSON, button_click, command_body, event_body
from tests.fakes.slack_web import WAIT_SECONDS
from tests.security.gatehouse import (
    CHANNEL,
    TEAM,
    USER,
    Gatehouse,
    bot_records,
    gatehouse,
    shown,
    sign,
    tracebacks,
    warnings_and_worse,
)

MARKER = "ATTACKER-BODY-MARKER"


@pytest.fixture
async def bot(caplog: pytest.LogCaptureFixture) -> AsyncIterator[Gatehouse]:
    caplog.set_level(logging.INFO)  # the production default: what an INFO log file would hold
    async with gatehouse(process_before_response=False) as house:  # production's ack-first mode
        yield house


def attacker_command(bot: Gatehouse, text: str = MARKER) -> str:
    return command_body(
        text=text, team=TEAM, channel=CHANNEL, user=USER, response_url=bot.evil.url("respond"), trigger="1.2.3"
    )


def assert_refused_quietly(bot: Gatehouse, caplog: pytest.LogCaptureFixture, *, body: bytes | str) -> None:
    """What the operator and the attacker notice: nothing happened, one WARNING line without the body."""
    assert bot.evil.received == [] and bot.outbound == [] and bot.store.calls == []
    [warning] = warnings_and_worse(caplog.records)
    assert warning.name == "minds_bot.slack.gate" and "refused" in warning.getMessage()
    sample = body if isinstance(body, str) else body.decode("utf-8", "replace")
    for record in caplog.records:
        line = shown(record)
        assert MARKER not in line and sample[:40] not in line
    assert tracebacks(caplog.records) == []


# --- row 1: unsigned, with headers that used to make verification raise --------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Slack-Request-Timestamp": "abc", "X-Slack-Signature": "v0=" + "0" * 64},
        {"X-Slack-Request-Timestamp": str(int(time.time())), "X-Slack-Signature": "v0=é".encode()},
        {"X-Slack-Request-Timestamp": "9" * 5000, "X-Slack-Signature": "v0=" + "0" * 64},
        {"X-Slack-Request-Timestamp": "١٢٣".encode(), "X-Slack-Signature": "v0=" + "0" * 64},  # Arabic-Indic digits
        {"X-Slack-Request-Timestamp": str(int(time.time()))},
        {},
    ],
    ids=["timestamp-abc", "non-ascii-signature", "huge-timestamp", "unicode-digits", "no-signature", "unsigned"],
)
async def test_an_unsigned_request_gets_401_and_the_bot_never_calls_the_attackers_url(
    bot: Gatehouse, caplog: pytest.LogCaptureFixture, headers: dict[str, Any]
) -> None:
    body = attacker_command(bot)
    reply = await bot.post(body, {"content-type": FORM, **headers})
    assert reply.status_code == 401 and reply.content == b""
    assert_refused_quietly(bot, caplog, body=body)


async def test_a_stale_or_wrong_signature_gets_401(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    clock = ServerClock()
    async with gatehouse(process_before_response=False, clock=clock) as bot:
        body = attacker_command(bot).encode()
        stale = await bot.post(body, sign(body, timestamp=int(time.time()) - 301))
        forged = await bot.post(body, {**sign(body), "x-slack-signature": "v0=" + "a" * 64})
        assert (stale.status_code, forged.status_code) == (401, 401)
        assert bot.evil.received == [] and bot.outbound == [] and bot.store.calls == []
        clock.advance(REFUSAL_WINDOW)
    first, summary = warnings_and_worse(caplog.records)  # the client's first refusal, then its minute summed up
    assert first.fields["reason"] == "stale timestamp"  # type: ignore[attr-defined]
    assert summary.fields["reasons"] == "401 wrong signature ×1"  # type: ignore[attr-defined]


# --- row 3: refused bodies are not logged --------------------------------------------------------------------


class ServerClock:
    """The server's time, moved on by the test (signatures stay within Slack's five minutes)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


async def test_twenty_unsigned_200_kb_posts_from_one_client_add_two_short_lines_to_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 28, hardening 8: the first refusal in full, the rest of the client's minute as one summary line
    (before: one line a request, about 180 KiB/s of log from one client)."""
    caplog.set_level(logging.INFO)
    clock = ServerClock()
    async with gatehouse(process_before_response=False, clock=clock) as bot:
        body = urlencode({"command": "/minds", "text": MARKER * 12_000})  # about 200 kB
        assert len(body) > 200_000
        for _ in range(20):
            assert (await bot.post(body, {"content-type": FORM})).status_code == 401
        [first] = warnings_and_worse(caplog.records)
        assert first.fields == {  # type: ignore[attr-defined]
            "status": 401,
            "reason": "missing signature headers",
            "bytes": len(body),
            "source": "127.0.0.1",
        }
        clock.advance(REFUSAL_WINDOW)
        help_body = command_body(
            text="help", team=TEAM, channel=CHANNEL, user=USER, response_url=bot.slack.response_url(), trigger="1"
        )
        assert (await bot.send(help_body)).status_code == 200  # the next request, a good one, finds the minute over
        assert bot.non_slack_calls() == [] and bot.evil.received == []
        [_, summary] = warnings_and_worse(caplog.records)
        assert summary.getMessage() == ("refused more requests to the Slack endpoint from one source within a minute")
        assert summary.fields == {  # type: ignore[attr-defined]
            "source": "127.0.0.1",
            "count": 19,
            "reasons": "401 missing signature headers ×19",
            "bytes": 19 * len(body),
        }
    lines = [shown(r) for r in bot_records(caplog.records)]
    assert sum(len(line) for line in warnings_lines(caplog)) < 2 * 400  # two short lines, not 4 MB
    assert not any(MARKER in line for line in lines)


def warnings_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [shown(r) for r in warnings_and_worse(caplog.records)]


def test_refusals_from_two_clients_are_counted_apart(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    clock = [1_000.0]
    refusals = RefusalLog(clock=lambda: clock[0])
    for source in ("10.0.0.1", "10.0.0.2", "10.0.0.1", "10.0.0.1", "10.0.0.2"):
        refusals.refused(source=source, status=401, reason="wrong signature", size=10)
    assert len(caplog.records) == 2  # each client's first
    clock[0] += REFUSAL_WINDOW - 1
    refusals.flush()
    assert len(caplog.records) == 2  # the minute is not over yet
    clock[0] += 1
    refusals.flush()
    summaries = {r.fields["source"]: r.fields["count"] for r in caplog.records[2:]}  # type: ignore[attr-defined]
    assert summaries == {"10.0.0.1": 2, "10.0.0.2": 1}
    refusals.refused(source="10.0.0.1", status=401, reason="wrong signature", size=10)
    assert caplog.records[-1].getMessage() == "refused a request to the Slack endpoint"  # a new minute, in full


async def test_a_body_over_a_megabyte_gets_413_and_one_short_line(
    bot: Gatehouse, caplog: pytest.LogCaptureFixture
) -> None:
    body = urlencode({"command": "/minds", "text": MARKER * 60_000})  # about 1.2 MB
    reply = await bot.post(body, {"content-type": FORM})
    assert reply.status_code == 413
    assert_refused_quietly(bot, caplog, body=body)


async def test_behind_the_gate_bolts_own_refusal_does_not_log_the_body(
    bot: Gatehouse, caplog: pytest.LogCaptureFixture
) -> None:
    body = attacker_command(bot)
    forged = {"content-type": FORM, "x-slack-request-timestamp": str(int(time.time())), "x-slack-signature": "v0=0"}
    reply = await _bolt_app(bot).async_dispatch(AsyncBoltRequest(body=body, headers=forged))
    assert reply.status == 401  # Bolt's second check still refuses
    assert not any(MARKER in shown(record) for record in caplog.records)


# --- row 5: bodies that used to raise ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"payload=\xff\xfe" + MARKER.encode(), FORM),
        (b"command=%2Fminds&text=" + MARKER.encode(), "application/x-www-form-urlencoded; charset=bogus-8"),
        (b"payload=%7Bnot-json" + MARKER.encode(), FORM),
    ],
    ids=["non-utf8", "bogus-charset", "payload-not-json"],
)
async def test_unsigned_unreadable_bodies_get_401(
    bot: Gatehouse, caplog: pytest.LogCaptureFixture, body: bytes, content_type: str
) -> None:
    reply = await bot.post(body, {"content-type": content_type})
    assert reply.status_code == 401 and reply.content == b""
    assert_refused_quietly(bot, caplog, body=body)


def _payload(value: Any) -> bytes:
    return urlencode({"payload": json.dumps(value)}).encode()


def _click(**changes: Any) -> dict[str, Any]:
    payload = button_click(
        team=TEAM,
        channel=CHANNEL,
        user=USER,
        action_id="minds_noop",
        value=MARKER,
        action_ts="1.2",
        message_ts="1.1",
        response_url="https://hooks.slack.com/actions/1",
        trigger="1.2.3",
    )
    payload.update(changes)
    return {k: v for k, v in payload.items() if v is not ...}


def _submission(**view: Any) -> dict[str, Any]:
    base = {"id": "V1", "type": "modal", "callback_id": VIEW_ANSWER, "state": {"values": {}}, "private_metadata": ""}
    return {
        "type": "view_submission",
        "team": {"id": TEAM},
        "user": {"id": USER, "team_id": TEAM},
        "trigger_id": "1.2.3",
        "view": {k: v for k, v in {**base, **view}.items() if v is not ...},
    }


def _event(event: Any) -> bytes:
    body = json.loads(event_body({}, team=TEAM, event_id="Ev1"))
    return json.dumps({**body, "event": event}).encode()


SIGNED_MALFORMED = {
    "non-utf8": (b"payload=\xff\xfe" + MARKER.encode(), FORM),
    "bogus-charset": (b"command=%2Fminds&text=" + MARKER.encode(), "application/x-www-form-urlencoded; charset=bogus"),
    "payload-not-json": (b"payload=%7Bnot-json" + MARKER.encode(), FORM),
    "json-body-not-json": (b"{" + MARKER.encode(), JSON),
    "payload-list": (_payload([MARKER]), FORM),
    "payload-string": (_payload(MARKER), FORM),
    "payload-number": (_payload(12), FORM),
    "actions-empty": (_payload(_click(actions=[])), FORM),
    "user-string": (_payload(_click(user=USER)), FORM),
    "team-number": (_payload(_click(team=7)), FORM),
    "event-null": (_event(None), JSON),
    "event-list": (_event([MARKER]), JSON),
    "view-without-type": (_payload(_submission(type=...)), FORM),
    "view-null": (_payload({**_submission(), "view": None}), FORM),
    "state-values-list": (_payload(_submission(state={"values": [MARKER]})), FORM),
    "nested-too-deep": (b"[" * 100_000, JSON),
}


@pytest.mark.parametrize(("body", "content_type"), SIGNED_MALFORMED.values(), ids=SIGNED_MALFORMED.keys())
async def test_a_signed_payload_the_bot_cannot_read_gets_400_and_one_line(
    bot: Gatehouse, caplog: pytest.LogCaptureFixture, body: bytes, content_type: str
) -> None:
    reply = await bot.post(body, sign(body, content_type=content_type))
    assert reply.status_code == 400 and reply.content == b""
    assert_refused_quietly(bot, caplog, body=body)


# --- row 9: verified payloads missing what a listener needs ----------------------------------------------------


MISSING = {
    "click-without-user": _payload(_click(user=...)),
    "click-without-trigger": _payload(_click(trigger_id=...)),
    "command-without-user": command_body(
        text="help", team=TEAM, channel=CHANNEL, user="", response_url="https://hooks.slack.com/c/1", trigger="1"
    ).encode(),
    "submission-without-user": _payload({k: v for k, v in _submission().items() if k != "user"}),
    "submission-without-trigger": _payload({k: v for k, v in _submission().items() if k != "trigger_id"}),
    "submission-metadata-not-json": _payload(_submission(private_metadata=MARKER)),
    "submission-metadata-a-list": _payload(_submission(private_metadata="[1]")),
    # a view the gate does not list: metadata that looks like JSON must still be a JSON object
    "unlisted-view-metadata-broken": _payload(_submission(callback_id="any_new_modal", private_metadata="{" + MARKER)),
    "unlisted-view-metadata-a-list": _payload(_submission(callback_id="any_new_modal", private_metadata=" [1]")),
    "submission-without-state": _payload(_submission(state=...)),
    # an answer could not be sent there: the listener would fail after doing its work (found by the fuzz)
    "command-response-url-not-an-address": command_body(
        text="help", team=TEAM, channel=CHANNEL, user=USER, response_url="{}", trigger="1"
    ).encode(),
    "click-response-url-not-an-address": _payload(_click(response_url="hooks.slack.com/no-scheme")),
}


@pytest.mark.parametrize("body", MISSING.values(), ids=MISSING.keys())
async def test_a_payload_missing_what_its_listener_needs_is_refused_at_once(
    bot: Gatehouse, caplog: pytest.LogCaptureFixture, body: bytes
) -> None:
    reply = await bot.post(body, sign(body))
    assert reply.status_code == 400  # not Bolt's 404 after 3 s, which Slack shows as dispatch_failed
    assert_refused_quietly(bot, caplog, body=body)


async def test_an_app_home_event_without_a_user_is_refused(bot: Gatehouse, caplog: pytest.LogCaptureFixture) -> None:
    body = _event({"type": "app_home_opened", "tab": "home", "channel": "D1"})
    reply = await bot.post(body, sign(body, content_type=JSON))
    assert reply.status_code == 400
    assert_refused_quietly(bot, caplog, body=body)
    assert bot.slack.calls == []


async def test_a_well_formed_request_still_gets_through(bot: Gatehouse, caplog: pytest.LogCaptureFixture) -> None:
    body = command_body(
        text="help", team=TEAM, channel=CHANNEL, user=USER, response_url=bot.slack.response_url(), trigger="1.2"
    )
    assert (await bot.send(body)).status_code == 200
    answer = await asyncio.wait_for(bot.slack.responses.get(), WAIT_SECONDS)
    assert "/minds plan" in str(answer["blocks"])
    assert warnings_and_worse(caplog.records) == [] and bot.non_slack_calls() == []


# --- the error hook answers only Slack ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://hooks.slack.com/commands/T1/2/abc", True),
        ("http://127.0.0.1:9/respond/1", True),  # the configured Slack (tests, the demo's emulator)
        ("https://hooks.slack.com.evil.example/x", False),
        ("http://hooks.slack.com/commands/1", False),
        ("https://evil.example/hooks.slack.com/", False),
        ("http://127.0.0.1:10/respond/1", False),
        ("javascript:alert(1)", False),
        (None, False),
        ("http://[::1", False),
    ],
)
def test_only_slacks_origin_may_receive_an_error_answer(url: Any, allowed: bool) -> None:
    assert is_slack_url(url, slack_api_url="http://127.0.0.1:9/api/") is allowed


async def test_a_listener_failure_on_a_verified_request_is_still_explained_to_the_person() -> None:
    async with gatehouse(minds_key=fake_key()) as house:
        body = command_body(
            text="studies", team=TEAM, channel=CHANNEL, user=USER, response_url=house.slack.response_url(), trigger="1"
        )
        # No Minds route: the fake raises inside the listener, after the ack, as an unexpected bug would.
        # Acked, then failed: Slack keeps its 200 (issue 28, finding 3); the test's mode waits for the listener.
        assert (await house.send(body)).status_code == 200
        answers = [house.slack.responses.get_nowait() for _ in range(house.slack.responses.qsize())]
        assert any("reference" in a.get("text", "") for a in answers)
        assert house.non_slack_calls() == [] and house.evil.received == []


@pytest.mark.parametrize("slacks", [True, False], ids=["slack-response-url", "foreign-response-url"])
async def test_the_error_hook_answers_a_verified_request_only_at_slacks_url(slacks: bool) -> None:
    async with gatehouse() as house:
        house.slack.replies["views.open"] = {"ok": False, "error": "invalid_trigger"}  # the listener will fail
        url = house.slack.response_url("hook") if slacks else house.evil.url("hook")
        click = {**_click(actions=[{"action_id": ADD_DIGEST_ACTION, "value": "open"}]), "response_url": url}
        body = _payload(click)
        assert (await house.post(body, sign(body))).status_code == 200  # acked before it failed (the test waits)
        answers = [house.slack.responses.get_nowait() for _ in range(house.slack.responses.qsize())]
        assert ["reference" in a["text"] for a in answers] == ([True] if slacks else [])
        assert house.evil.received == [] and house.non_slack_calls() == []


# --- Socket Mode: no HTTP gate, the same shape check as Bolt middleware ------------------------------------------


async def test_in_socket_mode_a_bad_shape_is_acknowledged_and_dropped(
    bot: Gatehouse, caplog: pytest.LogCaptureFixture
) -> None:
    app = _bolt_app(bot)
    request = AsyncBoltRequest(mode="socket_mode", body=_submission(private_metadata=MARKER))
    reply = await app.async_dispatch(request)
    assert reply.status == 200 and not reply.body  # acknowledged, so Slack does not redeliver it
    [warning] = warnings_and_worse(caplog.records)
    assert warning.name == "minds_bot.slack.middleware" and MARKER not in shown(warning)
    assert "mark_delivery" not in bot.store.calls and bot.evil.received == []


def _bolt_app(bot: Gatehouse) -> Any:
    from minds_bot.app import build_app

    app, _ = build_app(bot.services, process_before_response=True)
    return app
