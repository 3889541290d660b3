"""``/minds digest add|list|remove|now`` and the "Add a digest" modal (from the App Home or the digest list).

Owns: turning the typed digest commands and the modal's values into calls on ``minds_bot.flows.digests``: the
creator's Slack timezone as the default (users.info ``tz``), Study names resolved against Minds before anything
is saved, precise answers for bad schedules (the modal's fields within the grammar's limits; what someone
typed said back escaped), and applying who may act (the gate: ``flows/access.py``): a digest is
added only to a channel both the person and the bot are in, and posted now or removed only by its creator, an
approver of its channel or a workspace admin — from Slack and the stored digest, never from the request alone.
Digest ids are scoped to the workspace that made them.
Must not touch: fire-time arithmetic, digest content, the layout of digests, the digest list and the modal
(``render/digest.py``); the only Block Kit here is the one section that carries a one-line answer (``_text``).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from slack_sdk.errors import SlackApiError

from minds_bot.flows import access
from minds_bot.flows.digests.flow import DigestFlow, Outcome, new_digest
from minds_bot.flows.digests.schedule import Schedule, ScheduleError, describe, parse_schedule, schedule_of
from minds_bot.flows.digests.scheduler import DigestScheduler
from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.i18n import N_, _, join_list
from minds_bot.minds import MindsClient
from minds_bot.render import Message, channel_mention, escape
from minds_bot.render.access import digest_channel_refused, digest_manage_refused
from minds_bot.render.common import lookup_explanation, section
from minds_bot.render.digest import (
    ADD_DIGEST_ACTION,
    ADD_DIGEST_VIEW,
    render_digest_added,
    render_digest_list,
    render_digest_modal,
)
from minds_bot.slack.context import services_of
from minds_bot.slack.grammar import (
    MAX_DIGEST_ARGUMENT,
    MAX_DIGEST_STUDIES,
    DigestAdd,
    DigestList,
    DigestNow,
    DigestRemove,
    StudyRef,
    too_long,
)
from minds_bot.store import Digest

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.router import Handler
    from minds_bot.slack.surface import Surface

log = logging.getLogger(__name__)

FALLBACK_TZ = "UTC"
MAX_CANDIDATES_NAMED = 3
MAX_REASON_SHOWN = 1000


class StudyNotResolved(Exception):
    """A Study name in a digest did not name exactly one Study; nothing was saved."""


@dataclass(frozen=True)
class NewDigest:
    """What a person asked for, from the slash command or the modal, before Studies are resolved."""

    team_id: str
    channel_id: str
    user_id: str
    schedule: Schedule
    studies: Sequence[StudyRef]
    skip_quiet: bool
    tz_note: str | None


def _text(text: str) -> Message:
    """``text`` is mrkdwn: whatever a person typed or Minds named in it is already escaped."""
    return Message(text=text, blocks=[section(text)])


def _not_added(reason: object) -> Message:
    return _text(_("{reason} The digest was not added.", reason=escape(str(reason), limit=MAX_REASON_SHOWN)))


# --- shared steps ------------------------------------------------------------------------------------------


async def user_timezone(client: Any, user_id: str) -> tuple[str, str | None]:
    """The user's Slack timezone (users.info ``tz``), or UTC with a note saying why."""
    try:
        reply = await client.users_info(user=user_id)
        tz = (reply.get("user") or {}).get("tz")
    except SlackApiError:
        tz = None
    if tz:
        return tz, None
    return FALLBACK_TZ, _(
        "Your Slack timezone could not be read, so UTC is used; add a timezone such as Europe/Berlin."
    )


async def resolve_studies(client: MindsClient, refs: Sequence[StudyRef]) -> list[tuple[str, str]]:
    """Each name to exactly one Study ``(id, name)``; raises ``StudyNotResolved`` with what to do instead."""
    found: list[tuple[str, str]] = []
    for ref in refs:
        result = await client.find_study(ref.text)
        if result.match is not None and result.kind in ("exact", "fuzzy"):
            found.append((result.match.id, result.match.name))
        elif result.kind == "ambiguous":
            names = join_list(_("“{name}”", name=c.item.name) for c in result.candidates[:MAX_CANDIDATES_NAMED])
            raise StudyNotResolved(
                _("“{query}” matches several Studies ({names}); use the exact name or id.", query=ref.text, names=names)
            )
        else:
            raise StudyNotResolved(lookup_explanation(result) or _("No Study named “{query}”.", query=ref.text))
    return found


async def channel_refusal(services: Services, slack: Any, request: NewDigest) -> Message | None:
    """Why the digest cannot go to its channel (the person or the bot is not in it: the gate), or None when it can."""
    channel = request.channel_id
    decision = await access.check(
        services, slack, team_id=request.team_id, user_id=request.user_id, act=access.Act.POST, channel_id=channel
    )
    if decision.allowed:
        return None
    if decision.code in ("not_member", "bot_not_member"):
        return _text(digest_channel_refused(channel_id=channel, person_in=decision.code != "not_member"))
    return _text(decision.reason)


