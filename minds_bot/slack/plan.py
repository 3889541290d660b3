"""``/minds plan`` and everything on a plan message: the request modal (also opened by the study card's
"Plan research" button, action ``study_plan``), confirmation-question buttons and the "Answer…" modal,
"Answer all N questions…" (one dialog when they do not fit in the message), "Review with <fallback method>",
"Revise…", **Approve & run** and "Discard". The request modal's optional concept to test (a message link) is
checked before the dialog closes — the link of this workspace, the person in its channel, a private channel's
file only in that channel (``flows/stimulus_link.py``, which asks the gate) — and its file is downloaded only
after, then sent with the request; it leaves the bot's shelf once the plan's first revision arrived or was
refused (``flows/stimulus.py``).

Owns: reading Slack payloads (which plan message, which revision the button showed, the advanced-method
opt-in box, the dialog's answers; button values and private_metadata only within Slack's own limits; modal
fields within ``MODAL_LIMITS``, refused on the field before anything else), tying the Answer, Answer-all and
Revise modals to the person who opened them (their user id travels in the modal's ``private_metadata``, which
only the bot writes; a submission by anyone else is refused in the modal) and answering the person privately
when something was refused. Listeners stay thin: every decision is in ``flows/planning.py`` and
``flows/research.py``; permissions come from stored state there. A Study name followed by the request is used
only when quoted or matching exactly (``slack/resolve.py``): the request is always the words typed after it.
Must not touch: Minds wire shapes, SQL, Block Kit (``render/plan.py``).
"""

from __future__ import annotations

import json
import re
import uuid
from typing import TYPE_CHECKING, Any

from minds_bot import i18n
from minds_bot.flows import access
from minds_bot.flows.drafts import consume_launched
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.methods import post_method_hint
from minds_bot.flows.planning import (
    Refused,
    answer_all,
    discard_plan,
    plan_to_answer,
    refusal_for_changes,
    request_fallback,
    resolve_study,
    revise_plan,
    start_plan,
)
from minds_bot.flows.research import Started, approval_refusal, approve
from minds_bot.flows.stimulus import SharedStimulus, attach_or_refusal, for_minds
from minds_bot.flows.stimulus_link import linked_stimulus
from minds_bot.i18n import N_, _, sentences
from minds_bot.minds import MindsError
from minds_bot.render import escape, unescape
from minds_bot.render.access import MODAL_NOT_YOURS, plan_channel_refused
from minds_bot.render.common import decode_metadata, decode_value, plain_value
from minds_bot.render.drafts import has_saved_mark
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
    BLOCK_OPT_IN,
    OPT_IN_VALUE,
)
from minds_bot.render.plan_dialogs import (
    MAX_PLAN_ANSWER,
    MAX_PLAN_REQUEST,
    MAX_STIMULUS_LINK,
    MAX_STUDY_INPUT,
    VIEW_ANSWER,
    VIEW_ANSWER_ALL,
    VIEW_PLAN_REQUEST,
    VIEW_REVISE,
    answer_all_modal,
    answer_modal,
    answer_modal_refused,
    loading_modal,
    plan_request_modal,
    revise_modal,
)
from minds_bot.render.plan_models import ACTION_MODEL, BLOCK_MODEL, MAX_OPTION_VALUE
from minds_bot.render.study import parse_plan_button_value
from minds_bot.slack.errors import say_failure_privately
from minds_bot.slack.fields import over_limit
from minds_bot.slack.grammar import MAX_STUDY_REF, Plan, too_long
from minds_bot.slack.resolve import resolve_study as pick_study
from minds_bot.store import PlanPost

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

STUDY_CARD_PLAN = "study_plan"
MODAL_LIMITS = {
    "study": (N_("A Study name or id"), MAX_STUDY_INPUT),
    "request": (N_("A plan request"), MAX_PLAN_REQUEST),
    "answer": (N_("An answer"), MAX_PLAN_ANSWER),
    "refinement": (N_("A refinement"), MAX_PLAN_REQUEST),
    "stimulus": (N_("A message link"), MAX_STIMULUS_LINK),
}


