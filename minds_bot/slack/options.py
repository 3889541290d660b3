"""Answering Slack's options requests (external selects): within Slack's 3 s, whatever Minds does.

Owns: ``ack_options`` — the search's options, or, when Minds fails or is too slow, one option that says so (an
options reply has no room for an error message, and a submit of that option is refused by the dialog).
Must not touch: what is searched (the flows) or how options read (render).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from minds_bot.i18n import N_, _
from minds_bot.minds import MindsError
from minds_bot.render.errors import user_message
from minds_bot.render.modals import render_options_error
from minds_bot.store import StoreError

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck

OPTIONS_DEADLINE_SECONDS = 2.5  # Slack waits 3 s for the options; the ack itself needs the rest
TOO_SLOW = N_("Minds did not answer in time; type again to search.")


async def ack_options(ack: AsyncAck, search: Awaitable[list[dict[str, Any]]]) -> None:
    """Ack with the options ``search`` finds, or with one option saying why there are none to show."""
    try:
        found = await asyncio.wait_for(search, OPTIONS_DEADLINE_SECONDS)
    except TimeoutError:
        await ack(options=render_options_error(_(TOO_SLOW)))
    except (MindsError, StoreError) as exc:
        await ack(options=render_options_error(user_message(exc)))
    else:
        await ack(options=found)
