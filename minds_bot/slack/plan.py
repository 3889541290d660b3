"""``/minds plan`` and the plan request dialog (also opened by the study card's "Plan research" button, action
``study_plan``, and by *Plan research* on the App Home, which asks for a channel), and the registration of every
listener of the plan surface (those on a plan message are ``slack/plan_message.py``'s). The request dialog's
optional concept to test (a message link) is checked before the dialog closes — the link of this workspace, the
person in its channel, a private channel's file only in that channel (``flows/stimulus_link.py``, which asks the
gate) — and its file is downloaded only after, then sent with the request; it leaves the bot's shelf once the
plan's first revision arrived or was refused (``flows/stimulus.py``, told by the composition).

Owns: the command, opening the request dialog and reading its submission (fields within
``slack/plan_payloads.MODAL_LIMITS``, refused on the field before anything else; the channel picked on the Home
checked as a digest's is), and saying privately when the request could not go. Listeners are module-level and
find ``Services`` in Bolt's context; every decision is in ``flows/planning.py``. A Study name followed by the
request is used only when quoted or matching exactly (``slack/resolve.py``): the request is always the words typed
after it.
Must not touch: Minds wire shapes, SQL, Block Kit (``render/plan.py``), payload shapes (``slack/plan_payloads.py``).
"""

from __future__ import annotations

import json
import re
import uuid
from typing import TYPE_CHECKING, Any

from minds_bot import i18n
from minds_bot.flows import access
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.methods import post_method_hint
from minds_bot.flows.planning import resolve_study, start_plan
from minds_bot.flows.stimulus import SharedStimulus, attach_or_refusal, for_minds
from minds_bot.flows.stimulus_link import linked_stimulus
from minds_bot.i18n import N_, _, sentences
from minds_bot.minds import MindsError
from minds_bot.render import escape, unescape
from minds_bot.render.access import plan_channel_refused
from minds_bot.render.common import decode_metadata, plain_value
from minds_bot.render.home import HOME_PLAN_ACTION
from minds_bot.render.plan import (
    ACTION_ANSWER,
    ACTION_ANSWER_ALL,
    ACTION_ANSWER_TEXT,
    ACTION_APPROVE,
    ACTION_DISCARD,
    ACTION_FALLBACK,
    ACTION_OPT_IN,
    ACTION_REVISE,
)
from minds_bot.render.plan_dialogs import (
    VIEW_ANSWER,
    VIEW_ANSWER_ALL,
    VIEW_PLAN_REQUEST,
    VIEW_REVISE,
    plan_request_modal,
)
from minds_bot.render.plan_models import ACTION_MODEL
from minds_bot.render.study import parse_plan_button_value
from minds_bot.slack import plan_message as on_message
from minds_bot.slack.context import services_of
from minds_bot.slack.errors import say_failure_privately
from minds_bot.slack.grammar import MAX_STUDY_REF, Plan
from minds_bot.slack.listeners import pressed_with_click
from minds_bot.slack.plan_payloads import field_value, fields_over_limit, home_study_name, plan_channel
from minds_bot.slack.plan_payloads import team_of as _team
from minds_bot.slack.plan_payloads import where as _where
from minds_bot.slack.resolve import resolve_study as pick_study

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

STUDY_CARD_PLAN = "study_plan"


