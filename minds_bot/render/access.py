"""What a person reads when the bot will not act for them: another workspace, a channel they are not in, a digest
or a plan that is not theirs to change, a modal someone else opened, a spend the channel's policy or their share
of the Minds budget does not allow. Each refusal says why, and who may do it instead or what to do.

Pure: no I/O. Must not touch: deciding who may act (``flows/access.py``, ``slack/workspace.py``).
"""

from __future__ import annotations

from typing import Any

from slack_sdk.models.blocks import SectionBlock
from slack_sdk.models.blocks.basic_components import MarkdownTextObject, PlainTextObject
from slack_sdk.models.views import View

from minds_bot.i18n import N_, _, _n, sentences
from minds_bot.render import MAX_NAME_SHOWN, MAX_WORD_SHOWN, channel_mention, escape, mention
from minds_bot.render.spend import WHO_CHANGES, action_name

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
    ``missing`` is ``"bot"`` or ``"person"`` (the gate's ``bot_not_member`` or ``not_member``)."""
    if missing == "person":
        return _("You are not a member of that channel, so the plan cannot be posted there. Pick a channel you are in.")
    return _("Minds is not in that channel. Invite it with /invite @Minds in that channel, or pick a channel it is in.")


# --- the gate's refusals (``flows/access.py``): mrkdwn, each says why and what to do ----------------------------

# What each kind of thing is called in a refusal; an unknown kind is "that".
KIND_NAMES = {
    "plan": N_("this plan"),
    "digest": N_("this digest"),
    "draft": N_("this draft"),
    "run": N_("this run"),
    "spend": N_("this request"),
    "file": N_("that file"),
    "message": N_("that message"),
    "result": N_("this result"),
    "audience": N_("this Audience"),
    "chat": N_("this chat"),
}


def _thing(kind: str) -> str:
    return _(KIND_NAMES[kind]) if kind in KIND_NAMES else _("that")


def other_workspace_thing() -> str:
    return _("That belongs to another workspace, so the bot does not show it or act on it here.")


def not_member(*, channel_id: str, act: str, kind: str) -> str:
    """The person is not in ``channel_id`` now (``act``: the gate's ``Act`` value)."""
    channel = channel_mention(channel_id)
    if act == "see":
        return _(
            "That belongs to {channel}, a channel you are not in, so it is not shown to you. Join the channel to "
            "see it.",
            channel=channel,
        )
    if act == "post":
        return _(
            "You are not a member of {channel}, so the bot will not post there for you. Pick a channel you are in.",
            channel=channel,
        )
    if act in ("decide", "show", "manage_channel"):
        return _(
            "You are not a member of {channel}, where {thing} belongs, so you cannot use it. Join the channel first.",
            channel=channel,
            thing=_thing(kind),
        )
    return _(
        "You are not a member of {channel}, so nothing is sent to Minds from there for you. Nothing was sent.",
        channel=channel,
    )


def bot_not_member(*, channel_id: str) -> str:
    return _(
        "Minds is not in {channel}. Invite it with `/invite @Minds` in that channel, or pick a channel it is in. "
        "Nothing was posted.",
        channel=channel_mention(channel_id),
    )


def private_elsewhere(*, channel_id: str, kind: str) -> str:
    """A private channel's thing is used only in that channel."""
    return _(
        "{channel} is a private channel: the bot shows and uses what belongs there ({thing}) only in that channel. "
        "Do this in {channel}.",
        thing=_thing(kind),
        channel=channel_mention(channel_id),
    )


def not_allowed(*, kind: str, owner_id: str | None) -> str:
    """Who may decide instead (``kind`` "channel": its policy and approvers; "workspace": the Minds connection)."""
    if kind == "channel":
        return _("Only this channel's approvers (`/minds approvers list`) or a workspace admin can change that.")
    if kind == "workspace":
        return _("Only a workspace admin or the person who installed Minds can do that.")
    if owner_id:
        return _(
            "Only {person}, this channel's approvers (`/minds approvers list`) or a workspace admin can do that "
            "with {thing}.",
            person=mention(owner_id),
            thing=_thing(kind),
        )
    return _(
        "Only this channel's approvers (`/minds approvers list`) or a workspace admin can do that with {thing}.",
        thing=_thing(kind),
    )


def not_allowed_anywhere(*, kind: str, owner_id: str | None) -> str:
    """Who may decide on a thing of no channel (a draft made elsewhere in Minds, or saved before drafts recorded
    their channel): its owner, or a workspace admin."""
    if owner_id:
        return _(
            "Only {person} or a workspace admin can do that with {thing}. Nothing was changed.",
            person=mention(owner_id),
            thing=_thing(kind),
        )
    return _("Only a workspace admin can do that with {thing}. Nothing was changed.", thing=_thing(kind))


def policy_refused(*, action: str) -> str:
    """The channel's spend policy refuses ``action``."""
    return sentences(
        _("This channel's spend policy refuses this: {action}.", action=action_name(action)),
        _("See `/minds policy`."),
        _(WHO_CHANGES),
    )


def busy(*, reason: str, in_flight: int, seconds: int) -> str:
    """The person's share of the Minds budget is used for now (``reason`` "in_flight" or "share")."""
    if reason == "in_flight":
        return _n(
            "You have {in_flight} requests in progress; try again in about {count} seconds.",
            "You have {in_flight} requests in progress; try again in about {count} seconds.",
            seconds,
            in_flight=in_flight,
        )
    return _n(
        "You have used your share of this workspace's Minds requests for the minute; "
        "try again in about {count} seconds.",
        "You have used your share of this workspace's Minds requests for the minute; "
        "try again in about {count} seconds.",
        seconds,
    )


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
