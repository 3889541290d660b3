"""The one place where errors become what a Slack user reads.

Owns: ``user_message(exc)``: typed Minds and store errors, and Slack's refusal to open a dialog too late
(``dialog_too_late``) → plain, honest text that never includes a key; what each Minds error class means in words
(``minds_error_text``: ``minds_bot.minds`` keeps only the facts: status, code, Minds' own words, why an export or
a download failed); and what a request is answered while the store cannot be reached (``store_unreachable``, the
App Home and dialog that say it: ``store_unreachable_view``, the note above ``/minds help``:
``store_unreachable_help``). The text is plain words, some of them Minds' own (``server_message``, export errors,
names), bounded in length: every place that puts it into mrkdwn escapes it (``minds_bot.render.escape``);
plain_text fields (modal errors, select options) show it as it is. Pure: no I/O.
The Bolt error hook that sends this text lives in ``minds_bot.slack.errors``.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any, Literal

from slack_sdk.errors import SlackApiError
from slack_sdk.models.blocks.basic_components import PlainTextObject
from slack_sdk.models.views import View

from minds_bot.i18n import N_, _, _n, format_date, format_number, join_list, sentences
from minds_bot.minds import (
    AudienceJobFailed,
    AuthenticationError,
    Conflict,
    DownloadFailed,
    ExportFailed,
    InvalidRequest,
    MalformedResponse,
    MindNotReady,
    MindsAPIError,
    MindsConnectionError,
    MindsError,
    MindsTimeout,
    MindsTransportError,
    NotFound,
    PanelMindsNotReady,
    PermissionDenied,
    PlanLimitError,
    RateLimited,
    ServerError,
    ServiceUnavailable,
    StaleRevision,
    StudyRunInProgress,
    SummarySuperseded,
)
from minds_bot.render import MAX_WORD_SHOWN, escape
from minds_bot.render.common import sections, shorten
from minds_bot.store import StoreError

MAX_NOT_READY_NAMED = 5
# Slack's answers to views.open/views.push when the click's trigger is older than its 3 seconds, or unknown.
TRIGGER_REFUSALS = frozenset({"expired_trigger_id", "invalid_trigger_id", "trigger_expired"})
SLACK_UNREADABLE = "invalid_response"  # services.INVALID_RESPONSE: Slack's reply was not a JSON object
MAX_MINDS_WORDS = 500  # of Minds' own wording in one error; a 40,000-character reason is not read by anyone
STORE_UNREACHABLE = N_("minds-bot cannot reach its database right now; nothing was done; try again in a minute.")
# Said above ``/minds help`` while the store cannot be reached: help needs no store, everything else waits for it.
STORE_UNREACHABLE_HELP = N_(
    "minds-bot cannot reach its database right now: other commands do nothing until it answers; try again in a minute."
)
OUTAGE_TITLE = "minds-bot"  # the name, in every language


# What each Minds error class means, for the person whose request it ended (the nearest class in the tree that
# is listed here speaks for its subclasses).
MINDS_ERRORS: dict[type[MindsError], str] = {
    MindsError: N_("Minds could not complete the request."),
    MalformedResponse: N_("Minds sent a reply the bot could not read, so nothing is assumed."),
    DownloadFailed: N_("The export file could not be downloaded."),
    MindsTransportError: N_("Minds could not be reached."),
    MindsTimeout: N_("Minds did not answer in time."),
    MindsConnectionError: N_("Could not connect to Minds."),
    MindsAPIError: N_("Minds refused the request."),
    AuthenticationError: N_("Minds did not accept this workspace's API key (missing, invalid or revoked)."),
    PermissionDenied: N_("This Minds account is not allowed to do that."),
    PlanLimitError: N_("The Minds plan allowance is used up; an upgrade is required. Nothing was started."),
    NotFound: N_("Minds has no such item, or this account cannot see it."),
    Conflict: N_("The item changed on Minds; reload it before trying again."),
    PanelMindsNotReady: N_("Some Minds in this Study are still training; try again when they are ready."),
    StudyRunInProgress: N_("This Study has a run in progress; wait for it to finish or cancel it first."),
    StaleRevision: N_("This plan revision is no longer the latest; reload the plan before changing it."),
    SummarySuperseded: N_("A newer summary replaced this one; reload the summary before retrying."),
    MindNotReady: N_("This Mind is still training; it can chat once its training is finished."),
    InvalidRequest: N_("Minds rejected the request as invalid."),
    RateLimited: N_("Minds is rate limiting this workspace; try again shortly."),
    ServerError: N_("Minds had an internal problem."),
    ServiceUnavailable: N_("Minds is temporarily unavailable; nothing was charged. Try again later."),
}


def _class_text(exc: MindsError) -> str:
    """The words of the nearest class that has some: listed above, or its own ``default_message`` (a class outside
    ``minds/``, such as ``services.NotConnected``)."""
    for cls in type(exc).__mro__:
        if cls in MINDS_ERRORS:
            return _(MINDS_ERRORS[cls])
        own = vars(cls).get("default_message")
        if own:
            return _(own)
    return _(MINDS_ERRORS[MindsError])


def _export_failed(exc: ExportFailed) -> str:
    if exc.trouble == "late":
        reason = _("it did not finish in time; ask again later (Minds serves a finished file from its cache)")
    elif exc.trouble == "unknown_job":
        reason = _("Minds no longer knows this export job; ask for it again")
    else:
        reason = exc.error or exc.error_code or ""
    if not reason:
        return _("Minds could not build the export: no reason given.")
    return _("Minds could not build the export: {reason}.", reason=reason)


def _audience_job_failed(exc: AudienceJobFailed) -> str:
    if not exc.error:
        return _("Minds could not build the Audience: no reason given.")
    return _("Minds could not build the Audience: {reason}.", reason=exc.error)


def _download_failed(exc: DownloadFailed) -> str:
    if exc.trouble == "refused" and exc.status_code is not None:
        return _("The export file could not be downloaded (HTTP {status}).", status=exc.status_code)
    if exc.trouble == "timeout":
        return _("The export download timed out.")
    if exc.trouble == "unreachable":
        return _("The export file host could not be reached.")
    if exc.trouble == "too_large" and exc.limit_bytes is not None:
        return _("The export is larger than the {limit} MiB limit.", limit=exc.limit_bytes // (1024 * 1024))
    return _class_text(exc)


def minds_error_text(exc: MindsError) -> str:
    """What a Minds error means, in the language spoken now: the words it was raised with (a caller's, or Minds'
    own), else its class's. Not shortened (``user_message`` shortens what it shows)."""
    if exc.said:
        return exc.said
    if isinstance(exc, MalformedResponse):
        return f"{_class_text(exc)} [{exc.detail}]"
    if isinstance(exc, ExportFailed):
        return _export_failed(exc)
    if isinstance(exc, AudienceJobFailed):
        return _audience_job_failed(exc)
    if isinstance(exc, DownloadFailed):
        return _download_failed(exc)
    return _class_text(exc)


