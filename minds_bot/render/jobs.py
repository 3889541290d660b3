"""Results of one-shot jobs: a duplicated Study and an Audience built from a brief (progress and outcome).

Owns: the copy's name and the workspace link exactly as Minds returned it, the Audience job's states
(queued, processing with Minds' progress, completed with name and Mind count, still running at our deadline),
and the two questions a keyed request can raise: **Try again** after Minds did not answer (same key), and
"make another?" when the same command comes again within the key's window.
Must not touch: I/O.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from slack_sdk.models.blocks import ActionsBlock, Block, ConfirmObject

from minds_bot.i18n import _, _n, format_share, sentences
from minds_bot.minds import AudienceLimits, FromBriefJob, FromBriefResult, StudyDuplicate
from minds_bot.render import MAX_NAME_SHOWN, MAX_SECTION_TEXT, Message, escape, mention
from minds_bot.render.browse import minds_label
from minds_bot.render.common import button, context, encode_value, section, sections, shorten
from minds_bot.render.errors import minds_said
from minds_bot.render.states import state_word

MAX_CONFIRM_BUTTON = 30  # Slack's limit for a confirm dialog's buttons
BRIEF_SHOWN = 2_500  # characters of the brief repeated in the channel; Minds gets all of it
# Buttons on keyed requests; the value is {"k": <the saved request's key>}, resolved on the server.
DUPLICATE_TRY_AGAIN = "duplicate_try_again"
DUPLICATE_AGAIN = "duplicate_again"
AUDIENCE_TRY_AGAIN = "audience_try_again"
AUDIENCE_AGAIN = "audience_again"


KeyedKind = Literal["study_copy", "audience"]  # what a keyed request makes: a copy of a Study, an Audience


def render_try_again(*, kind: KeyedKind, reason: str, action_id: str, key: str, study: str = "") -> Message:
    """Minds did not answer: nothing is assumed, and Try again re-sends the same request with the same key.
    ``study``: the copied Study's name (``study_copy``)."""
    said = escape(minds_said(reason))
    if kind == "study_copy":
        text = _(
            ":warning: Minds did not answer the request for a copy of {study}: {reason} It may or may not have been "
            "made. *Try again* sends the very same request with the same key, so Minds makes at most one.",
            study=escape(study, limit=MAX_NAME_SHOWN),
            reason=said,
        )
    else:
        text = _(
            ":warning: Minds did not answer the request for an Audience from your brief: {reason} It may or may not "
            "have been made. *Try again* sends the very same request with the same key, so Minds makes at most one.",
            reason=said,
        )
    value = encode_value({"k": key})
    if value is None:  # a key no button can carry (never one the bot derived): the command is the way
        return Message(text=text, blocks=[section(sentences(text, _("Type the command again to retry.")))])
    retry = button(_("Try again"), action_id=action_id, value=value, style="primary")
    return Message(text=text, blocks=[section(text), ActionsBlock(elements=[retry])])


def render_make_another(
    *, kind: KeyedKind, requester_id: str, asked_at: datetime | None, action_id: str, key: str, study: str = ""
) -> Message:
    """The same command within the key's window: ask before making a second one (nothing was sent).
    ``study``: the copied Study's name (``study_copy``)."""
    user, name = mention(requester_id), escape(study, limit=MAX_NAME_SHOWN)
    when = f"{asked_at:%H:%M}" if asked_at else None
    if kind == "study_copy":
        label = _("Make a second copy")
        if when:
            text = _(
                "{user} already asked for a copy of {study} at {time} UTC, so nothing new was sent. Make a second "
                "copy? Typing the command again does not make one; the button does.",
                user=user,
                study=name,
                time=when,
            )
        else:
            text = _(
                "{user} already asked for a copy of {study}, so nothing new was sent. Make a second copy? Typing the "
                "command again does not make one; the button does.",
                user=user,
                study=name,
            )
        confirm_text = _("Minds will make another copy of {study}.", study=shorten(study, 200))
    else:
        label = _("Build another Audience")
        if when:
            text = _(
                "{user} already asked for an Audience from this brief at {time} UTC, so nothing new was sent. Build "
                "another Audience? Typing the command again does not make one; the button does.",
                user=user,
                time=when,
            )
        else:
            text = _(
                "{user} already asked for an Audience from this brief, so nothing new was sent. Build another "
                "Audience? Typing the command again does not make one; the button does.",
                user=user,
            )
        confirm_text = _("Minds will build another Audience from this brief.")
    label = shorten(label, MAX_CONFIRM_BUTTON)
    confirm = ConfirmObject(
        # i18n: A confirm dialog's title: the button's label ("Make a second copy") as a question.
        title=_("{label}?", label=label),
        text=escape(confirm_text, limit=300),
        confirm=label,
        deny=_("No"),
    )
    value = encode_value({"k": key})
    if value is None:
        return Message(text=text, blocks=[section(text)])
    again = button(label, action_id=action_id, value=value, confirm=confirm)
    return Message(text=text, blocks=[section(text), ActionsBlock(elements=[again])])


