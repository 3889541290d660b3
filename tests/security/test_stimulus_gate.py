"""Issue 33 rows 2, 10, 11 and 12: files shared in Slack go to Minds only for someone allowed to use them, only
after the request is allowed, and only for as long as Minds needs them. Through the real Bolt app (signed
requests, the gate, the fake Slack Web API, fake Minds) and the real ``GET /stimuli/{token}`` route.

The workspace: #research (``C0001``, public) holds everyone; #secret-launch (``GSECRET1``, private) holds Ada
and the bot. Ben is an ordinary member outside #secret-launch.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from aiohttp import web

from minds_bot.app import build_web_app
from minds_bot.flows.stimulus import MAX_STIMULUS_NAME, SHELF_TTL_SECONDS, StimulusShelf, short_name
from minds_bot.render.common import MAX_PRIVATE_METADATA, encode_value
from minds_bot.render.modals import STUDY_BLOCK, STUDY_OPTIONS_ACTION, TEXT_ACTION, TEXT_BLOCK
from minds_bot.render.plan_dialogs import VIEW_PLAN_REQUEST
from minds_bot.store import ChannelPolicy, PolicyMode, RunKind
from tests.fakes.bot import CHANNEL, SIGNING_SECRET, TEAM, BotHarness, blocks_of, bot_harness, buttons
from tests.fakes.minds_http import envelope, ok
from tests.fakes.slack_web import BOT_USER
from tests.slack import plan_samples, samples

ADA, BEN, ADMIN = "UADA", "UBEN", "UADMIN"
SECRET = "GSECRET1"
RESEARCH = CHANNEL
PNG = b"\x89PNG\r\n\x1a\n" + b"phoenix" * 300
LINK_TS, LINK_P = "1733140000.000100", "p1733140000000100"
PLAN_STUDY = "11111111-1111-4111-8111-111111111111"
PREVIEW = f"/studies/{PLAN_STUDY}/research-plans/preview"
ASK_STUDY = samples.STUDY_ID
RUNS = f"/studies/{ASK_STUDY}/runs"
QUESTION = "Would you buy this shoe?"
NOT_MEMBER = (
    "That message is in a channel you are not in (or in a private channel Minds is not in), so its file cannot be "
    "used. Nothing was downloaded."
)
PRIVATE_ELSEWHERE = (
    "That message is in a private channel: its file is used only in a plan posted in that channel. Plan there "
    "instead; nothing was downloaded."
)
NOT_A_LINK = "Paste a Slack message's link (“Copy link” on the message): https://…slack.com/archives/…"
OTHER_WORKSPACE = (
    "That link is to another Slack workspace. Paste the link of a message in this workspace; nothing was downloaded."
)


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness(unique_ts=True, user=BEN) as harness:
        harness.slack.channel_members[SECRET] = [ADA, BOT_USER]
        harness.slack.users[ADMIN] = {"id": ADMIN, "is_admin": True}
        harness.minds_api.on("GET", f"/studies/{PLAN_STUDY}", ok(plan_samples.study_data()))
        harness.minds_api.on("GET", f"/studies/{ASK_STUDY}", ok(samples.study_detail()))
        yield harness


@pytest.fixture
async def route(bot: BotHarness) -> AsyncIterator[str]:
    """The bot's real web app (``GET /stimuli/{token}`` included) on 127.0.0.1; the shelf's public address."""
    web_app = build_web_app(
        bot.app,
        ready=lambda: True,
        signing_secret=SIGNING_SECRET,
        stimuli=lambda: bot.services.stimuli,
        metrics=False,
    )
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    bot.services.stimuli.base_url = base
    try:
        yield base
    finally:
        await runner.cleanup()


async def fetched(url: str) -> httpx.Response:
    async with httpx.AsyncClient(timeout=10.0) as http:
        return await http.get(url)


def nothing_went_anywhere(bot: BotHarness) -> None:
    """Refused: the linked message was not read, no file was looked up or downloaded, nothing reached Minds and
    nothing was posted."""
    assert bot.slack.calls_to("conversations.replies") == []
    assert bot.slack.calls_to("files.info") == [] and bot.slack.downloads == []
    assert bot.minds_api.sent == []
    assert bot.slack.calls_to("chat.postMessage") == []
    assert len(bot.services.stimuli) == 0


# --- row 2: the plan dialog's "Concept to test" -------------------------------------------------------------


def link_to(bot: BotHarness, channel: str, *, origin: str | None = None) -> str:
    return f"{origin or bot.slack.base_url}/archives/{channel}/{LINK_P}"


def message_with_file(bot: BotHarness, file_id: str, name: str) -> None:
    """conversations.replies answers with one message holding the file (as Slack does for the bot in a channel)."""
    shared = bot.slack.share_file(file_id, name, PNG)
    message = {"type": "message", "ts": LINK_TS, "user": ADA, "text": "The launch key visual", "files": [shared]}
    bot.slack.replies["conversations.replies"] = {"ok": True, "messages": [message], "has_more": False}


def plan_dialog(channel: str, concept: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The plan dialog opened in ``channel`` for the Study, submitted with a request and a concept to test."""
    view = {
        "callback_id": VIEW_PLAN_REQUEST,
        "private_metadata": json.dumps({"c": channel, "s": PLAN_STUDY, "id": True}),
    }
    values = {
        "request": {"value": {"type": "plain_text_input", "value": "Does the launch visual make people curious?"}},
        "stimulus": {"value": {"type": "plain_text_input", "value": concept}},
    }
    return view, values