def _date(value: str) -> str | None:
    """An ISO timestamp from Minds as a date people read ("1 January 2027"); None when it is not one."""
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return format_date(moment)


# i18n: what a Minds plan allowance counts, in "Your Minds {limit_type} allowance is used up" (Minds' limitType).
LIMIT_TYPES = {
    "responses": N_("responses"),
    "flows": N_("Studies"),
    "messages": N_("chat messages"),
    "audienceMembers": N_("Audience members"),
    "minds": N_("Minds"),
}
# i18n: the name of a Minds plan, in "3 of 3 on the {plan} plan".
PLAN_NAMES = {
    "free": N_("Free"),
    "starter": N_("Starter"),
    "pro": N_("Pro"),
    "premium": N_("Premium"),
    "team": N_("Team"),
    "business": N_("Business"),
    "enterprise": N_("Enterprise"),
}


def _word(words: dict[str, str], value: str) -> str:
    """Minds' word ``value`` (a limit type, a plan's name) through the catalogs; an unknown one as Minds wrote it."""
    known = words.get(value) or words.get(value.lower())
    return _(known) if known is not None else escape(value, limit=MAX_WORD_SHOWN)


def _usage(exc: PlanLimitError) -> str | None:
    """How much of the allowance is used ("3 of 3 on the Pro plan"), when Minds said its limit."""
    if exc.limit is None:
        return None
    limit = format_number(exc.limit)
    if exc.current is not None and exc.current_plan:
        current = format_number(exc.current)
        return _(
            "{current} of {limit} on the {plan} plan",
            current=current,
            limit=limit,
            plan=_word(PLAN_NAMES, exc.current_plan),
        )
    if exc.current is not None:
        return _("{current} of {limit}", current=format_number(exc.current), limit=limit)
    if exc.current_plan:
        return _("limit {limit} on the {plan} plan", limit=limit, plan=_word(PLAN_NAMES, exc.current_plan))
    return _("limit {limit}", limit=limit)


