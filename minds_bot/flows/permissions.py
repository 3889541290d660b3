"""Who may do what, decided on the server from Slack's user record and stored state — never from a payload.

Owns: the workspace-admin check (users.info ``is_admin``/``is_owner``), "may manage this workspace's Minds
connection" (an admin, or the user who installed the app), "may approve, answer or revise a plan" (its
requester, the channel's approvers, an admin — from the stored ``PlanPost``), "may post, pause, edit or remove
a digest" (its creator, an approver of its channel, an admin — from the stored ``Digest``) and channel
membership for data that leaves into a channel (the person from ``conversations.members``, paged; the bot from
``conversations.info`` ``is_member``; ``missing_from_channel`` asks both, for a digest's channel and for the
channel the App Home's Plan research dialog posts in).
Must not touch: rendering or Minds.
"""

from __future__ import annotations

from typing import Any

from slack_sdk.errors import SlackApiError

from minds_bot.store import Digest, PlanPost, Store

MEMBERS_PAGE = 200
# Slack's answers that mean "this token cannot see the channel": the bot is not in it (or may not look).
NOT_VISIBLE = ("channel_not_found", "not_in_channel", "missing_scope", "method_not_supported_for_channel_type")


async def is_workspace_admin(client: Any, user_id: str) -> bool:
    """True for workspace admins and owners, from ``users.info``; an unknown user is no admin."""
    try:
        reply = await client.users_info(user=user_id)
    except SlackApiError as exc:
        if exc.response.get("error") in ("user_not_found", "user_not_visible"):
            return False
        raise
    user = reply.get("user") or {}
    return bool(user.get("is_admin") or user.get("is_owner") or user.get("is_primary_owner"))


async def may_manage_workspace(client: Any, store: Store, *, team_id: str, user_id: str) -> bool:
    """Admins and owners, or the person who installed the app into this workspace."""
    if await is_workspace_admin(client, user_id):
        return True
    installation = await store.find_installation(enterprise_id=None, team_id=team_id)
    return installation is not None and installation.user_id == user_id


async def may_approve(client: Any, store: Store, *, post: PlanPost, user_id: str) -> bool:
    """May approve, discard, answer or revise this plan: its requester, an approver of its channel, or an admin."""
    if user_id == post.requester_id:
        return True
    approvers = await store.list_approvers(team_id=post.team_id, channel_id=post.channel_id)
    return user_id in approvers or await is_workspace_admin(client, user_id)


async def may_manage_digest(client: Any, store: Store, *, digest: Digest, user_id: str) -> bool:
    """May post, pause, edit or remove this digest: its creator, an approver of its channel, or an admin."""
    if user_id == digest.created_by:
        return True
    approvers = await store.list_approvers(team_id=digest.team_id, channel_id=digest.channel_id)
    return user_id in approvers or await is_workspace_admin(client, user_id)


async def bot_is_member(client: Any, *, channel_id: str) -> bool:
    """Whether the bot is in the channel (``conversations.info``); a channel it cannot see counts as no."""
    try:
        reply = await client.conversations_info(channel=channel_id)
    except SlackApiError as exc:
        if exc.response.get("error") in NOT_VISIBLE:
            return False
        raise
    return bool((reply.get("channel") or {}).get("is_member"))


async def missing_from_channel(client: Any, *, channel_id: str, user_id: str) -> str | None:
    """Who cannot take part in what the bot posts in a channel: ``"bot"`` (not in it; asked first), ``"person"``
    (the one asking is not in it: what is posted there must not reach a channel they cannot read), or None."""
    if not await bot_is_member(client, channel_id=channel_id):
        return "bot"
    if not await is_member(client, channel_id=channel_id, user_id=user_id):
        return "person"
    return None


async def is_member(client: Any, *, channel_id: str, user_id: str) -> bool:
    """Whether the person is in the channel, reading ``conversations.members`` page by page."""
    cursor: str | None = None
    while True:
        try:
            reply = await client.conversations_members(channel=channel_id, limit=MEMBERS_PAGE, cursor=cursor)
        except SlackApiError as exc:
            if exc.response.get("error") in NOT_VISIBLE:
                return False
            raise
        if user_id in (reply.get("members") or []):
            return True
        cursor = (reply.get("response_metadata") or {}).get("next_cursor") or None
        if cursor is None:
            return False
