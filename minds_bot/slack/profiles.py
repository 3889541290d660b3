"""``/minds export audience|mind <name> [format]`` and ``/minds duplicate audience <name>``.

Owns: resolving the Audience or Mind the person named (an exact id is used as is; a loose match or several
matches are offered as buttons first), then one flow call. The Audience copy (``flows/duplicates.py``) passes the
channel's "duplicate" policy line; its Idempotency-Key is derived from the invocation (team + trigger id), so a
redelivered request gets the same copy back, never a second one.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from minds_bot.flows.duplicates import duplicate_audience
from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.profiles import export_profile
from minds_bot.flows.spend import SpendRequest, refused_early
from minds_bot.i18n import N_, _
from minds_bot.render.common import render_candidates, render_not_found
from minds_bot.slack.grammar import DuplicateAudience, ExportProfile
from minds_bot.slack.resolve import show_progress

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from minds_bot.minds import LookupResult
    from minds_bot.services import Services
    from minds_bot.slack.router import Handler
    from minds_bot.slack.surface import Surface

UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
NOUN = {"audience": N_("Audience"), "mind": N_("Mind")}


async def _resolve(invocation: Invocation, kind: str, text: str, *, rerun: Any) -> tuple[str, str] | None:
    """(id, name) of the Audience or Mind named, or None after telling the user why not."""
    minds = await invocation.minds()
    if kind == "mind" and UUID.match(text):
        mind = await minds.get_mind(text)
        return mind.id, mind.name
    finding: Awaitable[LookupResult[Any]] = minds.find_audience(text) if kind == "audience" else minds.find_mind(text)
    result = await with_progress(finding, show=lambda: show_progress(invocation))
    if result.kind == "exact" and result.match is not None:
        return result.match.id, result.match.name
    if result.kind in ("ambiguous", "fuzzy"):
        candidates: list[Any] = result.candidates
        fuzzy = result.kind == "fuzzy"
        message = render_candidates(what=_(NOUN[kind]), query=text, candidates=candidates, rerun=rerun, fuzzy=fuzzy)
        await invocation.reply(message)
        return None
    await invocation.reply(render_not_found(what=_(NOUN[kind]), result=result))
    return None


async def handle_export_profile(command: ExportProfile, invocation: Invocation) -> None:
    fmt = command.format or "md"
    rerun = lambda item_id: f"export {command.kind} {item_id} {fmt}"  # noqa: E731
    found = await _resolve(invocation, command.kind, command.ref.text, rerun=rerun)
    if found is None:
        return
    item_id, name = found
    note = await export_profile(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        channel_id=invocation.channel_id,
        user_id=invocation.user_id,
        kind="audiences" if command.kind == "audience" else "minds",
        item_id=item_id,
        item_name=name,
        format=fmt,  # type: ignore[arg-type]
    )
    await invocation.reply(note)


async def handle_duplicate_audience(command: DuplicateAudience, invocation: Invocation) -> None:
    def rerun(item_id: str) -> str:  # the command as typed: the same in every language
        return f"duplicate audience {item_id}"  # verbatim

    typed = command.audience.text
    said = f"duplicate audience {typed}"  # command syntax, verbatim
    early = SpendRequest(action="duplicate", subject=typed, command=said, responses=0)
    if await refused_early(invocation, early):
        return  # the channel refuses copies (recorded), or the person waits: nothing was looked up
    found = await _resolve(invocation, "audience", typed, rerun=rerun)
    if found is None:
        return
    audience_id, name = found
    await duplicate_audience(
        invocation, audience_id=audience_id, audience_name=name, show=lambda: show_progress(invocation)
    )


COMMANDS: dict[type, Handler] = {ExportProfile: handle_export_profile, DuplicateAudience: handle_duplicate_audience}


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
