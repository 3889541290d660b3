"""The research tools through the real Bolt app (signed requests, every listener registered, the error hook):
methods, the Audience card, asking an Audience, invitations, recalibration and model connections. Minds is the
fake HTTP API; Slack is the fake Web API. Each test checks what the person sees and what reached Minds."""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from minds_bot.flows.tracking import MAX_NOT_FOUND_READS
from minds_bot.store import RunKind, TrackedRun
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, bot_harness, buttons
from tests.fakes.minds_http import envelope, ok, page, raw
from tests.slack import samples

STUDY = samples.STUDY_ID
METHODS = [
    {
        "id": "maxdiff",
        "name": "MaxDiff",
        "executable": True,
        "advanced": True,
        "complexity": "medium",
        "configurationSchema": {"required": ["items"]},
    },
    {
        "id": "conjoint",
        "name": "Conjoint <b>",
        "executable": False,
        "availability": "planned",
        "fallbackMethodId": "maxdiff",
    },
    {"id": "survey", "name": "Survey", "executable": True},
]


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as running:
        yield running


def shown(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False)


def mrkdwn(message: dict[str, Any]) -> str:
    """Every text Slack parses as mrkdwn (the fallback text and mrkdwn objects); plain_text is shown literally."""
    found = [message.get("text") or ""]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "mrkdwn":
                found.append(node.get("text", ""))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(message.get("blocks"))
    return "\n".join(found)


# ---- methods


async def test_methods_lists_runnable_first_with_needs_and_fallbacks_escaped(bot: BotHarness) -> None:
    bot.minds_api.set("GET", "/research-methods", raw({"data": METHODS}))
    await bot.command("methods")
    answer = shown(await bot.reply_containing("Research methods in Minds"))
    assert "2 of 3 runnable" in answer
    assert answer.index("*MaxDiff*") < answer.index("*Survey*") < answer.index("Conjoint")
    assert "needs: items" in answer and "complexity: medium" in answer
    assert "not runnable (planned)" in answer and "alternative to review: MaxDiff" in answer
    assert "Conjoint &lt;b&gt;" in answer and "<b>" not in answer


async def test_methods_query_filters_and_says_when_nothing_matches(bot: BotHarness) -> None:
    bot.minds_api.set("GET", "/research-methods", raw({"data": METHODS}))
    await bot.command("methods maxdiff")
    answer = shown(await bot.reply_containing("Research methods"))
    assert "MaxDiff" in answer and "Survey" not in answer
    await bot.command("methods zebra")
    assert "No research method in Minds matches" in shown(await bot.reply_containing("zebra"))


async def test_a_malformed_catalogue_is_an_error_never_no_methods(bot: BotHarness) -> None:
    bot.minds_api.set("GET", "/research-methods", raw({"data": [{"id": "nps"}]}))  # no executable flag
    await bot.command("methods")
    answer = await bot.reply_containing("could not read")
    assert "no research methods" not in shown(answer).lower()


async def test_a_plan_request_naming_methods_gets_a_private_hint_from_the_catalogue(bot: BotHarness) -> None:
    bot.minds_api.set("GET", "/research-methods", raw({"data": METHODS}))
    bot.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail()))
    bot.minds_api.on(
        "POST",
        f"/studies/{STUDY}/research-plans/preview",
        ok({"status": "pending", "accepted": True, "requestId": "plan-1"}, status=202),
    )
    await bot.command(f"plan {STUDY} Run a MaxDiff and a Conjoint and a Kano on our features")
    [hint] = await bot.slack.wait_for("chat.postEphemeral", lambda a: "Methods you asked for" in a.get("text", ""))
    text = shown(hint)
    assert "*MaxDiff*: Minds can run it" in text and "advanced method" in text
    assert "*Conjoint*: listed by Minds but not runnable (planned), so it will not run" in text
    assert "An alternative to review: MaxDiff" in text
    assert "*Kano*: not in Minds' method catalogue" in text


# ---- the Audience card

AUDIENCE = samples.uid(2001)


def audience_detail(*, role: str = "owner", calibrating: bool = False, research: Any = "default") -> dict[str, Any]:
    dimensions = [
        {"name": "age", "status": "sourced"},
        {"name": "income", "status": "proxy"},
        {"name": "education", "status": "assumed"},
        {"name": "household <size>", "status": "missing"},
    ]
    body: dict[str, Any] = {
        "id": AUDIENCE,
        "name": "Parents <script>",
        "mindCount": 12,
        "minds": [{"id": samples.uid(3000 + i), "name": f"Mind {i}"} for i in range(12)],
        "currentMemberRole": role,
        "isPublic": False,
        "isSharedWithTeam": True,
        "isLinkSharingEnabled": False,
        "sources": [{"id": samples.uid(9), "kind": "brief", "text": "Parents", "url": None, "filename": None}],
        "calibration": {"active": calibrating, "startedAt": None},
    }
    if research == "default":
        body["grounding"] = {"research": {"phase": "researching", "dimensionCoverage": {"dimensions": dimensions}}}
    return body


