"""The one gate: who may see, who may act and who may spend — the same answer for every way in.

A slash command, a button, a dialog, a message shortcut, the App Home, a DM, a Workflow Builder step, a stimulus
link, compare and drafts all ask ``check`` before they show or spend anything, with the person (``team_id``,
``user_id``), where it happens (``channel_id``: where the answer or post goes), what they want (``Act``) and the
thing acted on (``Thing``: where it belongs and whose it is). The answer is a ``Decision``: allowed, held for an
approver (a spend the channel's policy holds), or refused because … — the words in the language being spoken
(``render/access.py``), with a machine word (``code``) for logs and tests.

Owns, and no listener or flow decides these on its own any more:
- **Channel membership** of the person (``conversations.members``, paged; the person's DM with the bot through
  ``conversations.open``) and of the bot (``conversations.info``), kept ``MEMBERSHIP_SECONDS`` for what is only
  shown and asked again (``fresh``) before anything is posted, decided or spent. A channel the bot cannot see
  counts as one the person is not shown to be in.
- **Workspace boundaries**: a thing of another workspace is never shown or acted on.
- **Private channels**: what belongs to a private channel is posted in that channel only.
- **Who may decide** on a thing (approve, answer, revise or discard a plan, cancel a run, resume or delete a
  draft, post or remove a digest, approve a held spend): its owner, the channel's approvers, a workspace admin
  (``users.info``) — and only while they are in its channel; a thing of no channel (a draft made in Minds, or
  saved before drafts recorded their channel) only its owner or an admin. Who may change a channel's policy and
  approvers, and who may manage the workspace's Minds connection (an admin, or the person who installed the app).
- **Who hears of a thing** (``may_hear``): a DM about a run's end goes only to someone in its channel now.
- **Spending** (one line of the channel's spend policy each, ``SPEND_ACTS``): the channel's policy (runs at once,
  needs an approver, refused) and the person's share of the Minds budget (``FairShare``: requests in flight and
  their share of the key's minute, counted across replicas). Recording, holding and deciding a spend is
  ``flows/spend.py``'s, which asks here first.
Must not touch: Block Kit (``render/access.py`` words the refusals), Minds, SQL.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from slack_sdk.errors import SlackApiError

from minds_bot.minds import MindsError
from minds_bot.render import access as words
from minds_bot.render.errors import slack_error
from minds_bot.services import Busy, Services
from minds_bot.store import PlanPost, PolicyMode

log = logging.getLogger(__name__)

MEMBERS_PAGE = 200
# Slack's answers that mean "this token cannot see the channel": the bot is not in it (or may not look).
NOT_VISIBLE = (
    "channel_not_found",
    "not_in_channel",
    "missing_scope",
    "method_not_supported_for_channel_type",
    "user_not_found",
    "user_not_visible",
)
DM_PREFIX = "D"  # a direct-message conversation's id


class Act(StrEnum):
    """What a person wants to do. The spend acts are the lines of a channel's spend policy."""

    SEE = "see"  # read what belongs to a channel (a run, a result, a draft, a plan), privately
    SHOW = "show"  # have what belongs to a channel posted where they are (a comparison in the channel)
    POST = "post"  # have the bot post in a channel they picked (a workflow step, the Home's dialog, a digest)
    DECIDE = "decide"  # approve, answer, revise or discard a plan; cancel a run; resume or delete a draft …
    MANAGE_CHANNEL = "manage_channel"  # the channel's spend policy and approvers
    MANAGE_WORKSPACE = "manage_workspace"  # the workspace's Minds connection, recalibration, invitations
    ASK = "ask"  # a question to a Study's or an Audience's Minds (/minds ask, Ask Minds about this, a step)
    CHAT = "chat"  # a chat turn with a Mind
    HEATMAP = "heatmap"  # a Premium heatmap
    AUDIENCE_BUILD = "audience_build"  # building an Audience
    DUPLICATE = "duplicate"  # duplicating a Study or an Audience
    SHARE_ON = "share_on"  # turning a Study's public link on
    RESEARCH = "research"  # an approved research run (its plan's approval is its consent)


SPEND_ACTS = frozenset({Act.ASK, Act.CHAT, Act.HEATMAP, Act.AUDIENCE_BUILD, Act.DUPLICATE, Act.SHARE_ON, Act.RESEARCH})
# Acts that change something, post or spend: membership is asked from Slack again, never taken from the cache.
FRESH_ACTS = frozenset({Act.SHOW, Act.POST, Act.DECIDE, Act.MANAGE_CHANNEL}) | SPEND_ACTS


@dataclass(frozen=True)
class Thing:
    """What an act is about: its workspace, the channel it belongs to (None: the workspace's as a whole, such as a
    Study or a draft made in Minds), whose it is (``owner_id``: a plan's requester, a digest's creator …) and what
    kind of thing it is (``kind``: the refusal names it — "plan", "digest", "draft", "run", "spend", "file")."""

    team_id: str
    channel_id: str | None = None
    owner_id: str | None = None
    kind: str = "thing"


