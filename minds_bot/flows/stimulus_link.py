"""The plan dialog's "Concept to test": a Slack message's link, and the file on that message (issue 27; issue 33
rows 2 and 10).

Owns: reading the link (``https://<team>.slack.com/archives/C…/p…``, ``?thread_ts=`` for a reply; anything that
does not parse — ``https://[abc/``, full-width characters — is no link, never an exception), telling a link of
this workspace from another's (its origin against this workspace's own address, ``auth.test``'s ``url``, kept per
workspace in ``services.workspace_urls`` and asked again once before a link is called another workspace's), asking
the gate whether the person may use what is in that channel where the plan goes (``access.check``: act SHOW,
``Thing(team, linked channel, kind="file")`` — the person must be in the linked channel now, and a private
channel's file is used only in that channel), and only then reading the message with the bot's token
(``conversations.replies``) for its file. Nothing is downloaded here: the plan's submission does that after the
dialog closed (``flows/stimulus.py``).
Must not touch: Block Kit (``render/stimulus.py`` words the refusals), downloads, Minds.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from slack_sdk.errors import SlackApiError

from minds_bot.flows import access
from minds_bot.flows.slack_files import url_origin
from minds_bot.flows.stimulus import MAX_STIMULUS_BYTES, Problem, SharedStimulus, StimulusRefused, stimulus_on
from minds_bot.render import unescape
from minds_bot.render.access import plan_channel_refused
from minds_bot.render.errors import slack_error
from minds_bot.render.stimulus import refusal_text

log = logging.getLogger(__name__)

_ARCHIVES = re.compile(r"^/archives/([CGD][A-Z0-9]{2,})/p(\d{10})(\d{6})/?$")
_TS = re.compile(r"\d{10}\.\d{6}")
DEFAULT_PORTS = {"https": 443, "http": 80}

Origin = tuple[str, str, int | None]


@dataclass(frozen=True)
class MessageLink:
    channel_id: str
    ts: str
    thread_ts: str | None = None


def origin_of(url: str) -> Origin | None:
    """A URL's ``(scheme, host, port)`` with a default port left out; None when it does not parse."""
    found = url_origin(url)
    if found is None:
        return None
    scheme, host, port = found
    return scheme, host, None if port == DEFAULT_PORTS.get(scheme) else port


def is_slack_host(origin: Origin) -> bool:
    return origin[0] == "https" and (origin[1] == "slack.com" or origin[1].endswith(".slack.com"))


def read_link(text: str, *, workspace: Origin | None) -> MessageLink | Problem:
    """The message a link names, when it is a message link of the workspace at ``workspace``; else the problem:
    ``OTHER_WORKSPACE`` for a Slack message link of another workspace, ``NOT_A_LINK`` for anything else."""
    link = text.strip().strip("<>")
    origin = origin_of(link)
    if origin is None:
        return Problem.NOT_A_LINK
    parts = urlsplit(link)  # parses: ``origin_of`` said so
    found = _ARCHIVES.match(parts.path)
    if found is None:
        return Problem.NOT_A_LINK
    if origin != workspace:
        return Problem.OTHER_WORKSPACE if is_slack_host(origin) else Problem.NOT_A_LINK
    threads = parse_qs(parts.query).get("thread_ts", [])
    thread = threads[0] if threads else None
    thread_ts = thread if thread and _TS.fullmatch(thread) else None
    return MessageLink(channel_id=found.group(1), ts=f"{found.group(2)}.{found.group(3)}", thread_ts=thread_ts)


async def workspace_origin(services: Any, slack: Any, *, team_id: str, fresh: bool = False) -> Origin | None:
    """This workspace's own address (``auth.test``'s ``url``, e.g. ``https://acme.slack.com/``), asked once per
    workspace (``fresh``: again, after a rename); None when Slack would not say."""
    url = None if fresh else services.workspace_urls.get(team_id)
    if url is None:
        try:
            reply = await slack.auth_test()
        except SlackApiError as exc:
            log.info("auth.test failed: %s", slack_error(exc) or exc)
            return None
        url = reply.get("url")
        if not isinstance(url, str):
            return None
        services.workspace_urls[team_id] = url
    return origin_of(url)


