"""The baseline the ack-latency and start-up benchmarks compare minds-bot with: a bare slack-bolt ``AsyncApp``
that only acks, on the same aiohttp adapter minds-bot uses, with a ``/healthz`` route.

    python benchmarks/bare_bolt.py PORT     (SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_API_URL from the env)
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient


def build() -> web.Application:
    client = AsyncWebClient(token=os.environ["SLACK_BOT_TOKEN"], base_url=os.environ["SLACK_API_URL"])
    app = AsyncApp(signing_secret=os.environ["SLACK_SIGNING_SECRET"], client=client)

    @app.command("/minds")
    async def command(ack: Any) -> None:
        await ack()

    @app.action(re.compile(".*"))
    async def action(ack: Any) -> None:
        await ack()

    async def events(request: web.Request) -> web.Response:
        return await to_aiohttp_response(await app.async_dispatch(await to_bolt_request(request)))

    async def healthz(_: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    web_app = web.Application()
    web_app.router.add_post("/slack/events", events)
    web_app.router.add_get("/healthz", healthz)
    return web_app


if __name__ == "__main__":
    web.run_app(build(), host="127.0.0.1", port=int(sys.argv[1]), access_log=None, print=None)