def plan_thing(post: PlanPost) -> Thing:
    """A plan message: its channel's, requested by its requester."""
    return Thing(post.team_id, post.channel_id, post.requester_id, kind="plan")


def run_thing(team_id: str, channel_id: str | None) -> Thing:
    """A run of a Study: the channel whose thread the bot posted it in; None when the bot never posted it (it
    belongs to the Study, which is the workspace's)."""
    return Thing(team_id, channel_id, kind="run")


def draft_thing(team_id: str, state: Mapping[str, Any] | None) -> Thing:
    """A Study draft, from the state the bot saved in it: its workspace, channel and requester (``teamId``,
    ``channelId``, ``requesterId``). A draft the bot saved before drafts recorded their channel is its saver's
    (``savedBy``) and no channel's; a draft made elsewhere in Minds (no state of the bot) is nobody's and no
    channel's: only a workspace admin may decide on it."""
    state = state or {}

    def text(key: str) -> str | None:
        value = state.get(key)
        return value if isinstance(value, str) and value else None

    channel = text("channelId")
    owner = text("requesterId") if channel else text("savedBy")
    return Thing(text("teamId") or team_id, channel, owner, kind="draft")


@dataclass(frozen=True)
class Decision:
    """The gate's answer. ``allowed``: go on (``held``: a spend that must first be approved in the channel).
    Refused: ``reason`` says why and who may (mrkdwn, in the language spoken when it was decided), ``code`` names
    the rule (``other_workspace``, ``not_member``, ``bot_not_member``, ``private_elsewhere``, ``not_allowed``,
    ``policy``, ``busy``)."""

    allowed: bool
    reason: str = ""
    code: str = "ok"
    held: bool = False
    busy: Busy | None = None

    @property
    def refused(self) -> bool:
        return not self.allowed


ALLOWED = Decision(allowed=True)


def _refused(code: str, reason: str, *, busy: Busy | None = None) -> Decision:
    return Decision(allowed=False, reason=reason, code=code, busy=busy)


async def check(
    services: Services,
    slack: Any,
    *,
    team_id: str,
    user_id: str,
    act: Act,
    channel_id: str | None = None,
    thing: Thing | None = None,
    approved: bool = False,
) -> Decision:
    """May ``user_id`` of ``team_id`` do ``act`` in ``channel_id`` (where the answer or post goes) on ``thing``?
    ``approved``: a held spend an approver already approved (its policy and budget share are not asked again; the
    person must still be in the channel)."""
    if thing is not None and thing.team_id and thing.team_id != team_id:
        return _refused("other_workspace", words.other_workspace_thing())
    fresh = act in FRESH_ACTS
    home = thing.channel_id if thing is not None else None
    for channel in dict.fromkeys(c for c in (home, channel_id) if c):
        if not await is_member(services, slack, team_id=team_id, channel_id=channel, user_id=user_id, fresh=fresh):
            return _refused("not_member", words.not_member(channel_id=channel, act=act, kind=_kind(thing)))
    posting = act is Act.POST and channel_id
    if posting and not await bot_is_member(services, slack, team_id=team_id, channel_id=channel_id or ""):
        return _refused("bot_not_member", words.bot_not_member(channel_id=channel_id or ""))
    elsewhere = home and channel_id and home != channel_id and act is not Act.SEE
    if elsewhere and await is_private(services, slack, team_id=team_id, channel_id=home or ""):
        return _refused("private_elsewhere", words.private_elsewhere(channel_id=home or "", kind=_kind(thing)))
    who = {"team_id": team_id, "user_id": user_id}
    decided = await _by_act(services, slack, **who, act=act, channel_id=channel_id, thing=thing, approved=approved)
    if decided.refused:
        log.info("the gate refused", extra={"fields": {"act": str(act), "rule": decided.code}})
    return decided


def _kind(thing: Thing | None) -> str:
    return thing.kind if thing is not None else "thing"


