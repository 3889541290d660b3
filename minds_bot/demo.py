"""``minds-bot demo``: the whole product on one machine with no accounts.

Owns: starting the embedded Minds sandbox, the local Slack emulator and the real bot in HTTP mode (signature
verification on) against each other, with generated secrets and a fresh SQLite file in a temporary directory,
and stopping all three cleanly. Nothing here is a special demo mode of the bot: it is the same ``start_http``
that serves real Slack, pointed at local stand-ins. The page opens in the channel the console names
(``START_CHANNEL``) and says on every screen that the answers are simulated (``SIMULATED_NOTICE``); the ports
of the sandbox and the bot are free ones unless pinned. The sandbox and the emulator are distributions of their own
(``minds_sandbox``, ``slack_emulator``; the extra ``minds-bot[demo]``): only this module and ``cli`` import them, and
``cli`` imports this module only for ``minds-bot demo``.
Must not touch: listener behaviour.
"""

from __future__ import annotations

import asyncio
import secrets
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from minds_bot.app import HttpServer, start_http
from minds_bot.settings import Settings
from minds_bot.slack.manifest import ESCAPE_COMMAND_TEXT
from minds_bot.slack.surface import USER_CONTEXT, Surface
from minds_bot.store import SecretBox
from minds_sandbox import SandboxConfig, running_sandbox
from slack_emulator import Emulator, EmulatorConfig, StepSpec, running_emulator

DEFAULT_PAGE_PORT = 3300
DEMO_DB_NAME = "minds-bot-demo.sqlite3"
# The channel the console sends people to, and the one the page opens in.
START_CHANNEL = "research"
# What the page says on every screen: none of the answers come from Minds.
SIMULATED_NOTICE = (
    "Demo on this machine: the answers come from a local Minds simulator, not from Minds, and this page imitates "
    "Slack. Nothing leaves this machine."
)


@dataclass
class Demo:
    """The three running parts and where to look."""

    page_url: str
    minds_url: str
    bot_url: str
    emulator: Emulator
    bot: HttpServer


def demo_settings(
    *,
    slack_api_url: str,
    minds_api_url: str,
    minds_key: str,
    signing_secret: str,
    bot_token: str,
    db_path: Path,
    log_level: str = "INFO",
) -> Settings:
    return Settings.from_env(  # the environment may add to the demo (a chart font, JSON logs), a .env may not
        env_file=None,
        slack_bot_token=bot_token,
        slack_signing_secret=signing_secret,
        slack_api_url=slack_api_url,
        minds_api_url=minds_api_url,
        minds_api_key=minds_key,
        minds_bot_db=str(db_path),
        minds_bot_secret_key=SecretBox.generate_key(),
        log_level=log_level,
    )


def step_specs(surface: Surface) -> list[StepSpec]:
    """The app's workflow steps as the emulator offers them, from the same declarations as the manifest: the
    inputs a person types, those Slack fills with whoever runs the workflow (user_context), the outputs required."""
    return [
        StepSpec(
            callback_id=f.callback_id,
            title=f.title,
            inputs=tuple(p.name for p in f.inputs),
            outputs=tuple(p.name for p in f.outputs if p.required),
            user_context=tuple(p.name for p in f.inputs if p.type == USER_CONTEXT),
        )
        for f in surface.functions
    ]


@asynccontextmanager
async def running_demo(
    *,
    host: str = "127.0.0.1",
    page_port: int = DEFAULT_PAGE_PORT,
    minds_port: int = 0,
    bot_port: int = 0,
    workdir: Path | None = None,
    sandbox: SandboxConfig | None = None,
) -> AsyncIterator[Demo]:
    """Start sandbox, emulator and bot; yield where to find them; stop all three on exit.

    A port of 0 is any free one."""
    signing_secret = secrets.token_hex(16)
    bot_token = "xoxb-demo-" + secrets.token_hex(12)
    with tempfile.TemporaryDirectory(prefix="minds-bot-demo-") as tmp:
        db_path = (workdir or Path(tmp)) / DEMO_DB_NAME
        emulator_config = EmulatorConfig(
            host=host,
            port=page_port,
            signing_secret=signing_secret,
            bot_token=bot_token,
            start_channel=START_CHANNEL,
            notice=SIMULATED_NOTICE,
        )
        async with (
            running_sandbox(sandbox or SandboxConfig(), host=host, port=minds_port) as minds,
            running_emulator(emulator_config) as emu,
        ):
            settings = demo_settings(
                slack_api_url=emu.api_url,
                minds_api_url=minds.base_url,
                minds_key=minds.demo_key,
                signing_secret=signing_secret,
                bot_token=bot_token,
                db_path=db_path,
            )
            bot = await start_http(settings, host=host, port=bot_port)
            # The sandbox fetches a question's stimulus from the bot itself, at its local address.
            surface = await bot.bot.listeners_registered()  # the stimulus shelf is a listener's
            bot.bot.services.stimuli.base_url = bot.base_url
            try:
                shortcuts = [(s.callback_id, s.name) for s in surface.shortcuts if s.kind == "message"]
                emu.connect_bot(
                    f"{bot.base_url}/slack/events",
                    shortcuts=shortcuts,
                    unfurl_domains=surface.unfurl_domains,
                    escaped_commands=[c.command for c in surface.commands] if ESCAPE_COMMAND_TEXT else [],
                    steps=step_specs(surface),
                )
                yield Demo(
                    page_url=f"{emu.base_url}/#channel={START_CHANNEL}",
                    minds_url=minds.base_url,
                    bot_url=bot.base_url,
                    emulator=emu,
                    bot=bot,
                )
            finally:
                await bot.stop()


async def serve_demo(*, host: str, page_port: int, minds_port: int = 0, bot_port: int = 0) -> None:
    """Run the demo until cancelled (Ctrl-C)."""
    async with running_demo(host=host, page_port=page_port, minds_port=minds_port, bot_port=bot_port) as demo:
        print(
            "\nminds-bot demo is running: the Minds sandbox, a local Slack and the bot, all on this machine.\n"
            "  The answers are simulated locally; they do not come from Minds.\n"
            f"  Open {demo.page_url} and type /minds help in #{START_CHANNEL}.\n"
            f"  Minds sandbox API: {demo.minds_url}   bot: {demo.bot_url}/slack/events\n"
            "  Press Ctrl-C to stop. Nothing is kept after it stops.\n",
            flush=True,
        )
        await asyncio.Event().wait()
