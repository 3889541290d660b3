"""Inviting collaborators to a Study (``/minds invite``): the confirmation prompt, the result as Minds reports
it (each undelivered address named — an accepted request does not mean every email arrived) and the refusals.
Every Minds and person text is escaped. Must not touch: I/O."""

from __future__ import annotations

from collections.abc import Sequence

from slack_sdk.models.blocks import ActionsBlock, ConfirmObject

from minds_bot.minds import InvitationResult
from minds_bot.render import Message, escape
from minds_bot.render.common import button, context, encode_value, section, shorten

INVITE_CONFIRM_ACTION = "invite_confirmed"
MAX_CONFIRM_TEXT = 300
NAME_IN_VALUE = 80
LISTED = 20


def _list(emails: Sequence[str]) -> str:
    shown = ", ".join(escape(e) for e in emails[:LISTED])
    return shown + (f" and {len(emails) - LISTED} more" if len(emails) > LISTED else "")


def render_invite_prompt(
    *, study_id: str, study_name: str, emails: Sequence[str], role: str, requester_id: str
) -> Message:
    """Only the person who asked sees this (ephemeral); the click is checked against ``requester_id`` too."""
    value = encode_value(
        {"s": study_id, "n": shorten(study_name, NAME_IN_VALUE), "u": requester_id, "e": list(emails), "r": role}
    )
    if value is None:
        text = "That is too many addresses to confirm in one step; invite them in smaller groups."
        return Message(text=text, blocks=[section(text)])
    who = f"{len(emails)} {'person' if len(emails) == 1 else 'people'}"
    lead = (
        f"Invite {who} to *{escape(study_name)}* as {escape(role)}? They get access to the Study in Minds: "
        f"{_list(emails)}"
    )
    confirm = ConfirmObject(
        title="Send the invitations?",
        text=shorten(f"Minds emails {who} an invitation to {escape(study_name)} as {role}.", MAX_CONFIRM_TEXT),
        confirm="Invite",
        deny="Cancel",
    )
    return Message(
        text=f"Invite {who} to {escape(study_name)}?",
        blocks=[
            section(lead),
            ActionsBlock(
                elements=[button("Send invitations", action_id=INVITE_CONFIRM_ACTION, value=value, confirm=confirm)]
            ),
        ],
    )


def render_invitations(result: InvitationResult, *, study_name: str, role: str) -> Message:
    failed = [f.email for f in result.email_failures]
    lines = []
    if result.invited:
        lines.append(
            f"Minds invited {len(result.invited)} to *{escape(study_name)}* as {escape(role)}: {_list(result.invited)}."
        )
    for failure in result.email_failures[:LISTED]:
        reason = f" ({escape(failure.reason)})" if failure.reason else ""
        lines.append(f"• Could not deliver the invitation to {escape(failure.email)}{reason}.")
    if not lines:
        lines.append(f"Minds accepted the request for *{escape(study_name)}* but reported no invited address.")
    note = "Minds reports delivery failures; an invitation it accepted can still be missed by a spam filter."
    text = "\n".join(lines)
    summary = f"Invitations to {escape(study_name)}: {len(result.invited)} sent, {len(failed)} not delivered"
    return Message(text=summary, blocks=[section(text), context(note)])


def render_invite_refused() -> Message:
    text = (
        "Inviting people to a Study is for the Minds account's owner: in Slack, workspace admins and the person "
        "who installed the app may send invitations."
    )
    return Message(text=text, blocks=[section(text)])


def render_not_inviter() -> Message:
    text = "Only the person who asked to send these invitations can confirm them. Run `/minds invite` yourself."
    return Message(text=text, blocks=[section(text)])


def render_not_owned(*, study_name: str) -> Message:
    text = (
        f"Minds did not accept invitations for {study_name}: only the Study's owner can invite, and this "
        "workspace's Minds account does not own it (or it no longer exists). Nothing was sent."
    )
    return Message(text=escape(text), blocks=[section(escape(text))])