async def create(services: Services, request: NewDigest, *, slack: Any) -> Message:
    """Check the channel, resolve the Studies, save the digest and schedule it; what to show the creator."""
    refused = await channel_refusal(services, slack, request)
    if refused is not None:
        return refused
    studies: list[tuple[str, str]] = []
    if request.studies:
        try:
            studies = await resolve_studies(await services.minds.client_for(request.team_id), request.studies)
        except StudyNotResolved as exc:
            return _not_added(exc)
    digest = new_digest(
        team_id=request.team_id,
        channel_id=request.channel_id,
        schedule=request.schedule,
        study_ids=[study_id for study_id, _name in studies],
        created_by=request.user_id,
        skip_quiet=request.skip_quiet,
    )
    stored = await services.store.save_digest(digest)
    services.home_changed(stored)
    scheduler = digest_scheduler(services)
    if scheduler is not None:
        scheduler.schedule(stored)
    names = list(dict.fromkeys(name for _id, name in studies))
    return render_digest_added(stored, schedule=describe(request.schedule), study_names=names, tz_note=request.tz_note)


def digest_scheduler(services: Services) -> DigestScheduler | None:
    """The running scheduler, when this process has one (tests may run without)."""
    return next((work for work in services.background if isinstance(work, DigestScheduler)), None)


async def _own_digest(invocation: Invocation, digest_id: str) -> Digest | None:
    digest = await invocation.services.store.get_digest(digest_id)
    if digest is None or digest.team_id != invocation.team_id:
        shown = escape(digest_id)  # the grammar bounds ids
        await invocation.reply(
            _text(_("No digest `{digest_id}` in this workspace. `/minds digest list` shows the ids.", digest_id=shown))
        )
        return None
    return digest


async def _managed(invocation: Invocation, digest_id: str, *, verb: str) -> Digest | None:
    """The workspace's digest, when the person may ``verb`` it; otherwise they are told who may."""
    digest = await _own_digest(invocation, digest_id)
    if digest is None:
        return None
    decision = await access.check(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        act=access.Act.DECIDE,
        thing=access.Thing(digest.team_id, digest.channel_id, digest.created_by, kind="digest"),
    )
    if decision.allowed:
        return digest
    if decision.code == "not_allowed":
        refusal = digest_manage_refused(digest_id=digest.digest_id, created_by=digest.created_by, verb=verb)
    else:
        refusal = decision.reason
    await invocation.reply(_text(refusal))
    return None


# --- slash commands ----------------------------------------------------------------------------------------


async def handle_add(command: DigestAdd, invocation: Invocation) -> None:
    tz, note = (
        (command.timezone, None) if command.timezone else await user_timezone(invocation.client, invocation.user_id)
    )
    try:
        schedule = parse_schedule(
            command.schedule, tz=tz, time=command.time, weekday=command.weekday, cron=command.cron
        )
    except ScheduleError as exc:
        await invocation.reply(_not_added(exc))
        return
    request = NewDigest(
        team_id=invocation.team_id,
        channel_id=command.channel or invocation.channel_id,
        user_id=invocation.user_id,
        schedule=schedule,
        studies=command.studies,
        skip_quiet=command.skip_quiet,
        tz_note=note,
    )
    await invocation.reply(await create(invocation.services, request, slack=invocation.client))


async def handle_list(command: DigestList, invocation: Invocation) -> None:
    digests = await invocation.services.store.list_digests(team_id=invocation.team_id)
    await invocation.reply(render_digest_list([(d, _describe(d)) for d in digests]))


def _describe(digest: Digest) -> str:
    try:
        return describe(schedule_of(digest))
    except ScheduleError as exc:
        return _("(unusable schedule: {reason})", reason=exc)


async def handle_remove(command: DigestRemove, invocation: Invocation) -> None:
    digest = await _managed(invocation, command.digest_id, verb="remove")
    if digest is None:
        return
    await invocation.services.store.delete_digest(digest.digest_id)
    invocation.services.home_changed(digest)
    scheduler = digest_scheduler(invocation.services)
    if scheduler is not None:
        scheduler.unschedule(digest.digest_id)
    await invocation.reply(
        _text(
            _(
                "Digest `{digest_id}` removed; nothing more will be posted to {channel}.",
                digest_id=escape(digest.digest_id),
                channel=channel_mention(digest.channel_id),
            )
        )
    )


