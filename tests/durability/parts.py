"""Shared parts of the durability tests: the real
bot (``start_http``) between the Slack emulator and the Minds sandbox, restartable on one SQLite file."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from minds_bot.app import HttpServer, start_http
from minds_bot.demo import step_specs
from minds_bot.settings import Settings
from minds_bot.store import SecretBox
from minds_sandbox import ManualClock, RunningSandbox, SandboxConfig, running_sandbox
from slack_emulator import Emulator, EmulatorConfig, running_emulator
from tests.fakes.bot import Clock

WAIT = 20.0  # a bound on awaited events, never a timing


@dataclass
class World:
    """Minds sandbox + Slack emulator + settings for a bot on ``db_path``; bots come and go, the file stays."""

    minds: RunningSandbox
    emu: Emulator
    settings: Settings
    clock: Clock
    crashed: list[HttpServer] = field(default_factory=list)

    async def start_bot(self) -> HttpServer:
        server = await start_http(self.settings, host="127.0.0.1", port=0, clock=self.clock)
        await server.bot.warm()  # the tests tick its run tracker and stop its background work by hand
        surface = await server.bot.listeners_registered()
        self.emu.connect_bot(f"{server.base_url}/slack/events", steps=step_specs(surface))
        return server

    async def crash(self, server: HttpServer) -> None:
        """Stop a bot the way a killed process stops: its HTTP site and background tasks are gone, but nothing
        is flushed or closed (the SQLite connection and Minds clients are left as a dead process leaves them)."""
        await server.runner.cleanup()
        for work in reversed(server.bot.services.background):
            await work.stop()  # cancels the task mid-await, wherever it is
        server.bot.ready = False
        self.crashed.append(server)

    def finish_runs(self, *, max_steps: int = 200) -> None:
        """Move the sandbox clock until every research run it holds is terminal."""
        step = self.minds.runtime.engine.step
        for _ in range(max_steps):
            runs = self.minds.runtime.state.runs.values()
            if runs and all(r["status"] not in ("queued", "running") for r in runs):
                return
            self.minds.advance(step)
        raise AssertionError(f"the sandbox runs did not finish within {max_steps} steps")


@asynccontextmanager
async def world(tmp_path: Path) -> AsyncIterator[World]:
    signing_secret = secrets.token_hex(16)
    bot_token = "xoxb-durability-" + secrets.token_hex(8)
    emulator_config = EmulatorConfig(host="127.0.0.1", port=0, signing_secret=signing_secret, bot_token=bot_token)
    async with (
        running_sandbox(SandboxConfig(), clock=ManualClock()) as minds,
        running_emulator(emulator_config) as emu,
    ):
        settings = Settings(
            slack_bot_token=bot_token,
            slack_signing_secret=signing_secret,
            slack_api_url=emu.api_url,
            minds_api_url=minds.base_url,
            minds_api_key=minds.demo_key,
            minds_bot_db=str(tmp_path / "bot.sqlite3"),
            minds_bot_secret_key=SecretBox.generate_key(),
        )
        running = World(minds=minds, emu=emu, settings=settings, clock=Clock())
        try:
            yield running
        finally:
            for server in running.crashed:  # the dead process's handles, released only now
                await server.bot.services.minds.aclose()
                await server.bot.services.store.close()
