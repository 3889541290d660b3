"""What a person reads when the bot will not act for them: another workspace, a channel they are not in, a digest
or a plan that is not theirs to change, a modal someone else opened. Each refusal says who may do it instead.

Pure: no I/O. Must not touch: deciding who may act (``flows/permissions.py``, ``slack/workspace.py``).
"""

from __future__ import annotations

from typing import Any

from slack_sdk.models.blocks import SectionBlock
from slack_sdk.models.blocks.basic_components import MarkdownTextObject, PlainTextObject
from slack_sdk.models.views import View

from minds_bot.i18n import N_, _
from minds_bot.render import MAX_NAME_SHOWN, MAX_WORD_SHOWN, channel_mention, escape, mention

OTHER_WORKSPACE = N_(
    "Sorry, this Minds app works only for members of the workspace that installed it, so it cannot act for you "
    "here (for example as a guest in a Slack Connect channel). Someone from that workspace can run it, or your "
    "own workspace can install Minds."
)
MODAL_NOT_YOURS = N_("This dialog was opened by someone else; only they can submit it. Open your own from the message.")
# What ``digest_manage_refused`` says for each verb it is given; any other verb is named in a general sentence.
MANAGE_REFUSALS = {
    "post": N_(
        "Only {creator}, who added digest `{digest}`, this channel's approvers (`/minds approvers list`) "
        "or a workspace admin can post it."
    ),
    "remove": N_(
        "Only {creator}, who added digest `{digest}`, this channel's approvers (`/minds approvers list`) "
        "or a workspace admin can remove it."
    ),
}


def other_workspace_modal() -> dict[str, Any]:
    """The modal that replaces a submitted dialog from another workspace."""
    view = View(
        type="modal",
        title=PlainTextObject(text="Minds"),
        close=PlainTextObject(text=_("Close")),
        blocks=[SectionBlock(text=MarkdownTextObject(text=_(OTHER_WORKSPACE)))],
    )
    return view.to_dict()


def digest_channel_refused(*, channel_id: str, person_in: bool) -> str:
    """Why a digest cannot go to ``channel_id``: the person, or the bot, is not a member (mrkdwn)."""
    channel = channel_mention(channel_id)
    if not person_in:
        return _(
            "You are not a member of {channel}, so you cannot send a digest there. Join the channel, or ask "
            "one of its members to add the digest. The digest was not added.",
            channel=channel,
        )
    return _(
        "Minds is not in {channel}. Invite it with `/invite @Minds` in that channel (or pick a channel it is "
        "in), then add the digest again. The digest was not added.",
        channel=channel,
    )


def plan_channel_refused(*, missing: str) -> str:
    """Why the App Home's Plan research dialog cannot post in the channel picked (plain text, on the field):
    ``missing`` is ``"bot"`` or ``"person"`` (``flows.permissions.missing_from_channel``)."""
    if missing == "person":
        return _("You are not a member of that channel, so the plan cannot be posted there. Pick a channel you are in.")
    return _("Minds is not in that channel. Invite it with /invite @Minds in that channel, or pick a channel it is in.")


def digest_manage_refused(*, digest_id: str, created_by: str, verb: str) -> str:
    """Who may post, pause, edit or remove a digest, when the person asking may not (mrkdwn)."""
    digest, creator = escape(digest_id, limit=MAX_NAME_SHOWN), mention(created_by)
    if verb in MANAGE_REFUSALS:
        return _(MANAGE_REFUSALS[verb], creator=creator, digest=digest)
    return _(
        "Only {creator}, who added digest `{digest}`, this channel's approvers (`/minds approvers list`) "
        "or a workspace admin can {verb} it.",
        creator=creator,
        digest=digest,
        verb=escape(verb, limit=MAX_WORD_SHOWN),
    )


def button_not_yours(*, requester_id: str) -> str:
    """A button on a request someone else made, which only they may press (mrkdwn)."""
    return _("Only {person}, who asked, can use this button; type the command yourself.", person=mention(requester_id))


def plan_change_refused(*, requester_id: str) -> str:
    """Who may answer a plan's questions or revise it (mrkdwn)."""
    return _(
        "Only the person who asked for this plan ({person}), this channel's approvers "
        "(`/minds approvers list`) or a workspace admin can answer its questions or revise it.",
        person=mention(requester_id),
    )