def formations(status: str = "ready") -> Any:
    subgroups = [
        {"id": samples.uid(40 + i), "label": label, "isAuxiliary": False, "position": i, "_count": {"memberships": n}}
        for i, (label, n) in enumerate((("Under 30", 5), ("30+", 7)))
    ]
    return raw({"data": [{"id": samples.uid(50), "name": "Age", "status": status, "subgroups": subgroups}]})


def serve_card(bot: BotHarness, **kwargs: Any) -> None:
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}", ok(audience_detail(**kwargs)))
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}/formations", formations())
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}/progress", ok({"total": 12, "building": 3, "members": []}))


async def test_the_audience_card_shows_members_coverage_research_formations_and_builds(bot: BotHarness) -> None:
    serve_card(bot)
    await bot.command(f"audience {AUDIENCE}")
    card = await bot.reply_containing("Coverage")
    text = shown(card)
    assert "12 Minds" in text and "Mind 0" in text and "and 4 more" in text
    assert "1 sourced: age" in text and "1 proxy" in text and "1 assumed" in text
    assert "1 missing: household &lt;size&gt;" in text
    assert "Background research:* researching" in text
    assert "*Age*: Under 30 5 · 30+ 7" in text
    assert "Builds in progress: 3 of 12" in text
    assert "shared with the team · public link off" in text
    assert "<script>" not in mrkdwn(card) and "Parents &lt;script&gt;" in mrkdwn(card)
    assert {"audience_ask", "audience_duplicate_named", "audience_recalibrate", "audience_delete"} <= set(buttons(card))


async def test_a_card_says_calibrating_and_what_was_not_reported(bot: BotHarness) -> None:
    bot.minds_api.on(
        "GET", f"/audiences/{AUDIENCE}", ok(audience_detail(role="member", calibrating=True, research=None))
    )
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}/formations", raw({"data": {"items": []}}))  # malformed
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}/progress", ok({"total": 12, "building": 0}))
    await bot.command(f"audience {AUDIENCE}")
    text = shown(await bot.reply_containing("Calibrating"))
    assert "Coverage:* not reported by Minds" in text
    assert "Formations:* could not be read" in text and "none visible" not in text
    assert "audience_recalibrate" not in text, "only an owner is offered recalibration"


async def test_an_audience_named_loosely_is_found_by_name(bot: BotHarness) -> None:
    bot.minds_api.on("GET", "/audiences", page([samples.audience(1, "Parents of toddlers")], total=1, offset=0))
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}", ok(audience_detail()))
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}/formations", formations("building"))
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}/progress", ok({"total": 12, "building": 0}))
    await bot.command("audience parents of toddlers")
    text = shown(await bot.reply_containing("Formations"))
    assert "(building: counts are provisional)" in text and "Builds: none in progress" in text


async def test_an_older_cards_duplicate_button_reuses_the_click_key_on_redelivery(bot: BotHarness) -> None:
    serve_card(bot)
    copy = {**samples.audience(9, "Parents (copy)", minds=12), "isPublic": False}
    bot.minds_api.on("POST", f"/audiences/{AUDIENCE}/duplicate", ok(copy, status=201), ok(copy, status=200))
    await bot.command(f"audience {AUDIENCE}")
    button = buttons(await bot.reply_containing("Coverage"))["audience_duplicate_named"]  # same value as before
    await bot.click("audience_duplicate", button["value"], action_ts="1733150000.000777")  # a card posted earlier
    # the button runs `/minds duplicate audience <id>`: one implementation, so the same answer
    assert "Duplicated" in shown(await bot.reply_containing("Parents (copy)"))
    sent = bot.minds_api.to("POST", f"/audiences/{AUDIENCE}/duplicate")
    assert len(sent) == 1 and sent[0].headers["Idempotency-Key"]


# ---- asking an Audience directly

WRAPPER = samples.uid(77)


def wrapper_study() -> dict[str, Any]:
    detail = samples.study_detail("Ask Parents: Why?")
    detail["id"] = WRAPPER
    detail["audiences"] = [samples.audience_ref(1, "Parents", 12)]
    return detail


