"""``/minds export <study> [format] [kind] [length]`` and the study card's "Export" button (``study_export``).

Owns: reading the command and the button, then handing over to ``flows/exports.py``, which posts the request
in the channel, follows the export and attaches the file in that message's thread.
Must not touch: Minds wire shapes, SQL, Block Kit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.exports import ExportDelivery, start_export
from minds_bot.flows.invocation import Invocation
from minds_bot.render.common import plain_value, render_stale_button
from minds_bot.slack.grammar import MAX_STUDY_REF, Export
from minds_bot.slack.resolve import resolve_study
from minds_bot.store import RunKind

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

STUDY_CARD_EXPORT = "study_export"


async def handle_export(command: Export, invocation: Invocation) -> None:
    if command.study is None:
        await invocation.say_text("Say `/minds export <study> [pdf|md|docx|pptx|csv|xls|sav] [brief|report|raw]`.")
        return
    settings = invocation.services.settings
    options = " ".join(o for o in (command.format, command.kind, command.length) if o)
    study = await resolve_study(invocation, command.study, rerun=lambda sid: f"export {sid} {options}".strip())
    if study is None:
        return
    await start_export(
        invocation.services,
        slack=invocation.client,
        team_id=invocation.team_id,
        study_id=study.id,
        channel_id=invocation.channel_id,
        thread_ts=None,
        requested_by=invocation.user_id,
        kind=command.kind or settings.minds_report_kind,
        format=command.format or settings.minds_report_format,
        length=command.length,
        study_name=study.name,
    )


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    services.run_handlers[RunKind.EXPORT] = ExportDelivery(services)

    @surface.action(STUDY_CARD_EXPORT)
    async def study_export(ack: Any, body: dict[str, Any], action: dict[str, Any], client: Any, respond: Any) -> None:
        await ack()
        study_id = plain_value(action.get("value"), limit=MAX_STUDY_REF)
        if not study_id:
            await respond(response_type="ephemeral", replace_original=False, **render_stale_button().as_kwargs())
            return
        team_id = (body.get("team") or {}).get("id") or ""
        channel_id = (body.get("channel") or {}).get("id") or ""
        minds = await services.minds.client_for(team_id)
        study = await minds.get_study(study_id)
        await start_export(
            services,
            slack=client,
            team_id=team_id,
            study_id=study.id,
            channel_id=channel_id,
            thread_ts=None,
            requested_by=body["user"]["id"],
            kind=services.settings.minds_report_kind,
            format=services.settings.minds_report_format,
            study_name=study.name,
        )


COMMANDS = {Export: handle_export}
