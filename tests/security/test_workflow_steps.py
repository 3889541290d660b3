"""Workflow steps meet the same gate as every request, through the real app with signed requests.

A ``function_executed`` event is signed, and one from another workspace never reaches this workspace's Minds key or
channels; the Study is looked up with the key of the workspace the step runs in. Issue #33 (rows 1, 6, 8, 11): a
step acts as the person who ran the workflow — its ``run_by`` user_context, never a person another input names —
in a channel that person and the bot are in now, through the channel's spend policy (refused, held for an
approver, recorded for ``/minds activity``) and the person's share of the Minds budget; a refused or failed step
always completes with Slack's function error and a sentence; payloads only Slack could send, and Slack replies
that are not JSON, never crash a handler."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from minds_bot.minds.policy import caller
from minds_bot.store import ChannelPolicy, PolicyMode, RunKind
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, bot_harness
from tests.fakes.minds_http import ok, page
from tests.fakes.slack_requests import event_body
from tests.fakes.slack_web import BOT_USER
from tests.slack import samples

OTHER_TEAM = "T0002"
OTHER_KEYS_STUDY = "00000000-0000-4000-8000-0000000000ff"
ASK, PLAN = "minds_ask_question", "minds_plan_research"
ADA, BEN = "U0ADA", "U0BEN"
SECRET = "G0SECRET"  # #secret-launch: private, Ada and the bot are in it, Ben is not
NO_BOT = "C0NOBOT"  # Ben is in it, the bot is not
STUDY = samples.STUDY_ID
RUNS = f"/studies/{STUDY}/runs"
QUESTION = "Do you like it?"


def user_context(user: str) -> dict[str, str]:
    """What Slack puts in a user_context input: filled from the workflow's trigger, never typed by a builder."""
    return {"id": user, "secret": "c2xhY2stbWFkZS1pdA"}


def step_event(
    execution: str = "Fx1", *, callback_id: str = ASK, run_by: str | None = BEN, **inputs: Any
) -> dict[str, Any]:
    given = inputs | ({"run_by": user_context(run_by)} if run_by is not None else {})
    return {
        "type": "function_executed",
        "function": {"id": "Fn1", "callback_id": callback_id, "app_id": "A1"},
        "inputs": given,
        "function_execution_id": execution,
        "workflow_execution_id": "Wx1",
        "event_ts": "1733150000.000001",
        "bot_access_token": "xwfp-step-token",
    }


ASKED = {"study": STUDY, "question": QUESTION, "channel": CHANNEL}
PLANNED = {"study": STUDY, "request": "Test three taglines with Gen Z buyers", "channel": CHANNEL}
POLICY_REFUSED = (
    "This channel's spend policy refuses this: Ask a question (/minds ask). See /minds policy. "
    "Workspace admins and this channel's approvers (/minds approvers list) can change it."
)
NOT_IN_SECRET = "You are not a member of G0SECRET, so the bot will not post there for you. Pick a channel you are in."
SHARE_USED = (
    "You have used your share of this workspace's Minds requests for the minute; try again in about 60 seconds."
)
BOT_ERROR = "The step could not ask Minds because of an error in the bot; it was logged."


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(user=BEN) as harness:
        prepare(harness)
        yield harness


@pytest.fixture
async def settled() -> AsyncIterator[BotHarness]:
    """A bot whose every dispatch returns after its listeners finished (for what leaves only a log line)."""
    async with bot_harness(user=BEN, wait_for_listeners=True) as harness:
        prepare(harness)
        yield harness


def prepare(harness: BotHarness) -> None:
    harness.minds_api.on("GET", "/studies", page([], total=0, offset=0))
    harness.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail()))
    harness.minds_api.on("POST", RUNS, ok({"runId": samples.RUN_ID, "status": "queued"}, status=202))
    harness.slack.acting |= {ADA, BEN}  # both are in #research (CHANNEL)
    harness.slack.channel_members |= {SECRET: [ADA, BOT_USER], NO_BOT: [BEN]}


async def step_error(bot: BotHarness, execution: str = "Fx1") -> str:
    (failed,) = await bot.slack.wait_for("functions.completeError", lambda c: c["function_execution_id"] == execution)
    return str(failed["error"])


async def set_policy(bot: BotHarness, mode: PolicyMode) -> None:
    policy = ChannelPolicy(team_id=TEAM, channel_id=CHANNEL, action="ask", mode=mode, set_by=ADA)
    await bot.store.set_channel_policy(policy)


def posted(bot: BotHarness) -> list[dict[str, Any]]:
    return bot.slack.calls_to("chat.postMessage")


# --- one workspace, one key --------------------------------------------------------------------------------------