def field_errors(ack: Any) -> dict[str, str]:
    assert ack.status == 200, "a field error, never a 500"
    return json.loads(ack.body)["errors"] if ack.body else {}


async def test_ben_outside_the_private_channel_gets_the_field_error_and_nothing_is_read_sent_or_posted(
    bot: BotHarness,
) -> None:
    message_with_file(bot, "F0PHOENIX", "project-phoenix-confidential.png")
    ack = await bot.submit(*plan_dialog(RESEARCH, link_to(bot, SECRET)), user=BEN)
    assert field_errors(ack) == {"stimulus": NOT_MEMBER}
    nothing_went_anywhere(bot)


async def test_ada_may_not_use_the_private_channels_file_in_a_public_channel(bot: BotHarness) -> None:
    message_with_file(bot, "F0PHOENIX", "project-phoenix-confidential.png")
    ack = await bot.submit(*plan_dialog(RESEARCH, link_to(bot, SECRET)), user=ADA)
    assert field_errors(ack) == {"stimulus": PRIVATE_ELSEWHERE}
    nothing_went_anywhere(bot)


async def test_ada_uses_it_in_the_private_channel_and_its_address_ends_with_the_plans_first_revision(
    bot: BotHarness, route: str
) -> None:
    message_with_file(bot, "F0PHOENIX", "project-phoenix-confidential.png")
    at_minds: list[tuple[str, str, bytes] | None] = []

    def drafted(request: httpx.Request) -> httpx.Response:
        for attachment in json.loads(request.content).get("attachments") or []:
            at_minds.append(bot.services.stimuli.get(bot.services.stimuli.token_of(attachment["url"]) or ""))
        return ok(plan_samples.plan_data())

    bot.minds_api.on("POST", PREVIEW, drafted)
    ack = await bot.submit(*plan_dialog(SECRET, link_to(bot, SECRET)), user=ADA)
    assert field_errors(ack) == {}
    await bot.tracker.next_tracked(RunKind.PLAN)
    assert bot.slack.downloads == ["Bearer xoxb-test-token"], "downloaded once the dialog was allowed"
    (preparing,) = bot.slack.calls_to("chat.postMessage")
    assert preparing["channel"] == SECRET
    await bot.tick()
    (sent,) = bot.minds_api.to("POST", PREVIEW)
    (attachment,) = sent.json()["attachments"]
    assert attachment["name"] == "project-phoenix-confidential.png" and attachment["type"] == "image/png"
    assert set(attachment) == {"url", "name", "type"}, "the bot's own keys never go to Minds"
    assert attachment["url"].startswith(f"{route}/stimuli/")
    assert at_minds == [("project-phoenix-confidential.png", "image/png", PNG)], "Minds could fetch it then"
    assert (await fetched(attachment["url"])).status_code == 404, "the first revision arrived: the file left"


