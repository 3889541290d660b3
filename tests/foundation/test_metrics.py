"""Where an operator finds the metrics: ``/metrics`` on the HTTP mode port, or on ``MINDS_BOT_METRICS_PORT`` (the
only HTTP a Socket Mode bot serves, and then off the Slack port); the sample Grafana dashboard graphs only
metrics the bot serves; a Minds operation label never carries an id; and start-up does not load
``prometheus_client`` (the first scrape does). The real app's scrape after a run is ``tests/e2e/test_metrics.py``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

from minds_bot import metrics
from minds_bot.app import HttpServer, serve_socket_mode, start_http
from minds_bot.minds import MindsError
from minds_bot.minds.client import _operation
from minds_bot.minds.errors import RequestInfo
from minds_bot.services import ChannelPacer, slack_web_client
from minds_bot.settings import Settings
from minds_bot.store import SecretBox
from tests.fakes.bot import bot_settings
from tests.fakes.minds_http import FakeMindsAPI, envelope, make_client, ok
from tests.fakes.slack_web import FakeSlack

DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana" / "minds-bot.json"
WAIT = 30.0  # a bound, not a timing
QUERIED = re.compile(r"\b(minds_bot_[a-z_]+|process_[a-z_]+)(?:\{([^}]*)\})?")


def dashboard() -> dict[str, Any]:
    return json.loads(DASHBOARD.read_text(encoding="utf-8"))


def _exprs() -> list[str]:
    exprs = []
    for panel in dashboard()["panels"]:
        exprs += [target["expr"] for target in panel.get("targets", [])]
    return exprs


def dashboard_metrics() -> set[str]:
    """The metric families the dashboard's queries read (a histogram's ``_bucket``/``_count`` as the family)."""
    return {re.sub(r"_(bucket|count|sum)$", "", m.group(1)) for e in _exprs() for m in QUERIED.finditer(e)}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def families(text: str) -> set[str]:
    names = {family.name for family in text_string_to_metric_families(text)}
    return names | {name + "_total" for name in names}


async def get(url: str) -> httpx.Response:
    async with httpx.AsyncClient(timeout=WAIT) as http:
        return await http.get(url)


def test_the_dashboard_is_grafana_json_and_graphs_only_what_the_bot_serves() -> None:
    board = dashboard()
    assert board["uid"] == "minds-bot" and board["panels"]
    text = metrics.exposition()[0].decode()
    served = families(text)
    queried = dashboard_metrics()
    assert queried and queried <= served, queried - served
    # Every bucket bound a query reads (le="3.0") is one of that histogram's bounds.
    histograms = {m.name: m for m in metrics._ALL if isinstance(m, metrics.Histogram)}
    for expr in _exprs():
        for match in QUERIED.finditer(expr):
            bound = re.search(r'le="([^"]+)"', match.group(2) or "")
            if bound:
                family = histograms[re.sub(r"_bucket$", "", match.group(1))]
                assert float(bound.group(1)) in family.buckets, (match.group(0), family.buckets)
    # Each of the bot's own metrics is graphed somewhere.
    assert {name for name in metrics.names() if name != "minds_bot_info"} <= queried, set(metrics.names()) - queried


@pytest.mark.parametrize(
    ("method", "path", "operation"),
    [
        ("GET", "/studies/st_8f2a/research-runs/rr-1", "GET /studies/{id}/research-runs/{id}"),
        ("POST", "/studies/T01EMU0000/research-plans/preview", "POST /studies/{id}/research-plans/preview"),
        ("GET", "/audiences/from-brief/jobs/U01ADA0001", "GET /audiences/from-brief/jobs/{id}"),
        ("GET", "/minds", "GET /minds"),
        ("GET", "/minds/anything-at-all", "GET /minds/{id}"),
    ],
)
def test_a_minds_operation_label_carries_no_id(method: str, path: str, operation: str) -> None:
    assert _operation(RequestInfo(method=method, path=path)) == operation


@pytest.fixture
async def http_bot(slack: FakeSlack, tmp_path: Path) -> AsyncIterator[tuple[HttpServer, int]]:
    port = free_port()
    settings = _settings(slack, tmp_path).model_copy(update={"minds_bot_metrics_port": port})
    server = await start_http(settings, host="127.0.0.1", port=0)
    yield server, port
    await server.stop()


def _settings(slack: FakeSlack, tmp_path: Path) -> Settings:
    return bot_settings(
        slack=slack, secret_key=SecretBox.generate_key(), minds_key=None, db=str(tmp_path / "bot.sqlite3")
    )


async def test_http_mode_serves_metrics_on_its_port(slack: FakeSlack, tmp_path: Path) -> None:
    server = await start_http(_settings(slack, tmp_path), host="127.0.0.1", port=0)
    try:
        reply = await get(server.base_url + "/metrics")
    finally:
        await server.stop()
    assert reply.status_code == 200
    assert "minds_bot_minds_requests_total" in families(reply.text)


async def test_with_a_metrics_port_the_scrape_moves_off_the_slack_port(http_bot: tuple[HttpServer, int]) -> None:
    server, port = http_bot
    assert server.metrics is not None and server.metrics.url == f"http://127.0.0.1:{port}/metrics"
    scraped = await get(server.metrics.url)
    assert scraped.status_code == 200 and "minds_bot_ack_duration_seconds" in families(scraped.text)
    assert (await get(server.base_url + "/metrics")).status_code == 404


async def test_socket_mode_serves_metrics_on_the_metrics_port(
    slack: FakeSlack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = free_port()
    settings = _settings(slack, tmp_path).model_copy(
        update={"slack_app_token": SecretStr("xapp-1-socket-test"), "minds_bot_metrics_port": port}
    )
    connected = asyncio.Event()

    async def connect(self: AsyncSocketModeHandler) -> None:  # Slack's WebSocket is not part of this test
        connected.set()

    async def close(self: AsyncSocketModeHandler) -> None:
        return None

    monkeypatch.setattr(AsyncSocketModeHandler, "connect_async", connect)
    monkeypatch.setattr(AsyncSocketModeHandler, "close_async", close)
    running = asyncio.create_task(serve_socket_mode(settings))
    try:
        waiting = asyncio.create_task(connected.wait())
        await asyncio.wait({running, waiting}, timeout=WAIT, return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        if running.done():
            running.result()  # it stopped: say why
        assert connected.is_set(), "the bot did not reach Socket Mode's connect"
        reply = await get(f"http://127.0.0.1:{port}/metrics")
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
    assert reply.status_code == 200
    assert {"minds_bot_runs_followed", "process_resident_memory_bytes"} <= families(reply.text)
    with pytest.raises(httpx.ConnectError):  # stopped with the bot
        await get(f"http://127.0.0.1:{port}/metrics")


SCRIPT = """
import asyncio, json, sys, tempfile, urllib.request
from minds_bot.app import start_http
from minds_bot.settings import Settings
from minds_bot.store import SecretBox