async def test_ask_audience_creates_a_private_study_says_so_and_follows_the_run(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}", ok(audience_detail()))
    created = {k: v for k, v in wrapper_study().items() if k != "messages"}
    bot.minds_api.on("POST", "/studies", ok(created, status=201))
    bot.minds_api.on("GET", f"/studies/{WRAPPER}", ok(wrapper_study()))
    bot.minds_api.on("POST", f"/studies/{WRAPPER}/runs", ok({"runId": samples.RUN_ID, "status": "queued"}, status=202))
    await bot.command(f"ask audience {AUDIENCE} Why do you buy organic?")
    notice = await bot.reply_containing("private Study")
    assert "creates a new private Study in Minds" in notice["text"]
    [create] = bot.minds_api.to("POST", "/studies")
    assert create.json()["audienceIds"] == [AUDIENCE]
    run = await bot.tracker.next_tracked(RunKind.DIRECT)
    assert run.study_id == WRAPPER and run.run_id == samples.RUN_ID
    [posted] = bot.minds_api.to("POST", f"/studies/{WRAPPER}/runs")
    assert posted.json()["question"] == "Why do you buy organic?"


async def test_ask_audience_refuses_a_questionnaire_before_creating_anything(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}", ok(audience_detail()))
    await bot.command(f"ask audience {AUDIENCE} Do you cook? How often?")
    answer = await bot.reply_containing("no Study was created")
    assert "one question" in answer["text"]
    assert bot.minds_api.to("POST", "/studies") == []


async def test_an_unquoted_audience_name_that_is_not_exact_sends_nothing_and_offers_no_button(bot: BotHarness) -> None:
    """Issue 34 row 11 for Audiences: "Gen" is no Audience's exact name, so "Z parents Why…" is never sent as a
    question; the reply says to quote the name, names the closest Audience as text and offers no button."""
    bot.minds_api.on("GET", "/audiences", page([samples.audience(1, "Gen Z parents")], total=1, offset=0))
    await bot.command("ask audience Gen Z parents Why do you buy organic?")
    answer = await bot.reply_containing("nothing was sent")
    assert answer["text"] == (
        "No Audience is named exactly “Gen”, so nothing was sent. Put an Audience name with spaces in quotes (or use "
        "its id), so the words after it are exactly what is sent. Closest: “Gen Z parents”."
    )
    assert not [k for k in buttons(answer) if k.startswith("minds_rerun")]
    assert bot.minds_api.to("POST", "/studies") == [] and bot.tracker.tracked.empty()


async def test_a_quoted_audience_name_that_matches_loosely_asks_the_question_exactly_as_typed(
    bot: BotHarness,
) -> None:
    """A quoted name may match loosely: the did-you-mean button names the Audience, and the question it asks is the
    one typed, word for word."""
    bot.minds_api.on("GET", "/audiences", page([samples.audience(1, "Parents of toddlers")], total=1, offset=0))
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}", ok(audience_detail()))
    created = {k: v for k, v in wrapper_study().items() if k != "messages"}
    bot.minds_api.on("POST", "/studies", ok(created, status=201))
    bot.minds_api.on("GET", f"/studies/{WRAPPER}", ok(wrapper_study()))
    bot.minds_api.on("POST", f"/studies/{WRAPPER}/runs", ok({"runId": samples.RUN_ID, "status": "queued"}, status=202))
    typed = "Why  do you buy   organic, really?"
    await bot.command(f'ask audience "parents of todlers" {typed}')
    answer = await bot.reply_containing("Did you mean")
    (action_id, choice), *_more = [(k, b) for k, b in buttons(answer).items() if k.startswith("minds_rerun")]
    await bot.click(action_id, choice["value"], ephemeral=True)
    await bot.tracker.next_tracked(RunKind.DIRECT)
    [posted] = bot.minds_api.to("POST", f"/studies/{WRAPPER}/runs")
    assert posted.json()["question"] == typed


async def test_the_card_ask_button_opens_a_one_question_modal(bot: BotHarness) -> None:
    serve_card(bot)
    await bot.command(f"audience {AUDIENCE}")
    button = buttons(await bot.reply_containing("Coverage"))["audience_ask"]
    await bot.click("audience_ask", button["value"])
    (opened,) = await bot.slack.wait_for("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    assert view["callback_id"] == "audience_ask_modal" and "private Study" in json.dumps(view)
    refused = await bot.submit(view, {"question": {"value": {"type": "plain_text_input", "value": "A? B?"}}})
    assert json.loads(refused.body)["response_action"] == "errors"


# ---- invitations

ADMIN, MEMBER = "UADMIN", "UMEMBER"


def people(bot: BotHarness) -> None:
    bot.slack.users[ADMIN] = {"id": ADMIN, "is_admin": True}
    bot.slack.users[MEMBER] = {"id": MEMBER, "is_admin": False, "is_owner": False}


async def test_invite_is_confirmed_by_the_admin_who_asked_and_names_undelivered_addresses(bot: BotHarness) -> None:
    people(bot)
    bot.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail()))
    result = {"invited": ["ana@example.com"], "emailFailures": [{"email": "bo@x.invalid", "reason": "bounced <b>"}]}
    bot.minds_api.on("POST", f"/studies/{STUDY}/invitations", ok(result))
    await bot.command(f"invite {STUDY} ana@example.com <mailto:bo@x.invalid|bo@x.invalid> admin", user=ADMIN)
    prompt = await bot.reply_containing("Send invitations")
    assert "Invite 2 people to *Launch positioning* as admin" in shown(prompt)
    button = buttons(prompt)["invite_confirmed"]
    assert button["confirm"]["confirm"]["text"] == "Invite"
    assert bot.minds_api.to("POST", f"/studies/{STUDY}/invitations") == [], "nothing before the confirmation"

    await bot.click("invite_confirmed", button["value"], user=MEMBER, ephemeral=True)
    assert "Only the person who asked" in (await bot.reply())["text"]
    await bot.click("invite_confirmed", button["value"], user=ADMIN, ephemeral=True)
    done = await bot.reply_containing("Could not deliver")
    assert "Minds invited 1 to *Launch positioning* as admin: ana@example.com" in shown(done)
    assert "bo@x.invalid (bounced &lt;b&gt;)" in shown(done)
    [sent] = bot.minds_api.to("POST", f"/studies/{STUDY}/invitations")
    assert sent.json() == {"emails": ["ana@example.com", "bo@x.invalid"], "role": "admin"}


