"""Prometheus metrics an operator can graph: what the bot counts and times, and the text a scrape reads.

Owns: every metric's name, help text, labels and buckets (the table at the end of this module; docs/operating.md's
*Metrics* and ``deploy/grafana/minds-bot.json`` name the same metrics, and a test holds them to it), the
cheap in-process recording the narrow waists call (the Minds client's one request method, the Slack Web API
client, the ack middleware, the run tracker, the store, the digest scheduler), and ``exposition()``: the
Prometheus text format, rendered by ``prometheus_client`` together with its process and Python collectors.
``prometheus_client`` is imported on the first scrape only, so start-up does not pay for it (about 10 ms);
recording is a dictionary update.
Labels are small fixed vocabularies (a Minds operation such as ``GET /studies/{id}``, an HTTP status, a Slack
method, a kind of run) — never a workspace, channel, user or run id. What is kept per workspace (the Minds
requests waiting for a workspace's budget) is reported summed and as its deepest workspace, without naming one.
Metrics are per process (one registry, like ``prometheus_client``'s default); each replica is scraped on its own.
Must not touch: Slack, Minds, the store or settings (every layer imports this module; it imports none of them).
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from minds_bot import __version__

PREFIX = "minds_bot_"
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
WAIT_BUCKETS = (0.001, 0.01, 0.1, 0.5, 1.0, 5.0, 15.0, 30.0, 60.0)
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)
ACK_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)

_ALL: list[_Metric] = []


class _Metric:
    kind = ""

    def __init__(self, name: str, documentation: str, labels: tuple[str, ...] = ()) -> None:
        self.name = PREFIX + name
        self.documentation = documentation
        self.labels = labels
        _ALL.append(self)

    def _check(self, values: tuple[str, ...]) -> tuple[str, ...]:
        if len(values) != len(self.labels):
            raise ValueError(f"{self.name} takes the labels {self.labels}, got {values}")
        return values

    def family(self, core: Any) -> Any:
        raise NotImplementedError


class Counter(_Metric):
    """A count that only grows (exposed with the ``_total`` suffix)."""

    kind = "counter"

    def __init__(self, name: str, documentation: str, labels: tuple[str, ...] = ()) -> None:
        super().__init__(name, documentation, labels)
        self._values: dict[tuple[str, ...], float] = {} if labels else {(): 0.0}

    def inc(self, *labels: str, amount: float = 1.0) -> None:
        key = self._check(labels)
        self._values[key] = self._values.get(key, 0.0) + amount

    def value(self, *labels: str) -> float:
        return self._values.get(labels, 0.0)

    def family(self, core: Any) -> Any:
        family = core.CounterMetricFamily(self.name, self.documentation, labels=self.labels)
        for labels, value in sorted(self._values.items()):
            family.add_metric(list(labels), value)
        return family


class Gauge(_Metric):
    """A value that goes up and down; ``read`` (optional) computes it at scrape time instead."""

    kind = "gauge"

    def __init__(
        self,
        name: str,
        documentation: str,
        labels: tuple[str, ...] = (),
        *,
        read: Callable[[], Mapping[tuple[str, ...], float]] | None = None,
    ) -> None:
        super().__init__(name, documentation, labels)
        self._values: dict[tuple[str, ...], float] = {} if labels else {(): 0.0}
        self._read = read

    def inc(self, *labels: str, amount: float = 1.0) -> None:
        key = self._check(labels)
        self._values[key] = self._values.get(key, 0.0) + amount

    def dec(self, *labels: str, amount: float = 1.0) -> None:
        self.inc(*labels, amount=-amount)

    def value(self, *labels: str) -> float:
        values = self._read() if self._read is not None else self._values
        return values.get(labels, 0.0)

    def family(self, core: Any) -> Any:
        family = core.GaugeMetricFamily(self.name, self.documentation, labels=self.labels)
        values = self._read() if self._read is not None else self._values
        for labels, value in sorted(values.items()):
            family.add_metric(list(labels), value)
        return family


class Histogram(_Metric):
    """How long things took (or how many), in cumulative buckets with a sum and a count."""

    kind = "histogram"

    def __init__(
        self, name: str, documentation: str, labels: tuple[str, ...] = (), *, buckets: tuple[float, ...]
    ) -> None:
        super().__init__(name, documentation, labels)
        self.buckets = tuple(sorted(buckets))
        self._series: dict[tuple[str, ...], tuple[list[int], list[float]]] = {}

    def observe(self, value: float, *labels: str) -> None:
        key = self._check(labels)
        series = self._series.get(key)
        if series is None:
            series = self._series[key] = ([0] * (len(self.buckets) + 1), [0.0])
        series[0][bisect_left(self.buckets, value)] += 1  # the first bucket whose bound is >= value
        series[1][0] += value

    @contextmanager
    def time(self, *labels: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.observe(time.perf_counter() - started, *labels)

    def count(self, *labels: str) -> int:
        series = self._series.get(labels)
        return sum(series[0]) if series else 0

    def family(self, core: Any) -> Any:
        from prometheus_client.utils import floatToGoString

        family = core.HistogramMetricFamily(self.name, self.documentation, labels=self.labels)
        for labels, (counts, total) in sorted(self._series.items()):
            cumulative, buckets = 0, []
            for bound, count in zip((*self.buckets, float("inf")), counts, strict=True):
                cumulative += count
                buckets.append((floatToGoString(bound), cumulative))
            family.add_metric(list(labels), buckets, sum_value=total[0])
        return family


class QueueDepths:
    """How many requests wait per queue (one per workspace's Minds budget), named by the queue's object and
    never by a workspace: ``total`` and ``deepest`` are what a scrape shows."""

    def __init__(self) -> None:
        self._depths: dict[int, int] = {}

    @contextmanager
    def waiting(self, queue: object) -> Iterator[None]:
        key = id(queue)
        self._depths[key] = self._depths.get(key, 0) + 1
        try:
            yield
        finally:
            left = self._depths[key] - 1
            if left:
                self._depths[key] = left
            else:
                del self._depths[key]

    def total(self) -> int:
        return sum(self._depths.values())

    def deepest(self) -> int:
        return max(self._depths.values(), default=0)

    def queues(self) -> int:
        return len(self._depths)


def exposition() -> tuple[bytes, str]:
    """The scrape: every metric of this process in Prometheus' text format, and its content type."""
    from prometheus_client import CONTENT_TYPE_PLAIN_0_0_4, generate_latest

    return generate_latest(_registry()), CONTENT_TYPE_PLAIN_0_0_4


_REGISTRY: Any = None


def _registry() -> Any:
    global _REGISTRY
    if _REGISTRY is None:
        from prometheus_client import (
            CollectorRegistry,
            GCCollector,
            PlatformCollector,
            ProcessCollector,
        )
        from prometheus_client import metrics_core as core

        class _Ours:
            def collect(self) -> Iterator[Any]:
                for metric in _ALL:
                    yield metric.family(core)

        registry = CollectorRegistry(auto_describe=False)
        registry.register(_Ours())
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        _REGISTRY = registry
    return _REGISTRY


def names() -> list[str]:
    """Every metric name this module defines, as a scrape shows it (counters with ``_total``)."""
    return [m.name + "_total" if m.kind == "counter" else m.name for m in _ALL]


# --- the metrics ---------------------------------------------------------------------------------------------

MINDS_QUEUES = QueueDepths()

info = Gauge("info", "The running minds-bot (always 1), labelled with its version.", ("version",))
info.inc(__version__)

minds_requests = Counter(
    "minds_requests",
    "Minds API requests sent, by operation (method and path with ids as {id}) and HTTP status (or timeout, "
    "connection_error). A retried request counts once per attempt.",
    ("operation", "status"),
)
minds_request_seconds = Histogram(
    "minds_request_duration_seconds",
    "How long a Minds API request took to answer, by operation (after any wait for the budget).",
    ("operation",),
    buckets=LATENCY_BUCKETS,
)
minds_rate_limited = Counter(
    "minds_rate_limited", "Minds API answers 429 Too Many Requests, by operation.", ("operation",)
)
minds_budget_wait_seconds = Histogram(
    "minds_budget_wait_seconds",
    "How long a Minds request waited for its workspace's Minds budget (requests a minute) before it was sent.",
    buckets=WAIT_BUCKETS,
)
minds_queued = Gauge(
    "minds_queued_requests",
    "Minds requests waiting for their workspace's budget now, all workspaces together.",
    read=lambda: {(): float(MINDS_QUEUES.total())},
)
minds_queued_max = Gauge(
    "minds_queued_requests_max",
    "Minds requests waiting for the budget in the workspace with the most waiting now (no workspace is named).",
    read=lambda: {(): float(MINDS_QUEUES.deepest())},
)
minds_queued_workspaces = Gauge(
    "minds_queued_workspaces",
    "Workspaces (Minds budgets) with at least one request waiting now.",
    read=lambda: {(): float(MINDS_QUEUES.queues())},
)
slack_calls = Counter(
    "slack_api_calls",
    "Slack Web API calls made, by method and outcome (ok, error, rate_limited, failed: no answer).",
    ("method", "outcome"),
)
slack_call_seconds = Histogram(
    "slack_api_call_duration_seconds",
    "How long a Slack Web API call took, by method (its channel pacing and 429 retries included).",
    ("method",),
    buckets=LATENCY_BUCKETS,
)
slack_rate_limited = Counter(
    "slack_rate_limited",
    "Slack Web API answers 429 (each one, also those retried after Retry-After), by method.",
    ("method",),
)
ack_seconds = Histogram(
    "ack_duration_seconds",
    "From a Slack request reaching Bolt to its acknowledgement (Slack allows 3 s), by kind of request.",
    ("kind",),
    buckets=ACK_BUCKETS,
)
runs_followed = Gauge(
    "runs_followed",
    "Runs (research, questions, exports, builds …) this process is following right now, by kind.",
    ("kind",),
)
run_changes = Counter(
    "run_state_changes",
    "Run state changes the tracker saw, by kind of run and state: started (followed from now), progress (what "
    "people see changed), finished (result posted), lost (Minds no longer finds it), read_failed (looked again "
    "later).",
    ("kind", "state"),
)
lease_takeovers = Counter(
    "lease_takeovers",
    "Work taken over from a replica whose lease ran out (it died or stalled), by kind of work.",
    ("work",),
)
digest_fires = Counter(
    "digest_fires",
    "Digest windows that came due and what became of them: posted, quiet_skipped, taken (another replica), "
    "gone, failed.",
    ("outcome",),
)
store_seconds = Histogram(
    "store_operation_duration_seconds",
    "How long a store operation took (waiting for the connection or write lock included), by operation.",
    ("operation",),
    buckets=STORE_BUCKETS,
)