@pytest.mark.parametrize(
    ("concept", "words"),
    [
        ("https://globex.slack.com/archives/C0001/p1733140000000100", OTHER_WORKSPACE),
        ("https://slack.com/archives/C0001/p1733140000000100", OTHER_WORKSPACE),
        # Row 10: typed text that is no URL at all is a field error, never a traceback.
        ("https://[abc/archives/C0001/p1733140000000100", NOT_A_LINK),
        (
            "ｈｔｔｐｓ：／／ａｃｍｅ．ｓｌａｃｋ．ｃｏｍ／ａｒｃｈｉｖｅｓ／Ｃ０００１／ｐ１７３３１４００００００００１００",
            NOT_A_LINK,
        ),
        ("https://ａｃｍｅ．slack.com／archives/C0001/p1733140000000100", NOT_A_LINK),
        ("https://acme.slack.com:99999/archives/C0001/p1733140000000100", NOT_A_LINK),
        ("https://[::1]/archives/C0001/p1733140000000100", NOT_A_LINK),
        ("shoe.png", NOT_A_LINK),
    ],
    ids=[
        "another-workspace",
        "slack-without-workspace",
        "broken-ipv6",
        "full-width",
        "full-width-host",
        "port",
        "ipv6",
        "words",
    ],
)
async def test_a_link_that_is_not_this_workspaces_message_link_is_said_on_the_field(
    bot: BotHarness, concept: str, words: str
) -> None:
    message_with_file(bot, "F0SHOE", "shoe.png")
    ack = await bot.submit(*plan_dialog(RESEARCH, concept), user=BEN)
    assert field_errors(ack) == {"stimulus": words}
    nothing_went_anywhere(bot)


# --- rows 11 and 12: "Ask Minds about this" ----------------------------------------------------------------


async def ask_about(bot: BotHarness, file: dict[str, Any], *, text: str = QUESTION) -> dict[str, Any]:
    """Ben uses the shortcut on Ada's message in #research; the dialog Slack was asked to open."""
    message = {"type": "message", "ts": "1733140000.000500", "user": ADA, "text": text, "files": [file]}
    await bot.interaction(
        {
            "type": "message_action",
            "callback_id": "minds_ask_about_message",
            "trigger_id": "shortcut.1",
            "user": {"id": bot.acts(BEN), "team_id": TEAM},
            "channel": {"id": RESEARCH},
            "message": message,
            "response_url": bot.slack.response_url("shortcut"),
        }
    )
    (opened,) = await bot.slack.wait_for("views.open")
    return json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]


async def submit_ask(bot: BotHarness, view: dict[str, Any]) -> None:
    picked = {"type": "external_select", "selected_option": {"value": ASK_STUDY}}
    typed = {"type": "plain_text_input", "value": QUESTION}
    values = {STUDY_BLOCK: {STUDY_OPTIONS_ACTION: picked}, TEXT_BLOCK: {TEXT_ACTION: typed}}
    ack = await bot.submit(view, values, user=BEN)
    assert ack.status == 200 and not ack.body


def minds_fetches(bot: BotHarness, seen: list[tuple[str, str, bytes] | None]) -> Any:
    """Minds accepting the question: what its attachment's address served at that moment goes to ``seen``."""

    def reply(request: httpx.Request) -> httpx.Response:
        shelf = bot.services.stimuli
        for attachment in json.loads(request.content).get("attachments") or []:
            seen.append(shelf.get(shelf.token_of(attachment["url"]) or ""))
        return ok({"runId": samples.RUN_ID, "status": "queued"}, status=202)

    return reply


async def set_policy(bot: BotHarness, mode: PolicyMode) -> None:
    await bot.store.set_channel_policy(
        ChannelPolicy(team_id=TEAM, channel_id=RESEARCH, action="ask", mode=mode, set_by=ADMIN)
    )


