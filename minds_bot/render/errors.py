"""The one place where errors become what a Slack user reads.

Owns: ``user_message(exc)``: typed Minds and store errors → plain, honest text that never includes a key. The
text is plain words, some of them Minds' own (``server_message``, export errors, names), bounded in length: every
place that puts it into mrkdwn escapes it (``minds_bot.render.escape``); plain_text fields (modal errors, select
options) show it as it is. Pure: no I/O. The Bolt error hook that sends this text lives in ``minds_bot.slack.errors``.
"""

from __future__ import annotations

import math
from datetime import datetime

from minds_bot.minds import (
    AuthenticationError,
    InvalidRequest,
    MindsError,
    PanelMindsNotReady,
    PlanLimitError,
    RateLimited,
    ServiceUnavailable,
)
from minds_bot.render.common import shorten
from minds_bot.store import StoreError

MAX_NOT_READY_NAMED = 5
MAX_MINDS_WORDS = 500  # of Minds' own wording in one error; a 40,000-character reason is not read by anyone


def _date(value: str) -> str:
    """An ISO timestamp from Minds as a date people read ("1 January 2027"); anything else unchanged."""
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    return f"on {moment.day} {moment:%B %Y}"


def _plan_limit(exc: PlanLimitError) -> str:
    what = exc.limit_type or "plan"
    parts = [f"Your Minds {what} allowance is used up"]
    if exc.limit is not None:
        used = f"{exc.current} of {exc.limit}" if exc.current is not None else f"limit {exc.limit}"
        parts.append(f" ({used}{f' on the {exc.current_plan} plan' if exc.current_plan else ''})")
    text = "".join(parts) + ". Nothing was started: an upgrade is required before running this."
    if exc.period_end:
        text += f" The allowance resets {_date(exc.period_end)}."
    return text


def _not_ready(exc: PanelMindsNotReady) -> str:
    names = [m.name or m.mind_id or "a Mind" for m in exc.not_ready]
    if not names:
        return minds_said(exc.message)
    shown = ", ".join(names[:MAX_NOT_READY_NAMED])
    more = f" and {len(names) - MAX_NOT_READY_NAMED} more" if len(names) > MAX_NOT_READY_NAMED else ""
    shown = minds_said(shown)
    return f"Some Minds are still training ({shown}{more}). Nothing was started; try again when they are ready."


def _wait_words(seconds: float) -> str:
    if seconds < 90:
        whole = max(1, math.ceil(seconds))
        return f"about {whole} second{'s' if whole != 1 else ''}"
    return f"about {math.ceil(seconds / 60)} minutes"


def _try_again(exc: RateLimited | ServiceUnavailable) -> str:
    """Minds said how long to wait (``Retry-After``): say when to try again instead of "shortly"."""
    if exc.retry_after is None:
        return exc.message
    if isinstance(exc, RateLimited):  # a 429 refused the request, so nothing started
        return (
            f"Minds is rate limiting this workspace; nothing was started. Try again in {_wait_words(exc.retry_after)}."
        )
    return f"{exc.message.removesuffix(' Try again later.')} Try again in {_wait_words(exc.retry_after)}."


def minds_said(text: str) -> str:
    """Minds' own wording, shortened to what a person reads in an error."""
    return shorten(text, MAX_MINDS_WORDS)


def user_message(exc: BaseException) -> str:
    """What to tell the person whose request failed."""
    if isinstance(exc, PlanLimitError):
        return minds_said(_plan_limit(exc))
    if isinstance(exc, PanelMindsNotReady):
        return _not_ready(exc)
    if isinstance(exc, RateLimited | ServiceUnavailable):
        return minds_said(_try_again(exc))
    if isinstance(exc, AuthenticationError):
        return f"{minds_said(exc.message)} A workspace admin can reconnect with `/minds connect`."
    if isinstance(exc, InvalidRequest) and exc.server_message:
        return f"Minds rejected the request: {minds_said(exc.server_message)}"
    if isinstance(exc, MindsError):
        return minds_said(exc.message)
    if isinstance(exc, StoreError):
        return "The bot could not reach its database just now; nothing was lost. Please try again in a moment."
    return "Something went wrong on our side; nothing was sent to Minds twice. Please try again in a moment."
