"""``/minds audience new <brief>``: an Audience built from a brief, as a Minds job with progress.

Owns: the command: the account's Audience limits read first (a cap of 0 is a workspace lock, said plainly, and
nothing is created; otherwise the reply says how many Minds an Audience may have), the Idempotency-Key derived
from the invocation (a repeat of the same delivery reuses it, so Minds builds and charges one Audience), then
polling the job (``wait_audience_job``, never resubmitting) with a private progress line that changes only when
the state does (a response URL takes only five messages).
Completed → the Audience's name and Mind count; failed → Minds' reason (``AudienceJobFailed`` via the error hook).
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from minds_bot.flows.keys import derived_key
from minds_bot.minds import FromBriefResult
from minds_bot.slack.grammar import AudienceNew
from minds_bot.slack.invocation import Invocation
from minds_bot.slack.render.jobs import (
    render_audience_locked,
    render_audience_progress,
    render_audience_ready,
    render_audience_still_running,
)

ROUND_SECONDS = 60.0
MAX_ROUNDS = 10  # ten minutes; after that the job keeps running at Minds and we say where to find it


async def handle_audience_new(command: AudienceNew, invocation: Invocation) -> None:
    if command.brief is None:
        await invocation.say_text("Say `/minds audience new <brief>`, describing who the Audience should be.")
        return
    minds = await invocation.minds()
    limits = await minds.audience_limits()
    if limits.locked:
        await invocation.reply(render_audience_locked())
        return
    key = derived_key(purpose="audience", team_id=invocation.team_id, trigger_id=invocation.trigger_id)
    created = await minds.create_audience_from_brief(text=command.brief, idempotency_key=key)
    if isinstance(created, FromBriefResult):
        await invocation.reply(render_audience_ready(created, limits=limits))
        return
    job = created
    await invocation.reply(render_audience_progress(job, limits=limits))
    shown = job.status
    for _ in range(MAX_ROUNDS):
        if job.status == "completed":
            break
        job = await minds.wait_audience_job(job.job_id, wait_seconds=ROUND_SECONDS)
        if job.status not in (shown, "completed"):
            shown = job.status
            await invocation.reply(render_audience_progress(job, limits=limits), replace=True)
    if job.status == "completed" and job.result is not None:
        await invocation.reply(render_audience_ready(job.result, limits=limits), replace=True)
        return
    await invocation.reply(render_audience_still_running(job), replace=True)


COMMANDS = {AudienceNew: handle_audience_new}