async def test_an_ask_refused_by_the_channels_policy_downloads_nothing(bot: BotHarness, route: str) -> None:
    await set_policy(bot, PolicyMode.REFUSE)
    view = await ask_about(bot, bot.slack.share_file("F0SHOE", "shoe.png", PNG))
    await submit_ask(bot, view)
    (refused,) = await bot.slack.wait_for("chat.postEphemeral")
    assert refused["user"] == BEN and refused["text"].startswith("This channel's spend policy refuses this")
    assert bot.slack.calls_to("files.info") == [] and bot.slack.downloads == [], "refused: no download"
    assert bot.minds_api.to("POST", RUNS) == [] and len(bot.services.stimuli) == 0


async def test_a_held_ask_downloads_its_file_only_once_approved(bot: BotHarness, route: str) -> None:
    await set_policy(bot, PolicyMode.APPROVE)
    view = await ask_about(bot, bot.slack.share_file("F0SHOE", "shoe.png", PNG))
    await submit_ask(bot, view)
    (line,) = await bot.slack.wait_for("chat.postMessage", lambda c: "needs an approver" in c.get("text", ""))
    assert bot.slack.calls_to("files.info") == [] and bot.slack.downloads == [], "held: nothing downloaded yet"
    seen: list[tuple[str, str, bytes] | None] = []
    bot.minds_api.on("POST", RUNS, minds_fetches(bot, seen))
    approve = buttons(line)["spend_hold_approve"]
    await bot.click("spend_hold_approve", approve["value"], user=ADMIN, message_ts="1", blocks=blocks_of(line))
    await bot.tracker.next_tracked(RunKind.DIRECT)
    assert bot.slack.downloads == ["Bearer xoxb-test-token"]
    assert seen == [("shoe.png", "image/png", PNG)]


async def test_the_address_answers_404_once_minds_accepted_the_question(bot: BotHarness, route: str) -> None:
    seen: list[tuple[str, str, bytes] | None] = []
    bot.minds_api.on("POST", RUNS, minds_fetches(bot, seen))
    await submit_ask(bot, await ask_about(bot, bot.slack.share_file("F0SHOE", "shoe.png", PNG)))
    await bot.tracker.next_tracked(RunKind.DIRECT)
    (sent,) = bot.minds_api.to("POST", RUNS)
    (attachment,) = sent.json()["attachments"]
    assert set(attachment) == {"url", "name", "type"}
    assert seen == [("shoe.png", "image/png", PNG)], "served while Minds accepted the question"
    gone = await fetched(attachment["url"])
    assert gone.status_code == 404 and "only until Minds has fetched it" in gone.text


async def test_try_again_after_the_file_left_puts_it_back_at_the_same_address_from_slack(
    bot: BotHarness, route: str
) -> None:
    now = [0.0]
    bot.services.stimuli = StimulusShelf(route, clock=lambda: now[0])
    bot.minds_api.on("POST", RUNS, envelope(503, message="down", headers={"Retry-After": "1"}))
    await submit_ask(bot, await ask_about(bot, bot.slack.share_file("F0SHOE", "shoe.png", PNG)))
    (failed,) = await bot.slack.wait_for("chat.update", lambda c: "ask_retry" in json.dumps(c))
    first = bot.minds_api.to("POST", RUNS)[-1].json()["attachments"][0]
    waiting = await fetched(first["url"])
    assert waiting.status_code == 200 and waiting.content == PNG, "no answer yet: kept for a Try again"
    assert waiting.headers["content-type"] == "image/png" and waiting.headers["cache-control"] == "no-store"
    now[0] = SHELF_TTL_SECONDS + 1
    assert (await fetched(first["url"])).status_code == 404, "kept ten minutes at most"

    seen: list[tuple[str, str, bytes] | None] = []
    bot.minds_api.set("POST", RUNS, minds_fetches(bot, seen))
    await bot.click("ask_retry", buttons(failed)["ask_retry"]["value"], user=BEN, ephemeral=False)
    await bot.tracker.next_tracked(RunKind.DIRECT)
    assert bot.minds_api.to("POST", RUNS)[-1].json()["attachments"] == [first], "the same request"
    assert seen == [("shoe.png", "image/png", PNG)], "read from Slack again by its id"
    assert [c["file"] for c in bot.slack.calls_to("files.info")] == ["F0SHOE", "F0SHOE"]
    assert (await fetched(first["url"])).status_code == 404


