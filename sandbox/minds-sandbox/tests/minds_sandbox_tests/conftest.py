"""Fixtures: a sandbox on 127.0.0.1 with a manual clock, and an httpx client whose every JSON response is
checked against the shared OpenAPI."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import httpx
import pytest

from minds_sandbox import ManualClock, RunningSandbox, SandboxConfig, running_sandbox
from minds_sandbox.runtime import Sleeper
from minds_sandbox_tests.openapi_contract import load_contract

TEST_KEY = "minds_" + "0" * 48
OTHER_KEY = "minds_" + "1" * 48


@dataclass
class ContractLog:
    """Every response the client saw that the spec declares a schema for, and any violation."""

    checked: set[tuple[str, str, int]] = field(default_factory=set)
    violations: list[str] = field(default_factory=list)


@pytest.fixture
def contract_log() -> ContractLog:
    return ContractLog()


@pytest.fixture
def config() -> SandboxConfig:
    return SandboxConfig()


@pytest.fixture
async def sandbox(config: SandboxConfig) -> AsyncIterator[RunningSandbox]:
    async with running_sandbox(config, clock=ManualClock()) as running:
        yield running


def make_client(sandbox: RunningSandbox, log: ContractLog, *, key: str = TEST_KEY) -> httpx.AsyncClient:
    contract = load_contract()

    async def check(response: httpx.Response) -> None:
        await response.aread()
        if response.headers.get("content-type", "").startswith("application/json") and response.status_code < 300:
            errors = contract.errors(
                response.request.method, response.request.url.path, response.status_code, response.json()
            )
            if errors is not None:
                template = contract.template_for(response.request.url.path)
                log.checked.add((response.request.method, template or "", response.status_code))
                log.violations += [f"{response.request.method} {response.request.url.path}: {e}" for e in errors]

    return httpx.AsyncClient(
        base_url=sandbox.base_url,
        headers={"Authorization": f"Bearer {key}"},
        event_hooks={"response": [check]},
        timeout=10,
    )


@pytest.fixture
async def client(sandbox: RunningSandbox, contract_log: ContractLog) -> AsyncIterator[httpx.AsyncClient]:
    async with make_client(sandbox, contract_log) as http:
        yield http
    assert contract_log.violations == []


@contextlib.asynccontextmanager
async def sandbox_client(
    config: SandboxConfig, *, clock: ManualClock | None = None, sleep: Sleeper | None = None
) -> AsyncIterator[tuple[RunningSandbox, httpx.AsyncClient]]:
    """A sandbox of its own plus a schema-checked client, for tests that need a special config."""
    log = ContractLog()
    async with (
        running_sandbox(config, clock=clock or ManualClock(), sleep=sleep) as running,
        make_client(running, log) as http,
    ):
        yield running, http
    assert log.violations == []
