"""What a command handler knows about the request that invoked it, and the helpers every handler shares.

It lives among the flows because flows answer through it too (listeners build it from the Slack payload).

Owns: ``Invocation`` (who, where, how to answer), ``with_progress`` (show progress when work is slower than
about 2 s) and the per-workspace Minds client lookup for the invoking team.
Must not touch: rendering or Minds wire shapes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.minds import MindsClient
from minds_bot.render import Message, escape
from minds_bot.services import Services

T = TypeVar("T")
PROGRESS_AFTER_SECONDS = 2.0


@dataclass(frozen=True)
class Invocation:
    """One ``/minds`` command (or a button that re-enters a command) after its ack."""

    services: Services
    client: AsyncWebClient
    respond: Any  # Bolt's AsyncRespond for this request's response_url
    team_id: str
    channel_id: str
    user_id: str
    trigger_id: str | None = None
    # Set only when an approver's click re-runs a held action as its requester (``flows/spend.py``): the spend it
    # approved, which lets that one action through the channel's policy once.
    approved_spend: str | None = None

    async def minds(self) -> MindsClient:
        return await self.services.minds.client_for(self.team_id)

    async def reply(self, message: Message, *, replace: bool = False) -> None:
        """Answer privately (ephemeral) through the response URL."""
        await self.respond(response_type="ephemeral", replace_original=replace, **message.as_kwargs())

    async def say_text(self, text: str) -> None:
        """A short private note in plain words (``<study>`` and anyone's input shown as written, never parsed)."""
        await self.say_mrkdwn(escape(text))

    async def say_mrkdwn(self, text: str) -> None:
        """A short private note already built as mrkdwn (a ``Refused`` reason: input escaped, mentions built)."""
        await self.respond(response_type="ephemeral", replace_original=False, text=text)


async def with_progress(
    work: Awaitable[T], *, show: Callable[[], Awaitable[Any]], after: float = PROGRESS_AFTER_SECONDS
) -> T:
    """Await ``work``; if it is not done after ``after`` seconds, call ``show`` once (e.g. "Working on it…")."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=after)
    if not done:
        await show()
    return await task