async def _by_act(
    services: Services,
    slack: Any,
    *,
    team_id: str,
    user_id: str,
    act: Act,
    channel_id: str | None,
    thing: Thing | None,
    approved: bool,
) -> Decision:
    if act is Act.DECIDE:
        owner = thing.owner_id if thing is not None else None
        where = (thing.channel_id if thing is not None else None) or channel_id
        if user_id == owner:
            return ALLOWED
        if await is_approver_or_admin(services, slack, team_id=team_id, channel_id=where, user_id=user_id):
            return ALLOWED
        if where is None:  # a thing of no channel (a draft made in Minds): no channel's approvers to name
            return _refused("not_allowed", words.not_allowed_anywhere(kind=_kind(thing), owner_id=owner))
        return _refused("not_allowed", words.not_allowed(kind=_kind(thing), owner_id=owner))
    if act is Act.MANAGE_CHANNEL:
        if await is_approver_or_admin(services, slack, team_id=team_id, channel_id=channel_id, user_id=user_id):
            return ALLOWED
        return _refused("not_allowed", words.not_allowed(kind="channel", owner_id=None))
    if act is Act.MANAGE_WORKSPACE:
        if await may_manage_workspace(services, slack, team_id=team_id, user_id=user_id):
            return ALLOWED
        return _refused("not_allowed", words.not_allowed(kind="workspace", owner_id=None))
    if act in SPEND_ACTS:
        return await _spend(
            services, team_id=team_id, user_id=user_id, act=act, channel_id=channel_id, approved=approved
        )
    return ALLOWED


async def _spend(
    services: Services, *, team_id: str, user_id: str, act: Act, channel_id: str | None, approved: bool
) -> Decision:
    """The channel's policy for ``act``, then the person's share of the Minds budget."""
    held = False
    if not approved and act is not Act.RESEARCH:  # a research run's consent is its plan's approval
        mode = (await channel_policy(services, team_id=team_id, channel_id=channel_id or ""))[str(act)]
        if mode is PolicyMode.REFUSE:
            return _refused("policy", words.policy_refused(action=str(act)))
        held = mode is PolicyMode.APPROVE
    if held:
        return Decision(allowed=True, held=True)  # nothing is sent now: the budget is asked when it runs
    busy = await budget_busy(services, team_id=team_id, user_id=user_id)
    if busy is not None and not approved:
        said = words.busy(reason=busy.reason, in_flight=busy.in_flight, seconds=busy.seconds)
        return _refused("busy", said, busy=busy)
    return ALLOWED


# --- the channel's spend policy ----------------------------------------------------------------------------------

# What runs at once unless a channel's approvers say otherwise; turning a public link on needs an approver.
DEFAULT_POLICY: Mapping[str, PolicyMode] = {
    str(act): PolicyMode.NOW for act in SPEND_ACTS if act is not Act.RESEARCH
} | {str(Act.SHARE_ON): PolicyMode.APPROVE}


async def channel_policy(services: Services, *, team_id: str, channel_id: str) -> dict[str, PolicyMode]:
    """Every action's mode in this channel: what was set, else the default."""
    stored = await services.store.list_channel_policies(team_id=team_id, channel_id=channel_id)
    return dict(DEFAULT_POLICY) | {p.action: p.mode for p in stored if p.action in DEFAULT_POLICY}


# --- the person's share of the Minds budget ----------------------------------------------------------------------


async def budget_busy(services: Services, *, team_id: str, user_id: str) -> Busy | None:
    """None when the person may start one more Minds request now: fewer than ``MAX_IN_FLIGHT_PER_PERSON`` under
    way and within their share of the key's minute (``FairShare``)."""
    try:
        limiter = (await services.minds.client_for(team_id)).limiter
    except MindsError:  # not connected: the work itself says how to connect
        limiter = None
    return await services.fair.busy(team_id=team_id, user_id=user_id, limiter=limiter)


# --- who is in a channel -----------------------------------------------------------------------------------------


async def is_member(
    services: Services, slack: Any, *, team_id: str, channel_id: str, user_id: str, fresh: bool = False
) -> bool:
    """Whether the person is in the channel now (``fresh``: asked from Slack, not taken from the last few
    seconds). A DM is the person's own conversation with the bot, or nobody's."""
    key = ("person", team_id, channel_id, user_id)
    known = None if fresh else services.memberships.get(key)
    if known is not None:
        return known
    if channel_id.startswith(DM_PREFIX):
        found = await _own_dm(slack, channel_id=channel_id, user_id=user_id)
    else:
        found = await _in_members(slack, channel_id=channel_id, user_id=user_id)
    services.memberships.put(key, found)
    return found


async def _own_dm(slack: Any, *, channel_id: str, user_id: str) -> bool:
    """Whether ``channel_id`` is the DM between the bot and this person (``conversations.open`` names it)."""
    try:
        reply = await slack.conversations_open(users=user_id)
    except SlackApiError as exc:
        if slack_error(exc) in (*NOT_VISIBLE, "user_disabled", "cannot_dm_bot"):
            return False
        raise
    channel = reply.get("channel")
    return isinstance(channel, dict) and channel.get("id") == channel_id


async def _in_members(slack: Any, *, channel_id: str, user_id: str) -> bool:
    cursor: str | None = None
    while True:
        try:
            reply = await slack.conversations_members(channel=channel_id, limit=MEMBERS_PAGE, cursor=cursor)
        except SlackApiError as exc:
            if slack_error(exc) in NOT_VISIBLE:
                return False
            raise
        if user_id in (reply.get("members") or []):
            return True
        cursor = (reply.get("response_metadata") or {}).get("next_cursor") or None
        if cursor is None:
            return False


