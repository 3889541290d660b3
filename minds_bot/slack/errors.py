"""The Bolt error hook: when a listener fails after its ack, answer the person privately, so no handler needs
its own blanket try/except. Unexpected errors get a reference the operator can find in the logs; the words come
from ``minds_bot.render.errors.user_message``.

The hook answers through a ``response_url`` only for a request that passed the gate (``minds_bot.slack.gate``)
or came over Socket Mode, and only when that URL is Slack's (or the configured Slack's, for tests and the
demo): an unverified body must never make the bot call an address of someone else's choosing.
Must not touch: listener behaviour.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from minds_bot.i18n import _
from minds_bot.minds import MindsError
from minds_bot.render import escape
from minds_bot.render.errors import user_message
from minds_bot.slack.gate import is_slack_url, is_verified
from minds_bot.store import StoreError

log = logging.getLogger(__name__)

ErrorHook = Callable[..., Awaitable[None]]


def error_hook(*, slack_api_url: str) -> ErrorHook:
    """Bolt's error hook for an app whose Slack Web API is at ``slack_api_url``."""

    async def on_error(error: Exception, request: Any, context: Any, respond: Any) -> None:
        """Log the failure with a reference and answer the user privately where that is safe."""
        reference = uuid.uuid4().hex[:8]
        expected = isinstance(error, (MindsError, StoreError))
        log.log(
            logging.WARNING if expected else logging.ERROR,
            "listener failed",
            exc_info=not expected,
            extra={"fields": {"reference": reference, "error": type(error).__name__}},
        )
        url = (context or {}).get("response_url")
        if respond is None or not is_verified(request) or not is_slack_url(url, slack_api_url=slack_api_url):
            return
        text = escape(user_message(error))
        if not expected:
            # i18n: {text} says what went wrong; {reference} finds the failure in the bot's logs.
            text = _("{text} (reference {reference})", text=text, reference=reference)
        try:
            await respond(text=text, response_type="ephemeral", replace_original=False)
        except Exception:  # noqa: BLE001 - the hook must never raise; the failure is already logged
            log.warning("could not tell the user about a failure", extra={"fields": {"reference": reference}})

    return on_error