async def test_invite_is_refused_for_people_who_do_not_act_for_the_account(bot: BotHarness) -> None:
    people(bot)
    await bot.command(f"invite {STUDY} ana@example.com", user=MEMBER)
    assert "workspace admins" in (await bot.reply())["text"]
    assert bot.minds_api.to("GET", f"/studies/{STUDY}") == []


async def test_invite_for_a_study_the_account_does_not_own_says_nothing_was_sent(bot: BotHarness) -> None:
    people(bot)
    bot.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail()))
    bot.minds_api.on("POST", f"/studies/{STUDY}/invitations", envelope(404, message="Study not found"))
    await bot.command(f"invite {STUDY} ana@example.com", user=ADMIN)
    button = buttons(await bot.reply_containing("Send invitations"))["invite_confirmed"]
    await bot.click("invite_confirmed", button["value"], user=ADMIN, ephemeral=True)
    assert "only the Study's owner can invite" in (await bot.reply_containing("owner"))["text"]
    assert len(bot.minds_api.to("POST", f"/studies/{STUDY}/invitations")) == 1


async def test_invite_usage_states_the_limits(bot: BotHarness) -> None:
    await bot.command(f"invite {STUDY} not-an-email")
    assert "is not an email address" in (await bot.reply())["text"]


# ---- recalibration


async def open_recalibration(bot: BotHarness, *, user: str = ADMIN) -> dict[str, Any]:
    await bot.command(f"recalibrate {AUDIENCE}", user=user)
    (opened,) = await bot.slack.wait_for("views.open")
    return json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]


async def test_recalibration_confirms_who_may_change_then_follows_calibrating_to_ready(bot: BotHarness) -> None:
    people(bot)
    bot.minds_api.on(
        "GET",
        f"/audiences/{AUDIENCE}",
        ok(audience_detail()),  # the command
        ok(audience_detail()),  # the confirmation re-checks ownership
        ok(audience_detail(calibrating=True)),  # first poll
        ok(audience_detail()),
        ok(audience_detail()),
    )
    bot.minds_api.on(
        "GET",
        f"/audiences/{AUDIENCE}/progress",
        ok({"total": 12, "building": 0}),
        ok({"total": 12, "building": 4}),
        ok({"total": 12, "building": 0}),
    )
    result = {"refreshedMembers": 0, "evolvedMembers": 0, "retrainingMembers": 4, "addedMembers": 0}
    bot.minds_api.on("POST", f"/audiences/{AUDIENCE}/recalibrate", ok({"grounding": {}, **result}))
    modal = await open_recalibration(bot)
    assert modal["callback_id"] == "audience_recalibrate_modal" and "at most 3,000 characters" in json.dumps(modal)

    instruction = {"instruction": {"value": {"type": "plain_text_input", "value": "make women 60% <now>"}}}
    answer = json.loads((await bot.submit(modal, instruction, user=ADMIN)).body)
    assert answer["response_action"] == "update"
    confirm = answer["view"]
    text = json.dumps(confirm, ensure_ascii=False)
    assert "Which members may change" in text and "at most all 12 Minds" in text and "No Mind is deleted" in text
    assert "make women 60% &lt;now&gt;" in text
    assert bot.minds_api.to("POST", f"/audiences/{AUDIENCE}/recalibrate") == [], "nothing before the confirmation"

    await bot.submit(confirm, {}, user=ADMIN)
    run = await bot.tracker.next_tracked(RunKind.RECALIBRATION)
    [sent] = bot.minds_api.to("POST", f"/audiences/{AUDIENCE}/recalibrate")
    assert sent.json() == {"instruction": "make women 60% <now>"}
    posted = [c.get("text", "") for c in bot.slack.calls_to("chat.postMessage")]
    assert any("asked Minds to recalibrate" in t for t in posted)
    assert any(t.startswith("Calibrating…") for t in posted)
    assert any("0 added; 4 retraining" in t for t in posted)

    await bot.tick()
    await bot.tick()
    edits = [c.get("text", "") for c in bot.slack.calls_to("chat.update") if c.get("ts") == run.progress_ts]
    assert any("4 of 12 members still retraining" in t for t in edits)
    await bot.tick()
    final = [c.get("text", "") for c in bot.slack.calls_to("chat.update") if c.get("ts") == run.progress_ts][-1]
    assert "every member is ready" in final