async def test_a_step_from_another_workspace_reaches_no_minds_and_no_channel(bot: BotHarness) -> None:
    body = event_body(step_event(**ASKED), team=OTHER_TEAM, event_id="EvOther")
    assert (await bot.send(body, content_type="application/json")).status == 200
    # A step of this workspace sent after it (one without a question) is answered: the first one was not.
    await bot.event(step_event("Fx2", **(ASKED | {"question": ""})), event_id="EvOwn")
    (answered,) = await bot.slack.wait_for("functions.completeError")
    assert answered["function_execution_id"] == "Fx2"
    assert bot.minds_api.sent == []
    assert posted(bot) == []
    assert bot.slack.calls_to("functions.completeSuccess") == []


async def test_another_keys_study_is_not_found_and_nothing_is_asked(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{OTHER_KEYS_STUDY}", lambda request: _not_found())
    await bot.event(step_event(**(ASKED | {"study": OTHER_KEYS_STUDY})), event_id="EvStudy")
    assert (await step_error(bot)).startswith("Minds was not asked: ")
    assert posted(bot) == []
    assert not [r for r in bot.minds_api.sent if r.method == "POST"]
    assert bot.slack.calls_to("functions.completeSuccess") == []


def _not_found() -> httpx.Response:
    return httpx.Response(404, json={"error": {"code": "NOT_FOUND", "message": "Study not found"}})


# --- row 1: the channel's spend policy, and /minds activity --------------------------------------------------------


async def test_with_asking_refused_the_step_fails_with_the_policy_sentence_and_activity_lists_it(
    bot: BotHarness,
) -> None:
    await set_policy(bot, PolicyMode.REFUSE)
    await bot.event(step_event(**ASKED), event_id="EvRefused")

    assert await step_error(bot) == POLICY_REFUSED
    assert not bot.minds_api.to("POST", RUNS), "nothing reached Minds"
    assert posted(bot) == [], "nothing was posted"

    await bot.command("activity", user=BEN)
    activity = await bot.reply_containing("Minds spending in this channel")
    text = str(activity)
    assert "refused by the channel's policy" in text and f"<@{BEN}>" in text and QUESTION in text
    assert "1 not sent" in text


async def test_with_asking_held_the_question_waits_in_the_channel_and_the_step_says_where(bot: BotHarness) -> None:
    await set_policy(bot, PolicyMode.APPROVE)
    await bot.event(step_event(**ASKED), event_id="EvHeld")

    assert await step_error(bot) == (
        "Minds was not asked yet: asking in C0001 needs an approver. The question waits there for one of the "
        "channel's approvers; once it is approved, the answer appears in C0001."
    )
    (line,) = posted(bot)
    assert (
        line["channel"] == CHANNEL
        and line["text"] == f"<@{BEN}> wants to ask 20 Minds “{QUESTION}” — needs an approver"
    )
    assert not bot.minds_api.to("POST", RUNS), "held: nothing reached Minds yet"
    await bot.command("activity", user=BEN)
    assert "waiting for an approver" in str(await bot.reply_containing("Minds spending in this channel"))


async def test_a_step_that_asks_is_recorded_and_its_minds_calls_are_the_persons(bot: BotHarness) -> None:
    await bot.event(step_event(**ASKED), event_id="EvAsked")
    run = await bot.tracker.next_tracked(RunKind.DIRECT)

    (sent,) = bot.minds_api.to("POST", RUNS)
    assert sent.json()["question"] == QUESTION and run.client_request_id == sent.json()["clientRequestId"]
    assert bot.slack.calls_to("functions.completeError") == []  # it waits for the run's end
    await bot.command("activity", user=BEN)
    text = str(await bot.reply_containing("Minds spending in this channel"))
    assert "started at Minds" in text and "1 request sent to Minds" in text and f"<@{BEN}>" in text


# --- row 6: the person who ran the workflow, in a channel they and the bot are in ---------------------------------


@pytest.mark.parametrize(("callback_id", "inputs"), [(ASK, ASKED), (PLAN, PLANNED)])
async def test_a_step_run_by_ben_into_a_private_channel_he_is_not_in_fails_and_nothing_is_posted(
    bot: BotHarness, callback_id: str, inputs: dict[str, str]
) -> None:
    await bot.event(step_event(callback_id=callback_id, **(inputs | {"channel": SECRET})), event_id="EvSecret")

    assert await step_error(bot) == NOT_IN_SECRET  # the private channel is not named to him
    assert posted(bot) == [] and bot.minds_api.sent == []


async def test_a_channel_the_bot_is_not_in_is_refused_with_how_to_invite_it(bot: BotHarness) -> None:
    await bot.event(step_event(**(ASKED | {"channel": NO_BOT})), event_id="EvNoBot")
    assert await step_error(bot) == (
        "Minds is not in C0NOBOT. Invite it with /invite @Minds in that channel, or pick a channel it is in. "
        "Nothing was posted."
    )
    assert posted(bot) == [] and bot.minds_api.sent == []


NAMING_ADA = {"asked_by": ADA, "requested_by": ADA, "user": ADA, "user_id": ADA}


async def test_a_step_whose_inputs_name_ada_still_says_ben_asked(bot: BotHarness) -> None:
    await bot.event(step_event(**(ASKED | NAMING_ADA)), event_id="EvNamesAda")
    run = await bot.tracker.next_tracked(RunKind.DIRECT)

    parent = posted(bot)[0]
    assert parent["text"] == f"<@{BEN}> asked *Launch positioning*: “{QUESTION}”"
    stored = await bot.store.get_direct_ask(run.client_request_id or "")
    assert stored is not None and stored.requester_id == BEN


async def test_a_plan_step_whose_inputs_name_ada_is_requested_by_ben(bot: BotHarness) -> None:
    await bot.event(step_event(callback_id=PLAN, **(PLANNED | NAMING_ADA)), event_id="EvPlanAda")
    tracked = await bot.tracker.next_tracked(RunKind.PLAN)

    (preparing,) = posted(bot)
    assert preparing["channel"] == CHANNEL and tracked.progress_ts is not None
    post = await bot.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=tracked.progress_ts)
    assert post is not None and post.requester_id == BEN and tracked.run_id == post.preview_idempotency_key