def register(surface: Surface, services: Services) -> None:
    """The plan surface's listeners: the command, the request dialog's three ways in and its submission, and
    everything on a plan message (``slack/plan_message.py``). ``services`` reach them through Bolt's context."""
    surface.router.add(COMMANDS)
    surface.action(STUDY_CARD_PLAN)(study_plan)
    surface.action(HOME_PLAN_ACTION)(home_plan)
    surface.view(VIEW_PLAN_REQUEST)(plan_requested)
    surface.action(re.compile(rf"^{ACTION_ANSWER}:\d+:\d+$"))(pressed_with_click(on_message.answered))
    surface.action(re.compile(rf"^{ACTION_ANSWER_TEXT}:\d+$"))(pressed_with_click(on_message.answer_opened))
    surface.view(VIEW_ANSWER)(on_message.answer_submitted)
    surface.action(ACTION_ANSWER_ALL)(pressed_with_click(on_message.answer_all_opened))
    surface.view(VIEW_ANSWER_ALL)(on_message.answer_all_submitted)
    surface.action(re.compile(rf"^{ACTION_FALLBACK}:\d+$"))(pressed_with_click(on_message.fallback_requested))
    surface.action(ACTION_REVISE)(pressed_with_click(on_message.revise_opened))
    surface.view(VIEW_REVISE)(on_message.revise_submitted)
    surface.action(ACTION_OPT_IN)(on_message.acknowledged)
    surface.action(ACTION_MODEL)(on_message.acknowledged)
    surface.action(ACTION_APPROVE)(pressed_with_click(on_message.approved))
    surface.action(ACTION_DISCARD)(pressed_with_click(on_message.discarded))


# --- the command and the request modal ----------------------------------------------------------------------


PLAN_USAGE = N_(
    'Say `/minds plan "<study>" <request>`, e.g. `/minds plan "Launch positioning" Test three taglines with Gen Z`'
)


async def handle_plan(command: Plan, invocation: Invocation) -> None:
    """``/minds plan <study> <request…>``; without a study or a request, the request modal opens."""
    services = invocation.services
    if command.study is None or not command.request:
        await _open_request_modal(
            invocation.client,
            trigger_id=invocation.trigger_id,
            channel_id=invocation.channel_id,
            study=command.study.text if command.study else None,
            by_id=False,
        )
        return
    study = await pick_study(  # an unquoted name is used only when exact: the request is the words after it
        invocation,
        command.study,
        rerun=lambda sid: f"plan {sid} {command.request}",
        exact_unquoted=_(PLAN_USAGE),
    )
    if study is None:
        return
    await start_plan(
        services,
        slack=invocation.client,
        team_id=invocation.team_id,
        channel_id=invocation.channel_id,
        user_id=invocation.user_id,
        study=study,
        request=command.request,
        language=i18n.spoken(),  # the person's language (their Slack locale, else the workspace's)
    )
    await post_method_hint(
        services,
        invocation.client,
        team_id=invocation.team_id,
        channel_id=invocation.channel_id,
        user_id=invocation.user_id,
        request=command.request,
    )


async def study_plan(ack: AsyncAck, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient) -> None:
    """ "Plan research" on a study card: the dialog for that Study, posting in the card's channel."""
    await ack()
    study_id, request = parse_plan_button_value(plain_value(action.get("value")) or "")
    await _open_request_modal(
        client,
        trigger_id=body.get("trigger_id"),
        channel_id=_where(body)[1],
        study=study_id if 0 < len(study_id) <= MAX_STUDY_REF else None,
        by_id=True,
        request=request,
    )


async def home_plan(ack: AsyncAck, body: dict[str, Any], action: dict[str, Any], client: AsyncWebClient) -> None:
    """*Plan research* on the App Home: the dialog, with a channel to post in (and the Study, on a Study's
    button — its name as the Home showed it)."""
    await ack()
    study_id = plain_value(action.get("value")) or ""
    study = study_id if 0 < len(study_id) <= MAX_STUDY_REF else None
    await _open_request_modal(
        client,
        trigger_id=body.get("trigger_id"),
        channel_id="",
        study=study,
        by_id=study is not None,
        label=home_study_name(body, action) if study else None,
    )


async def _open_request_modal(
    slack: AsyncWebClient,
    *,
    trigger_id: str | None,
    channel_id: str,
    study: str | None,
    by_id: bool,
    request: str | None = None,
    label: str | None = None,
) -> None:
    """The plan dialog; with no ``channel_id`` (from the App Home) it asks where to post the plan. The Study
    language starts as the person's."""
    metadata = json.dumps({"c": channel_id, "s": study, "id": by_id})
    shown = label or (_("the Study on the card") if by_id else study)
    view = plan_request_modal(
        metadata=metadata,
        study_known=study is not None,
        study_name=shown,
        language=i18n.spoken(),
        request=request,
        pick_channel=not channel_id,
    )
    await slack.views_open(trigger_id=trigger_id, view=view.to_dict())


