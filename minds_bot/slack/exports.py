"""``/minds export <study> [format] [kind] [length] [original] [force]``, the study card's "Export" button
(``study_export``) and the **Try again** / **Export again** buttons of a typed export.

Owns: reading the command and the buttons, then handing over to ``flows/exports.py``, which asks first when the
same export is still being prepared, posts the request in the channel, follows the export and attaches the
file in that message's thread (a CSV with formula-like cells neutralised, unless the person asked for Minds'
``original``; asked of a file that is not a CSV it is said not to apply, and nothing is exported), with when Minds
generated it and whether it covers the Study's latest run; ``force`` asks Minds for a new file. The request line
names every option asked. A word the grammar does not know is refused with the usage (``grammar.py``); an
unquoted Study name is used only when it matches exactly (``slack/resolve.py``).
Must not touch: Minds wire shapes, SQL, Block Kit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.exports import request_export, start_export
from minds_bot.flows.invocation import Invocation
from minds_bot.i18n import _
from minds_bot.render.common import decode_value, plain_value, render_stale_button
from minds_bot.render.exports import EXPORT_AGAIN, EXPORT_TRY_AGAIN
from minds_bot.slack.grammar import EXPORT_USAGE, MAX_STUDY_REF, Export
from minds_bot.slack.listeners import Click, pressed, pressed_with_click
from minds_bot.slack.resolve import resolve_study

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

STUDY_CARD_EXPORT = "study_export"


async def handle_export(command: Export, invocation: Invocation) -> None:
    if command.study is None:
        await invocation.say_text(_(EXPORT_USAGE))
        return
    settings = invocation.services.settings
    format_asked = command.format or settings.minds_report_format
    if command.original and format_asked != "csv":  # said, never dropped: only a CSV's cells are neutralised
        await invocation.say_text(
            _(
                "`original` keeps a CSV file exactly as Minds made it; a {format} file is always attached unchanged, "
                "so `original` does not apply to it. Nothing was exported.",
                format=format_asked,
            )
        )
        return
    original = "original" if command.original else None
    force = "force" if command.force else None
    options = " ".join(o for o in (command.format, command.kind, command.length, original, force) if o)
    study = await resolve_study(
        invocation,
        command.study,
        rerun=lambda sid: f"export {sid} {options}".strip(),
        confirm_fuzzy=True,  # a loose match is offered as a button, never used silently
        exact_unquoted=_(EXPORT_USAGE),
    )
    if study is None:
        return
    await request_export(
        invocation,
        study_id=study.id,
        study_name=study.name,
        kind=command.kind or settings.minds_report_kind,
        format=format_asked,
        length=command.length,
        original=command.original,
        force=command.force,
        again=False,
    )


async def study_export(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    """The study card's Export: the workspace's default report for the Study, in the card's channel."""
    services = invocation.services
    study_id = plain_value(action.get("value"), limit=MAX_STUDY_REF)
    if not study_id:
        await invocation.reply(render_stale_button())
        return
    body = click.body
    team_id = (body.get("team") or {}).get("id") or ""
    channel_id = (body.get("channel") or {}).get("id") or ""
    minds = await services.minds.client_for(team_id)
    study = await minds.get_study(study_id)
    await start_export(
        services,
        slack=invocation.client,
        team_id=team_id,
        study_id=study.id,
        channel_id=channel_id,
        thread_ts=None,
        requested_by=body["user"]["id"],
        kind=services.settings.minds_report_kind,
        format=services.settings.minds_report_format,
        study_name=study.name,
    )


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)

    surface.action(STUDY_CARD_EXPORT)(pressed_with_click(study_export))
    surface.action(EXPORT_TRY_AGAIN)(pressed(try_again))
    surface.action(EXPORT_AGAIN)(pressed(export_again))


async def _again(invocation: Invocation, action: dict[str, Any], *, again: bool) -> None:
    """Try again (still asks if the same export is now being prepared) or Export again (starts another)."""
    settings = invocation.services.settings
    asked = decode_value(action.get("value"))
    study = await (await invocation.minds()).get_study(str(asked.get("s") or ""))
    await request_export(
        invocation,
        study_id=study.id,
        study_name=study.name,
        kind=str(asked.get("k") or settings.minds_report_kind),
        format=str(asked.get("f") or settings.minds_report_format),
        length=asked.get("l") if isinstance(asked.get("l"), str) else None,
        original=asked.get("o") is True,
        force=asked.get("x") is True,
        again=again,
    )


async def try_again(invocation: Invocation, action: dict[str, Any]) -> None:
    """Try again: asks whether the same export is being prepared now."""
    await _again(invocation, action, again=False)


async def export_again(invocation: Invocation, action: dict[str, Any]) -> None:
    """Export again: starts another export."""
    await _again(invocation, action, again=True)


COMMANDS = {Export: handle_export}