@pytest.mark.parametrize(
    "run_by",
    [None, ADA, {"id": ""}, {"secret": "x"}, {"id": "not a user"}, {"id": ["U0ADA"]}],
    ids=["missing", "typed-as-text", "empty-id", "no-id", "not-an-id", "id-not-text"],
)
async def test_a_step_without_a_usable_user_context_has_nobody_to_act_as_and_sends_nothing(
    bot: BotHarness, run_by: Any
) -> None:
    event = step_event(run_by=None, **ASKED)
    if run_by is not None:
        event["inputs"]["run_by"] = run_by  # what no trigger fills: a typed id, or a context without one
    await bot.event(event, event_id="EvNobody")

    assert await step_error(bot) == (
        "The step acts as the person who uses the workflow, and Slack did not say who that is (a scheduled "
        "workflow has no such person). Start the workflow from a link or a button, or put a step someone clicks "
        "before this one. Nothing was sent."
    )
    assert posted(bot) == [] and bot.minds_api.sent == []


# --- row 8: the person's share of the Minds budget -----------------------------------------------------------------


async def test_six_steps_after_bens_share_is_used_are_told_to_wait_and_nothing_more_is_sent(bot: BotHarness) -> None:
    limiter = (await bot.services.minds.client_for(TEAM)).limiter
    assert limiter is not None
    mine = caller.set(f"{TEAM}:{BEN}")  # Ben's earlier Minds calls this minute: his whole share
    try:
        for _ in range(limiter.caller_limit):
            await limiter.acquire()
    finally:
        caller.reset(mine)

    for n in range(6):
        await bot.event(step_event(f"Fx{n}", **ASKED), event_id=f"EvBusy{n}")
    errors = [await step_error(bot, f"Fx{n}") for n in range(6)]

    assert errors == [SHARE_USED] * 6
    assert bot.minds_api.sent == [] and posted(bot) == []
    # Ada's share is her own: her step is asked.
    await bot.event(step_event("FxAda", run_by=ADA, **ASKED), event_id="EvAda")
    await bot.tracker.next_tracked(RunKind.DIRECT)
    assert len(bot.minds_api.to("POST", RUNS)) == 1


# --- row 4: every way a step ends completes it ---------------------------------------------------------------------