def render_duplicate(result: StudyDuplicate, *, source_name: str) -> Message:
    copy = result.study
    source, name = escape(source_name, limit=MAX_NAME_SHOWN), escape(copy.name, limit=MAX_NAME_SHOWN)
    if result.replayed:
        text = _(
            "Duplicated *{source}* as *{name}* (this copy was already made for this request, so no second copy was "
            "created).",
            source=source,
            name=name,
        )
    else:
        text = _("Duplicated *{source}* as *{name}*.", source=source, name=name)
    blocks: list[Block] = [section(text)]
    if result.workspace_url:  # shown as written: Slack links the visible address, never a hidden one
        url = escape(result.workspace_url, limit=MAX_SECTION_TEXT - 100)
        blocks.append(section(_("Open it in Minds: {url}", url=url)))
    blocks.append(context(_("Sharing and exports are not copied; the Audiences are shared with the original.")))
    return Message(text=text, blocks=blocks)


def audience_size_note(limits: AudienceLimits) -> str:
    """What size the account may ask for, as Minds' limits say (automatic sizing differs from an explicit count)."""
    automatic = max((m.automatic_sizing_ceiling for m in limits.modes if m.automatic_sizing_ceiling), default=None)
    cap = minds_label(limits.per_audience_cap)
    if automatic:
        return _(
            "Your plan allows up to {cap} per Audience. Minds sizes it automatically (up to {automatic}).",
            cap=cap,
            automatic=minds_label(automatic),
        )
    return _("Your plan allows up to {cap} per Audience.", cap=cap)


def render_audience_progress(job: FromBriefJob, *, limits: AudienceLimits | None = None) -> Message:
    status = state_word(job.status)
    if job.status == "queued":
        text = _("Building an Audience from your brief: queued at Minds…")
    elif job.progress is not None:
        # i18n: {status} is the job's state in words (running…); {progress} how far it is, e.g. "40%".
        text = _(
            "Building an Audience from your brief: {status} ({progress})…",
            status=status,
            progress=format_share(job.progress),
        )
    else:
        text = _("Building an Audience from your brief: {status}…", status=status)
    blocks: list[Block] = [section(text)]
    if limits is not None:
        blocks.append(context(audience_size_note(limits)))
    return Message(text=text, blocks=blocks)


def render_audience_locked() -> Message:
    text = _(
        "This workspace cannot create Audiences: Minds reports a per-Audience limit of 0 (a workspace lock). "
        "Nothing was created; an admin can check the plan in Minds."
    )
    return Message(text=text, blocks=[section(text)])


def render_audience_ready(result: FromBriefResult, *, limits: AudienceLimits | None = None) -> Message:
    text = _(
        "Audience *{name}* is ready with {minds}.",
        name=escape(result.name, limit=MAX_NAME_SHOWN),
        minds=minds_label(result.mind_count),
    )
    blocks: list[Block] = [section(text)]
    if limits is not None:
        blocks.append(context(audience_size_note(limits)))
    blocks.append(context(_("Attach it to a Study in Minds, then `/minds ask` or `/minds plan`.")))
    return Message(text=text, blocks=blocks)


def render_audience_request(*, user_id: str, brief: str) -> Message:
    """The channel line that starts the thread where an Audience build is followed."""
    shown = escape(brief)
    if len(brief) > BRIEF_SHOWN:
        shown = _n(
            "{brief}… (the whole brief, {count} characters, went to Minds)",
            "{brief}… (the whole brief, {count} characters, went to Minds)",
            len(brief),
            brief=escape(brief[:BRIEF_SHOWN]),
        )
    text = _("{user} asked Minds for a new Audience from this brief:\n{brief}", user=mention(user_id), brief=shown)
    return Message(text=_("New Audience from a brief, asked by {user}", user=mention(user_id)), blocks=sections(text))


def render_audience_failed(reason: str) -> Message:
    text = escape(_("Minds could not build the Audience: {reason}", reason=reason), limit=MAX_SECTION_TEXT)
    return Message(text=text, blocks=[section(text)])
