"""Inviting collaborators to a Study (``/minds invite``): the confirmation prompt, the result as Minds reports
it (each undelivered address named — an accepted request does not mean every email arrived) and the refusals.
Every Minds and person text is escaped. Must not touch: I/O."""

from __future__ import annotations

from collections.abc import Sequence

from slack_sdk.models.blocks import ActionsBlock, ConfirmObject

from minds_bot.minds import InvitationResult
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, MAX_WORD_SHOWN, Message, escape
from minds_bot.render.common import button, context, encode_value, listing, section, sections, shorten

INVITE_CONFIRM_ACTION = "invite_confirmed"
MAX_CONFIRM_TEXT = 300
NAME_IN_VALUE = 80
LISTED = 20
MAX_EMAIL_SHOWN = 120
MAX_FAILURE_REASON = 200


def _list(emails: Sequence[str]) -> str:
    return listing(emails, most=LISTED, limit=MAX_EMAIL_SHOWN)


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
    name, as_role = escape(study_name, limit=MAX_NAME_SHOWN), escape(role, limit=MAX_WORD_SHOWN)
    lead = f"Invite {who} to *{name}* as {as_role}? They get access to the Study in Minds: {_list(emails)}"
    short_name = escape(study_name, limit=MAX_CONFIRM_TEXT // 2)
    confirm = ConfirmObject(
        title="Send the invitations?",
        text=f"Minds emails {who} an invitation to {short_name} as {as_role}.",
        confirm="Invite",
        deny="Cancel",
    )
    return Message(
        text=f"Invite {who} to {name}?",
        blocks=[
            section(lead),
            ActionsBlock(
                elements=[button("Send invitations", action_id=INVITE_CONFIRM_ACTION, value=value, confirm=confirm)]
            ),
        ],
    )


def render_invitations(result: InvitationResult, *, study_name: str, role: str) -> Message:
    failed = [f.email for f in result.email_failures]
    name, as_role = escape(study_name, limit=MAX_NAME_SHOWN), escape(role, limit=MAX_WORD_SHOWN)
    lines = []
    if result.invited:
        lines.append(f"Minds invited {len(result.invited)} to *{name}* as {as_role}: {_list(result.invited)}.")
    for failure in result.email_failures[:LISTED]:
        reason = f" ({escape(failure.reason, limit=MAX_FAILURE_REASON)})" if failure.reason else ""
        lines.append(f"• Could not deliver the invitation to {escape(failure.email, limit=MAX_EMAIL_SHOWN)}{reason}.")
    if len(result.email_failures) > LISTED:
        lines.append(f"• {len(result.email_failures) - LISTED} more invitations were not delivered.")
    if not lines:
        lines.append(f"Minds accepted the request for *{name}* but reported no invited address.")
    note = "Minds reports delivery failures; an invitation it accepted can still be missed by a spam filter."
    text = "\n".join(lines)
    summary = f"Invitations to {name}: {len(result.invited)} sent, {len(failed)} not delivered"
    return Message(text=summary, blocks=[*sections(text)[: MAX_BLOCKS_PER_MESSAGE - 1], context(note)])


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
        f"Minds did not accept invitations for {escape(study_name, limit=MAX_NAME_SHOWN)}: "
        "only the Study's owner can invite, and this "
        "workspace's Minds account does not own it (or it no longer exists). Nothing was sent."
    )
    return Message(text=text, blocks=[section(text)])
