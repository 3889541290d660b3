"""Results of one-shot jobs: a duplicated Study and an Audience built from a brief (progress and outcome).

Owns: the copy's name and the workspace link exactly as Minds returned it, and the Audience job's states
(queued, processing with Minds' progress, completed with name and Mind count, still running at our deadline).
Must not touch: I/O.
"""

from __future__ import annotations

from minds_bot.minds import AudienceLimits, FromBriefJob, FromBriefResult, StudyDuplicate
from minds_bot.render import MAX_NAME_SHOWN, MAX_SECTION_TEXT, Message, escape, mention
from minds_bot.render.browse import minds_label
from minds_bot.render.common import context, section, sections

BRIEF_SHOWN = 2_500  # characters of the brief repeated in the channel; Minds gets all of it


def render_duplicate(result: StudyDuplicate, *, source_name: str) -> Message:
    copy = result.study
    again = " (this copy was already made for this request, so no second copy was created)" if result.replayed else ""
    source, name = escape(source_name, limit=MAX_NAME_SHOWN), escape(copy.name, limit=MAX_NAME_SHOWN)
    text = f"Duplicated *{source}* as *{name}*{again}."
    blocks = [section(text)]
    if result.workspace_url:  # shown as written: Slack links the visible address, never a hidden one
        blocks.append(section(f"Open it in Minds: {escape(result.workspace_url, limit=MAX_SECTION_TEXT - 100)}"))
    blocks.append(context("Sharing and exports are not copied; the Audiences are shared with the original."))
    return Message(text=text, blocks=blocks)


def audience_size_note(limits: AudienceLimits) -> str:
    """What size the account may ask for, as Minds' limits say (automatic sizing differs from an explicit count)."""
    automatic = max((m.automatic_sizing_ceiling for m in limits.modes if m.automatic_sizing_ceiling), default=None)
    auto = f" Minds sizes it automatically (up to {minds_label(automatic)})." if automatic else ""
    return f"Your plan allows up to {minds_label(limits.per_audience_cap)} per Audience.{auto}"


def render_audience_progress(job: FromBriefJob, *, limits: AudienceLimits | None = None) -> Message:
    if job.status == "queued":
        text = "Building an Audience from your brief: queued at Minds…"
    else:
        pct = f" ({job.progress}%)" if job.progress is not None else ""
        text = f"Building an Audience from your brief: {escape(job.status, limit=MAX_NAME_SHOWN)}{pct}…"
    blocks = [section(text)]
    if limits is not None:
        blocks.append(context(audience_size_note(limits)))
    return Message(text=text, blocks=blocks)


def render_audience_locked() -> Message:
    text = (
        "This workspace cannot create Audiences: Minds reports a per-Audience limit of 0 (a workspace lock). "
        "Nothing was created; an admin can check the plan in Minds."
    )
    return Message(text=text, blocks=[section(text)])


def render_audience_ready(result: FromBriefResult, *, limits: AudienceLimits | None = None) -> Message:
    text = f"Audience *{escape(result.name, limit=MAX_NAME_SHOWN)}* is ready with {minds_label(result.mind_count)}."
    blocks = [section(text)]
    if limits is not None:
        blocks.append(context(audience_size_note(limits)))
    blocks.append(context("Attach it to a Study in Minds, then `/minds ask` or `/minds plan`."))
    return Message(text=text, blocks=blocks)


def render_audience_request(*, user_id: str, brief: str) -> Message:
    """The channel line that starts the thread where an Audience build is followed."""
    shown = (
        brief
        if len(brief) <= BRIEF_SHOWN
        else f"{brief[:BRIEF_SHOWN]}… (the whole brief, {len(brief)} characters, went to Minds)"
    )
    text = f"{mention(user_id)} asked Minds for a new Audience from this brief:\n{escape(shown)}"
    return Message(text=f"New Audience from a brief, asked by {mention(user_id)}", blocks=sections(text))


def render_audience_failed(reason: str) -> Message:
    text = escape(f"Minds could not build the Audience: {reason}", limit=MAX_SECTION_TEXT)
    return Message(text=text, blocks=[section(text)])
