"""Who may do what, decided on the server from Slack's user record and stored state — never from a payload.

Owns: the workspace-admin check (users.info ``is_admin``/``is_owner``) and "may manage this workspace's Minds
connection" (an admin, or the user who installed the app).
Must not touch: rendering or Minds.
"""

from __future__ import annotations

from typing import Any

from slack_sdk.errors import SlackApiError

from minds_bot.store import Store


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
