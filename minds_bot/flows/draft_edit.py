"""A Study draft or template read in full, edited and deleted from Slack (``list_study_drafts``/``list_study_templates``
read by id, ``manage_study_draft``, ``manage_study_template`` update and delete).

Owns: who may (the gate, ``flows/access.py``), asked when a dialog is opened and again, with the thing read afresh
from Minds by its id, when it is submitted — never from the dialog's text; the dialog is submitted only by the
person who opened it. A draft is seen by who may see it (its channel's members; one made elsewhere in Minds by
anyone of the workspace) and edited by who may decide on it (as Resume and Delete: ``flows/drafts.py``), only while
Minds has it as an editable ``draft``. A template is the workspace's (no channel): anyone of the workspace reads
it; changing or deleting it is managing the workspace's Minds (a workspace admin or who installed Minds), and only
when Minds says the key may (``canManage``). Edits carry the revision the person saw (a stale one is said, nothing
saved); nothing here is repeated on failure (no idempotency key exists for these calls).
Must not touch: Block Kit (``render/draft_dialogs.py``), SQL.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from minds_bot.flows import access
from minds_bot.i18n import _
from minds_bot.minds import Conflict, NotFound, StudyTemplate
from minds_bot.render.access import MODAL_NOT_YOURS
from minds_bot.render.common import shorten
from minds_bot.render.draft_dialogs import (
    draft_modal,
    render_changed_meanwhile,
    render_draft_updated,
    render_template_deleted,
    render_template_updated,
    template_delete_modal,
    template_modal,
    with_note,
)
from minds_bot.render.drafts import render_draft_gone, resumable
from minds_bot.render.templates import render_template_gone

if TYPE_CHECKING:
    from slack_sdk.models.views import View

    from minds_bot.flows.invocation import Invocation
    from minds_bot.minds import StudyDraft
    from minds_bot.render import Message

NAME_IN_METADATA = 200


def _metadata(invocation: Invocation, thing_id: str, name: str, revision: int) -> str:
    """Who opened the dialog, from where, for what, at which revision: the submission is checked against it."""
    opened = {"id": thing_id, "n": shorten(name, NAME_IN_METADATA), "r": revision, "c": invocation.channel_id}
    return json.dumps(opened | {"u": invocation.user_id})


async def _decision(invocation: Invocation, act: access.Act, thing: access.Thing) -> access.Decision:
    channel = thing.channel_id if act is access.Act.DECIDE else invocation.channel_id or None
    return await access.check(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        act=act,
        channel_id=channel,
        thing=thing,
    )


# --- templates ---------------------------------------------------------------------------------------------------


def _template_thing(invocation: Invocation) -> access.Thing:
    return access.Thing(invocation.team_id, kind="template")


async def _may_change_template(invocation: Invocation, template: StudyTemplate) -> str | None:
    """None when the person may change or delete it; else why not (mrkdwn)."""
    decision = await _decision(invocation, access.Act.MANAGE_WORKSPACE, _template_thing(invocation))
    if decision.refused:
        return decision.reason
    if not template.can_manage:
        return _("Only the template's owner in Minds can change or delete it; you can read and use it.")
    return None


async def open_template(invocation: Invocation, template_id: str) -> View | Message:
    minds = await invocation.minds()
    try:
        template = await minds.get_study_template(template_id)
    except NotFound:
        return render_template_gone()
    refused = await _may_change_template(invocation, template)
    metadata = _metadata(invocation, template.id, template.name, template.revision)
    view = template_modal(template, metadata=metadata, editable=refused is None)
    return view if refused is None else with_note(view, refused)


async def open_template_delete(invocation: Invocation, template_id: str) -> View | Message | str:
    minds = await invocation.minds()
    try:
        template = await minds.get_study_template(template_id)
    except NotFound:
        return render_template_gone()
    refused = await _may_change_template(invocation, template)
    if refused is not None:
        return refused
    metadata = _metadata(invocation, template.id, template.name, template.revision)
    return template_delete_modal(template, metadata=metadata)


async def _submitted_template(invocation: Invocation, meta: dict[str, Any]) -> StudyTemplate | Message | str:
    if meta.get("u") != invocation.user_id:
        return _(MODAL_NOT_YOURS)
    minds = await invocation.minds()
    try:
        template = await minds.get_study_template(str(meta.get("id") or ""))
    except NotFound:
        return render_template_gone()
    refused = await _may_change_template(invocation, template)
    return template if refused is None else refused


async def save_template(
    invocation: Invocation, *, meta: dict[str, Any], name: str, goal: str | None, shared: bool | None, texts: list[str]
) -> Message | str:
    """The edit dialog submitted: the template as Minds has it now, its questions' texts replaced in order (their
    answer formats kept), sent with the revision the person saw."""
    template = await _submitted_template(invocation, meta)
    if not isinstance(template, StudyTemplate):
        return template
    config = template.configuration
    questions = [q.model_dump(by_alias=True, exclude_none=True) for q in config.questions]
    if len(texts) != len(questions):
        return render_changed_meanwhile("template")
    for question, text in zip(questions, texts, strict=True):
        question["text"] = text
    configuration: dict[str, Any] | None = config.model_dump(by_alias=True, exclude_none=True) | {
        "questions": questions,
        "goal": goal or config.goal,
    }
    if texts == [q.text for q in config.questions] and (goal or config.goal) == config.goal:
        configuration = None  # only the name or the sharing changed: the questions are not sent again
    minds = await invocation.minds()
    try:
        saved = await minds.update_study_template(
            template.id,
            expected_revision=int(meta.get("r") or 0),
            name=name,
            configuration=configuration,
            shared_with_team=shared if template.can_share_with_team else None,
        )
    except Conflict:
        return render_changed_meanwhile("template")
    return render_template_updated(saved)


async def delete_template(invocation: Invocation, *, meta: dict[str, Any]) -> Message | str:
    template = await _submitted_template(invocation, meta)
    if not isinstance(template, StudyTemplate):
        return template
    minds = await invocation.minds()
    try:
        await minds.delete_study_template(template.id)
    except NotFound:
        return render_template_gone()
    return render_template_deleted(template.name)


# --- drafts ------------------------------------------------------------------------------------------------------


def _draft_thing(invocation: Invocation, draft: StudyDraft) -> access.Thing:
    return access.draft_thing(invocation.team_id, draft.payload.state if draft.payload else None)


async def _may_edit_draft(invocation: Invocation, draft: StudyDraft) -> str | None:
    decision = await _decision(invocation, access.Act.DECIDE, _draft_thing(invocation, draft))
    if decision.refused:
        return decision.reason
    if draft.status != "draft":
        return _("This draft is being started or was used in Minds, so it can no longer be edited.")
    return None


async def open_draft(invocation: Invocation, draft_id: str) -> View | Message | str:
    minds = await invocation.minds()
    try:
        draft = await minds.get_study_draft(draft_id)
    except NotFound:
        return render_draft_gone()
    seen = await _decision(invocation, access.Act.SEE, _draft_thing(invocation, draft))
    if seen.refused:
        return seen.reason
    refused = await _may_edit_draft(invocation, draft)
    metadata = _metadata(invocation, draft.id, draft.name, draft.revision)
    view = draft_modal(draft, metadata=metadata, editable=refused is None, plan_saved=resumable(draft))
    return view if refused is None else with_note(view, refused)


async def save_draft_fields(
    invocation: Invocation, *, meta: dict[str, Any], name: str, mode: str | None, step: str | None
) -> Message | str:
    if meta.get("u") != invocation.user_id:
        return _(MODAL_NOT_YOURS)
    minds = await invocation.minds()
    try:
        draft = await minds.get_study_draft(str(meta.get("id") or ""))
    except NotFound:
        return render_draft_gone()
    refused = await _may_edit_draft(invocation, draft)
    if refused is not None:
        return refused
    try:
        saved = await minds.update_study_draft(
            draft.id,
            expected_revision=int(meta.get("r") or 0),
            name=name,
            mode="quick" if mode == "quick" else "custom",
            current_step=step or None,
        )
    except Conflict:
        return render_changed_meanwhile("draft")
    return render_draft_updated(saved)
