"""The Bolt error hook: when a listener fails after its ack, answer the person privately, so no handler needs
its own blanket try/except. Unexpected errors get a reference the operator can find in the logs; the words come
from ``minds_bot.render.errors.user_message``.
Must not touch: listener behaviour.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from minds_bot.minds import MindsError
from minds_bot.render import escape
from minds_bot.render.errors import user_message
from minds_bot.store import StoreError

log = logging.getLogger(__name__)


async def on_error(error: Exception, body: dict[str, Any], respond: Any, logger: logging.Logger) -> None:
    """Bolt's error hook: log the failure with a reference and answer the user privately where possible."""
    reference = uuid.uuid4().hex[:8]
    expected = isinstance(error, (MindsError, StoreError))
    log.log(
        logging.WARNING if expected else logging.ERROR,
        "listener failed",
        exc_info=not expected,
        extra={"fields": {"reference": reference, "error": type(error).__name__}},
    )
    text = escape(user_message(error))
    if not expected:
        text += f" (reference {reference})"
    if respond is not None and (body.get("response_url") or body.get("response_urls") or body.get("actions")):
        try:
            await respond(text=text, response_type="ephemeral", replace_original=False)
        except Exception:  # noqa: BLE001 - the hook must never raise; the failure is already logged
            log.warning("could not tell the user about a failure", extra={"fields": {"reference": reference}})
