"""Study drafts in Slack: the Save as draft button on an open plan, the ``/minds drafts`` list with Resume, Open
(read in full and edit: ``render/draft_dialogs.py``) and Delete (its confirmation names the draft), and the notes
around them.

Owns: the action ids, the list (a draft the bot saved can be resumed, in the channel it names; one made
elsewhere in Minds is shown with Delete only, since the bot cannot reopen it; drafts the person may not see are
counted, never named), and every word. Names are escaped. Pure: no I/O.
Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from slack_sdk.models.blocks import ActionsBlock, Block, ButtonElement, ConfirmObject

from minds_bot.i18n import _, _n, sentences, separated
from minds_bot.minds import StudyDraft
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, Message, channel_mention, escape, mention
from minds_bot.render.common import button, context, section, slack_date

SAVE_DRAFT_ACTION = "plan_save_draft"
RESUME_DRAFT_ACTION = "draft_resume"
DELETE_DRAFT_ACTION = "draft_delete"
BOT_SOURCE = "minds-bot"
MAX_LISTED = (MAX_BLOCKS_PER_MESSAGE - 3) // 2  # the heading, two blocks a draft, "more" and the uncounted
MAX_CONFIRM_NAME = 120  # a confirmation dialog's text holds 300 characters
DRAFT_OPEN_ACTION = "draft_open"  # the draft read in full (and edited): ``slack/draft_edit.py``
SAVED_MARK_BLOCK = "plan_draft_saved"  # on the plan message: a launch of this plan then consumes its drafts


def save_draft_button(revision: int) -> ButtonElement:
    return button(_("Save as draft"), action_id=SAVE_DRAFT_ACTION, value=str(revision))


def resumable(draft: StudyDraft) -> bool:
    state = draft.payload.state if draft.payload else {}
    return state.get("source") == BOT_SOURCE and bool(state.get("studyId")) and bool(state.get("draftPlanId"))


def render_drafts(
    drafts: Sequence[StudyDraft],
    *,
    channels: Mapping[str, str] | None = None,
    in_other_channels: int = 0,
    older_of_others: int = 0,
) -> Message:
    """The drafts a person may see (``channels``: draft id → the channel it belongs to), and how many others
    exist, counted, never named: of channels they are not in, and older ones someone else saved."""
    active = [d for d in drafts if d.status in ("draft", "starting")]
    others = _others(in_other_channels=in_other_channels, older_of_others=older_of_others)
    if not active and not others:
        return Message(text=_("You have no active Study drafts. Save an open plan with its *Save as draft* button."))
    blocks: list[Block] = [section(_("*Study drafts* ({count})", count=len(active)))]
    for draft in active[:MAX_LISTED]:
        blocks += _draft_blocks(draft, channel_id=(channels or {}).get(draft.id))
    if len(active) > MAX_LISTED:
        more = len(active) - MAX_LISTED
        blocks.append(context(_n("{count} more draft is in Minds.", "{count} more drafts are in Minds.", more)))
    if others:
        blocks.append(context(sentences(*others)))
    return Message(text=_n("{count} Study draft", "{count} Study drafts", len(active)), blocks=blocks)


def _others(*, in_other_channels: int, older_of_others: int) -> list[str]:
    said = []
    if in_other_channels:
        said.append(
            _n(
                "{count} draft of a channel you are not in is not shown.",
                "{count} drafts of channels you are not in are not shown.",
                in_other_channels,
            )
        )
    if older_of_others:
        said.append(
            _n(
                "{count} draft someone else saved before drafts recorded their channel is not shown.",
                "{count} drafts someone else saved before drafts recorded their channel are not shown.",
                older_of_others,
            )
        )
    return said


def _draft_blocks(draft: StudyDraft, *, channel_id: str | None = None) -> list[Block]:
    when = slack_date(draft.updated_at)
    name = escape(draft.name, limit=MAX_NAME_SHOWN)
    if draft.status == "starting":
        said = _(
            "*{name}* · revision {revision} · saved {when} — starting in Minds",
            name=name,
            revision=draft.revision,
            when=when,
        )
    else:
        said = _("*{name}* · revision {revision} · saved {when}", name=name, revision=draft.revision, when=when)
    if channel_id:
        # i18n: after a draft's line: the channel it belongs to, where Resume reopens it.
        said = separated((said, _("in {channel}", channel=channel_mention(channel_id))))
    line = section(said)
    delete = button(
        _("Delete"),
        action_id=f"{DELETE_DRAFT_ACTION}:{draft.id}",
        value=f"{draft.id}:{draft.revision}",
        style="danger",
        confirm=ConfirmObject(
            title=_("Delete this draft?"),
            text=_(
                "The draft “{name}” (revision {revision}) is deleted in Minds. Its Study and plans already posted "
                "stay.",
                name=escape(draft.name, limit=MAX_CONFIRM_NAME),
                revision=draft.revision,
            ),
            confirm=_("Delete"),
            deny=_("Keep"),
        ),
    )
    elements = [button(_("Open"), action_id=f"{DRAFT_OPEN_ACTION}:{draft.id}", value=draft.id), delete]
    if resumable(draft) and draft.status == "draft":
        elements.insert(0, button(_("Resume"), action_id=f"{RESUME_DRAFT_ACTION}:{draft.id}", value=draft.id))
    return [line, ActionsBlock(elements=elements)]


def render_draft_saved(draft: StudyDraft) -> Message:
    return Message(
        text=_(
            "Saved as draft “{name}”. `/minds drafts` lists it with Resume and Delete.",
            name=escape(draft.name, limit=MAX_NAME_SHOWN),
        )
    )


def render_draft_not_open() -> Message:
    return Message(text=_("Only an open plan can be saved as a draft; this one is no longer open. Nothing was saved."))


def render_draft_deleted(name: str | None) -> Message:
    if name:
        return Message(text=_("Deleted the draft “{name}”.", name=escape(name, limit=MAX_NAME_SHOWN)))
    return Message(text=_("Deleted the draft."))


def render_draft_gone() -> Message:
    return Message(
        text=_("That draft is no longer active in Minds (deleted, or its research started). Nothing changed.")
    )


def render_draft_resumed(name: str, *, channel_id: str, requester_id: str) -> Message:
    """The private answer to Resume: where the plan reopens and whose request it is."""
    return Message(
        text=_(
            "Reopening “{name}” in {channel}, requested by {person}: the latest revision of its plan appears there.",
            name=escape(name, limit=MAX_NAME_SHOWN),
            channel=channel_mention(channel_id),
            person=mention(requester_id),
        )
    )


def render_resuming(preparing: Message, *, resumed_by: str) -> Message:
    """``preparing`` (the plan message while a resumed draft's latest revision is read from Minds) with who
    resumed it."""
    note = context(_("Resumed from a Study draft by {person}.", person=mention(resumed_by)))
    return Message(text=preparing.text, blocks=[*preparing.blocks, note])


def saved_mark(*, user_id: str, revision: int) -> dict[str, object]:
    """The note added to the plan message once it is saved (a Block Kit dict: it joins blocks read from Slack)."""
    note = context(
        _(
            "Saved as a Study draft by {user} (revision {revision}). `/minds drafts` lists it.",
            user=mention(user_id),
            revision=revision,
        )
    )
    return {**note.to_dict(), "block_id": SAVED_MARK_BLOCK}


def has_saved_mark(blocks: Sequence[dict[str, object]]) -> bool:
    return any(block.get("block_id") == SAVED_MARK_BLOCK for block in blocks)
