"""A research plan's states other than the plan itself: being prepared, failed, a revision Minds refused to make,
and the frozen plan after approval or discard (its buttons gone, a closing note: ``approved_note``,
``discarded_note``; the "nothing runs until someone approves" promise dropped in every language).

Pure: no I/O. Minds' words and names are escaped. Must not touch: the plan message and its buttons
(``render/plan.py``), the question list (``render/plan_questions.py``), Minds calls, the store, permission
decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import Block, ContextBlock, MarkdownTextObject, SectionBlock

from minds_bot.i18n import LANGUAGES, N_, _, sentences, speaking
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, MAX_SECTION_TEXT, Message, escape, mention

PENDING_NOTE = N_("nothing runs until someone approves")


def render_preparing(study_name: str, *, stage: str | None = None, revision: int | None = None) -> Message:
    """While Minds prepares a plan (a 202 receipt): accepted, not finished, and nothing is running."""
    study = escape(study_name, limit=MAX_NAME_SHOWN)
    said = escape(stage, limit=MAX_NAME_SHOWN) if stage else None
    if revision and said:
        text = _(
            "Preparing revision {revision} of the plan for {study}… (stage: {stage})",
            revision=revision,
            study=study,
            stage=said,
        )
    elif revision:
        text = _("Preparing revision {revision} of the plan for {study}…", revision=revision, study=study)
    elif said:
        text = _("Preparing the plan for {study}… (stage: {stage})", study=study, stage=said)
    else:
        text = _("Preparing the plan for {study}…", study=study)
    detail = _("Minds accepted the request and is drafting; nothing runs until someone approves a revision.")
    return Message(
        text=text,
        blocks=[
            SectionBlock(text=MarkdownTextObject(text=f":hourglass_flowing_sand: {text}")),
            ContextBlock(elements=[MarkdownTextObject(text=detail)]),
        ],
    )


def render_plan_failed(study_name: str, reason: str) -> Message:
    """``reason``: plain words (Minds' among them), escaped here."""
    said = _("Minds could not prepare the plan for {study}: {reason}", study=study_name, reason=reason)
    text = escape(said, limit=MAX_SECTION_TEXT - 10)  # the whole sentence is plain words: escaped and shortened
    return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=f":x: {text}"))])


def render_revision_refused(*, reason: str, revision: int | None) -> Message:
    """Minds made no new revision; the plan message keeps the last one."""
    said = escape(_("Minds did not make a new revision: {reason}", reason=reason), limit=MAX_SECTION_TEXT - 100)
    text = sentences(said, _("The plan above (revision {revision}) is unchanged.", revision=revision))
    return Message(text=text, blocks=[SectionBlock(text=MarkdownTextObject(text=text))])


def freeze(blocks: Sequence[dict[str, Any]], note: str) -> Message:
    """A posted plan without any buttons (they are all in actions blocks), with a closing note."""
    parsed = [Block.parse(_settled(b)) for b in blocks if b.get("type") != "actions"]
    kept = [b for b in parsed if b is not None]
    context = ContextBlock(elements=[MarkdownTextObject(text=note)])
    while len(kept) >= MAX_BLOCKS_PER_MESSAGE and kept[-1].type == "context":
        kept.pop()  # an earlier closing note; the new one replaces it
    return Message(text=note, blocks=[*kept, context])


def _settled(block: dict[str, Any]) -> dict[str, Any]:
    """Drop the "nothing runs until someone approves" promise once the plan is approved or discarded."""
    if block.get("type") != "context":
        return block
    elements = [e for e in block.get("elements", []) if e.get("text") not in _pending_notes()]
    return {**block, "elements": elements} if elements else block


def _pending_notes() -> set[str]:
    """The pending note in every language: the plan may have been posted in another one."""
    notes = {PENDING_NOTE}
    for language in LANGUAGES:
        with speaking(language):
            notes.add(_(PENDING_NOTE))
    return notes


def approved_note(*, approver_id: str, revision: int, connection: str | None = None) -> str:
    """``connection``: the model connection's label when one was pinned for the run."""
    if connection:
        return _(
            ":white_check_mark: Approved by {approver}: revision {revision} is running. Minds' personas answer with "
            "the model connection {connection}. Progress follows in the thread.",
            approver=mention(approver_id),
            revision=revision,
            connection=escape(connection, limit=MAX_NAME_SHOWN),
        )
    return _(
        ":white_check_mark: Approved by {approver}: revision {revision} is running. Progress follows in the thread.",
        approver=mention(approver_id),
        revision=revision,
    )


def discarded_note(*, user_id: str, revision: int | None) -> str:
    if revision:
        return _(
            ":wastebasket: Discarded by {user} (revision {revision}). Nothing was run.",
            user=mention(user_id),
            revision=revision,
        )
    return _(":wastebasket: Discarded by {user} (this plan). Nothing was run.", user=mention(user_id))