async def main():
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            slack_bot_token="xoxb-weight", slack_signing_secret="s" * 32,
            slack_api_url="http://127.0.0.1:9/api/", minds_api_url="http://127.0.0.1:9/api/v1",
            minds_api_key="minds_" + "a" * 48, minds_bot_db=tmp + "/weight.sqlite3",
            minds_bot_secret_key=SecretBox.generate_key(), log_level="ERROR",
        )
        server = await start_http(settings, host="127.0.0.1", port=0)
        before = "prometheus_client" in sys.modules
        status = await asyncio.to_thread(lambda: urllib.request.urlopen(server.base_url + "/metrics").status)
        after = "prometheus_client" in sys.modules
        await server.stop()
    print(json.dumps([before, status, after]))

asyncio.run(main())
"""


def test_start_up_does_not_load_prometheus_client_the_first_scrape_does() -> None:
    done = subprocess.run(  # our own interpreter
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
        check=True,
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [False, 200, True]


async def test_each_slack_429_is_counted_and_the_call_once_by_its_outcome(slack: FakeSlack) -> None:
    slack.throttled["chat.postMessage"] = 2  # busy twice, then the post goes through
    client = slack_web_client("xoxb-test-token", base_url=slack.api_url, pacer=ChannelPacer())
    limited, posted = (
        metrics.slack_rate_limited.value("chat.postMessage"),
        metrics.slack_calls.value("chat.postMessage", "ok"),
    )
    await client.chat_postMessage(channel="C0001", text="hello")
    assert metrics.slack_rate_limited.value("chat.postMessage") - limited == 2
    assert metrics.slack_calls.value("chat.postMessage", "ok") - posted == 1


async def test_a_minds_429_is_counted_by_operation_and_each_attempt_by_status() -> None:
    run = "GET /studies/{id}/research-runs/{id}"
    api = FakeMindsAPI().on(
        "GET", "/studies/st_1/research-runs/rr_1", envelope(429, headers={"Retry-After": "1"}), ok({"id": "rr_1"})
    )
    before = {s: metrics.minds_requests.value(run, s) for s in ("429", "200")}
    limited = metrics.minds_rate_limited.value(run)
    async with make_client(api) as minds:
        with contextlib.suppress(MindsError):  # the reply's shape is not this test's business
            await minds.get_research_run("st_1", "rr_1")
    assert {s: metrics.minds_requests.value(run, s) - before[s] for s in before} == {"429": 1, "200": 1}
    assert metrics.minds_rate_limited.value(run) - limited == 1
    assert metrics.minds_budget_wait_seconds.count() >= 2
