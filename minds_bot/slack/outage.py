"""What a Slack request gets while the store cannot be reached: Slack's acknowledgement (HTTP 200 within its three
seconds), nothing done, and the person told once, in their language: "minds-bot cannot reach its database right now;
nothing was done; try again in a minute." (``minds_bot.render.errors.store_unreachable``).

Owns: ``OutageAnswers.answer``, which the error hook (``minds_bot.slack.errors``) calls for a
``StoreUnavailableError`` raised before the request was acknowledged — by the once-per-delivery middleware, which
asks the store first, or by a listener before its ``ack()`` — and which returns the acknowledgement:

- a slash command: an ephemeral reply in the acknowledgement itself. ``/minds help`` (``?``, an empty ``/minds``)
  is the one exception: it needs no store and changes nothing, so it is answered with the help as usual, with a
  note above it that the database cannot be reached and other commands do nothing meanwhile. The delivery check
  could not record it, so a replayed help request (signed, within Slack's five minutes) gets the help again: it
  shows nothing that is not in the public help;
- a dialog submitted: ``response_action: errors`` on its first input, so the dialog stays open with what was typed
  (a dialog without an input is replaced by one that says it);
- a button, a shortcut: acknowledged, then said privately through the request's ``response_url`` when it is
  Slack's; a button on the App Home gets a Home that says it; anything else without one (a button in a dialog, a
  global shortcut) the person's DM with the bot;
- the App Home opened: acknowledged, then a Home that says it is published;
- a Workflow Builder step (``function_executed``): acknowledged, then ended with Slack's function error and the
  sentence, never left running;
- any other event, a dialog closed: acknowledged, nothing shown; an options request: no options.

The follow-ups run in a task of their own after the acknowledgement, so Slack never waits for them. The language is
the person's Slack locale, else the workspace's as last known; the store is never asked.
Must not touch: listener behaviour, the store.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from slack_bolt.response import BoltResponse

from minds_bot import i18n
from minds_bot.flows.workflows import run_by
from minds_bot.render import escape
from minds_bot.render.errors import store_unreachable, store_unreachable_help, store_unreachable_view
from minds_bot.render.help import render_help
from minds_bot.slack.gate import is_slack_url, is_verified
from minds_bot.slack.grammar import Help, parse_command

if TYPE_CHECKING:
    from minds_bot.services import Languages

log = logging.getLogger(__name__)

# What each kind of request is, in the one log line it gets.
KINDS = {
    "block_actions": "action",
    "block_suggestion": "options",
    "message_action": "shortcut",
    "shortcut": "shortcut",
    "view_closed": "view_closed",
    "view_submission": "view",
}
TOLD_PRIVATELY = frozenset({"block_actions", "message_action", "shortcut"})


def kind_of(body: Any) -> str:
    """``command``, ``action``, ``view``, ``options``, ``event:app_home_opened`` …: for the log line."""
    if not isinstance(body, dict):
        return "other"
    if body.get("command"):
        return "command"
    if body.get("type") == "event_callback":
        event = body.get("event")
        return f"event:{event.get('type')}" if isinstance(event, dict) else "event"
    return KINDS.get(str(body.get("type")), "other")


def acknowledgement(body: Any) -> BoltResponse:
    """What Slack gets back at once, in the language being spoken."""
    if not isinstance(body, dict):
        return BoltResponse(status=200, body="")
    if body.get("command"):
        if isinstance(parse_command(str(body.get("text") or "")), Help):  # needs no store, changes nothing
            return _json({"response_type": "ephemeral", **render_help(note=store_unreachable_help()).as_kwargs()})
        return _json({"response_type": "ephemeral", "text": escape(store_unreachable())})
    if body.get("type") == "view_submission":
        first = _first_input(body.get("view"))
        if first is None:
            return _json({"response_action": "update", "view": store_unreachable_view("modal")})
        return _json({"response_action": "errors", "errors": {first: store_unreachable()}})
    if body.get("type") == "block_suggestion":
        return _json({"options": []})
    return BoltResponse(status=200, body="")


def _first_input(view: Any) -> str | None:
    blocks = view.get("blocks") if isinstance(view, dict) else None
    for block in blocks if isinstance(blocks, list) else []:
        if isinstance(block, dict) and block.get("type") == "input" and isinstance(block.get("block_id"), str):
            return str(block["block_id"])
    return None


def _json(body: dict[str, Any]) -> BoltResponse:
    return BoltResponse(status=200, body=json.dumps(body), headers={"content-type": "application/json"})


class OutageAnswers:
    """Answers requests while the store is down (see the module docstring); ``settled()`` awaits the follow-ups."""

    def __init__(self, *, languages: Languages, slack_api_url: str) -> None:
        self._languages = languages
        self._slack_api_url = slack_api_url
        self._tasks: set[asyncio.Task[None]] = set()

    async def answer(self, error: Exception, *, request: Any, context: Any, respond: Any) -> BoltResponse:
        body = request.body
        kind = kind_of(body)
        log.warning(
            "the store cannot be reached: the request was acknowledged and nothing was done",
            extra={"fields": {"kind": kind, "error": str(error)[:200]}},
        )
        client, team_id, person = context.get("client"), context.get("team_id") or "", _person(body, context)
        language = await self._languages.of_person_without_store(client, team_id=team_id, user_id=person)
        with i18n.speaking(language):
            ack = acknowledgement(body)
            follow_up = self._follow_up(body, context=context, respond=respond) if is_verified(request) else None
        if follow_up is not None:
            task = asyncio.create_task(self._guarded(follow_up, kind), name="store-outage-answer")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return ack

    async def settled(self) -> None:
        """Every follow-up begun so far is done (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _follow_up(self, body: Any, *, context: Any, respond: Any) -> Callable[[], Awaitable[Any]] | None:
        """The one thing left to do after the acknowledgement (its words rendered now, in the person's language)."""
        if not isinstance(body, dict):
            return None
        client, text = context.get("client"), escape(store_unreachable())
        if body.get("type") == "event_callback":
            return _event_follow_up(body.get("event"), client=client, text=store_unreachable())
        if body.get("type") not in TOLD_PRIVATELY:
            return None
        url = context.get("response_url")
        if url is not None and respond is not None and is_slack_url(url, slack_api_url=self._slack_api_url):
            return lambda: respond(text=text, response_type="ephemeral", replace_original=False)
        user = context.get("user_id")
        if client is None or not isinstance(user, str) or not user or url is not None:
            return None  # a response URL that is not Slack's is never called; nor is anything else then
        if _on_home(body):
            home = store_unreachable_view("home")
            return lambda: client.views_publish(user_id=user, view=home)
        return lambda: client.chat_postMessage(channel=user, text=text)

    async def _guarded(self, follow_up: Callable[[], Awaitable[Any]], kind: str) -> None:
        try:
            await follow_up()
        except Exception as exc:  # noqa: BLE001 - Slack has its acknowledgement; the words could not follow
            log.warning(
                "could not tell the person the store cannot be reached",
                extra={"fields": {"kind": kind, "error": type(exc).__name__}},
            )


def _event_follow_up(event: Any, *, client: Any, text: str) -> Callable[[], Awaitable[Any]] | None:
    if not isinstance(event, dict) or client is None:
        return None
    if event.get("type") == "app_home_opened" and event.get("tab") == "home" and isinstance(event.get("user"), str):
        home, user = store_unreachable_view("home"), event["user"]
        return lambda: client.views_publish(user_id=user, view=home)
    execution = event.get("function_execution_id")
    if event.get("type") == "function_executed" and isinstance(execution, str) and execution:
        # Plain words: Workflow Builder shows a step's error as it is (no mrkdwn).
        return lambda: client.functions_completeError(function_execution_id=execution, error=text)
    return None


def _on_home(body: dict[str, Any]) -> bool:
    view = body.get("view")
    return isinstance(view, dict) and view.get("type") == "home"


def _person(body: Any, context: Any) -> str | None:
    """Who the words are for: the person acting, or whoever ran the workflow of a step."""
    if isinstance(body, dict) and isinstance(body.get("event"), dict):
        event = body["event"]
        runner = run_by(event.get("inputs"))
        if runner is not None:
            return runner
        if isinstance(event.get("user"), str):
            return str(event["user"])
    user = context.get("user_id")
    return user if isinstance(user, str) and user else None
