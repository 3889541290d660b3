"""One workspace, one key: requests from people of another workspace are refused before any listener runs.

Owns: the Bolt middleware that compares every team a request names for the person acting (``team_id`` and
``user_team`` of a slash command, ``team.id`` and ``user.team_id`` of an interaction, an event's ``user_team``,
Bolt's actor team) with the workspace the request was authorized for (``auth.test`` of the bot token in
single-workspace mode, the OAuth install otherwise). An external member of a Slack Connect channel therefore
gets a polite private refusal and never reaches the workspace's Minds key. An org-wide Enterprise Grid install
serves every workspace of its org. ``MindsDirectory.client_for`` checks the operator's key again below this.
Must not touch: listener behaviour, Minds, the store.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.response import BoltResponse

from minds_bot.i18n import _
from minds_bot.render.access import OTHER_WORKSPACE, other_workspace_modal

log = logging.getLogger(__name__)


def acting_teams(body: dict[str, Any], *, actor_team: str | None, request_team: str | None = None) -> set[str]:
    """Every team id the request gives for the person acting (a string field of some shape, when present), with
    the team Bolt read from it (``request_team``) and Bolt's actor team for shared channels."""
    team = body.get("team")
    user = body.get("user")
    event = body.get("event")
    candidates = [
        body.get("team_id") if body.get("type") != "event_callback" else None,
        body.get("user_team"),
        team.get("id") if isinstance(team, dict) else None,
        user.get("team_id") if isinstance(user, dict) else None,
        event.get("user_team") if isinstance(event, dict) else None,
        actor_team,
        request_team,
    ]
    return {value for value in candidates if isinstance(value, str) and value}


def is_served(
    teams: set[str], *, installed_team: str | None, installed_org: str | None, org: str | None, external: bool
) -> bool:
    """True when every team acting is the installed workspace or its org; an org-wide install (no team of its
    own) serves any workspace of its org, except in a channel shared with another organisation."""
    allowed = {value for value in (installed_team, installed_org) if value}
    if teams <= allowed:
        return True
    return installed_team is None and installed_org is not None and org == installed_org and not external


async def refuse(body: dict[str, Any], *, respond: Any) -> BoltResponse:
    """A private refusal where the person can see it; nothing else happens."""
    if body.get("type") == "view_submission":
        return _json({"response_action": "update", "view": other_workspace_modal()})
    if (body.get("command") or body.get("type") == "block_actions") and respond is not None:
        try:
            await respond(text=_(OTHER_WORKSPACE), response_type="ephemeral", replace_original=False)
        except Exception:  # noqa: BLE001 - a response URL that does not work: the refusal stays unsaid, nothing else
            log.info("could not tell a person of another workspace that the request was refused")
    if body.get("type") == "block_suggestion":
        return _json({"options": []})
    return BoltResponse(status=200, body="")


def _json(body: dict[str, Any]) -> BoltResponse:
    return BoltResponse(status=200, body=json.dumps(body), headers={"content-type": "application/json"})


def workspace_middleware() -> Callable[..., Awaitable[Any]]:
    async def one_workspace(body: dict[str, Any], context: Any, next: Callable[[], Awaitable[Any]]) -> Any:  # noqa: A002 - Bolt's name
        authorized = context.authorize_result
        teams = acting_teams(body, actor_team=context.actor_team_id, request_team=context.team_id)
        if authorized is None or is_served(
            teams,
            installed_team=authorized.team_id,
            installed_org=authorized.enterprise_id,
            org=context.enterprise_id,
            external=body.get("is_ext_shared_channel") is True,
        ):
            return await next()
        log.info("refused a request from another workspace", extra={"fields": {"teams": ",".join(sorted(teams))}})
        return await refuse(body, respond=context.respond)

    return one_workspace