async def test_a_recalibration_minds_no_longer_finds_is_said_once_and_no_longer_followed(bot: BotHarness) -> None:
    people(bot)
    gone = envelope(404, message="Audience not found")
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}", ok(audience_detail()), ok(audience_detail()), gone)
    result = {"refreshedMembers": 0, "evolvedMembers": 0, "retrainingMembers": 4, "addedMembers": 0}
    bot.minds_api.on("POST", f"/audiences/{AUDIENCE}/recalibrate", ok({"grounding": {}, **result}))
    modal = await open_recalibration(bot)
    instruction = {"instruction": {"value": {"type": "plain_text_input", "value": "more students"}}}
    confirm = json.loads((await bot.submit(modal, instruction, user=ADMIN)).body)["view"]
    await bot.submit(confirm, {}, user=ADMIN)
    run = await bot.tracker.next_tracked(RunKind.RECALIBRATION)
    reads = len(bot.minds_api.to("GET", f"/audiences/{AUDIENCE}"))

    await bot.tick(MAX_NOT_FOUND_READS + 3)
    said = [c.get("text", "") for c in bot.slack.calls_to("chat.update") if c.get("ts") == run.progress_ts]
    assert said[-1] == (
        f":grey_question: Minds no longer finds this Audience's recalibration (not found on {MAX_NOT_FOUND_READS} "
        "reads in a row), so the bot stopped following it. Nothing was submitted again; check it in Minds."
    )
    assert len(bot.minds_api.to("GET", f"/audiences/{AUDIENCE}")) - reads == MAX_NOT_FOUND_READS, "then no more"
    assert len(bot.minds_api.to("POST", f"/audiences/{AUDIENCE}/recalibrate")) == 1
    assert await bot.store.unfinished_runs() == []


async def test_a_heatmap_minds_no_longer_finds_is_said_once_and_no_longer_followed(bot: BotHarness) -> None:
    path = f"/studies/{samples.STUDY_ID}/heatmaps/{samples.MESSAGE_ID}"
    bot.minds_api.on("GET", path, envelope(404, message="Heatmap not found"))
    run = TrackedRun(
        team_id=TEAM,
        run_id=f"heatmap:{samples.MESSAGE_ID}",
        study_id=samples.STUDY_ID,
        kind=RunKind.HEATMAP,
        client_request_id="asset-1",
        channel_id=CHANNEL,
        thread_ts="1733140000.000300",
        next_poll_at=bot.clock(),
    )
    assert await bot.store.add_tracked_run(run)

    await bot.tick(MAX_NOT_FOUND_READS + 3)
    said = [c["text"] for c in bot.slack.calls_to("chat.postMessage") if c.get("thread_ts") == run.thread_ts]
    assert said == [
        f":grey_question: Minds no longer finds this heatmap analysis (not found on {MAX_NOT_FOUND_READS} reads in "
        "a row), so the bot stopped following it. Nothing was submitted again; check it in Minds."
    ]
    assert len(bot.minds_api.to("GET", path)) == MAX_NOT_FOUND_READS and bot.minds_api.to("POST", path) == []
    assert await bot.store.unfinished_runs() == []


async def test_only_an_owner_acting_for_the_account_may_recalibrate(bot: BotHarness) -> None:
    people(bot)
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}", ok(audience_detail()), ok(audience_detail(role="member")))
    await bot.command(f"recalibrate {AUDIENCE}", user=MEMBER)
    assert "workspace admins" in (await bot.reply_containing("owner"))["text"]
    await bot.command(f"recalibrate {AUDIENCE}", user=ADMIN)
    assert "does not own" in (await bot.reply_containing("owner"))["text"]
    assert bot.slack.calls_to("views.open") == []


