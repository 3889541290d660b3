"""The Bolt error hook: when a listener fails after its ack, answer the person privately, so no handler needs
its own blanket try/except. Unexpected errors get a reference the operator can find in the logs; the words come
from ``minds_bot.render.errors.user_message``.

``say_failure_privately`` is the same words for a dialog's failure the listener catches itself.

``acked_first`` wraps every listener (``Surface`` applies it): a failure after the listener's ``ack()`` goes to
the hook from the listener's own task and never back to Bolt, whose runner would otherwise clear the ack it
already has and answer Slack 404 after three seconds (``dispatch_failed``) when the failure came within
milliseconds of the ack. A failure before the ack still goes to Bolt (500, and the same hook).

The store unreachable before the request was acknowledged (``StoreUnavailableError`` from a middleware — the
once-per-delivery check asks the store first — or from a listener before its ``ack()``) is no 500: the hook returns
the acknowledgement ``minds_bot.slack.outage`` gives, which tells the person once that nothing was done.

The hook answers only a request that passed the gate (``minds_bot.slack.gate``) or came over Socket Mode: through
its ``response_url`` only when that URL is Slack's (or the configured Slack's, for tests and the demo), so an
unverified body never makes the bot call an address of someone else's choosing; a request without one (the App
Home, a dialog) is answered in the person's DM with the bot.
Must not touch: listener behaviour.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.kwargs_injection.async_utils import build_async_required_kwargs
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_bolt.response import BoltResponse
from slack_bolt.util.utils import get_arg_names_of_callable

from minds_bot.i18n import _
from minds_bot.minds import MindsError
from minds_bot.render import escape
from minds_bot.render.errors import dialog_too_late, slack_unreadable, user_message
from minds_bot.slack.gate import is_slack_url, is_verified
from minds_bot.slack.outage import OutageAnswers
from minds_bot.store import StoreError, StoreUnavailableError

log = logging.getLogger(__name__)

ErrorHook = Callable[..., Awaitable[BoltResponse | None]]
# What a person did on the App Home or in a dialog (no response_url): a failure is told in their DM.
DM_WHEN_NO_RESPONSE_URL = frozenset({"block_actions", "view_submission", "shortcut"})


def error_hook(*, slack_api_url: str, outage: OutageAnswers | None = None) -> ErrorHook:
    """Bolt's error hook for an app whose Slack Web API is at ``slack_api_url``; ``outage`` answers requests the
    store's outage stopped before their acknowledgement."""

    async def on_error(
        error: Exception, request: Any, context: Any, respond: Any, response: BoltResponse | None = None
    ) -> BoltResponse | None:
        """Log the failure with a reference and answer the user privately where that is safe. ``response`` is
        Bolt's (a 500) while the request is not acknowledged yet, None once it is."""
        if isinstance(error, StoreUnavailableError) and response is not None and outage is not None:
            return await outage.answer(error, request=request, context=context or {}, respond=respond)
        reference = uuid.uuid4().hex[:8]
        expected = isinstance(error, (MindsError, StoreError)) or dialog_too_late(error) or slack_unreadable(error)
        log.log(
            logging.WARNING if expected else logging.ERROR,
            "listener failed",
            exc_info=not expected,
            extra={"fields": {"reference": reference, "error": type(error).__name__}},
        )
        if not is_verified(request):
            return None
        text = escape(user_message(error))
        if not expected:
            # i18n: {text} says what went wrong; {reference} finds the failure in the bot's logs.
            text = _("{text} (reference {reference})", text=text, reference=reference)
        try:
            await _tell(context or {}, respond, text=text, slack_api_url=slack_api_url, body=request.body)
        except Exception:  # noqa: BLE001 - the hook must never raise; the failure is already logged
            log.warning("could not tell the user about a failure", extra={"fields": {"reference": reference}})
        return None

    return on_error


async def _tell(context: Any, respond: Any, *, text: str, slack_api_url: str, body: Any) -> None:
    """Privately through the request's ``response_url`` when it is Slack's; a click on the App Home or in a
    dialog has none, so the person's DM with the bot (its Messages tab) gets it instead. Events (a link
    posted, the Home opened) are not something a person asked for: their failures are only logged."""
    url = context.get("response_url")
    if url is not None:
        if respond is not None and is_slack_url(url, slack_api_url=slack_api_url):
            await respond(text=text, response_type="ephemeral", replace_original=False)
        return
    if not isinstance(body, dict) or body.get("type") not in DM_WHEN_NO_RESPONSE_URL:
        return
    client, user = context.get("client"), context.get("user_id")
    if client is not None and isinstance(user, str) and user:
        await client.chat_postMessage(channel=user, text=text)


def acked_first(listener: Callable[..., Awaitable[Any]], *, on_error: ErrorHook) -> Callable[..., Awaitable[Any]]:
    """``listener`` as Bolt runs it, except that a failure after its ``ack()`` is reported by ``on_error`` here
    and not raised to Bolt, so the acknowledgement Slack already has stands (200 within the ack)."""
    names = get_arg_names_of_callable(listener)

    async def run(request: AsyncBoltRequest) -> Any:
        kwargs = build_async_required_kwargs(
            logger=log, required_arg_names=list(names), request=request, response=None, this_func=listener
        )
        try:
            return await listener(**kwargs)
        except Exception as error:
            context = request.context
            if context.ack is None or context.ack.response is None:
                raise  # not acknowledged yet: Bolt calls the same hook, which answers (else 500)
            await on_error(error=error, request=request, context=context, respond=context.respond)
            return None

    run.__name__, run.__qualname__ = listener.__name__, listener.__qualname__  # Bolt's logs name the listener
    return run


async def say_failure_privately(client: Any, *, channel_id: str, user_id: str, error: Exception) -> None:
    """A dialog's work failed after it closed (a submission has no response URL): the person reads why
    privately in the channel, Minds' words escaped like every other text from Minds."""
    await client.chat_postEphemeral(channel=channel_id, user=user_id, text=escape(user_message(error)))