def _plan_limit(exc: PlanLimitError) -> str:
    usage = _usage(exc)
    if exc.limit_type and usage:
        text = _(
            "Your Minds {limit_type} allowance is used up ({usage}). Nothing was started: an upgrade is required "
            "before running this.",
            limit_type=_word(LIMIT_TYPES, exc.limit_type),
            usage=usage,
        )
    elif exc.limit_type:
        text = _(
            "Your Minds {limit_type} allowance is used up. Nothing was started: an upgrade is required before "
            "running this.",
            limit_type=_word(LIMIT_TYPES, exc.limit_type),
        )
    elif usage:
        text = _(
            "Your Minds plan allowance is used up ({usage}). Nothing was started: an upgrade is required before "
            "running this.",
            usage=usage,
        )
    else:
        text = _(
            "Your Minds plan allowance is used up. Nothing was started: an upgrade is required before running this."
        )
    if exc.period_end:
        day = _date(exc.period_end)
        if day is None:
            text = sentences(text, _("The allowance resets {when}.", when=exc.period_end))
        else:
            text = sentences(text, _("The allowance resets on {date}.", date=day))
    return text


def _not_ready(exc: PanelMindsNotReady) -> str:
    names = [m.name or m.mind_id or _("a Mind") for m in exc.not_ready]
    if not names:
        return minds_said(minds_error_text(exc))
    shown = minds_said(join_list(names[:MAX_NOT_READY_NAMED]))
    if len(names) > MAX_NOT_READY_NAMED:
        return _n(
            "Some Minds are still training ({names} and {count} more). Nothing was started; try again when they "
            "are ready.",
            "Some Minds are still training ({names} and {count} more). Nothing was started; try again when they "
            "are ready.",
            len(names) - MAX_NOT_READY_NAMED,
            names=shown,
        )
    return _(
        "Some Minds are still training ({names}). Nothing was started; try again when they are ready.", names=shown
    )


def _wait(seconds: float) -> tuple[int, bool]:
    """Minds' ``Retry-After`` as a whole number of seconds (under 90 s) or minutes: ``(count, in_minutes)``."""
    if seconds < 90:
        return max(1, math.ceil(seconds)), False
    return math.ceil(seconds / 60), True