async def bot_is_member(services: Services, slack: Any, *, team_id: str, channel_id: str) -> bool:
    """Whether the bot is in the channel (``conversations.info``); a channel it cannot see counts as no. Asked
    every time: it is asked only before the bot posts somewhere a person picked."""
    info = await _channel_info(slack, channel_id=channel_id)
    if info is not None:
        services.memberships.put(("private", team_id, channel_id, ""), bool(info.get("is_private")))
    return bool(info and (info.get("is_member") or info.get("is_im")))


async def is_private(services: Services, slack: Any, *, team_id: str, channel_id: str) -> bool:
    """Whether the channel is private (a channel the bot cannot see is treated as private)."""
    key = ("private", team_id, channel_id, "")
    known = services.memberships.get(key)
    if known is not None:
        return known
    info = await _channel_info(slack, channel_id=channel_id)
    private = info is None or bool(info.get("is_private") or info.get("is_im") or info.get("is_mpim"))
    if channel_id.startswith(DM_PREFIX):
        private = True
    services.memberships.put(key, private)
    return private


async def _channel_info(slack: Any, *, channel_id: str) -> dict[str, Any] | None:
    try:
        reply = await slack.conversations_info(channel=channel_id)
    except SlackApiError as exc:
        if slack_error(exc) in NOT_VISIBLE:
            return None
        raise
    channel = reply.get("channel")
    return channel if isinstance(channel, dict) else None


async def channels_of(slack: Any, *, user_id: str, pages: int) -> frozenset[str] | None:
    """The channels (public and private) the person is in, read with ``users.conversations`` (at most ``pages``
    pages of 200); None when Slack would not say or there are more than that."""
    channels: set[str] = set()
    cursor: str | None = None
    try:
        for _page in range(pages):
            reply = await slack.users_conversations(
                user=user_id, types="public_channel,private_channel", exclude_archived=True, limit=200, cursor=cursor
            )
            channels |= {c["id"] for c in reply.get("channels") or [] if isinstance(c, dict) and "id" in c}
            cursor = (reply.get("response_metadata") or {}).get("next_cursor") or None
            if not cursor:
                return frozenset(channels)
    except SlackApiError as exc:
        log.info("users.conversations failed: %s", slack_error(exc))
    return None


async def visible(
    services: Services, slack: Any, *, team_id: str, user_id: str, channels: Iterable[str | None]
) -> frozenset[str | None]:
    """Of ``channels``, those the person is in now (None, a thing of no channel, is always visible): for lists
    (``/minds runs``, drafts, the App Home) that show only what belongs to the person's channels."""
    seen: set[str | None] = set()
    for channel in dict.fromkeys(channels):
        if channel is None or await is_member(services, slack, team_id=team_id, channel_id=channel, user_id=user_id):
            seen.add(channel)
    return frozenset(seen)


async def may_hear(services: Services, slack: Any, *, team_id: str, user_id: str, thing: Thing) -> bool:
    """Whether a DM about ``thing`` (a run's end) may go to the person: a thing of this workspace, and they are
    in its channel now (asked from Slack, not the cache). A thing of no channel: anyone of the workspace."""
    if thing.team_id and thing.team_id != team_id:
        return False
    if thing.channel_id is None:
        return True
    return await is_member(services, slack, team_id=team_id, channel_id=thing.channel_id, user_id=user_id, fresh=True)


# --- who may decide ----------------------------------------------------------------------------------------------


async def is_workspace_admin(slack: Any, user_id: str) -> bool:
    """True for workspace admins and owners, from ``users.info``; an unknown user is no admin."""
    try:
        reply = await slack.users_info(user=user_id)
    except SlackApiError as exc:
        if slack_error(exc) in ("user_not_found", "user_not_visible"):
            return False
        raise
    user = reply.get("user") or {}
    return bool(user.get("is_admin") or user.get("is_owner") or user.get("is_primary_owner"))


async def is_approver_or_admin(
    services: Services, slack: Any, *, team_id: str, channel_id: str | None, user_id: str
) -> bool:
    """One of the channel's approvers (``/minds approvers``), or a workspace admin."""
    if channel_id and user_id in await services.store.list_approvers(team_id=team_id, channel_id=channel_id):
        return True
    return await is_workspace_admin(slack, user_id)


async def may_manage_workspace(services: Services, slack: Any, *, team_id: str, user_id: str) -> bool:
    """Admins and owners, or the person who installed the app into this workspace."""
    if await is_workspace_admin(slack, user_id):
        return True
    installation = await services.store.find_installation(enterprise_id=None, team_id=team_id)
    return installation is not None and installation.user_id == user_id