@pytest.mark.parametrize(
    "url",
    ["https://files.slack.com:99999/files-pri/T1-F1/x.png", "https://[::1]/files-pri/x.png", "https://[abc/x.png"],
    ids=["port-past-65535", "ipv6-host", "broken-host"],
)
async def test_a_file_address_slack_could_not_have_given_is_refused_politely_and_nothing_is_downloaded(
    bot: BotHarness, route: str, url: str
) -> None:
    file = bot.slack.share_file("F0ODD", "shoe.png", PNG)
    file["url_private_download"] = file["url_private"] = url
    await submit_ask(bot, await ask_about(bot, file))
    (said,) = await bot.slack.wait_for("chat.postEphemeral")
    assert said["text"] == (
        f"*shoe.png* is not stored in Slack, so the bot did not download it. Your question was not sent: “{QUESTION}”"
    )
    assert bot.slack.downloads == [] and bot.minds_api.to("POST", RUNS) == []


async def test_a_very_long_file_name_fits_the_dialog_and_is_shortened_for_minds(bot: BotHarness, route: str) -> None:
    name = "発売キービジュアル最終版" * 400 + ".png"  # Slack keeps names far longer than a dialog can carry
    file = bot.slack.share_file("F0LONG", name, PNG)
    view = await ask_about(bot, file | {"url_private_download": file["url_private"] + "/" + "x" * 5000})
    assert len(view["private_metadata"]) <= MAX_PRIVATE_METADATA
    shown = json.dumps(view, ensure_ascii=False)
    assert "…" in shown and all(len(b.get("text", {}).get("text", "")) <= 3000 for b in view["blocks"])
    seen: list[tuple[str, str, bytes] | None] = []
    bot.minds_api.on("POST", RUNS, minds_fetches(bot, seen))
    await submit_ask(bot, view)
    await bot.tracker.next_tracked(RunKind.DIRECT)
    (attachment,) = bot.minds_api.to("POST", RUNS)[0].json()["attachments"]
    assert attachment["name"] == short_name(name) and len(attachment["name"]) == MAX_STIMULUS_NAME
    assert attachment["name"].endswith("….png")


async def test_the_route_serves_any_name_without_breaking_its_headers(bot: BotHarness, route: str) -> None:
    url = bot.services.stimuli.put(
        name='shoe "v2"\r\nSet-Cookie: x=1\\ 項目.png', mimetype="image/png", content=PNG, owner="ask-1"
    )
    served = await fetched(url)
    assert served.status_code == 200 and served.content == PNG
    assert served.headers["content-disposition"] == (
        'inline; filename="shoe _v2___Set-Cookie: x=1_ __.png"; '
        "filename*=UTF-8''shoe%20%22v2%22%0D%0ASet-Cookie%3A%20x%3D1%5C%20%E9%A0%85%E7%9B%AE.png"
    )
    assert "set-cookie" not in served.headers
    bot.services.stimuli.release("ask-1")
    assert (await fetched(url)).status_code == 404


# --- row 12: the activity CSV ------------------------------------------------------------------------------


@pytest.mark.parametrize("sign", ["＝", "＋", "－", "＠"])
async def test_the_activity_csv_neutralises_a_full_width_formula_sign(bot: BotHarness, sign: str) -> None:
    await set_policy(bot, PolicyMode.REFUSE)  # recorded, and nothing sent
    question = f'{sign}HYPERLINK("https://evil.example","Would you buy it?")'
    await bot.command(f"ask {ASK_STUDY} {question}", user=BEN)
    await bot.reply_containing("refuses")
    await bot.click("spend_activity_csv", encode_value({"d": 7}), user=BEN)
    await bot.slack.wait_for("files.completeUploadExternal")
    (content,) = bot.slack.uploads.values()
    assert f"'{sign}HYPERLINK(" in content.decode()
    assert f",{sign}HYPERLINK(" not in content.decode() and f',"{sign}HYPERLINK(' not in content.decode()
