"""A plan approved just before the bot died: the run it resumes still gets the plan message's approval line and,
when it ends, its outcome — from the plan's blocks kept when Approve was pressed, not from a message at hand."""

from __future__ import annotations

import asyncio
import json

import httpx

from minds_bot.flows.research import resume_pending_approvals
from minds_bot.store import DEFAULT_CLAIM_LEASE, PlanState, RunKind
from tests.fakes.bot import CHANNEL, TEAM, BotHarness
from tests.fakes.minds_http import ok
from tests.flows.test_research_run import NOTHING_CACHED, RUN, _export_routes, bot, thread_texts
from tests.slack.plan_samples import run_data
from tests.slack.test_plan_listeners import REQUESTER, RUNS, _button, open_plan

__all__ = ["bot"]  # the fixture


class _Dies:
    """Minds asked to start the run, and the bot's process dies right then (``asked`` is set when it was asked)."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.asked.set()
        raise RuntimeError("the bot's process died while Minds was being asked")


def _plan_lines(bot: BotHarness, ts: str) -> list[str]:
    return [c["text"] for c in bot.slack.calls_to("chat.update") if c.get("ts") == ts and "Approved by" in c["text"]]


async def test_an_approval_resumed_after_a_restart_still_closes_the_plan_message_with_the_outcome(
    bot: BotHarness,
) -> None:
    ts, blocks = await open_plan(bot, confirmationQuestions=[])
    dies = _Dies()
    bot.minds_api.on("POST", RUNS, dies)
    approve = _button(blocks, "Approve & run")
    # The process "dies" mid-confirm: the approval is claimed and the plan approved, Minds never answered.
    await bot.click(message_ts=ts, blocks=blocks, action_id=approve["action_id"], value=approve["value"])
    await asyncio.wait_for(dies.asked.wait(), 30)  # the work after the acknowledgement reached Minds
    post = await bot.store.get_plan_post(team_id=TEAM, channel_id=CHANNEL, message_ts=ts)
    assert post is not None and post.state == PlanState.APPROVED and post.frozen_blocks
    assert not _plan_lines(bot, ts)

    bot.minds_api.set("POST", RUNS, ok({"runId": "run-1", "status": "queued"}))
    bot.clock.advance(DEFAULT_CLAIM_LEASE.total_seconds() + 1)  # the crashed confirmer's lease ran out
    assert await resume_pending_approvals(bot.services) == 1
    (running,) = [c for c in bot.slack.calls_to("chat.update") if c.get("ts") == ts and "Approved by" in c["text"]]
    assert running["text"] == (
        f":white_check_mark: Approved by <@{REQUESTER}>: revision 1 is running. Progress follows in the thread."
    )
    actions = [e["action_id"] for b in running["blocks"] if b["type"] == "actions" for e in b["elements"]]
    assert actions == ["run_notify_me"], "no plan buttons on a running plan: only Notify me when it ends"
    assert "Research plan" in json.dumps(running["blocks"]), "the plan itself stays on the message"

    await bot.tracker.next_tracked(RunKind.RESEARCH)
    bot.minds_api.on("GET", RUN, ok(run_data("completed")))
    _export_routes(bot, {"status": "completed", "filename": "cups-report.md"}, cached=NOTHING_CACHED)
    await bot.tick(4)
    assert _plan_lines(bot, ts)[-1] == (
        f":white_check_mark: Completed — results in the thread. Approved by <@{REQUESTER}> (revision 1)."
    )
    assert [t for t in thread_texts(bot.slack, ts) if t.startswith(":white_check_mark: Completed:")]
