"""The New Audience dialog's build through the real app against a scripted Minds: exactly the options chosen are
sent (no public link unless ticked, nothing Minds should decide itself), and a retry of a build Minds is still
running follows that build instead of starting another (the REST form of continuing with ``operationId``)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest

from minds_bot.render.audience_new import NEW_AUDIENCE_VIEW
from minds_bot.store import ChannelPolicy, PolicyMode, RunKind
from tests.fakes.bot import CHANNEL, TEAM, BotHarness, bot_harness, buttons
from tests.fakes.minds_http import ok, raw

LIMITS = {"perAudienceCap": 40, "modes": [{"mode": "balanced", "automaticSizingCeiling": 24}]}
BRIEF = "Urban cyclists in Berlin who commute daily"
FROM_BRIEF = "/audiences/from-brief"


@pytest.fixture
async def bot() -> AsyncIterator[BotHarness]:
    async with bot_harness() as harness:
        harness.minds_api.on("GET", "/audiences/limits", ok(LIMITS))
        yield harness


def dialog(values: dict[str, dict[str, object]]) -> tuple[dict[str, object], dict[str, object]]:
    view = {"callback_id": NEW_AUDIENCE_VIEW, "private_metadata": json.dumps({"c": CHANNEL, "cap": 40})}
    state = {block: {action: value} for block, (action, value) in values.items()}
    return view, state


async def test_the_dialog_sends_exactly_the_options_chosen(bot: BotHarness) -> None:
    bot.minds_api.on("POST", FROM_BRIEF, ok({"jobId": "job-1", "status": "queued"}, status=202))
    bot.minds_api.on("GET", "/audiences/from-brief/jobs/job-1", ok({"jobId": "job-1", "status": "queued"}))
    view, state = dialog(
        {
            "audience_new_brief": ("audience_new_brief_input", {"type": "plain_text_input", "value": BRIEF}),
            "audience_new_size": ("audience_new_size_input", {"type": "number_input", "value": "12"}),
            "audience_new_links": (
                "audience_new_links_input",
                {"type": "plain_text_input", "value": " https://example.com/a \n\nhttps://example.com/b"},
            ),
            "audience_new_keywords": (
                "audience_new_keywords_input",
                {"type": "plain_text_input", "value": "bike lanes, rain , bike lanes"},
            ),
            "audience_new_grounding": (
                "audience_new_grounding_box",
                {"type": "checkboxes", "selected_options": [{"value": "no_web"}]},
            ),
            "audience_new_public": ("audience_new_public_box", {"type": "checkboxes", "selected_options": []}),
        }
    )
    await bot.submit(view, state)
    await bot.tracker.next_tracked(RunKind.AUDIENCE)
    (sent,) = bot.minds_api.to("POST", FROM_BRIEF)
    assert sent.json() == {
        "text": BRIEF,
        "memberCount": 12,
        "links": ["https://example.com/a", "https://example.com/b"],
        "keywords": ["bike lanes", "rain"],
        "includeWebSearch": False,
    }


async def test_try_again_while_minds_still_builds_follows_that_build(bot: BotHarness) -> None:
    def timed_out(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("no answer", request=request)

    bot.minds_api.on("POST", FROM_BRIEF, timed_out)
    await bot.command(f"audience new {BRIEF}")
    offer = await bot.reply_containing("Try again")
    still = {"statusCode": 409, "message": "still being created", "data": {"code": "IN_PROGRESS", "jobId": "job-7"}}
    bot.minds_api.set("POST", FROM_BRIEF, raw(still, status=409))
    bot.minds_api.on("GET", "/audiences/from-brief/jobs/job-7", ok({"jobId": "job-7", "status": "processing"}))
    await bot.click("audience_try_again", buttons(offer)["audience_try_again"]["value"], ephemeral=True)
    tracked = await bot.tracker.next_tracked(RunKind.AUDIENCE)
    assert tracked.run_id == "job-7"
    (parent,) = await bot.slack.wait_for("chat.postMessage", lambda c: "New Audience from a brief" in c.get("text", ""))
    assert parent["channel"] == CHANNEL
    sent = bot.minds_api.to("POST", FROM_BRIEF)
    assert len({s.headers["idempotency-key"] for s in sent}) == 1, "the same key: Minds builds one Audience"


async def test_a_dataset_is_not_read_when_the_channel_now_refuses_builds(bot: BotHarness) -> None:
    policy = ChannelPolicy(
        team_id=TEAM, channel_id=CHANNEL, action="audience_build", mode=PolicyMode.REFUSE, set_by="U9"
    )
    await bot.store.set_channel_policy(policy)
    view, state = dialog(
        {
            "audience_new_brief": ("audience_new_brief_input", {"type": "plain_text_input", "value": BRIEF}),
            "audience_new_dataset": (
                "audience_new_dataset_input",
                {"type": "plain_text_input", "value": f"https://acme.slack.com/archives/{CHANNEL}/p1733140000000100"},
            ),
        }
    )
    await bot.submit(view, state)
    (updated,) = await bot.slack.wait_for("views.update")
    shown = json.dumps(updated["view"], ensure_ascii=False)
    assert "The dataset was not previewed: This channel's spend policy refuses this: Build an Audience" in shown
    assert [r for r in bot.minds_api.sent if r.method != "GET"] == []
    assert bot.slack.calls_to("conversations.replies") == []


async def test_a_held_dialog_build_is_sent_with_its_options_once_an_admin_approves(bot: BotHarness) -> None:
    admin, ben = "UADMIN", "UBEN"
    bot.slack.users[admin] = {"id": admin, "is_admin": True, "real_name": "Ada Admin"}
    bot.slack.acting.update({admin, ben})
    policy = ChannelPolicy(
        team_id=TEAM, channel_id=CHANNEL, action="audience_build", mode=PolicyMode.APPROVE, set_by=admin
    )
    await bot.store.set_channel_policy(policy)
    bot.minds_api.on("POST", FROM_BRIEF, ok({"jobId": "job-3", "status": "queued"}, status=202))
    bot.minds_api.on("GET", "/audiences/from-brief/jobs/job-3", ok({"jobId": "job-3", "status": "queued"}))
    view, state = dialog(
        {
            "audience_new_brief": ("audience_new_brief_input", {"type": "plain_text_input", "value": BRIEF}),
            "audience_new_name": ("audience_new_name_input", {"type": "plain_text_input", "value": "Berlin riders"}),
            "audience_new_size": ("audience_new_size_input", {"type": "number_input", "value": "9"}),
        }
    )
    await bot.submit(view, state, user=ben)
    (line,) = await bot.slack.wait_for("chat.postMessage", lambda c: "needs an approver" in c.get("text", ""))
    assert bot.minds_api.to("POST", FROM_BRIEF) == [], "nothing is sent before an approver decides"
    await bot.click("spend_hold_approve", buttons(line)["spend_hold_approve"]["value"], user=admin)
    await bot.tracker.next_tracked(RunKind.AUDIENCE)
    (sent,) = bot.minds_api.to("POST", FROM_BRIEF)
    assert sent.json() == {"text": BRIEF, "name": "Berlin riders", "memberCount": 9}
