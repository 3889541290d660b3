"""Results of one-shot jobs: a duplicated Study and an Audience built from a brief (progress and outcome).

Owns: the copy's name and the workspace link exactly as Minds returned it, and the Audience job's states
(queued, processing with Minds' progress, completed with name and Mind count, still running at our deadline).
Must not touch: I/O.
"""

from __future__ import annotations

from minds_bot.minds import FromBriefJob, FromBriefResult, StudyDuplicate
from minds_bot.slack.render import Message
from minds_bot.slack.render.browse import minds_label
from minds_bot.slack.render.common import context, escape, section


def render_duplicate(result: StudyDuplicate, *, source_name: str) -> Message:
    copy = result.study
    again = " (this copy was already made for this request, so no second copy was created)" if result.replayed else ""
    text = f"Duplicated *{escape(source_name)}* as *{escape(copy.name)}*{again}."
    blocks = [section(text)]
    if result.workspace_url:
        blocks.append(section(f"Open it in Minds: {result.workspace_url}"))
    blocks.append(context("Sharing and exports are not copied; the Audiences are shared with the original."))
    return Message(text=text, blocks=blocks)


def render_audience_progress(job: FromBriefJob) -> Message:
    if job.status == "queued":
        text = "Building an Audience from your brief: queued at Minds…"
    else:
        pct = f" ({job.progress}%)" if job.progress is not None else ""
        text = f"Building an Audience from your brief: {job.status}{pct}…"
    return Message(text=text, blocks=[section(text)])


def render_audience_ready(result: FromBriefResult) -> Message:
    text = f"Audience *{escape(result.name)}* is ready with {minds_label(result.mind_count)}."
    return Message(
        text=text,
        blocks=[section(text), context("Attach it to a Study in Minds, then `/minds ask` or `/minds plan`.")],
    )


def render_audience_still_running(job: FromBriefJob) -> Message:
    text = (
        f"Minds is still building the Audience ({job.status}). It keeps going without us: "
        "`/minds audiences` will list it once it is ready. Nothing was submitted twice."
    )
    return Message(text=text, blocks=[section(text)])