# --- the command and the request modal ----------------------------------------------------------------------


PLAN_USAGE = N_(
    'Say `/minds plan "<study>" <request>`, e.g. `/minds plan "Launch positioning" Test three taglines with Gen Z`'
)


async def handle_plan(command: Plan, invocation: Invocation) -> None:
    """``/minds plan <study> <request…>``; without a study or a request, the request modal opens."""
    services = invocation.services
    if command.study is None or not command.request:
        await _open_request_modal(
            services,
            invocation.client,
            trigger_id=invocation.trigger_id,
            team_id=invocation.team_id,
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


async def _open_request_modal(
    services: Services,
    slack: AsyncWebClient,
    *,
    trigger_id: str | None,
    team_id: str,
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


def _input(view: dict[str, Any], block: str) -> str | None:
    values = (view.get("state") or {}).get("values") or {}
    element = (values.get(block) or {}).get("value") or {}
    if element.get("type") == "static_select":
        return ((element.get("selected_option") or {}).get("value")) or None
    if element.get("type") == "conversations_select":
        picked = element.get("selected_conversation")
        return picked if isinstance(picked, str) and picked else None
    text = element.get("value")
    return text.strip() if isinstance(text, str) and text.strip() else None


def _plan_channel(view: dict[str, Any]) -> str:
    """Where the plan dialog posts: the channel it was opened in, else the one picked (the App Home's)."""
    return decode_metadata(view.get("private_metadata")).get("c") or _input(view, "channel") or ""


async def _submitted_plan(
    services: Services,
    *,
    body: dict[str, Any],
    view: dict[str, Any],
    client: Any,
    shared: SharedStimulus | None = None,
) -> None:
    meta = decode_metadata(view.get("private_metadata"))
    team_id, user_id = _team(body), body["user"]["id"]
    channel_id = _plan_channel(view)
    study_text = meta.get("s") or _input(view, "study") or ""
    preview_key = str(uuid.uuid4())  # also the owner of the concept's file while Minds may fetch it
    try:
        minds = await services.minds.client_for(team_id)
        study = await (minds.get_study(study_text) if meta.get("id") else resolve_study(minds, study_text))
        attachments = None
        if shared is not None:  # downloaded only now: the gate allowed the link and the Study was found
            fetched = await attach_or_refusal(services, client, shared, owner=preview_key)
            if isinstance(fetched, str):  # the dialog has closed: its words come back with the reason
                said = sentences(
                    fetched,
                    _("Your plan request was not sent: “{request}”", request=escape(_input(view, "request") or "")),
                )
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
            request=_input(view, "request") or "",
            language=_input(view, "language"),
            preview_key=preview_key,
            attachments=attachments,
        )
        await post_method_hint(
            services,
            client,
            team_id=team_id,
            channel_id=channel_id,
            user_id=user_id,
            request=_input(view, "request") or "",
        )
    except MindsError as exc:  # a modal has no response URL: say it privately in the channel
        await say_failure_privately(client, channel_id=channel_id, user_id=user_id, error=exc)


async def _channel_refused(
    services: Services, client: Any, *, team_id: str, view: dict[str, Any], user_id: str
) -> dict[str, str]:
    """The channel picked in the App Home's dialog, checked as a digest's channel is (the bot and the person are
    in it), said on the field; a dialog opened from a channel posts there and picks none."""
    if decode_metadata(view.get("private_metadata")).get("c"):
        return {}
    channel = _input(view, "channel")
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


def _home_study_name(body: dict[str, Any], action: dict[str, Any]) -> str | None:
    """The Study's name from the Home section whose button was pressed (plain words: escaped when shown)."""
    for block in (body.get("view") or {}).get("blocks") or []:
        if isinstance(block, dict) and block.get("block_id") == action.get("block_id"):
            text = (block.get("text") or {}).get("text")
            return unescape(text) if isinstance(text, str) else None
    return None


# --- reading plan-message payloads ---------------------------------------------------------------------------


def _team(body: dict[str, Any]) -> str:
    return (body.get("team") or {}).get("id") or (body.get("user") or {}).get("team_id") or ""


def _where(body: dict[str, Any]) -> tuple[str, str, str]:
    """(team, channel, message ts) of the plan message a button sits on."""
    container = body.get("container") or {}
    channel = (body.get("channel") or {}).get("id") or container.get("channel_id") or ""
    ts = container.get("message_ts") or (body.get("message") or {}).get("ts") or ""
    return _team(body), channel, ts


def _value(action: dict[str, Any]) -> dict[str, Any]:
    return decode_value(action.get("value"))


def _over_limit(view: dict[str, Any]) -> dict[str, str]:
    """A modal field longer than its limit (Slack's max_length binds Slack's own client, not a forged view)."""
    return over_limit(view, MODAL_LIMITS)


def _revision(value: dict[str, Any]) -> int:
    revision = value.get("r")
    return revision if isinstance(revision, int) else -1


def _opted_in(body: dict[str, Any]) -> bool:
    values = (body.get("state") or {}).get("values") or {}
    chosen = ((values.get(BLOCK_OPT_IN) or {}).get(ACTION_OPT_IN) or {}).get("selected_options") or []
    return any(option.get("value") == OPT_IN_VALUE for option in chosen)


def _model_choice(body: dict[str, Any]) -> str | None:
    """The model picker's value on the plan message (an id Minds listed, checked again on approval)."""
    values = (body.get("state") or {}).get("values") or {}
    chosen = ((values.get(BLOCK_MODEL) or {}).get(ACTION_MODEL) or {}).get("selected_option") or {}
    return plain_value(chosen.get("value"), limit=MAX_OPTION_VALUE)


def _picks(view: dict[str, Any]) -> dict[int, str]:
    """The answer dialog's inputs (``cq_<index>``): a chosen option's position, or the typed text (what a
    forged view sends in place of text counts as no answer)."""
    picks: dict[int, str] = {}
    for block_id, element in ((view.get("state") or {}).get("values") or {}).items():
        if block_id.startswith("cq_") and block_id[3:].isdigit():
            value = element.get("value") or {}
            option = value.get("selected_option")
            chosen = option.get("value") if isinstance(option, dict) else value.get("value")
            picks[int(block_id[3:])] = chosen if isinstance(chosen, str) else ""
    return picks


def _answers_over_limit(view: dict[str, Any]) -> dict[str, str]:
    """Typed answers in the Answer-all dialog longer than an answer may be, on their fields."""
    errors = {}
    for index, text in _picks(view).items():
        if len(text) > MAX_PLAN_ANSWER:
            errors[f"cq_{index}"] = too_long(_("An answer"), limit=MAX_PLAN_ANSWER, length=len(text))
    return errors


async def _post(services: Services, body: dict[str, Any]) -> PlanPost | None:
    team, channel, ts = _where(body)
    return await services.store.get_plan_post(team_id=team, channel_id=channel, message_ts=ts)


async def _say_refused(respond: Any, refused: Refused | Any) -> None:
    if isinstance(refused, Refused):
        await respond(text=refused.reason, response_type="ephemeral", replace_original=False)


# --- registration --------------------------------------------------------------------------------------------


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)

    @surface.action(STUDY_CARD_PLAN)
    async def study_plan(ack: Any, body: dict[str, Any], action: dict[str, Any], client: Any) -> None:
        await ack()
        channel = _where(body)[1]
        study_id, request = parse_plan_button_value(plain_value(action.get("value")) or "")
        await _open_request_modal(
            services,
            client,
            trigger_id=body.get("trigger_id"),
            team_id=_team(body),
            channel_id=channel,
            study=study_id if 0 < len(study_id) <= MAX_STUDY_REF else None,
            by_id=True,
            request=request,
        )

    @surface.action(HOME_PLAN_ACTION)
    async def home_plan(ack: Any, body: dict[str, Any], action: dict[str, Any], client: Any) -> None:
        """*Plan research* on the App Home: the dialog, with a channel to post in (and the Study, on a Study's
        button — its name as the Home showed it)."""
        await ack()
        study_id = plain_value(action.get("value")) or ""
        study = study_id if 0 < len(study_id) <= MAX_STUDY_REF else None
        name = _home_study_name(body, action) if study else None
        await _open_request_modal(
            services,
            client,
            trigger_id=body.get("trigger_id"),
            team_id=_team(body),
            channel_id="",
            study=study,
            by_id=study is not None,
            label=name,
        )

    @surface.view(VIEW_PLAN_REQUEST)
    async def plan_requested(ack: Any, body: dict[str, Any], view: dict[str, Any], client: Any) -> None:
        if not _input(view, "request"):
            await ack(response_action="errors", errors={"request": _("Say what the research should find out.")})
            return
        refused = await _channel_refused(services, client, team_id=_team(body), view=view, user_id=body["user"]["id"])
        if errors := _over_limit(view) or refused:
            await ack(response_action="errors", errors=errors)
            return
        who = {"team_id": _team(body), "user_id": body["user"]["id"], "channel_id": _plan_channel(view)}
        shared = await linked_stimulus(services, client, _input(view, "stimulus"), **who)  # the gate asked there
        if isinstance(shared, str):
            await ack(response_action="errors", errors={"stimulus": shared})
            return
        await ack()
        await _submitted_plan(services, body=body, view=view, client=client, shared=shared)

    @surface.action(re.compile(rf"^{ACTION_ANSWER}:\d+:\d+$"))
    async def answered(ack: Any, body: dict[str, Any], action: dict[str, Any], respond: Any, client: Any) -> None:
        await ack()
        value = _value(action)
        answer, question = value.get("a"), value.get("q")
        if not isinstance(answer, str) or not isinstance(question, str):
            await _say_refused(respond, Refused(_("This button is out of date; use the latest plan message.")))
            return
        outcome = await revise_plan(
            services,
            slack=client,
            post=await _post(services, body),
            user_id=body["user"]["id"],
            revision=_revision(value),
            answers={question: answer},
        )
        await _say_refused(respond, outcome)

    @surface.action(re.compile(rf"^{ACTION_ANSWER_TEXT}:\d+$"))
    async def answer_opened(ack: Any, body: dict[str, Any], action: dict[str, Any], respond: Any, client: Any) -> None:
        await ack()
        if await _refused_to_open(services, body=body, respond=respond, client=client):
            return
        value = _value(action)
        _team_id, channel, ts = _where(body)
        question = _confirmation_text(body, action)
        metadata = _modal_metadata(body, channel=channel, ts=ts, r=_revision(value), q=value.get("q"))
        await client.views_open(
            trigger_id=body.get("trigger_id"), view=answer_modal(metadata=metadata, question=question).to_dict()
        )

    @surface.view(VIEW_ANSWER)
    async def answer_submitted(ack: Any, body: dict[str, Any], view: dict[str, Any], client: Any) -> None:
        meta = decode_metadata(view.get("private_metadata"))
        if meta.get("u") != body["user"]["id"]:
            await ack(response_action="errors", errors={"answer": _(MODAL_NOT_YOURS)})
            return
        if errors := _over_limit(view):
            await ack(response_action="errors", errors=errors)
            return
        await ack()
        post = await services.store.get_plan_post(
            team_id=_team(body), channel_id=meta.get("c", ""), message_ts=meta.get("ts", "")
        )
        outcome = await revise_plan(
            services,
            slack=client,
            post=post,
            user_id=body["user"]["id"],
            revision=_revision(meta),
            answers={str(meta.get("q")): _input(view, "answer") or ""},
        )
        await _ephemeral_refusal(client, meta, body, outcome)

    @surface.action(ACTION_ANSWER_ALL)
    async def answer_all_opened(ack: Any, body: dict[str, Any], action: dict[str, Any], client: Any) -> None:
        await ack()
        opened = await client.views_open(trigger_id=body.get("trigger_id"), view=loading_modal().to_dict())
        _team_id, channel, ts = _where(body)
        revision = _revision(_value(action))
        post = await _post(services, body)
        user_id = body["user"]["id"]
        plan = await plan_to_answer(services, slack=client, post=post, user_id=user_id, revision=revision)
        if isinstance(plan, Refused):
            view = answer_modal_refused(plan.reason)
        else:
            metadata = _modal_metadata(body, channel=channel, ts=ts, r=revision)
            view = answer_all_modal(metadata=metadata, plan=plan)
        await client.views_update(view_id=opened["view"]["id"], view=view.to_dict())

    @surface.view(VIEW_ANSWER_ALL)
    async def answer_all_submitted(ack: Any, body: dict[str, Any], view: dict[str, Any], client: Any) -> None:
        meta = decode_metadata(view.get("private_metadata"))
        if meta.get("u") != body["user"]["id"]:
            await ack(response_action="errors", errors={_first_block(view): _(MODAL_NOT_YOURS)})
            return
        if errors := _answers_over_limit(view):
            await ack(response_action="errors", errors=errors)
            return
        await ack()
        post = await services.store.get_plan_post(
            team_id=_team(body), channel_id=meta.get("c", ""), message_ts=meta.get("ts", "")
        )
        user_id = body["user"]["id"]
        picks = _picks(view)
        outcome = await answer_all(
            services, slack=client, post=post, user_id=user_id, revision=_revision(meta), picks=picks
        )
        await _ephemeral_refusal(client, meta, body, outcome)

    @surface.action(re.compile(rf"^{ACTION_FALLBACK}:\d+$"))
    async def fallback_requested(
        ack: Any, body: dict[str, Any], action: dict[str, Any], respond: Any, client: Any
    ) -> None:
        await ack()
        value = _value(action)
        method_id = value.get("m")
        if not isinstance(method_id, str):
            await _say_refused(respond, Refused(_("This button is out of date; use the latest plan message.")))
            return
        outcome = await request_fallback(
            services,
            slack=client,
            post=await _post(services, body),
            user_id=body["user"]["id"],
            revision=_revision(value),
            method_id=method_id,
        )
        await _say_refused(respond, outcome)

    @surface.action(ACTION_REVISE)
    async def revise_opened(ack: Any, body: dict[str, Any], action: dict[str, Any], respond: Any, client: Any) -> None:
        await ack()
        if await _refused_to_open(services, body=body, respond=respond, client=client):
            return
        _team_id, channel, ts = _where(body)
        revision = _revision(_value(action))
        metadata = _modal_metadata(body, channel=channel, ts=ts, r=revision)
        await client.views_open(
            trigger_id=body.get("trigger_id"), view=revise_modal(metadata=metadata, revision=revision).to_dict()
        )

    @surface.view(VIEW_REVISE)
    async def revise_submitted(ack: Any, body: dict[str, Any], view: dict[str, Any], client: Any) -> None:
        meta = decode_metadata(view.get("private_metadata"))
        if meta.get("u") != body["user"]["id"]:
            await ack(response_action="errors", errors={"refinement": _(MODAL_NOT_YOURS)})
            return
        refinement = _input(view, "refinement")
        if not refinement:
            await ack(response_action="errors", errors={"refinement": _("Say what should change.")})
            return
        if errors := _over_limit(view):
            await ack(response_action="errors", errors=errors)
            return
        await ack()
        post = await services.store.get_plan_post(
            team_id=_team(body), channel_id=meta.get("c", ""), message_ts=meta.get("ts", "")
        )
        outcome = await revise_plan(
            services,
            slack=client,
            post=post,
            user_id=body["user"]["id"],
            revision=_revision(meta),
            refinement=refinement,
        )
        await _ephemeral_refusal(client, meta, body, outcome)

    @surface.action(ACTION_OPT_IN)
    async def opted_in(ack: Any) -> None:
        await ack()  # the box's state travels with the Approve click; nothing to do until then

    @surface.action(ACTION_MODEL)
    async def model_picked(ack: Any) -> None:
        await ack()  # the pick travels with the Approve click, where it is checked with Minds

    @surface.action(ACTION_APPROVE)
    async def approved(ack: Any, body: dict[str, Any], action: dict[str, Any], respond: Any, client: Any) -> None:
        await ack()
        blocks = (body.get("message") or {}).get("blocks") or []
        post = await _post(services, body)
        outcome = await approve(
            services,
            slack=client,
            post=post,
            user_id=body["user"]["id"],
            revision=_revision(_value(action)),
            opt_in=_opted_in(body),
            blocks=blocks,
            connection_id=_model_choice(body),
        )
        if isinstance(outcome, Started) and post is not None and has_saved_mark(blocks):
            await consume_launched(services, post=post)  # a launched plan consumes its saved drafts
        await _say_refused(respond, outcome)

    @surface.action(ACTION_DISCARD)
    async def discarded(ack: Any, body: dict[str, Any], respond: Any, client: Any) -> None:
        await ack()
        post = await _post(services, body)
        user_id = body["user"]["id"]
        if post is None:
            outcome: Refused | None = Refused(_("This plan is no longer tracked by the bot."))
        elif (refused := await approval_refusal(services, client, post=post, user_id=user_id)) is not None:
            outcome = refused
        else:
            blocks = (body.get("message") or {}).get("blocks") or []
            outcome = await discard_plan(services, slack=client, post=post, user_id=user_id, blocks=blocks)
        await _say_refused(respond, outcome)


