"""Failures the bot must survive: throttling, broken list bodies and server errors, each injected in the
sandbox and observed on the wire. Waiting happens in simulated time only (the client's sleep moves the
sandbox clock)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from minds_bot.minds import MalformedResponse, MindsClient, RateLimited, ServerError, ServiceUnavailable
from minds_sandbox import SandboxConfig
from tests.integration.conftest import Harness, harness
from tests.integration.seeds import LAUNCH_STUDY, PRICING_STUDY

STUDY_PATH = f"/api/v1/studies/{PRICING_STUDY}"


def _recover(h: Harness, **knobs: Any) -> None:
    """While the client waits to retry, the server recovers (the fault is switched off)."""

    def switch_off() -> None:
        faults = h.sandbox.runtime.engine.faults
        h.sandbox.runtime.engine.faults = faults.model_copy(update=knobs)

    h.on_sleep.append(switch_off)


async def test_a_throttled_read_waits_out_retry_after_and_succeeds(h: Harness) -> None:
    await h.set_faults(throttle_rate=1.0, retry_after_seconds=7)
    _recover(h, throttle_rate=0.0)

    study = await h.minds.get_study(PRICING_STUDY)

    assert study.name == "Pricing pulse"
    assert [e.status for e in h.log.matching("GET", STUDY_PATH)] == [429, 200]
    assert h.sleeps == [7.0]


async def test_persistent_throttling_gives_up_after_bounded_attempts(h: Harness) -> None:
    await h.set_faults(throttle_rate=1.0, retry_after_seconds=7)

    with pytest.raises(RateLimited) as throttled:
        await h.minds.get_study(PRICING_STUDY)

    assert throttled.value.retry_after == 7
    assert [e.status for e in h.log.matching("GET", STUDY_PATH)] == [429] * 4
    assert h.sleeps == [7.0] * 3


async def test_a_long_retry_after_is_not_waited_out(h: Harness) -> None:
    await h.set_faults(throttle_rate=1.0, retry_after_seconds=600)

    with pytest.raises(RateLimited) as throttled:
        await h.minds.get_study(PRICING_STUDY)

    assert throttled.value.retry_after == 600
    assert len(h.log.matching("GET", STUDY_PATH)) == 1 and h.sleeps == []


def _listers() -> dict[str, Callable[[MindsClient], AsyncIterator[Any]]]:
    return {
        "/api/v1/studies": lambda m: m.iter_studies(),
        "/api/v1/audiences": lambda m: m.iter_audiences(),
        "/api/v1/minds": lambda m: m.iter_minds(),
    }


@pytest.mark.parametrize("mode", ["missing_pagination", "data_not_list", "empty_page"])
@pytest.mark.parametrize("path", sorted(_listers()))
async def test_a_malformed_list_is_an_error_never_an_empty_result(h: Harness, mode: str, path: str) -> None:
    await h.set_faults(malformed_lists=mode)
    seen: list[Any] = []

    with pytest.raises(MalformedResponse):
        async for item in _listers()[path](h.minds):
            seen.append(item)

    assert seen == []
    assert len(h.log.matching("GET", path)) == 1  # not retried into a different answer


@pytest.mark.parametrize("mode", ["missing_pagination", "data_not_list", "empty_page"])
async def test_a_name_lookup_over_a_malformed_list_fails_instead_of_not_found(h: Harness, mode: str) -> None:
    await h.set_faults(malformed_lists=mode)

    with pytest.raises(MalformedResponse):
        await h.minds.find_study("Pricing pulse")


async def test_an_unkeyed_list_body_that_is_not_a_list_is_an_error(h: Harness) -> None:
    await h.set_faults(malformed_lists="data_not_list")

    with pytest.raises(MalformedResponse):
        await h.minds.research_methods()


async def test_a_server_error_on_an_unkeyed_post_is_not_retried(h: Harness) -> None:
    await h.set_faults(error_rates={"POST /api/v1/studies": 1.0})
    studies_before = len(h.sandbox.runtime.state.studies)

    with pytest.raises(ServerError):
        await h.minds.create_study(name="Retail pulse")

    assert [e.status for e in h.log.matching("POST", "/api/v1/studies")] == [500]
    assert h.sleeps == [] and len(h.sandbox.runtime.state.studies) == studies_before


async def test_a_server_error_on_export_start_is_not_retried(h: Harness) -> None:
    await h.set_faults(error_rates={"POST */export": 1.0}, error_status=502)

    with pytest.raises(ServerError):
        await h.minds.start_export(LAUNCH_STUDY, kind="full_report", format="md")

    assert [e.status for e in h.log.matching("POST", f"/api/v1/studies/{LAUNCH_STUDY}/export")] == [502]
    assert h.sandbox.runtime.state.exports == {}


async def test_a_server_error_on_a_read_is_retried(h: Harness) -> None:
    await h.set_faults(error_rates={f"GET {STUDY_PATH}": 1.0})
    _recover(h, error_rates={})

    study = await h.minds.get_study(PRICING_STUDY)

    assert study.id == PRICING_STUDY
    assert [e.status for e in h.log.matching("GET", STUDY_PATH)] == [500, 200]


async def test_a_keyed_post_is_retried_with_the_same_key_and_makes_one_copy(h: Harness) -> None:
    await h.set_faults(error_rates={"POST */duplicate": 1.0}, error_status=503)
    _recover(h, error_rates={})
    key = str(uuid.uuid4())
    studies_before = len(h.sandbox.runtime.state.studies)

    copy = await h.minds.duplicate_study(LAUNCH_STUDY, idempotency_key=key)

    attempts = h.log.matching("POST", f"/api/v1/studies/{LAUNCH_STUDY}/duplicate")
    assert [e.status for e in attempts] == [503, 201]
    assert {e.idempotency_key for e in attempts} == {key}
    assert not copy.replayed and len(h.sandbox.runtime.state.studies) == studies_before + 1


async def test_an_unavailable_service_on_a_keyed_post_gives_up_with_a_typed_error(h: Harness) -> None:
    await h.set_faults(error_rates={"POST */duplicate": 1.0}, error_status=503)
    studies_before = len(h.sandbox.runtime.state.studies)

    with pytest.raises(ServiceUnavailable):
        await h.minds.duplicate_study(LAUNCH_STUDY, idempotency_key=str(uuid.uuid4()))

    assert len(h.log.matching("POST", f"/api/v1/studies/{LAUNCH_STUDY}/duplicate")) == 4
    assert len(h.sandbox.runtime.state.studies) == studies_before


async def test_the_client_paces_itself_under_the_real_per_key_limit() -> None:
    async with harness(SandboxConfig(rate_limit_per_minute=5)) as h:
        for _ in range(12):
            assert (await h.minds.get_study(PRICING_STUDY)).id == PRICING_STUDY

        statuses = [e.status for e in h.log.matching("GET", STUDY_PATH)]
        assert statuses == [200] * 12  # it never tripped the limit, so nothing was refused or retried
        assert len(h.sleeps) == 2 and sum(h.sleeps) >= 2 * 60  # it waited for two window resets
