"""What an operator graphs and reads, scraped from the real bot in HTTP mode against the emulator and sandbox:
``GET /metrics`` after a command and a research run shows the Minds requests by operation and status, the Slack
Web API calls, the ack times, the run's state changes, the store's timings and the budget waits — and never a
workspace, channel or user id as a label. The console at INFO shows one line a command and one a run state change,
and no HTTP call."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from minds_bot.log import configure_logging
from tests.e2e.desk import WAIT, Desk, open_desk, shown
from tests.e2e.test_research_outcomes import REQUEST
from tests.foundation.test_metrics import dashboard_metrics

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
# Slack's ids: workspaces T…, users U…/W…, channels C…/G…/D…, Enterprise Grid E… (capitals and digits).
START = "POST /studies/{id}/research-runs"  # approving the plan starts one research run
SLACK_ID = re.compile(r"\b[TUWCGDE][A-Z0-9]{7,}\b")


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    configure_logging(level="INFO", fmt="text", stream=stream)  # as `minds-bot run` configures it
    yield stream
    root = logging.getLogger()
    configure_logging(level="WARNING", fmt="text", stream=io.StringIO())
    root.handlers = [h for h in root.handlers if h.get_name() != "minds-bot"]


@pytest.fixture
async def desk(tmp_path: Path, console: io.StringIO) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as opened:
        yield opened


async def scrape(desk: Desk) -> tuple[str, Samples]:
    async with httpx.AsyncClient(base_url=desk.demo.bot_url, timeout=WAIT) as http:
        reply = await http.get("/metrics")
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/plain")
    samples: Samples = {}
    for family in text_string_to_metric_families(reply.text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return reply.text, samples


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(value for (sample, have), value in samples.items() if sample == name and wanted <= have)


async def test_a_scrape_after_a_command_and_a_run_shows_what_moved_and_no_ids(desk: Desk, console: io.StringIO) -> None:
    _, before = await scrape(desk)
    plan = await desk.answered_plan(desk.ben, REQUEST)
    # One step a second (the demo's is 0.05 s): the run is still going at the tracker's first poll (2 s ± 20 %),
    # so the progress it shows in the thread is a state change the scrape must count.
    await desk.faults(run_speed=0.05)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)
    await desk.wait(lambda: "Completed:" in " ".join(shown(m) for m in desk.emu.state.replies(desk.research, plan.ts)))
    await desk.wait(lambda: re.search(r'msg="run finished".*kind=research', console.getvalue()))
    text, after = await scrape(desk)

    def moved(name: str, **labels: str) -> float:
        return total(after, name, **labels) - total(before, name, **labels)

    # Minds requests by operation and status, timed; the ids in their paths are {id}.
    started = {
        dict(labels)["status"]
        for (name, labels), _ in after.items()
        if name == "minds_bot_minds_requests_total" and ("operation", START) in labels
    }
    assert moved("minds_bot_minds_requests_total", operation=START) == 1 and started == {"200"}, started
    assert moved("minds_bot_minds_requests_total", operation="GET /studies/{id}/research-runs/{id}", status="200")
    assert moved("minds_bot_minds_request_duration_seconds_count", operation="GET /studies/{id}/research-runs/{id}")
    assert moved("minds_bot_minds_budget_wait_seconds_count") >= moved("minds_bot_minds_requests_total")
    # Slack's Web API calls by method and outcome, and the acks of the command and the clicks.
    assert moved("minds_bot_slack_api_calls_total", method="chat.postMessage", outcome="ok") >= 1
    assert moved("minds_bot_slack_api_call_duration_seconds_count", method="chat.postMessage") >= 1
    assert moved("minds_bot_ack_duration_seconds_count", kind="command") == 1
    assert moved("minds_bot_ack_duration_seconds_count", kind="action") >= 2  # a question answered, Approve
    assert moved("minds_bot_ack_duration_seconds_bucket", kind="command", le="3.0") == 1  # within Slack's 3 s
    # The run, followed from start to its posted result; the store's operations, timed by name.
    for state in ("started", "finished"):
        assert moved("minds_bot_run_state_changes_total", kind="research", state=state) == 1, state
    assert moved("minds_bot_run_state_changes_total", kind="research", state="progress") >= 1
    assert total(after, "minds_bot_runs_followed", kind="research") == 0  # posted: no longer followed
    assert moved("minds_bot_store_operation_duration_seconds_count", operation="claim_due_runs") >= 1
    assert moved("minds_bot_store_operation_duration_seconds_count", operation="mark_terminal_posted") >= 1
    # Every metric the sample dashboard graphs is in the scrape.
    served = {family.name for family in text_string_to_metric_families(text)}
    assert dashboard_metrics() <= served | {name + "_total" for name in served}

    # No label names a workspace, channel or person.
    ids = {desk.emu.config.team_id, desk.research, desk.ada, desk.ben, desk.chloe, plan.ts}
    for (_, labels), _value in after.items():
        for _key, value in labels:
            assert not SLACK_ID.search(value) and not any(i in value for i in ids), value

    # The console: one INFO line for the command and each click, one a run state change, no HTTP call.
    lines = console.getvalue().splitlines()
    info = [line for line in lines if "level=info" in line]
    assert len([line for line in info if 'msg="/minds plan"' in line]) == 1
    assert len([line for line in info if 'msg="action plan_approve"' in line]) == 1
    runs = [line for line in info if "logger=minds_bot.flows.tracking" in line and "kind=research" in line]
    assert [line for line in runs if 'msg="run started"' in line].__len__() == 1
    assert [line for line in runs if 'msg="run finished"' in line].__len__() == 1
    progress = [re.search(r'shown=("[^"]*"|\S+)', line) for line in runs if 'msg="run progress"' in line]
    assert progress and len({m.group(1) for m in progress if m}) == len(progress), "a state logged twice"
    assert not [line for line in info if "HTTP Request" in line or "aiohttp.access" in line], "HTTP at INFO"
