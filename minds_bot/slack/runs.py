"""``/minds runs <study>`` and the run handlers that follow approved research in threads.

Owns: registering ``ResearchRunHandler`` (``RunKind.RESEARCH``) and ``ConsistencyFollowUp``
(``RunKind.CONSISTENCY``) with the run tracker, the start-up resume of approvals a crash interrupted, and
the private list of a Study's recent runs, each named by date, first question, n and the state Minds
reports, linked to its thread when the bot posted it — only runs the bot never posted (the Study's) and runs
whose thread is in a channel the person is in now; the others are counted, never named.
Must not touch: Minds wire shapes, SQL, Block Kit (``render/runs.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minds_bot.flows.invocation import Invocation
from minds_bot.flows.research import ApprovalResume, ConsistencyFollowUp, ResearchRunHandler
from minds_bot.flows.run_links import hidden_runs, run_channels, thread_links
from minds_bot.i18n import _
from minds_bot.render.runs import render_runs
from minds_bot.slack.grammar import Runs
from minds_bot.slack.resolve import resolve_study, study_detail
from minds_bot.store import RunKind

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

RECENT_RUNS = 10


async def handle_runs(command: Runs, invocation: Invocation) -> None:
    if command.study is None:
        await invocation.say_text(_("Say `/minds runs <study>` to see a Study's recent runs."))
        return
    study = await resolve_study(invocation, command.study, rerun=lambda sid: f"runs {sid}")
    if study is None:
        return
    minds = await invocation.minds()
    runs = await minds.list_study_runs(study.id, limit=RECENT_RUNS)
    channels = await run_channels(invocation.services, team_id=invocation.team_id, run_ids=[r.run_id for r in runs])
    hidden = await hidden_runs(invocation, channels)
    shown = [run for run in runs if run.run_id not in hidden]
    detail = await study_detail(invocation, study) if shown else None  # names each run's first question and n
    links = await thread_links(invocation, [run.run_id for run in shown])
    messages = detail.messages if detail else ()
    await invocation.reply(
        render_runs(runs, study_name=study.name, messages=messages, thread_links=links, hidden=hidden)
    )


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    settings = services.settings
    services.run_handlers[RunKind.RESEARCH] = ResearchRunHandler(
        services, report_kind=settings.minds_report_kind, report_format=settings.minds_report_format
    )
    services.run_handlers[RunKind.CONSISTENCY] = ConsistencyFollowUp(services)
    services.background.append(ApprovalResume(services))


COMMANDS = {Runs: handle_runs}
