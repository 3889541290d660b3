"""Start-up pays only for what every request needs: charting (Pillow) and PDF (fpdf) load on first use, the
PostgreSQL driver only for a PostgreSQL store, YAML only for ``minds-bot manifest``, the embedded Minds
sandbox only when it is started (``minds-bot run`` parses its command line without it), httpx (and the
rich/click of its command line) with the first Minds request or Slack file, and APScheduler once the bot
serves: the digest scheduler starts just after ``/healthz`` answers.

A fresh interpreter parses ``minds-bot run --http`` as the CLI does, starts the bot on SQLite and reports which
heavy modules it had imported when it began serving (``/healthz`` 200): none of the above, nor the bot's own
heavier half (the listener modules, the run tracker, digests, the Minds client and models). Then it waits for
the warm-up and reports that every listener is registered (``/minds``), the run tracker follows runs and the
digest scheduler runs. An operator would notice those modules as cold start and idle memory
(``benchmarks/startup.py`` measures both against a bare Bolt app, and the first command's acknowledgement).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = (
    "matplotlib",
    "fpdf",
    "docx",
    "numpy",
    "PIL",
    "asyncpg",
    "yaml",
    "minds_sandbox",  # the Minds sandbox and the Slack emulator: distributions of their own (sandbox/)
    "slack_emulator",
    "httpx",
    "rich",
    "apscheduler",
    "prometheus_client",  # metrics: loaded with the first scrape or metric, not by start-up
    "pydantic_settings",  # settings read their environment themselves
    "dotenv",
    "cryptography",  # loaded with the first secret encrypted or read
    "difflib",  # loaded with the first name matched
    # The bot's own heavier half: the listener modules, the flows, renderers and Minds models they use load
    # just after the bot serves (app.Bot's warm-up), with a Slack request that comes earlier waiting for them.
    "minds_bot.minds.models",
    "minds_bot.minds.client",
    "minds_bot.slack.grammar",
    "minds_bot.slack.commands",
    "minds_bot.slack.plan",
    "minds_bot.slack.compare",
    "minds_bot.slack.workflows",
    "minds_bot.slack.home",
    "minds_bot.flows.tracking",
    "minds_bot.flows.digests",
    "minds_bot.render.results",
)

SCRIPT = """
import asyncio, base64, json, sys, tempfile
from minds_bot.app import start_http
from minds_bot.cli import build_parser
from minds_bot.settings import Settings

async def main():
    build_parser(sandbox_options=False).parse_args(["run", "--http"])  # as main() builds it for "run"
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            slack_bot_token="xoxb-weight", slack_signing_secret="s" * 32,
            slack_api_url="http://127.0.0.1:9/api/", minds_api_url="http://127.0.0.1:9/api/v1",
            minds_api_key="minds_" + "a" * 48, minds_bot_db=tmp + "/weight.sqlite3",
            minds_bot_secret_key=base64.urlsafe_b64encode(bytes(32)).decode(), log_level="ERROR",  # no Fernet
        )
        server = await start_http(settings, host="127.0.0.1", port=0)
        loaded = [name for name in HEAVY if name in sys.modules]
        try:
            surface = await server.bot.listeners_registered()
            await server.bot.background_started.wait()
            digests = server.bot.services.background[-1]
            scheduling = type(digests).__name__, digests.apscheduler.running
            commands = [c.command for c in surface.commands]
            tracking = server.bot.services.tracker._claiming._task  # the run tracker's loop
            tracker = tracking is not None and not tracking.done()
        finally:
            await server.stop()
    print(json.dumps({"loaded": loaded, "scheduling": scheduling, "commands": commands, "tracker": tracker}))

HEAVY = %r
asyncio.run(main())
"""


def test_a_serving_bot_has_not_loaded_charting_pdf_postgres_yaml_httpx_apscheduler_or_the_sandbox() -> None:
    done = subprocess.run(  # our own interpreter
        [sys.executable, "-c", SCRIPT % (HEAVY,)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["loaded"] == []
    assert report["scheduling"] == ["DigestScheduler", True]  # deferred, not dropped: digests still fire
    assert report["commands"] == ["/minds"]  # and every listener is registered just after
    assert report["tracker"] is True  # and runs are followed