async def test_an_error_in_the_bot_ends_the_step_with_its_sentence(
    bot: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(request: Any) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(bot.store, "save_keyed_request", broken)
    await bot.event(step_event(**ASKED), event_id="EvBroken")
    assert await step_error(bot) == BOT_ERROR
    assert not bot.minds_api.to("POST", RUNS)


# --- row 11: payloads only Slack could send, and Slack replies that are not JSON ---------------------------------


NOBODY = "The step acts as the person who uses the workflow"
UNKNOWN = "This version of the Minds app has no such workflow step."
OFFERS_NOT = "a workflow step the bot does not offer"


@pytest.mark.parametrize(
    ("change", "ended", "logged"),
    [
        ({"inputs": "Do you like it?"}, NOBODY, []),
        ({"inputs": ["study", "question"]}, NOBODY, []),
        ({"inputs": None}, NOBODY, []),
        ({"inputs": {"run_by": "", "study": 5, "question": {"x": 1}}}, NOBODY, []),
        ({"function_execution_id": None}, None, [OFFERS_NOT]),  # nothing to complete: acknowledged and logged
        ({"function_execution_id": ""}, None, ["a workflow step without an execution id cannot be completed"]),
        ({"function": {"id": "Fn1", "app_id": "A1"}}, UNKNOWN, [OFFERS_NOT]),
        ({"function": None}, UNKNOWN, [OFFERS_NOT]),
    ],
    ids=[
        "inputs-text",
        "inputs-list",
        "inputs-null",
        "inputs-odd",
        "no-execution-id",
        "empty-execution-id",
        "no-callback-id",
        "no-function",
    ],
)
async def test_a_malformed_step_is_acknowledged_and_never_a_500(
    settled: BotHarness,
    caplog: pytest.LogCaptureFixture,
    change: dict[str, Any],
    ended: str | None,
    logged: list[str],
) -> None:
    event = {k: v for k, v in (step_event(**ASKED) | change).items() if v is not None}
    with caplog.at_level(logging.INFO):
        response = await settled.event(event, event_id="EvOdd")

    assert response.status == 200
    errors = [c["error"] for c in settled.slack.calls_to("functions.completeError")]
    assert [e[: len(ended)] for e in errors] == ([ended] if ended else [])
    assert [r.message for r in caplog.records if r.levelno >= logging.WARNING] == logged
    assert settled.minds_api.sent == [] and posted(settled) == []


async def test_an_unknown_step_is_acknowledged_logged_once_and_ended(
    settled: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        response = await settled.event(step_event(callback_id="minds_retired_step", **ASKED), event_id="EvUnknown")

    assert response.status == 200  # not Bolt's 404, which Slack would retry
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.message for r in warnings] == ["a workflow step the bot does not offer"]
    assert warnings[0].fields["callback_id"] == "minds_retired_step"  # type: ignore[attr-defined]
    (ended,) = settled.slack.calls_to("functions.completeError")
    assert ended["function_execution_id"] == "Fx1" and ended["error"] == (
        "This version of the Minds app has no such workflow step. Remove the step from the workflow and add one of "
        "the app's current steps. Nothing was sent."
    )
    assert settled.minds_api.sent == [] and posted(settled) == []


@pytest.mark.parametrize(
    "change",
    [{"function": "minds_ask_question"}, {"function_execution_id": 7}, {"bot_access_token": ["xwfp"]}],
    ids=["function-text", "execution-id-number", "token-list"],
)
async def test_a_step_bolt_could_not_route_is_refused_at_the_door(settled: BotHarness, change: dict[str, Any]) -> None:
    response = await settled.event(step_event(**ASKED) | change, event_id="EvShape")
    assert response.status == 400  # unreadable, from Slack: refused by the gate before Bolt, never a 500
    assert settled.slack.calls_to("functions.completeError") == [] and settled.minds_api.sent == []


@pytest.mark.parametrize(
    "unreadable",
    [
        (502, "text/html", "<html><body>Bad gateway</body></html>"),
        (200, "text/plain", "ok"),
        (200, "application/json", "<html>"),
    ],
    ids=["html-502", "text-200", "json-that-is-not"],
)
async def test_a_completion_slack_answers_without_json_is_logged_not_crashed(
    settled: BotHarness, caplog: pytest.LogCaptureFixture, unreadable: tuple[int, str, str]
) -> None:
    settled.slack.unreadable["functions.completeError"] = unreadable
    with caplog.at_level(logging.INFO):
        response = await settled.event(step_event(**(ASKED | {"question": ""})), event_id="EvHtml")

    assert response.status == 200
    assert len(settled.slack.calls_to("functions.completeError")) == 1
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.message for r in warnings] == ["Slack did not take a workflow step's end"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_outputs_slack_refuses_end_the_step_with_an_error_instead(bot: BotHarness) -> None:
    from minds_bot.flows.workflows import StepEnd, complete_step

    bot.slack.replies["functions.completeSuccess"] = {"ok": False, "error": "parameter_validation_failed"}
    slack = await bot.services.slack.client_for(TEAM)
    await complete_step(slack, "Fx9", StepEnd(outputs={"summary": "s", "n": 1, "thread_link": ""}))
    (ended,) = bot.slack.calls_to("functions.completeError")
    assert (
        ended["error"]
        == "The step finished, but Slack did not accept its outputs (Slack said: parameter_validation_failed)."
    )
