"""Study drafts in Slack: the Save as draft button on an open plan, the ``/minds drafts`` list with Resume and
Delete, and the notes around them.

Owns: the action ids, the list (a draft the bot saved can be resumed in a channel; one made elsewhere in Minds
is shown with Delete only, since the bot cannot reopen it), and every word. Names are escaped. Pure: no I/O.
Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from collections.abc import Sequence

from slack_sdk.models.blocks import ActionsBlock, Block, ButtonElement, ConfirmObject

from minds_bot.minds import StudyDraft
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, Message, escape, mention
from minds_bot.render.common import button, context, section

SAVE_DRAFT_ACTION = "plan_save_draft"
RESUME_DRAFT_ACTION = "draft_resume"
DELETE_DRAFT_ACTION = "draft_delete"
BOT_SOURCE = "minds-bot"
MAX_LISTED = (MAX_BLOCKS_PER_MESSAGE - 2) // 2
SAVED_MARK_BLOCK = "plan_draft_saved"  # on the plan message: a launch of this plan then consumes its drafts


def save_draft_button(revision: int) -> ButtonElement:
    return button("Save as draft", action_id=SAVE_DRAFT_ACTION, value=str(revision))


def resumable(draft: StudyDraft) -> bool:
    state = draft.payload.state if draft.payload else {}
    return state.get("source") == BOT_SOURCE and bool(state.get("studyId")) and bool(state.get("draftPlanId"))


def render_drafts(drafts: Sequence[StudyDraft]) -> Message:
    active = [d for d in drafts if d.status in ("draft", "starting")]
    if not active:
        return Message(text="You have no active Study drafts. Save an open plan with its *Save as draft* button.")
    blocks: list[Block] = [section(f"*Study drafts* ({len(active)})")]
    for draft in active[:MAX_LISTED]:
        blocks += _draft_blocks(draft)
    if len(active) > MAX_LISTED:
        blocks.append(context(f"{len(active) - MAX_LISTED} more drafts are in Minds."))
    return Message(text=f"{len(active)} Study drafts", blocks=blocks)


def _draft_blocks(draft: StudyDraft) -> list[Block]:
    when = draft.updated_at.strftime("%Y-%m-%d %H:%M UTC")
    starting = " — starting in Minds" if draft.status == "starting" else ""
    line = section(f"*{escape(draft.name, limit=MAX_NAME_SHOWN)}* · revision {draft.revision} · saved {when}{starting}")
    delete = button(
        "Delete",
        action_id=f"{DELETE_DRAFT_ACTION}:{draft.id}",
        value=f"{draft.id}:{draft.revision}",
        style="danger",
        confirm=ConfirmObject(
            title="Delete this draft?", text="The draft is deleted in Minds.", confirm="Delete", deny="Keep"
        ),
    )
    elements = [delete]
    if resumable(draft) and draft.status == "draft":
        elements.insert(0, button("Resume", action_id=f"{RESUME_DRAFT_ACTION}:{draft.id}", value=draft.id))
    return [line, ActionsBlock(elements=elements)]


def render_draft_saved(draft: StudyDraft) -> Message:
    return Message(
        text=f"Saved as draft “{escape(draft.name, limit=MAX_NAME_SHOWN)}”. "
        "`/minds drafts` lists it with Resume and Delete."
    )


def render_draft_not_open() -> Message:
    return Message(text="Only an open plan can be saved as a draft; this one is no longer open. Nothing was saved.")


def render_draft_deleted(name: str | None) -> Message:
    return Message(text=f"Deleted the draft{f' “{escape(name, limit=MAX_NAME_SHOWN)}”' if name else ''}.")


def render_draft_gone() -> Message:
    return Message(text="That draft is no longer active in Minds (deleted, or its research started). Nothing changed.")


def render_draft_resumed(name: str) -> Message:
    return Message(
        text=f"Reopening “{escape(name, limit=MAX_NAME_SHOWN)}” in this channel: "
        "the latest revision of its plan appears here."
    )


def saved_mark(*, user_id: str, revision: int) -> dict[str, object]:
    """The note added to the plan message once it is saved (a Block Kit dict: it joins blocks read from Slack)."""
    note = context(f"Saved as a Study draft by {mention(user_id)} (revision {revision}). `/minds drafts` lists it.")
    return {**note.to_dict(), "block_id": SAVED_MARK_BLOCK}


def has_saved_mark(blocks: Sequence[dict[str, object]]) -> bool:
    return any(block.get("block_id") == SAVED_MARK_BLOCK for block in blocks)