async def plan_requested(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    """The request dialog submitted: its fields checked (and the concept's link, by the gate) before it closes."""
    services = services_of(context)
    if not field_value(view, "request"):
        await ack(response_action="errors", errors={"request": _("Say what the research should find out.")})
        return
    refused = await _channel_refused(services, client, team_id=_team(body), view=view, user_id=body["user"]["id"])
    if errors := fields_over_limit(view) or refused:
        await ack(response_action="errors", errors=errors)
        return
    who = {"team_id": _team(body), "user_id": body["user"]["id"], "channel_id": plan_channel(view)}
    shared = await linked_stimulus(services, client, field_value(view, "stimulus"), **who)  # the gate asked there
    if isinstance(shared, str):
        await ack(response_action="errors", errors={"stimulus": shared})
        return
    await ack()
    await _submitted_plan(services, body=body, view=view, client=client, shared=shared)


async def _submitted_plan(
    services: Services,
    *,
    body: dict[str, Any],
    view: dict[str, Any],
    client: AsyncWebClient,
    shared: SharedStimulus | None = None,
) -> None:
    meta = decode_metadata(view.get("private_metadata"))
    team_id, user_id = _team(body), body["user"]["id"]
    channel_id = plan_channel(view)
    study_text = meta.get("s") or field_value(view, "study") or ""
    request = field_value(view, "request") or ""
    preview_key = str(uuid.uuid4())  # also the owner of the concept's file while Minds may fetch it
    try:
        minds = await services.minds.client_for(team_id)
        study = await (minds.get_study(study_text) if meta.get("id") else resolve_study(minds, study_text))
        attachments = None
        if shared is not None:  # downloaded only now: the gate allowed the link and the Study was found
            fetched = await attach_or_refusal(services, client, shared, owner=preview_key)
            if isinstance(fetched, str):  # the dialog has closed: its words come back with the reason
                said = sentences(fetched, _("Your plan request was not sent: “{request}”", request=escape(request)))
                await client.chat_postEphemeral(channel=channel_id, user=user_id, text=said)
                return
            attachments = for_minds(fetched)
        await start_plan(
            services,
            slack=client,
            team_id=team_id,
            channel_id=channel_id,
            user_id=user_id,
            study=study,
            request=request,
            language=field_value(view, "language"),
            preview_key=preview_key,
            attachments=attachments,
        )
        await post_method_hint(
            services, client, team_id=team_id, channel_id=channel_id, user_id=user_id, request=request
        )
    except MindsError as exc:  # a modal has no response URL: say it privately in the channel
        await say_failure_privately(client, channel_id=channel_id, user_id=user_id, error=exc)


async def _channel_refused(
    services: Services, client: AsyncWebClient, *, team_id: str, view: dict[str, Any], user_id: str
) -> dict[str, str]:
    """The channel picked in the App Home's dialog, checked as a digest's channel is (the bot and the person are
    in it), said on the field; a dialog opened from a channel posts there and picks none."""
    if decode_metadata(view.get("private_metadata")).get("c"):
        return {}
    channel = field_value(view, "channel")
    if channel is None:
        picker = "channel" in ((view.get("state") or {}).get("values") or {})
        return {"channel": _("Pick the channel to post the plan in.")} if picker else {}
    decision = await access.check(
        services, client, team_id=team_id, user_id=user_id, act=access.Act.POST, channel_id=channel
    )
    if decision.allowed:
        return {}
    if decision.code in ("not_member", "bot_not_member"):
        return {"channel": plan_channel_refused(missing="person" if decision.code == "not_member" else "bot")}
    return {"channel": unescape(decision.reason)}


COMMANDS = {Plan: handle_plan}
