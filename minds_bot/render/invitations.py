"""Inviting collaborators to a Study (``/minds invite``): the confirmation prompt, the result as Minds reports
it (each undelivered address named — an accepted request does not mean every email arrived) and the refusals.
Every Minds and person text is escaped. Must not touch: I/O."""

from __future__ import annotations

from collections.abc import Sequence

from slack_sdk.models.blocks import ActionsBlock, ConfirmObject

from minds_bot.i18n import N_, _, _n, format_number
from minds_bot.minds import InvitationResult
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, MAX_WORD_SHOWN, Message, escape
from minds_bot.render.common import button, context, encode_value, listing, section, sections, shorten

INVITE_CONFIRM_ACTION = "invite_confirmed"
MAX_CONFIRM_TEXT = 300
NAME_IN_VALUE = 80
LISTED = 20
MAX_EMAIL_SHOWN = 120
MAX_FAILURE_REASON = 200
# The roles ``/minds invite`` sends to Minds, as people read them (any other is shown as Minds named it).
ROLES = {"member": N_("member"), "admin": N_("admin")}


def _list(emails: Sequence[str]) -> str:
    return listing(emails, most=LISTED, limit=MAX_EMAIL_SHOWN)


def _role(role: str) -> str:
    return _(ROLES[role]) if role in ROLES else escape(role, limit=MAX_WORD_SHOWN)


def render_invite_prompt(
    *, study_id: str, study_name: str, emails: Sequence[str], role: str, requester_id: str
) -> Message:
    """Only the person who asked sees this (ephemeral); the click is checked against ``requester_id`` too."""
    value = encode_value(
        {"s": study_id, "n": shorten(study_name, NAME_IN_VALUE), "u": requester_id, "e": list(emails), "r": role}
    )
    if value is None:
        text = _("That is too many addresses to confirm in one step; invite them in smaller groups.")
        return Message(text=text, blocks=[section(text)])
    people = len(emails)
    name, as_role = escape(study_name, limit=MAX_NAME_SHOWN), _role(role)
    lead = _n(
        "Invite {count} person to *{study}* as {role}? They get access to the Study in Minds: {emails}",
        "Invite {count} people to *{study}* as {role}? They get access to the Study in Minds: {emails}",
        people,
        study=name,
        role=as_role,
        emails=_list(emails),
    )
    short_name = escape(study_name, limit=MAX_CONFIRM_TEXT // 2)
    confirm = ConfirmObject(
        title=_("Send the invitations?"),
        text=_n(
            "Minds emails {count} person an invitation to {study} as {role}.",
            "Minds emails {count} people an invitation to {study} as {role}.",
            people,
            study=short_name,
            role=as_role,
        ),
        confirm=_("Invite"),
        deny=_("Cancel"),
    )
    return Message(
        text=_n("Invite {count} person to {study}?", "Invite {count} people to {study}?", people, study=name),
        blocks=[
            section(lead),
            ActionsBlock(
                elements=[button(_("Send invitations"), action_id=INVITE_CONFIRM_ACTION, value=value, confirm=confirm)]
            ),
        ],
    )


def render_invitations(result: InvitationResult, *, study_name: str, role: str) -> Message:
    failed = [f.email for f in result.email_failures]
    name, as_role = escape(study_name, limit=MAX_NAME_SHOWN), _role(role)
    lines = []
    if result.invited:
        lines.append(
            # i18n: {count} is how many people were invited (English leaves out "people").
            _n(
                "Minds invited {count} to *{study}* as {role}: {emails}.",
                "Minds invited {count} to *{study}* as {role}: {emails}.",
                len(result.invited),
                study=name,
                role=as_role,
                emails=_list(result.invited),
            )
        )
    for failure in result.email_failures[:LISTED]:
        email = escape(failure.email, limit=MAX_EMAIL_SHOWN)
        if failure.reason:
            reason = escape(failure.reason, limit=MAX_FAILURE_REASON)
            lines.append(_("• Could not deliver the invitation to {email} ({reason}).", email=email, reason=reason))
        else:
            lines.append(_("• Could not deliver the invitation to {email}.", email=email))
    if len(result.email_failures) > LISTED:
        lines.append(
            _n(
                "• {count} more invitation was not delivered.",
                "• {count} more invitations were not delivered.",
                len(result.email_failures) - LISTED,
            )
        )
    if not lines:
        lines.append(_("Minds accepted the request for *{study}* but reported no invited address.", study=name))
    note = _("Minds reports delivery failures; an invitation it accepted can still be missed by a spam filter.")
    text = "\n".join(lines)
    summary = _(
        "Invitations to {study}: {sent} sent, {failed} not delivered",
        study=name,
        sent=format_number(len(result.invited)),
        failed=format_number(len(failed)),
    )
    return Message(text=summary, blocks=[*sections(text)[: MAX_BLOCKS_PER_MESSAGE - 1], context(note)])


def render_invite_refused() -> Message:
    text = _(
        "Inviting people to a Study is for the Minds account's owner: in Slack, workspace admins and the person "
        "who installed the app may send invitations."
    )
    return Message(text=text, blocks=[section(text)])


def render_not_inviter() -> Message:
    text = _("Only the person who asked to send these invitations can confirm them. Run `/minds invite` yourself.")
    return Message(text=text, blocks=[section(text)])


def render_not_owned(*, study_name: str) -> Message:
    text = _(
        "Minds did not accept invitations for {study}: only the Study's owner can invite, and this workspace's "
        "Minds account does not own it (or it no longer exists). Nothing was sent.",
        study=escape(study_name, limit=MAX_NAME_SHOWN),
    )
    return Message(text=text, blocks=[section(text)])
