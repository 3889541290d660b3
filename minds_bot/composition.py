"""The one composition of the bot's roles: which handler follows each kind of run and who hears its end, the run
tracker, the App Home tabs, the stimulus shelf and every piece of background work, plugged into ``Services`` here
and nowhere else. Listener modules (``minds_bot.slack``) only register listeners.

Owns: ``compose`` (called by ``app.build_app`` and by the bot's warm-up, ``app.Bot``, before any listener is
registered; tests call it with a tracker of their own), ``run_handlers`` (the table the tracker reads) and
``background_work`` (in start order; stopped in reverse). It imports the flows when called, not when loaded: the
bot serves before its heavier half loads (``tests/foundation/test_startup_weight.py``).
Must not touch: what a handler or a loop does (the flows'), listener registration, Slack payloads.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from minds_bot.services import Background, RunHandler, RunTracking, Services
from minds_bot.store import RunKind

if TYPE_CHECKING:
    from minds_bot.flows.ask import DirectRunHandler
    from minds_bot.flows.planning import PlanPreparation

LEASE_RENEWALS = 3  # a run being polled has its lease renewed this many times per lease period


def compose(services: Services, *, tracker: RunTracking | None = None) -> None:
    """Plug every role into ``services`` once (a second call changes nothing): the run handlers, the run
    tracker (``tracker``, else the real one), the Home tabs, the stimulus shelf and the background work."""
    if services.composed:
        return
    from minds_bot.flows.home import HomeTabs
    from minds_bot.flows.stimulus import StimulusShelf
    from minds_bot.render.bars import use_cjk_font

    settings = services.settings
    use_cjk_font(settings.minds_bot_chart_font)
    services.run_handlers.update(run_handlers(services))
    services.tracker = tracker or _run_tracker(services)
    services.home = HomeTabs(services, min_interval=settings.minds_bot_home_refresh_seconds)
    services.stimuli = StimulusShelf(settings.minds_bot_public_url)
    services.background[:] = background_work(services)
    services.composed = True


def run_handlers(services: Services) -> dict[RunKind, RunHandler]:
    """Which handler reads and shows each kind of run, and who is told when a run's end is in Slack: a workflow
    step waiting on a question or a plan, the stimulus shelf releasing a plan's concept file."""
    from minds_bot.flows.audiences import AudienceJobHandler
    from minds_bot.flows.exports import ExportDelivery
    from minds_bot.flows.heatmaps import HeatmapHandler
    from minds_bot.flows.recalibrate import RecalibrationHandler
    from minds_bot.flows.research import ConsistencyFollowUp, ResearchRunHandler

    settings = services.settings
    return {
        RunKind.RESEARCH: ResearchRunHandler(
            services, report_kind=settings.minds_report_kind, report_format=settings.minds_report_format
        ),
        RunKind.CONSISTENCY: ConsistencyFollowUp(services),
        RunKind.DIRECT: _direct_questions(services),
        RunKind.PLAN: _plan_preparation(services),
        RunKind.EXPORT: ExportDelivery(services),
        RunKind.AUDIENCE: AudienceJobHandler(services),
        RunKind.RECALIBRATION: RecalibrationHandler(services),
        RunKind.HEATMAP: HeatmapHandler(services),
    }


def _direct_questions(services: Services) -> DirectRunHandler:
    from minds_bot.flows.ask import DirectRunHandler
    from minds_bot.flows.workflows import finish_ask_step

    handler = DirectRunHandler(services)
    handler.ended.append(functools.partial(finish_ask_step, services))  # a workflow step waiting on the answer
    return handler


def _plan_preparation(services: Services) -> PlanPreparation:
    from minds_bot.flows.planning import PlanPreparation
    from minds_bot.flows.stimulus import release_when_drafted
    from minds_bot.flows.workflows import finish_plan_step

    preparation = PlanPreparation(services)
    preparation.ended.append(release_when_drafted(services))  # the concept's file leaves once Minds drafted
    preparation.ended.append(functools.partial(finish_plan_step, services))  # a workflow step waiting on the plan
    return preparation


def _run_tracker(services: Services) -> RunTracking:
    from minds_bot.flows.tracking import RunTracker

    return RunTracker(
        store=services.store,
        handlers=services.run_handlers,
        clock=services.clock,
        holder=services.replica,
        renew_every=services.settings.minds_bot_lease_seconds / LEASE_RENEWALS,
        read_delay=services.minds.read_delay,
        language=services.languages.of_workspace,
        on_change=services.home_changed,
    )


def background_work(services: Services) -> list[Background]:
    """In start order: housekeeping, the follow-ups and the run tracker (it runs the handlers above) first, then
    the Home tabs, the passes that finish what a crash interrupted (questions, approvals), the chat closer, and
    the digest scheduler last."""
    from minds_bot.flows.ask import ask_resume
    from minds_bot.flows.chat import ChatCloser
    from minds_bot.flows.digests.flow import DigestFlow
    from minds_bot.flows.digests.scheduler import DigestScheduler
    from minds_bot.flows.housekeeping import Housekeeping
    from minds_bot.flows.research import approval_resume

    store, clock = services.store, services.clock
    return [
        Housekeeping(store=store, clock=clock),
        services.followups,
        services.tracker,
        services.home,
        ask_resume(services),
        approval_resume(services),
        ChatCloser(services),
        DigestScheduler(flow=DigestFlow.from_services(services), store=store, clock=clock),
    ]
