"""What a person reads when the bot will not act for them: another workspace, a channel they are not in, a digest
or a plan that is not theirs to change, a modal someone else opened. Each refusal says who may do it instead.

Pure: no I/O. Must not touch: deciding who may act (``flows/permissions.py``, ``slack/workspace.py``).
"""

from __future__ import annotations

from typing import Any

from slack_sdk.models.blocks import SectionBlock
from slack_sdk.models.blocks.basic_components import MarkdownTextObject, PlainTextObject
from slack_sdk.models.views import View

from minds_bot.render import MAX_NAME_SHOWN, MAX_WORD_SHOWN, channel_mention, escape, mention

OTHER_WORKSPACE = (
    "Sorry, this Minds app works only for members of the workspace that installed it, so it cannot act for you "
    "here (for example as a guest in a Slack Connect channel). Someone from that workspace can run it, or your "
    "own workspace can install Minds."
)
MODAL_NOT_YOURS = "This dialog was opened by someone else; only they can submit it. Open your own from the message."


def other_workspace_modal() -> dict[str, Any]:
    """The modal that replaces a submitted dialog from another workspace."""
    view = View(
        type="modal",
        title=PlainTextObject(text="Minds"),
        close=PlainTextObject(text="Close"),
        blocks=[SectionBlock(text=MarkdownTextObject(text=OTHER_WORKSPACE))],
    )
    return view.to_dict()


def digest_channel_refused(*, channel_id: str, person_in: bool) -> str:
    """Why a digest cannot go to ``channel_id``: the person, or the bot, is not a member (mrkdwn)."""
    channel = channel_mention(channel_id)
    if not person_in:
        return (
            f"You are not a member of {channel}, so you cannot send a digest there. Join the channel, or ask "
            "one of its members to add the digest. The digest was not added."
        )
    return (
        f"Minds is not in {channel}. Invite it with `/invite @Minds` in that channel (or pick a channel it is "
        "in), then add the digest again. The digest was not added."
    )


def digest_manage_refused(*, digest_id: str, created_by: str, verb: str) -> str:
    """Who may post, pause, edit or remove a digest, when the person asking may not (mrkdwn)."""
    digest, verb = escape(digest_id, limit=MAX_NAME_SHOWN), escape(verb, limit=MAX_WORD_SHOWN)
    return (
        f"Only {mention(created_by)}, who added digest `{digest}`, this channel's approvers (`/minds approvers list`) "
        f"or a workspace admin can {verb} it."
    )


def button_not_yours(*, requester_id: str) -> str:
    """A button on a request someone else made, which only they may press (mrkdwn)."""
    return f"Only {mention(requester_id)}, who asked, can use this button; type the command yourself."


def plan_change_refused(*, requester_id: str) -> str:
    """Who may answer a plan's questions or revise it (mrkdwn)."""
    return (
        f"Only the person who asked for this plan ({mention(requester_id)}), this channel's approvers "
        "(`/minds approvers list`) or a workspace admin can answer its questions or revise it."
    )
