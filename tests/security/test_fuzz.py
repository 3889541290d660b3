"""A property-based fuzz of payload shapes through the real bot over HTTP (issue #17, rows 1, 5 and 9 at large).

Hypothesis takes well-formed Slack payloads (slash commands, button clicks, modal submissions, options requests,
Events API callbacks) and breaks them: any field replaced by any JSON value, fields dropped, the whole payload
replaced, signed or not. Whatever arrives, the bot answers without a 5xx, logs no traceback, and calls nothing
but Slack. The examples are drawn first (derandomized, so every run sends the same ones) and then sent, because
the server lives in the test's event loop."""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minds_bot.render.connect import CONNECT_CALLBACK
from minds_bot.render.digest import ADD_DIGEST_VIEW
from minds_bot.render.modals import PICK_STUDY_CALLBACK, STUDY_OPTIONS_ACTION
from minds_bot.render.plan import ACTION_APPROVE, ACTION_DISCARD, ACTION_OPT_IN, ACTION_REVISE
from minds_bot.render.plan_dialogs import VIEW_ANSWER
from tests.fakes.slack_requests import FORM, JSON
from tests.security.gatehouse import CHANNEL, TEAM, USER, gatehouse, sign, tracebacks

EXAMPLES = 150
HOOK = "http://slack.invalid/respond"  # replaced by the fake Slack's response URL when sent
DROP = object()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
replacement = json_values | st.just(DROP)


def command() -> dict[str, Any]:
    return {
        "command": "/minds",
        "text": "help",
        "team_id": TEAM,
        "channel_id": CHANNEL,
        "user_id": USER,
        "trigger_id": "1.2.3",
        "response_url": HOOK,
    }


def click(action_id: str) -> dict[str, Any]:
    return {
        "type": "block_actions",
        "team": {"id": TEAM},
        "user": {"id": USER, "team_id": TEAM},
        "channel": {"id": CHANNEL},
        "container": {"type": "message", "message_ts": "1.1", "channel_id": CHANNEL},
        "message": {"ts": "1.1", "blocks": []},
        "trigger_id": "1.2.3",
        "response_url": HOOK,
        "state": {"values": {}},
        "actions": [{"type": "button", "action_id": action_id, "block_id": "b", "value": '{"r": 1}', "action_ts": "1"}],
    }


def submission(callback_id: str, metadata: str) -> dict[str, Any]:
    return {
        "type": "view_submission",
        "team": {"id": TEAM},
        "user": {"id": USER, "team_id": TEAM},
        "trigger_id": "1.2.3",
        "view": {
            "id": "V1",
            "type": "modal",
            "callback_id": callback_id,
            "private_metadata": metadata,
            "state": {"values": {"answer": {"answer": {"type": "plain_text_input", "value": "yes"}}}},
        },
        "response_urls": [{"response_url": HOOK, "channel_id": CHANNEL}],
    }


def suggestion() -> dict[str, Any]:
    return {
        "type": "block_suggestion",
        "team": {"id": TEAM},
        "user": {"id": USER, "team_id": TEAM},
        "action_id": STUDY_OPTIONS_ACTION,
        "block_id": "study",
        "value": "pri",
        "view": {"id": "V1", "type": "modal", "callback_id": PICK_STUDY_CALLBACK, "private_metadata": "{}"},
    }


def event() -> dict[str, Any]:
    return {
        "type": "event_callback",
        "team_id": TEAM,
        "api_app_id": "A1",
        "event_id": "Ev1",
        "event": {"type": "app_home_opened", "user": USER, "tab": "home", "channel": "D1"},
    }


BASES = [
    command(),
    click(ACTION_OPT_IN),
    click(ACTION_DISCARD),
    click(ACTION_APPROVE),
    click(ACTION_REVISE),
    submission(VIEW_ANSWER, json.dumps({"c": CHANNEL, "ts": "1.1", "r": 1, "q": "Which?"})),
    submission(CONNECT_CALLBACK, CHANNEL),
    submission(ADD_DIGEST_VIEW, ""),
    suggestion(),
    event(),
]


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any] | Any:
    """A base payload with one to three fields (at any depth up to three) replaced or dropped, or pure noise."""
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values)
    payload = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    for _ in range(draw(st.integers(1, 3))):
        holder = payload
        for _depth in range(draw(st.integers(0, 2))):
            nested = [v for v in holder.values() if isinstance(v, dict)] if isinstance(holder, dict) else []
            lists = [v[0] for v in holder.values() if isinstance(v, list) and v and isinstance(v[0], dict)]
            if not nested + lists:
                break
            holder = draw(st.sampled_from(nested + lists))
        if not isinstance(holder, dict) or not holder:
            continue
        key = draw(st.sampled_from(sorted(holder)))
        value = draw(replacement)
        if value is DROP:
            del holder[key]
        else:
            holder[key] = value if "command" not in payload else json.dumps(value)  # form values are text
    return payload


@st.composite
def deliveries(draw: st.DrawFn) -> tuple[bytes, str, bool]:
    """(body, content type, signed?) as a request would arrive."""
    payload = draw(mutated())
    if isinstance(payload, dict) and "command" in payload:
        body, content_type = urlencode({k: str(v) for k, v in payload.items()}).encode(), FORM
    elif isinstance(payload, dict) and payload.get("type") == "event_callback":
        body, content_type = json.dumps(payload).encode(), JSON
    else:
        body, content_type = urlencode({"payload": json.dumps(payload)}).encode(), FORM
    return body, content_type, draw(st.integers(0, 4)) > 0


def drawn() -> list[tuple[bytes, str, bool]]:
    examples: list[tuple[bytes, str, bool]] = []

    @settings(
        max_examples=EXAMPLES, derandomize=True, database=None, suppress_health_check=list(HealthCheck), deadline=None
    )
    @given(deliveries())
    def collect(delivery: tuple[bytes, str, bool]) -> None:
        examples.append(delivery)

    collect()
    return examples


async def test_no_payload_shape_makes_the_bot_fail_or_call_anyone_but_slack(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    examples = drawn()
    assert len(examples) >= EXAMPLES // 2  # Hypothesis drew a real sample, not a handful
    async with gatehouse() as bot:  # each answer waits for the listeners: a listener failure is a 5xx here
        statuses: dict[int, int] = {}
        for body, content_type, signed in examples:
            body = body.replace(HOOK.encode(), bot.slack.response_url().encode())
            body = body.replace(b"http%3A%2F%2Fslack.invalid%2Frespond", _quoted(bot.slack.response_url()))
            headers = sign(body, content_type=content_type) if signed else {"content-type": content_type}
            reply = await bot.post(body, headers)
            statuses[reply.status_code] = statuses.get(reply.status_code, 0) + 1
            assert reply.status_code < 500, body
            assert signed or reply.status_code == 401
        assert tracebacks(caplog.records) == []
        assert bot.non_slack_calls() == [] and bot.evil.received == []
    assert statuses.get(200, 0) > 0 and statuses.get(400, 0) > 0  # both the accepted and the refused were tried


def _quoted(url: str) -> bytes:
    from urllib.parse import quote

    return quote(url, safe="").encode()
