"""Managing an existing Audience from Slack: who may, and the calls to Minds behind the card's Members, Formations,
Edit and Delete.

Owns: ``may_see`` and ``may_change`` (the gate, ``flows/access.py``: seeing the members or the Formations is the
channel's members'; every change — members, name, Formations, delete — is for the gate's deciders: the channel's
approvers or a workspace admin, while in the channel, asked fresh from Slack), and the changes themselves, each read
again from Minds on the server before it is made (the Audience's owner, its member count; a Formation's name and
whether this account may change it) — never taken from a button's value or a dialog's metadata.
Must not touch: Block Kit (``render/audience_manage.py``) or SQL.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from minds_bot.flows import access
from minds_bot.flows.access import Act, Decision, Thing
from minds_bot.minds import AudienceDetail, MindsClient, MindSummary, NotFound
from minds_bot.minds.models.audience_manage import FormationDetail, FormationHypothesis, HypothesisSubgroup
from minds_bot.services import Services

CANDIDATES = 100  # Minds offered to add: the newest page


def audience_thing(team_id: str, channel_id: str) -> Thing:
    """An Audience as the card shows it: the workspace's, used in the channel the card is in."""
    return Thing(team_id, channel_id, None, kind="audience")


async def may_see(services: Services, slack: Any, *, team_id: str, user_id: str, channel_id: str) -> Decision:
    return await access.check(
        services,
        slack,
        team_id=team_id,
        user_id=user_id,
        act=Act.SEE,
        channel_id=channel_id,
        thing=audience_thing(team_id, channel_id),
    )


async def may_change(services: Services, slack: Any, *, team_id: str, user_id: str, channel_id: str) -> Decision:
    return await access.check(
        services,
        slack,
        team_id=team_id,
        user_id=user_id,
        act=Act.DECIDE,
        channel_id=channel_id,
        thing=audience_thing(team_id, channel_id),
    )


async def member_candidates(services: Services, *, team_id: str, query: str) -> list[MindSummary]:
    """Minds to offer for adding: Minds' own search for what was typed (the newest first when nothing is)."""
    minds = await services.minds.client_for(team_id)
    return list((await minds.minds_page(limit=CANDIDATES, search=query.strip() or None)).items)


async def delete_audience(minds: MindsClient, *, audience_id: str, members_named: int) -> tuple[AudienceDetail, str]:
    """Delete only the Audience the dialog named, as it is now: Minds must say the account owns it and its member
    count must still be the one the dialog showed. Returns the Audience and ``"deleted"``, ``"not_owner"`` or
    ``"count_changed"``."""
    audience = await minds.get_audience(audience_id)
    if not audience.is_owner:
        return audience, "not_owner"
    if audience.mind_count != members_named:
        return audience, "count_changed"
    await minds.delete_audience(audience_id)
    return audience, "deleted"


async def change_members(minds: MindsClient, *, audience_id: str, add: Sequence[str], remove: Sequence[str]) -> None:
    """Adds first (Minds ignores members already in), then removes one by one (each an empty-reply delete)."""
    if add:
        await minds.add_audience_members(audience_id, add)
    for mind_id in remove:
        await minds.remove_audience_member(audience_id, mind_id)


async def read_formation(minds: MindsClient, *, audience_id: str, formation_id: str) -> FormationDetail | None:
    """The Formation as Minds has it now (its name, whether this account may change it); None when gone."""
    try:
        return await minds.get_formation(audience_id, formation_id)
    except NotFound:
        return None


RESERVED_IDS = frozenset({"unanswered", "__unanswered", "__other"})  # the seeds: never to be sent


def subgroup_ids(labels: Sequence[str]) -> list[str]:
    """A lowercase slug per reviewed label (Minds' ids are slugs such as ``age-25-34``), unique and never one of the
    reserved ids; the person may have renamed a subgroup, so the id follows the label they left."""
    ids: list[str] = []
    for index, label in enumerate(labels):
        slug = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "group"
        if slug in RESERVED_IDS or slug in ids:
            slug = f"{slug}-{index + 1}"
        ids.append(slug)
    return ids


def hypothesis_from(intent: str, subgroups: Sequence[tuple[str, str, str]]) -> FormationHypothesis:
    """The reviewed hypothesis: ``(id, label, definition)`` each trimmed, as the dialog's person left them."""
    return FormationHypothesis(
        intent=intent.strip(),
        subgroups=[
            HypothesisSubgroup(id=sid.strip(), label=label.strip(), definition=definition.strip())
            for sid, label, definition in subgroups
        ],
    )
