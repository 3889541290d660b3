"""Deleting a Study (``DELETE /studies/{id}``, ``manage_study`` ``delete``): asked for from ``/minds study delete
<study>`` or the Study card's Delete… button, confirmed in a dialog that names the Study and what goes with it.

Owns: who may (a Study is the workspace's: it belongs to no channel, and deleting it takes every question, answer
and run of everyone's with it — so only those who manage the workspace's Minds connection may: a workspace admin
or the person who installed Minds, ``access.Act.MANAGE_WORKSPACE``), asked when the dialog is opened and again,
from Slack and Minds, when it is submitted (the Study is read again by its id, never from the dialog's text); the
dialog is submitted only by the person who opened it. A Study Minds no longer has is said as such, nothing sent.
The delete is never repeated by the bot (no idempotency key exists for it): an uncertain outcome is said, and
reading the Study tells whether it happened. What the bot keeps about the Study's runs (thread links) is left:
its threads stay in Slack as they were posted.
Must not touch: Block Kit (``render/study_delete.py``), SQL.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from minds_bot.flows import access
from minds_bot.i18n import _
from minds_bot.minds import NotFound, StudyDetail
from minds_bot.render.access import MODAL_NOT_YOURS
from minds_bot.render.common import shorten
from minds_bot.render.study_delete import render_study_deleted, render_study_gone, study_delete_modal

NAME_IN_METADATA = 200

if TYPE_CHECKING:
    from slack_sdk.models.views import View

    from minds_bot.flows.invocation import Invocation
    from minds_bot.render import Message
    from minds_bot.services import Services


async def may_delete(services: Services, slack: Any, *, team_id: str, user_id: str, channel_id: str) -> str | None:
    """None when the person may delete a Study of this workspace; else the gate's words (why, and who may)."""
    decision = await access.check(
        services,
        slack,
        team_id=team_id,
        user_id=user_id,
        act=access.Act.MANAGE_WORKSPACE,
        channel_id=channel_id or None,
        thing=access.Thing(team_id, kind="study"),
    )
    return None if decision.allowed else decision.reason


async def confirmation(invocation: Invocation, study: StudyDetail) -> View | str:
    """The confirmation dialog for ``study``, or the gate's refusal (mrkdwn) when the person may not delete it."""
    refused = await may_delete(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        channel_id=invocation.channel_id,
    )
    if refused is not None:
        return refused
    # Who opened the dialog, from where, for which Study: the submission is checked against it.
    opened = {"s": study.id, "n": shorten(study.name, NAME_IN_METADATA), "c": invocation.channel_id}
    return study_delete_modal(study, metadata=json.dumps(opened | {"u": invocation.user_id}))


async def confirmed(invocation: Invocation, *, meta: dict[str, Any]) -> Message | str:
    """The dialog was submitted: the submitter must be who opened it and may still delete; the Study is read
    again by its id, then deleted. Returns what the person reads (a message, or the refusal's mrkdwn)."""
    if meta.get("u") != invocation.user_id:
        return _(MODAL_NOT_YOURS)
    refused = await may_delete(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        channel_id=invocation.channel_id,
    )
    if refused is not None:
        return refused
    study_id, name = str(meta.get("s") or ""), str(meta.get("n") or "")
    minds = await invocation.minds()
    try:
        study = await minds.get_study(study_id)
    except NotFound:
        return render_study_gone(name)
    try:
        await minds.delete_study(study.id)
    except NotFound:  # deleted between the read and the delete
        return render_study_gone(study.name)
    return render_study_deleted(study.name)
