"""``/minds runs <study>`` and the run handlers that follow approved research in threads.

Owns: registering ``ResearchRunHandler`` (``RunKind.RESEARCH``) and ``ConsistencyFollowUp``
(``RunKind.CONSISTENCY``) with the run tracker, the start-up resume of approvals a crash interrupted, and
the private list of a Study's runs, ten a page with **Older runs** (Minds' list read to the end — at most the
newest 1,000 — so a page says exactly which runs of how many it shows), each named by date, first question, n
and the state Minds reports, linked to its thread when the bot posted it — only runs the bot never posted (the
Study's) and runs whose thread is in a channel the person is in now; the others are counted, never named. The
**Older runs** value (Study id, runs to skip) is untrusted: read strictly, the clicker must be in the channel the
button is in (the gate's ``access.check``), and each page is read again from Minds and filtered through the gate
(``access.visible``) for the person clicking.
Must not touch: Minds wire shapes, SQL, Block Kit (``render/runs.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows import access
from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.run_links import hidden_runs, run_channels, thread_links
from minds_bot.i18n import _
from minds_bot.minds import Study, StudyDetail
from minds_bot.render.common import decode_value, render_stale_button
from minds_bot.render.run_pages import MAX_SKIP, RUNS_OLDER_ACTION, RUNS_PER_PAGE, STUDY_ID, render_run_page
from minds_bot.slack.grammar import Runs
from minds_bot.slack.listeners import pressed
from minds_bot.slack.resolve import resolve_study, show_progress, study_detail

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_runs(command: Runs, invocation: Invocation) -> None:
    if command.study is None:
        await invocation.say_text(_("Say `/minds runs <study>` to see a Study's recent runs."))
        return
    study = await resolve_study(invocation, command.study, rerun=lambda sid: f"runs {sid}")
    if study is None:
        return
    await show_runs(invocation, study, skip=0, replace=False)


async def show_runs(invocation: Invocation, study: Study | StudyDetail, *, skip: int, replace: bool) -> None:
    """The Study's runs ``skip + 1`` … ``skip + RUNS_PER_PAGE``, read from Minds to the end (bounded)."""
    minds = await invocation.minds()
    reading = minds.all_study_runs(study.id)
    history = await (reading if replace else with_progress(reading, show=lambda: show_progress(invocation)))
    page = history.items[skip : skip + RUNS_PER_PAGE]
    channels = await run_channels(invocation.services, team_id=invocation.team_id, run_ids=[r.run_id for r in page])
    hidden = await hidden_runs(invocation, channels)
    shown = [run for run in page if run.run_id not in hidden]
    detail = await study_detail(invocation, study) if shown else None  # names each run's first question and n
    links = await thread_links(invocation, [run.run_id for run in shown])
    messages = detail.messages if detail else ()
    message = render_run_page(
        history,
        skip=skip,
        study_id=study.id,
        study_name=study.name,
        messages=messages,
        thread_links=links,
        hidden=hidden,
    )
    await invocation.reply(message, replace=replace)


def read_older_value(value: object) -> tuple[str, int] | None:
    """(Study id, runs to skip) from an **Older runs** value the bot wrote; None for anything else."""
    state = decode_value(value)
    study_id, skip = state.get("s"), state.get("o")
    if not isinstance(study_id, str) or not STUDY_ID.match(study_id):
        return None
    if type(skip) is not int or not 0 < skip <= MAX_SKIP or skip % RUNS_PER_PAGE:
        return None
    return study_id, skip


async def older_runs(invocation: Invocation, value: object) -> None:
    """**Older runs** pressed: the value is untrusted — read strictly; the clicker must be in the channel."""
    state = read_older_value(value)
    if state is None:
        await invocation.reply(render_stale_button())
        return
    decision = await access.check(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        act=access.Act.SEE,
        channel_id=invocation.channel_id,
    )
    if decision.refused:
        await invocation.say_mrkdwn(decision.reason)
        return
    study_id, skip = state
    minds = await invocation.minds()
    study = await minds.get_study(study_id)  # the clicking workspace's key: another workspace's Study is not found
    await show_runs(invocation, study, skip=skip, replace=True)


async def press_older(invocation: Invocation, action: dict[str, Any]) -> None:
    await older_runs(invocation, action.get("value"))


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(RUNS_OLDER_ACTION)(pressed(press_older))


COMMANDS = {Runs: handle_runs}