async def _link_in_workspace(services: Any, slack: Any, *, team_id: str, text: str) -> MessageLink | Problem:
    read = read_link(text, workspace=await workspace_origin(services, slack, team_id=team_id))
    if read is Problem.OTHER_WORKSPACE:  # the workspace's address may have changed since it was asked
        read = read_link(text, workspace=await workspace_origin(services, slack, team_id=team_id, fresh=True))
    return read


async def _refusal(
    services: Any, slack: Any, *, team_id: str, user_id: str, channel_id: str, link: MessageLink
) -> str | None:
    """What the gate says about using the linked channel's file in ``channel_id`` (plain words), or None."""
    decision = await access.check(
        services,
        slack,
        team_id=team_id,
        user_id=user_id,
        act=access.Act.SHOW,
        channel_id=channel_id,
        thing=access.Thing(team_id, link.channel_id, kind="file"),
    )
    if decision.allowed:
        return None
    if decision.code == "private_elsewhere":
        return refusal_text(Problem.PRIVATE_ELSEWHERE.value, name="", limit=MAX_STIMULUS_BYTES)
    if decision.code == "not_member":
        here = await access.is_member(services, slack, team_id=team_id, channel_id=channel_id, user_id=user_id)
        if not here:  # not the link's channel: the one the plan would be posted in
            return plan_channel_refused(missing="person")
        return refusal_text(Problem.NOT_MEMBER.value, name="", limit=MAX_STIMULUS_BYTES)
    return unescape(decision.reason)  # no other rule refuses showing a file; said as the gate words it


async def stimulus_at(slack: Any, link: MessageLink) -> SharedStimulus:
    """The file on the linked message, read with the bot's token (``conversations.replies``: a channel the
    bot is in). ``StimulusRefused`` when the bot cannot read it, it has no file or the file cannot be one."""
    try:
        reply = await slack.conversations_replies(
            channel=link.channel_id,
            ts=link.thread_ts or link.ts,
            oldest=link.ts,
            latest=link.ts,
            inclusive=True,
            limit=2,
        )
    except SlackApiError as exc:
        error = slack_error(exc)
        raise StimulusRefused(Problem.NOT_IN_CHANNEL if error == "not_in_channel" else Problem.NO_MESSAGE) from None
    message = next((m for m in reply.get("messages") or [] if m.get("ts") == link.ts), None)
    if message is None:
        raise StimulusRefused(Problem.NO_MESSAGE)
    found = stimulus_on(message)
    if found is None:
        raise StimulusRefused(Problem.NO_FILE)
    if isinstance(found, StimulusRefused):
        raise found
    return found


async def linked_stimulus(
    services: Any, slack: Any, text: str | None, *, team_id: str, user_id: str, channel_id: str
) -> SharedStimulus | str | None:
    """The plan dialog's concept to test, for ``user_id`` planning in ``channel_id``: the file on the linked
    message, what is wrong in the person's words (said beside the link while the dialog stays open, with
    everything typed kept), or None when no link was given. Nothing is read from the linked channel before the
    gate allowed it, and nothing is downloaded here."""
    if not text:
        return None
    link = await _link_in_workspace(services, slack, team_id=team_id, text=text)
    if isinstance(link, Problem):
        return refusal_text(link.value, name="", limit=MAX_STIMULUS_BYTES)
    refused = await _refusal(services, slack, team_id=team_id, user_id=user_id, channel_id=channel_id, link=link)
    if refused is not None:
        return refused
    try:
        shared = await stimulus_at(slack, link)
    except StimulusRefused as exc:
        return refusal_text(exc.problem.value, name=exc.name, limit=MAX_STIMULUS_BYTES)
    if services.stimuli is None or services.stimuli.base_url is None:
        return refusal_text(Problem.NO_PUBLIC_URL.value, name=shared.name, limit=MAX_STIMULUS_BYTES)
    return shared
