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
from minds_bot.i18n import N_, _, _n, join_list, sentences
from minds_bot.render import Message, mention
from minds_bot.slack.grammar import Approvers

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

ALWAYS = N_("A plan's requester and workspace admins can always approve it.")


def _mentions(users: list[str] | tuple[str, ...]) -> str:
    return join_list(mention(u) for u in users)


async def handle_approvers(command: Approvers, invocation: Invocation) -> None:
    store = invocation.services.store
    team, channel = invocation.team_id, invocation.channel_id
    if command.action == "list":
        current = await store.list_approvers(team_id=team, channel_id=channel)
        listed = (
            _("Approvers in this channel: {approvers}.", approvers=_mentions(current))
            if current
            else _("This channel has no approvers yet.")
        )
        await _say(invocation, sentences(listed, _(ALWAYS)))
        return
    allowed = await may_manage_approvers(
        invocation.services, invocation.client, team_id=team, channel_id=channel, user_id=invocation.user_id
    )
    if not allowed:
        await invocation.say_text(
            _(
                "Only workspace admins and this channel's approvers can change who approves here. "
                "`/minds approvers list` shows them."
            )
        )
        return
    changed: list[str] = []
    unchanged: list[str] = []
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
    """One sentence for the people changed, one for the rest; each agrees with how many people it names."""
    parts = []
    if changed:
        people = _mentions(changed)
        if action == "add":
            parts.append(
                _n(
                    "{people} can now approve research plans in this channel.",
                    "{people} can now approve research plans in this channel.",
                    len(changed),
                    people=people,
                )
            )
        else:
            parts.append(
                _n(
                    "{people} no longer approve research plans in this channel.",
                    "{people} no longer approve research plans in this channel.",
                    len(changed),
                    people=people,
                )
            )
    if unchanged:
        people = _mentions(unchanged)
        if action == "add":
            parts.append(
                _n("{people} already approve here.", "{people} already approve here.", len(unchanged), people=people)
            )
        else:
            parts.append(
                _n(
                    "{people} were not approvers here.",
                    "{people} were not approvers here.",
                    len(unchanged),
                    people=people,
                )
            )
    return sentences(*parts)


def register(surface: Surface, services: Services) -> None:
    """No interactive parts: the command is dispatched through ``COMMANDS``."""
    surface.router.add(COMMANDS)


COMMANDS = {Approvers: handle_approvers}
