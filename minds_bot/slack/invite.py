"""``/minds invite <study> <email…> [admin]``: invite collaborators to a Study, owner only, after confirming.

Owns: the command and the confirm button. Who may invite is decided on the server twice — when the command
arrives and again when the confirmation is clicked — from Slack's user record and the stored install (workspace
admins/owners and the installer act for the Minds account that owns the Study); Minds then refuses a Study the
account does not own (404). The prompt is ephemeral and the click must come from the person who asked. The
invitation POST is never retried (a repeat could email twice); each undelivered address is named.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.access import may_manage_workspace
from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.minds import NotFound
from minds_bot.render.common import decode_value
from minds_bot.render.invitations import (
    INVITE_CONFIRM_ACTION,
    render_invitations,
    render_invite_prompt,
    render_invite_refused,
    render_not_inviter,
    render_not_owned,
)
from minds_bot.slack.grammar import INVITE_ROLES, MAX_INVITES, Invite
from minds_bot.slack.listeners import Click, pressed_with_click
from minds_bot.slack.reentry import is_ephemeral
from minds_bot.slack.resolve import resolve_study, show_progress

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def _may_invite(invocation: Invocation) -> bool:
    services = invocation.services
    return await may_manage_workspace(
        services, invocation.client, team_id=invocation.team_id, user_id=invocation.user_id
    )


async def handle_invite(command: Invite, invocation: Invocation) -> None:
    if not await _may_invite(invocation):
        await invocation.reply(render_invite_refused())
        return
    emails = " ".join(command.emails)
    suffix = " admin" if command.role == "admin" else ""
    study = await resolve_study(
        invocation, command.study, rerun=lambda sid: f"invite {sid} {emails}{suffix}", confirm_fuzzy=True
    )
    if study is None:
        return
    prompt = render_invite_prompt(
        study_id=study.id,
        study_name=study.name,
        emails=command.emails,
        role=command.role,
        requester_id=invocation.user_id,
    )
    await invocation.reply(prompt)


COMMANDS = {Invite: handle_invite}


def _confirmed_state(state: dict[str, Any]) -> tuple[str, str, list[str], str] | None:
    study_id, name, emails, role = state.get("s"), state.get("n"), state.get("e"), state.get("r")
    if not (isinstance(study_id, str) and isinstance(name, str) and role in INVITE_ROLES):
        return None
    if (
        not isinstance(emails, list)
        or not 0 < len(emails) <= MAX_INVITES
        or not all(isinstance(e, str) for e in emails)
    ):
        return None
    return study_id, name, emails, role


async def confirmed(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    state = decode_value(action.get("value"))
    chosen = _confirmed_state(state)
    if not is_ephemeral(click.body) or chosen is None or state.get("u") != invocation.user_id:
        await invocation.reply(render_not_inviter())
        return
    if not await _may_invite(invocation):
        await invocation.reply(render_invite_refused())
        return
    study_id, name, emails, role = chosen
    minds = await invocation.minds()
    try:
        result = await with_progress(
            minds.invite_to_study(study_id, emails=emails, role=role),  # type: ignore[arg-type]
            show=lambda: show_progress(invocation),
        )
    except NotFound:
        await invocation.reply(render_not_owned(study_name=name), replace=True)
        return
    await invocation.reply(render_invitations(result, study_name=name, role=role), replace=True)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(INVITE_CONFIRM_ACTION)(pressed_with_click(confirmed))
