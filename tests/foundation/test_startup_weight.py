"""Start-up pays only for what every request needs: charting (Pillow) and PDF (fpdf) load on first use, the
PostgreSQL driver only for a PostgreSQL store, YAML only for ``minds-bot manifest``, and the embedded Minds
sandbox only when it is started (``minds-bot run`` parses its command line without it).

A fresh interpreter parses ``minds-bot run --http`` as the CLI does, builds the whole bot on SQLite (every
listener registered, store migrated, background work started) and reports which heavy modules it imported; an
operator would notice them as seconds of cold start and tens of megabytes of idle memory
(``benchmarks/startup.py`` measures both).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = ("matplotlib", "fpdf", "numpy", "PIL", "asyncpg", "yaml", "minds_bot.sandbox.minds_api.app")

SCRIPT = """
import asyncio, json, sys, tempfile
from minds_bot.app import start_http
from minds_bot.cli import build_parser
from minds_bot.settings import Settings
from minds_bot.store import SecretBox

async def main():
    build_parser().parse_args(["run", "--http"])
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            _env_file=None, slack_bot_token="xoxb-weight", slack_signing_secret="s" * 32,
            slack_api_url="http://127.0.0.1:9/api/", minds_api_url="http://127.0.0.1:9/api/v1",
            minds_api_key="minds_" + "a" * 48, minds_bot_db=tmp + "/weight.sqlite3",
            minds_bot_secret_key=SecretBox.generate_key(), log_level="ERROR",
        )
        server = await start_http(settings, host="127.0.0.1", port=0)
        loaded = [name for name in HEAVY if name in sys.modules]
        await server.stop()
    print(json.dumps(loaded))

HEAVY = %r
asyncio.run(main())
"""


def test_a_started_bot_has_not_loaded_charting_pdf_postgres_yaml_or_the_sandbox() -> None:
    done = subprocess.run(  # noqa: S603 - our own interpreter
        [sys.executable, "-c", SCRIPT % (HEAVY,)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
        check=True,
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