def _try_again(exc: RateLimited | ServiceUnavailable) -> str:
    """Minds said how long to wait (``Retry-After``): say when to try again instead of "shortly"."""
    if exc.retry_after is None:
        return minds_error_text(exc)
    count, minutes = _wait(exc.retry_after)
    if isinstance(exc, RateLimited):  # a 429 refused the request, so nothing started
        if minutes:
            return _n(
                "Minds is rate limiting this workspace; nothing was started. Try again in about {count} minute.",
                "Minds is rate limiting this workspace; nothing was started. Try again in about {count} minutes.",
                count,
            )
        return _n(
            "Minds is rate limiting this workspace; nothing was started. Try again in about {count} second.",
            "Minds is rate limiting this workspace; nothing was started. Try again in about {count} seconds.",
            count,
        )
    if exc.said is None:  # the bot's own words, in the language spoken: without "later"
        if minutes:
            return _n(
                "Minds is temporarily unavailable; nothing was charged. Try again in about {count} minute.",
                "Minds is temporarily unavailable; nothing was charged. Try again in about {count} minutes.",
                count,
            )
        return _n(
            "Minds is temporarily unavailable; nothing was charged. Try again in about {count} second.",
            "Minds is temporarily unavailable; nothing was charged. Try again in about {count} seconds.",
            count,
        )
    # Minds' own sentence, without its vague ending, then when to try again.
    said = exc.said.removesuffix(" Try again later.")  # verbatim
    if minutes:
        wait = _n("Try again in about {count} minute.", "Try again in about {count} minutes.", count)
    else:
        wait = _n("Try again in about {count} second.", "Try again in about {count} seconds.", count)
    return sentences(said, wait)


def minds_said(text: str) -> str:
    """Minds' own wording, shortened to what a person reads in an error."""
    return shorten(text, MAX_MINDS_WORDS)


def slack_error(exc: BaseException) -> str | None:
    """Slack's error code of a failed Web API call (``channel_not_found`` …), or None when there is none."""
    if not isinstance(exc, SlackApiError):
        return None
    data = getattr(exc.response, "data", None)
    error = data.get("error") if isinstance(data, dict) else None
    return error if isinstance(error, str) else None


def dialog_too_late(exc: BaseException) -> bool:
    """Whether Slack refused to open a dialog because the click's trigger had expired (or was not Slack's)."""
    return slack_error(exc) in TRIGGER_REFUSALS


def slack_unreadable(exc: BaseException) -> bool:
    """Whether Slack answered with something that is not a JSON object (``services.PacedWebClient`` reads such a
    reply as the error ``invalid_response``)."""
    return slack_error(exc) == SLACK_UNREADABLE


def user_message(exc: BaseException) -> str:
    """What to tell the person whose request failed."""
    if dialog_too_late(exc):
        return _(
            "The dialog could not open: Slack allows three seconds after a click and that time had passed. "
            "Nothing was changed; please try again."
        )
    if slack_unreadable(exc):
        return _("Slack answered with something the bot could not read, so nothing more was done. Please try again.")
    if isinstance(exc, PlanLimitError):
        return minds_said(_plan_limit(exc))
    if isinstance(exc, PanelMindsNotReady):
        return _not_ready(exc)
    if isinstance(exc, RateLimited | ServiceUnavailable):
        return minds_said(_try_again(exc))
    if isinstance(exc, AuthenticationError):
        return _(
            "{reason} A workspace admin can reconnect with `/minds connect`.", reason=minds_said(minds_error_text(exc))
        )
    if isinstance(exc, InvalidRequest) and exc.server_message:
        return _("Minds rejected the request: {reason}", reason=minds_said(exc.server_message))
    if isinstance(exc, MindsError):
        return minds_said(minds_error_text(exc))
    if isinstance(exc, StoreError):
        return _("The bot could not reach its database just now; nothing was lost. Please try again in a moment.")
    return _("Something went wrong on our side; nothing was sent to Minds twice. Please try again in a moment.")


def store_unreachable() -> str:
    """What every request is answered while the store cannot be reached (the bot did nothing with it)."""
    return _(STORE_UNREACHABLE)


def store_unreachable_help() -> str:
    """The note above ``/minds help`` while the store cannot be reached (the help itself needs no store)."""
    return _(STORE_UNREACHABLE_HELP)


def store_unreachable_view(kind: Literal["home", "modal"]) -> dict[str, Any]:
    """An App Home, or a dialog replacing one that was submitted, that says only ``store_unreachable``."""
    view = View(type=kind, blocks=sections(escape(store_unreachable())))
    if kind == "modal":
        view.title = PlainTextObject(text=OUTAGE_TITLE)
        view.close = PlainTextObject(text=_("Close"))
    return view.to_dict()