async def test_a_refused_recalibration_says_nothing_changed(bot: BotHarness) -> None:
    people(bot)
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}", ok(audience_detail()), ok(audience_detail()))
    refusal = envelope(409, code="AUDIENCE_MINDS_SHARED", message="Members are shared with other Audiences")
    bot.minds_api.on("POST", f"/audiences/{AUDIENCE}/recalibrate", refusal)
    modal = await open_recalibration(bot)
    confirm = json.loads((await bot.submit(modal, {}, user=ADMIN)).body)["view"]
    await bot.submit(confirm, {}, user=ADMIN)
    [failed] = await bot.slack.wait_for("chat.update", lambda c: "did not recalibrate" in c.get("text", ""))
    assert "Nothing changed" in failed["text"]
    assert len(bot.minds_api.to("POST", f"/audiences/{AUDIENCE}/recalibrate")) == 1


# ---- model connections


async def test_models_lists_verified_first_and_flags_the_unverified(bot: BotHarness) -> None:
    unverified = {"id": samples.uid(61), "name": "Llama <x>", "capabilities": {"chat": True, "structuredOutput": False}}
    verified = {"id": samples.uid(60), "name": "Azure", "verifiedAt": "2026-11-20T10:00:00Z", "apiKey": "sk-secret"}
    bot.minds_api.set(
        "GET",
        "/model-connections",
        raw({"data": [unverified], "pagination": {"nextCursor": samples.uid(60)}}),
        raw({"data": [verified], "pagination": {"nextCursor": None}}),
    )
    await bot.command("models")
    answer = await bot.reply_containing("Model connections")
    text = shown(answer)
    assert "1 of 2 verified" in text and text.index("Azure") < text.index("Llama")
    assert "*not verified*: structuredOutput not available — never picked by default" in text
    assert "Llama &lt;x&gt;" in text and "sk-secret" not in text


async def test_models_says_when_the_server_has_none(bot: BotHarness) -> None:
    bot.minds_api.set("GET", "/model-connections", envelope(404, message="disabled"))
    await bot.command("models")
    assert "not enabled on this Minds server" in (await bot.reply())["text"]


# ---- the card's Export button


async def test_export_button_attaches_the_brief_in_a_thread(bot: BotHarness) -> None:
    """The button runs `/minds export audience <id> md`: the profile export, followed to its inline file."""
    serve_card(bot)
    done = {"status": "completed", "jobId": "j1", "filename": "parents-brief.md", "mimeType": "text/markdown"}
    bot.minds_api.on("POST", f"/audiences/{AUDIENCE}/export", ok({"status": "processing", "jobId": "j1"}))
    bot.minds_api.on("GET", f"/audiences/{AUDIENCE}/export-status", ok({**done, "content": "# Parents\n"}))
    await bot.command(f"audience {AUDIENCE}")
    button = buttons(await bot.reply_containing("Coverage"))["audience_export"]
    await bot.click("audience_export", button["value"])
    (upload,) = await bot.slack.wait_for("files.completeUploadExternal")
    assert list(bot.slack.uploads.values()) == [b"# Parents\n"]
    [parent] = [c for c in bot.slack.calls_to("chat.postMessage") if "thread_ts" not in c]
    assert parent["text"].startswith("<@U0001> asked for the Audience brief of *Parents &lt;script&gt;* (md).")
    assert upload["thread_ts"], "attached in the request's thread"
    started = bot.minds_api.to("POST", f"/audiences/{AUDIENCE}/export")
    assert len(started) == 1 and started[0].json() == {"format": "md"}


async def test_a_failed_export_says_why(bot: BotHarness) -> None:
    serve_card(bot)
    bot.minds_api.on("POST", f"/audiences/{AUDIENCE}/export", ok({"status": "failed", "error": "renderer down"}))
    await bot.command(f"audience {AUDIENCE}")
    button = buttons(await bot.reply_containing("Coverage"))["audience_export"]
    await bot.click("audience_export", button["value"])
    [failed] = await bot.slack.wait_for("chat.postMessage", lambda c: "export failed" in c.get("text", ""))
    assert "renderer down" in failed["text"] and "thread_ts" in failed
    assert bot.slack.calls_to("files.completeUploadExternal") == []


# ---- files shared in Slack as Audience sources

SURVEY = b"age,answer\n21,yes\n"
NOTES = "Interview notes: caf\u00e9 owners prefer oat milk".encode()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_message(bot: BotHarness, *names: str) -> dict[str, Any]:
    files = [{"id": f"F{i}", "name": n, "url_private": bot.slack.file_url(n), "size": 10} for i, n in enumerate(names)]
    return {"ts": "1733140000.000500", "thread_ts": "1733140000.000400", "text": "", "files": files}


async def run_shortcut(bot: BotHarness, message: dict[str, Any]) -> Any:
    return await bot.interaction(
        {
            "type": "message_action",
            "callback_id": "minds_audience_from_files",
            "trigger_id": "shortcut.1",
            "user": {"id": USER_ID, "team_id": "T0001"},
            "channel": {"id": "C0001"},
            "message": message,
            "response_url": bot.slack.response_url("shortcut"),
        }
    )


USER_ID = "U0001"