async def handle_now(command: DigestNow, invocation: Invocation) -> None:
    digest = await _managed(invocation, command.digest_id, verb="post")
    if digest is None:
        return
    # Derived from the slash command's trigger, so a redelivered command finds its window taken.
    key = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{invocation.team_id}:{invocation.trigger_id or uuid.uuid4()}"))
    flow = DigestFlow.from_services(invocation.services)
    outcome = await with_progress(
        flow.run_now(digest, request_key=key, requested_by=invocation.user_id),
        show=lambda: invocation.say_text(_("Gathering research news from Minds…")),
    )
    digest_id = escape(digest.digest_id)
    if outcome is Outcome.POSTED:
        where = channel_mention(digest.channel_id)
        await invocation.reply(
            _text(_("Digest `{digest_id}` posted to {channel}.", digest_id=digest_id, channel=where))
        )
    else:
        await invocation.reply(
            _text(_("Digest `{digest_id}` is already being posted for this request.", digest_id=digest_id))
        )


COMMANDS: dict[type, Handler] = {
    DigestAdd: handle_add,
    DigestList: handle_list,
    DigestRemove: handle_remove,
    DigestNow: handle_now,
}


# --- the modal ---------------------------------------------------------------------------------------------


def modal_request(values: dict[str, Any], *, team_id: str, user_id: str) -> NewDigest | dict[str, str]:
    """The modal's values as a ``NewDigest``, or ``{block_id: message}`` for Slack to show on the fields."""

    def value(block: str) -> dict[str, Any]:
        found = (values.get(block) or {}).get("value")
        return found if isinstance(found, dict) else {}

    def text(block: str, key: str = "value") -> str:
        """A field's text; what a forged view sends in place of text counts as empty."""
        found = value(block).get(key)
        return found if isinstance(found, str) else ""

    def chosen(block: str) -> str:
        option = value(block).get("selected_option")
        found = option.get("value") if isinstance(option, dict) else None
        return found if isinstance(found, str) else ""

    too_long_fields = _over_limit(text)
    if too_long_fields:
        return too_long_fields
    kind = chosen("kind") or "weekly"
    try:
        schedule = parse_schedule(
            kind,
            tz=text("tz").strip() or FALLBACK_TZ,
            time=text("time", "selected_time"),
            weekday=chosen("weekday") or None,
            cron=text("cron"),
        )
    except ScheduleError as exc:
        return {_field_of(kind, exc): str(exc)}
    names = [line.strip() for line in text("studies").splitlines() if line.strip()]
    return NewDigest(
        team_id=team_id,
        channel_id=text("channel", "selected_conversation"),
        user_id=user_id,
        schedule=schedule,
        studies=[StudyRef(name) for name in names],
        skip_quiet=bool(value("quiet").get("selected_options")),
        tz_note=None,
    )


def _over_limit(text: Callable[[str], str]) -> dict[str, str]:
    """The modal's free-text fields within the same limits as ``/minds digest add`` (a forged view can be longer
    than Slack's max_length lets a person type). The selects (kind, day, time) are checked by ``parse_schedule``,
    which quotes at most a few words of what it refuses."""
    errors = {}
    for block in ("tz", "cron", "studies"):
        text_of = text(block)
        lines = text_of.splitlines() if block == "studies" else [text_of]
        longest = max((len(line) for line in lines), default=0)
        if longest > MAX_DIGEST_ARGUMENT:
            errors[block] = too_long(N_("A timezone, cron or Study name"), limit=MAX_DIGEST_ARGUMENT, length=longest)
        elif len(lines) > MAX_DIGEST_STUDIES:
            errors[block] = _(
                "A digest can follow at most {most} Studies (you named {named}).",
                most=MAX_DIGEST_STUDIES,
                named=len(lines),
            )
    return errors


def _field_of(kind: str, error: ScheduleError) -> str:
    """Which modal field a schedule error is about, so Slack shows it next to that field."""
    if error.field in ("tz", "kind"):
        return error.field
    if kind == "cron":
        return "cron"
    if error.field == "weekday" and kind == "weekly":
        return "weekday"
    return "time"


async def open_modal(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
    await ack()
    tz, _note = await user_timezone(client, body["user"]["id"])
    channel = (body.get("channel") or {}).get("id")
    await client.views_open(trigger_id=body["trigger_id"], view=render_digest_modal(timezone=tz, channel_id=channel))


async def submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    user_id = body["user"]["id"]
    team_id = (body.get("team") or {}).get("id") or view.get("team_id", "")
    request = modal_request((view.get("state") or {}).get("values") or {}, team_id=team_id, user_id=user_id)
    if isinstance(request, dict):
        await ack(response_action="errors", errors=request)
        return
    await ack()
    message = await create(services_of(context), request, slack=client)
    # The modal is closed by now: the confirmation (or why nothing was added) goes to the creator's DM.
    await client.chat_postMessage(channel=user_id, **message.as_kwargs())


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(ADD_DIGEST_ACTION)(open_modal)
    surface.view(ADD_DIGEST_VIEW)(submitted)