def _confirmation_text(body: dict[str, Any], action: dict[str, Any]) -> str:
    """The question shown above the pressed "Answer…" button (the section right before its actions block)."""
    blocks = (body.get("message") or {}).get("blocks") or []
    ids = [block.get("block_id") for block in blocks]
    index = ids.index(action.get("block_id")) if action.get("block_id") in ids else -1
    if index > 0:
        text = (blocks[index - 1].get("text") or {}).get("text")
        if isinstance(text, str):
            return unescape(text)  # mrkdwn the bot posted; the modal escapes it again
    return _("Minds asks a question about this plan.")


def _first_block(view: dict[str, Any]) -> str:
    """Where a modal-wide error shows: the first input block of the submitted view."""
    values = ((view.get("state") or {}).get("values")) or {}
    return next(iter(values), "")


def _modal_metadata(body: dict[str, Any], *, channel: str, ts: str, **extra: Any) -> str:
    """A plan modal's ``private_metadata``: the plan message, and ``u``, the person the modal is opened for."""
    return json.dumps({"c": channel, "ts": ts, **extra, "u": body["user"]["id"]})


async def _refused_to_open(services: Services, *, body: dict[str, Any], respond: Any, client: Any) -> bool:
    """Refuse (privately) to open the Answer or Revise modal for someone who may not change the plan."""
    post = await _post(services, body)
    if post is None:
        await _say_refused(respond, Refused(_("This plan is no longer tracked by the bot.")))
        return True
    refused = await refusal_for_changes(services, client, post=post, user_id=body["user"]["id"])
    await _say_refused(respond, refused)
    return refused is not None


async def _ephemeral_refusal(client: Any, meta: dict[str, Any], body: dict[str, Any], outcome: Any) -> None:
    if isinstance(outcome, Refused):
        await client.chat_postEphemeral(channel=meta.get("c", ""), user=body["user"]["id"], text=outcome.reason)


COMMANDS = {Plan: handle_plan}
