"""What a finished run leaves on the message that asked for it: the plan message's closing line, and a reaction.

Owns: replacing a research run's "Approved by …: revision N is running" line on its plan message with how the
run ended (``render/outcome.py``; detailed unless the workspace turned the channel's outcome off), once, when
its result is posted — rebuilt from the plan's blocks stored at approval, so it also works after a restart —
and the reaction (✅ / ⚠️ / ✖️) on the request message (the plan message, or the "… asked" line of a direct
question). Both come after the result is in the thread: a Slack refusal here (already_reacted, a deleted
message, a missing scope) is logged and never undoes or repeats the result.
Must not touch: Block Kit (``render/``), SQL, the run tracker's timing.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING

from slack_sdk.errors import SlackApiError

from minds_bot.i18n import in_channel
from minds_bot.render.outcome import outcome_note, reaction_for
from minds_bot.render.plan import freeze
from minds_bot.store import TrackedRun

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services

log = logging.getLogger(__name__)


async def close_plan_message(services: Services, slack: AsyncWebClient, run: TrackedRun, *, status: str) -> None:
    """One edit of the plan message: its approval line becomes the run's outcome."""
    post = await services.store.get_plan_post(
        team_id=run.team_id, channel_id=run.channel_id, message_ts=run.thread_ts or ""
    )
    if post is None or not post.frozen_blocks or post.draft_plan_id is None or post.revision is None:
        return  # approved while the bot restarted: the message's blocks were never at hand (the thread says it)
    approval = await services.store.get_approval(
        team_id=post.team_id, draft_plan_id=post.draft_plan_id, revision=post.revision
    )
    if approval is None or approval.run_id != run.run_id:
        return
    detailed = await services.outcome_in_channel(run.team_id)
    with in_channel():  # the plan message is the channel's
        note = outcome_note(
            status=status,
            approver_id=approval.approver_id,
            revision=post.revision,
            cancelled_by=run.cancelled_by,
            detailed=detailed,
        )
        closed = freeze(json.loads(post.frozen_blocks), note)
    try:
        await slack.chat_update(channel=post.channel_id, ts=post.message_ts, **closed.as_kwargs())
    except SlackApiError as exc:  # the result is in the thread; a deleted plan message only loses its line
        log.warning("could not close the plan message", extra={"fields": {"run": run.run_id, "error": str(exc)}})


async def react_to_request(slack: AsyncWebClient, run: TrackedRun, *, status: str) -> None:
    """Put the outcome's reaction on the message that asked for the run (its thread's parent)."""
    name = reaction_for(status)
    if name is None or not run.thread_ts:
        return
    try:
        await slack.reactions_add(channel=run.channel_id, timestamp=run.thread_ts, name=name)
    except SlackApiError as exc:  # already_reacted after a retry, a deleted message: the result stands
        log.info("no reaction on the request", extra={"fields": {"run": run.run_id, "error": str(exc)}})