async def test_files_shared_in_slack_are_imported_verified_and_used_to_build_an_audience(bot: BotHarness) -> None:
    bot.slack.shared.update({"survey.csv": SURVEY, "notes.md": NOTES})
    imported = [
        {"name": "survey.csv", "url": "https://minds/u/1/survey.csv", "sha256": sha(SURVEY), "size": len(SURVEY)},
        {"name": "notes.md", "url": "https://minds/u/2/notes.md", "sha256": sha(NOTES), "size": len(NOTES)},
    ]
    bot.minds_api.on("POST", "/audiences/source-import", ok({"files": imported, "sourcePolicy": "supplied_files"}))
    bot.minds_api.on("GET", "/audiences/limits", ok({"perAudienceCap": 50, "modes": [{"mode": "balanced"}]}))
    job = {"jobId": samples.uid(90), "status": "queued", "progress": 0}
    bot.minds_api.on("POST", "/audiences/from-brief", ok(job, status=202))

    await run_shortcut(bot, file_message(bot, "survey.csv", "notes.md", "deck.pdf"))
    (opened,) = await bot.slack.wait_for("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    text = json.dumps(view)
    assert "survey.csv" in text and "notes.md" in text and "Not imported" in text and "deck.pdf" in text
    brief = {"brief": {"value": {"type": "plain_text_input", "value": "Cafe owners in Lisbon"}}}
    await bot.submit(view, brief)

    await bot.tracker.next_tracked(RunKind.AUDIENCE)
    [sent] = bot.minds_api.to("POST", "/audiences/source-import")
    assert sent.json() == {
        "files": [{"name": "survey.csv", "content": SURVEY.decode()}, {"name": "notes.md", "content": NOTES.decode()}]
    }
    assert bot.slack.downloads == ["Bearer xoxb-test-token"] * 2, "Slack files are read with the bot token"
    [build] = bot.minds_api.to("POST", "/audiences/from-brief")
    assert build.json()["files"] == [{"name": i["name"], "url": i["url"]} for i in imported], "passed unchanged"
    [note] = await bot.slack.wait_for("chat.postEphemeral", lambda c: "imported 2 source files" in c.get("text", ""))
    assert "checksums match" in note["text"]


async def test_a_checksum_that_does_not_match_is_not_called_a_success(bot: BotHarness) -> None:
    bot.slack.shared["survey.csv"] = SURVEY
    wrong = [{"name": "survey.csv", "url": "https://minds/u/1/survey.csv", "sha256": sha(b"other")}]
    bot.minds_api.on("POST", "/audiences/source-import", ok({"files": wrong, "sourcePolicy": "supplied_files"}))
    await run_shortcut(bot, file_message(bot, "survey.csv"))
    (opened,) = await bot.slack.wait_for("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    await bot.submit(view, {"brief": {"value": {"type": "plain_text_input", "value": "Cafe owners"}}})
    [said] = await bot.slack.wait_for("chat.postEphemeral")
    assert "could not read" in said["text"] and "checksum of survey.csv does not match" in said["text"]
    assert "Minds imported" not in said["text"]
    assert bot.minds_api.to("POST", "/audiences/from-brief") == []


async def test_a_message_without_usable_files_gets_a_private_note(bot: BotHarness) -> None:
    await run_shortcut(bot, file_message(bot, "deck.pdf"))
    answer = await bot.reply()
    assert "no file Minds can import" in answer["text"] and "deck.pdf" in answer["text"]
    assert bot.slack.calls_to("views.open") == []


# ---- question heatmaps

IMAGE = "https://cdn.example.com/ad.png"
MESSAGE = samples.MESSAGE_ID


def heatmap(status: str, **extra: Any) -> Any:
    body = {"status": status, "assetKey": IMAGE, "kind": "image", "respondents": 12, **extra}
    if status == "completed":
        body |= {"regions": [{"label": "Logo", "attention": 0.2}, {"label": "Price <tag>", "attention": 0.5}]}
    return ok(body)


def heatmap_button_value() -> str:
    return json.dumps({"s": STUDY, "m": MESSAGE, "k": IMAGE})


WEBSITE = "https://shop.example.com/launch"


def result_buttons(assets: list[dict[str, str]]) -> list[tuple[str, str]]:
    """The (words, action id) of each button on a result whose question carries ``assets``."""
    from minds_bot.minds import parse_output
    from minds_bot.render.answers import render_result

    output = {
        "title": "What catches your eye?",
        "type": "qualitative",
        "audiences": [{"audience": "Parents", "value": "Bright", "answers": []}],
        "assets": assets,
    }
    message = render_result(parse_output(output), study_id=STUDY, message_id=MESSAGE, charted=False)
    elements = [e for b in message.as_kwargs()["blocks"] for e in b.get("elements", []) if "action_id" in e]
    return [(e["text"]["text"], e["action_id"]) for e in elements]


def test_a_result_whose_question_carries_an_image_offers_heatmap_not_its_export() -> None:
    # The export is of website heatmaps only (catalogue rule 91): an image's heatmap is read, not exported.
    assert result_buttons([{"assetKey": IMAGE, "kind": "image", "url": IMAGE}]) == [("Heatmap", "result_heatmap")]


def test_a_result_whose_question_carries_a_video_offers_heatmap_not_its_export() -> None:
    video = "https://cdn.example.com/ad.mp4"
    assert result_buttons([{"assetKey": video, "kind": "video", "url": video}]) == [("Heatmap", "result_heatmap")]


def test_a_result_whose_question_carries_a_website_offers_export_heatmap() -> None:
    website = [{"assetKey": WEBSITE, "kind": "website", "url": WEBSITE}]
    assert result_buttons(website) == [("Export heatmap", "result_heatmap_export")]


def test_a_result_with_an_image_and_a_website_offers_both() -> None:
    assets = [
        {"assetKey": IMAGE, "kind": "image", "url": IMAGE},
        {"assetKey": WEBSITE, "kind": "website", "url": WEBSITE},
    ]
    assert result_buttons(assets) == [("Heatmap", "result_heatmap"), ("Export heatmap", "result_heatmap_export")]


def test_a_result_without_assets_offers_no_heatmap() -> None:
    assert result_buttons([]) == []
    # an asset of a kind Minds did not name for heatmaps is not guessed at from its address
    assert result_buttons([{"assetKey": "https://x.example/doc.pdf", "kind": "document"}]) == []


async def test_heatmap_names_the_cost_then_the_requester_starts_it_and_the_thread_gets_the_analysis(
    bot: BotHarness,
) -> None:
    people(bot)
    path = f"/studies/{STUDY}/heatmaps/{MESSAGE}"
    bot.minds_api.on("GET", path, heatmap("none"), heatmap("processing"), heatmap("completed"))
    bot.minds_api.on("POST", path, heatmap("queued"))
    await bot.click("result_heatmap", heatmap_button_value(), user=ADMIN, message_ts="1733140000.000300")
    prompt = await bot.reply_containing("Start heatmap")
    assert "needs Premium and uses one response per Mind (12 Minds)" in shown(prompt)
    start = buttons(prompt)["heatmap_start"]
    assert bot.minds_api.to("POST", path) == [], "nothing started before the confirmation"

    await bot.click("heatmap_start", start["value"], user=MEMBER, ephemeral=True)
    assert "Only the person who asked" in (await bot.reply())["text"]
    await bot.click("heatmap_start", start["value"], user=ADMIN, ephemeral=True)
    run = await bot.tracker.next_tracked(RunKind.HEATMAP)
    [sent] = bot.minds_api.to("POST", path)
    assert sent.json() == {"assetKey": IMAGE}
    assert run.thread_ts == "1733140000.000300"
    await bot.tick()
    await bot.tick()
    [done] = await bot.slack.wait_for("chat.update", lambda c: "Heatmap of the image" in json.dumps(c))
    text = json.dumps(done, ensure_ascii=False)
    assert text.index("Price &lt;tag&gt; — 50%") < text.index("Logo — 20%")


async def test_a_finished_heatmap_is_read_not_started_again(bot: BotHarness) -> None:
    bot.minds_api.on("GET", f"/studies/{STUDY}/heatmaps/{MESSAGE}", heatmap("completed", summary="Eyes go to price"))
    await bot.click("result_heatmap", heatmap_button_value(), message_ts="1733140000.000300")
    [posted] = await bot.slack.wait_for("chat.postMessage", lambda c: "Heatmap" in c.get("text", ""))
    assert posted["thread_ts"] == "1733140000.000300" and "Eyes go to price" in json.dumps(posted)
    assert bot.minds_api.to("POST", f"/studies/{STUDY}/heatmaps/{MESSAGE}") == []


async def test_export_heatmap_attaches_the_zip_in_the_thread(bot: BotHarness) -> None:
    base = f"/studies/{STUDY}/heatmaps/{MESSAGE}"
    bot.minds_api.on("POST", f"{base}/export", ok({"status": "completed", "filename": "heatmap.zip"}))
    archive = httpx.Response(200, content=b"PK\x03\x04zip", headers={"content-type": "application/zip"})
    bot.minds_api.on("GET", f"{base}/export-download", archive)
    website = json.dumps({"s": STUDY, "m": MESSAGE, "k": WEBSITE})
    await bot.click("result_heatmap_export", website, message_ts="1733140000.000300")
    (upload,) = await bot.slack.wait_for("files.completeUploadExternal")
    assert upload["thread_ts"] == "1733140000.000300"
    assert list(bot.slack.uploads.values()) == [b"PK\x03\x04zip"]
