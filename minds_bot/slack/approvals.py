"""``/minds approvers add|remove|list @user…``: who may approve research plans in a channel.

Owns: the command's replies. The rule (decided in ``flows/research.py``): anyone may list; workspace admins
and owners, and people already approving in the channel, may add or remove approvers. A plan's requester and
workspace admins may always approve, whether listed or not.
Must not touch: Minds, SQL, Block Kit beyond a short private reply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minds_bot.flows.invocation import Invocation
from minds_bot.flows.research import may_manage_approvers
from minds_bot.render import Message, mention
from minds_bot.slack.grammar import Approvers

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

ALWAYS = "A plan's requester and workspace admins can always approve it."


def _mentions(users: list[str] | tuple[str, ...]) -> str:
    return ", ".join(mention(u) for u in users)


async def handle_approvers(command: Approvers, invocation: Invocation) -> None:
    store = invocation.services.store
    team, channel = invocation.team_id, invocation.channel_id
    if command.action == "list":
        current = await store.list_approvers(team_id=team, channel_id=channel)
        listed = (
            f"Approvers in this channel: {_mentions(current)}." if current else "This channel has no approvers yet."
        )
        await _say(invocation, f"{listed} {ALWAYS}")
        return
    allowed = await may_manage_approvers(
        invocation.services, invocation.client, team_id=team, channel_id=channel, user_id=invocation.user_id
    )
    if not allowed:
        await invocation.say_text(
            "Only workspace admins and this channel's approvers can change who approves here. "
            "`/minds approvers list` shows them."
        )
        return
    changed, unchanged = [], []
    for user in command.users:
        if command.action == "add":
            done = await store.add_approver(team_id=team, channel_id=channel, user_id=user)
        else:
            done = await store.remove_approver(team_id=team, channel_id=channel, user_id=user)
        (changed if done else unchanged).append(user)
    await _say(invocation, _summary(command.action, changed, unchanged))


async def _say(invocation: Invocation, text: str) -> None:
    """``text`` is mrkdwn: its only markup is mentions built from Slack user ids."""
    await invocation.reply(Message(text=text))


def _summary(action: str, changed: list[str], unchanged: list[str]) -> str:
    parts = []
    if changed:
        verb = "can now approve" if action == "add" else "no longer approve"
        parts.append(f"{_mentions(changed)} {verb} research plans in this channel.")
    if unchanged:
        state = "already approve" if action == "add" else "were not approvers"
        parts.append(f"{_mentions(unchanged)} {state} here.")
    return " ".join(parts)


def register(surface: Surface, services: Services) -> None:
    """No interactive parts: the command is dispatched through ``COMMANDS``."""
    surface.router.add(COMMANDS)


COMMANDS = {Approvers: handle_approvers}
