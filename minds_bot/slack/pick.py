"""The pick-a-Study modal that replaces "missing argument" errors, and its searchable Study options.

Owns: ``open_pick_modal`` (called by command handlers when the Study or the question is missing), the external
options listener (Studies from Minds: the newest first, name matches among the newest 300, or an exact id), and the
submission, which re-enters the command (``ask <id> <question>``, ``study <id>``, ``summary <id>``) with the
answer going to the channel chosen in the modal. A question that is not one question, or longer than
``MAX_QUESTION``, is refused in the modal; a search longer than ``MAX_QUERY`` gets the limit as its only option.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from minds_bot.flows.ask import ask_with_consent
from minds_bot.flows.browse import rank_by_name
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.questions import check_question
from minds_bot.i18n import N_, _
from minds_bot.render.common import decode_metadata
from minds_bot.render.modals import (
    AUDIENCES_ACTION,
    AUDIENCES_BLOCK,
    ERROR_OPTION_VALUE,
    MAX_OPTIONS,
    MAX_QUESTION,
    PICK_STUDY_CALLBACK,
    QUESTION_ACTION,
    QUESTION_BLOCK,
    STUDY_BLOCK,
    STUDY_OPTIONS_ACTION,
    PickPurpose,
    render_options_error,
    render_pick_study,
    render_study_options,
)
from minds_bot.slack.context import router_of, services_of
from minds_bot.slack.grammar import MAX_QUERY, too_long
from minds_bot.slack.listeners import invocation_from_body
from minds_bot.slack.options import ack_options

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_bolt.context.respond.async_respond import AsyncRespond
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

OPTIONS_WINDOW = 300  # three pages: fast enough for a typeahead


async def open_pick_modal(
    invocation: Invocation,
    purpose: PickPurpose,
    *,
    initial: tuple[str, str] | None = None,
    question: str | None = None,
    audiences: Sequence[tuple[str, str]] | None = None,
) -> str | None:
    """Open the modal now (trigger ids expire 3 s after the click); returns the view id for ``preselect``.
    ``audiences``: the initial Study's Audiences (id, name), offered to pick which of them answer."""
    view = render_pick_study(
        purpose, channel_id=invocation.channel_id, initial=initial, question=question, audiences=audiences
    )
    opened = await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())
    return (opened.get("view") or {}).get("id")


async def preselect(
    invocation: Invocation, view_id: str | None, purpose: PickPurpose, *, study_text: str, question: str | None = None
) -> None:
    """After opening the modal, look the named Study up and choose it in the modal when it matched."""
    if view_id is None:
        return
    minds = await invocation.minds()
    result = await minds.find_study(study_text)
    if result.match is None:
        return
    view = render_pick_study(
        purpose, channel_id=invocation.channel_id, initial=(result.match.id, result.match.name), question=question
    )
    await invocation.client.views_update(view_id=view_id, view=view.to_dict())


async def study_options(services: Services, *, team_id: str, query: str) -> list[dict[str, Any]]:
    """Slack wants options within 3 s, so a typed name is matched among the newest ``OPTIONS_WINDOW`` Studies;
    an exact id (pasted) finds any Study."""
    minds = await services.minds.client_for(team_id)
    text = query.strip()
    if not text:
        return render_study_options([s async for s in minds.iter_studies(max_items=MAX_OPTIONS)])
    if _is_uuid(text):
        result = await minds.find_study(text)
        return render_study_options([result.match] if result.match is not None else [])
    scanned = [s async for s in minds.iter_studies(max_items=OPTIONS_WINDOW)]
    return render_study_options(rank_by_name(text, scanned))


def _is_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


def _submitted(view: dict[str, Any]) -> tuple[str | None, str | None]:
    values = (view.get("state") or {}).get("values") or {}
    picked = ((values.get(STUDY_BLOCK) or {}).get(STUDY_OPTIONS_ACTION) or {}).get("selected_option") or {}
    question = ((values.get(QUESTION_BLOCK) or {}).get(QUESTION_ACTION) or {}).get("value")
    return picked.get("value"), question


def _purpose(view: dict[str, Any]) -> str:
    purpose = decode_metadata(view.get("private_metadata")).get("purpose")
    return purpose if isinstance(purpose, str) else ""


def command_for(purpose: str, study_id: str, question: str | None) -> str | None:
    if purpose == "ask" and question:
        return f"ask {study_id} {question}"
    if purpose in ("study", "summary"):
        return f"{purpose} {study_id}"  # command syntax, verbatim
    return None


async def search_studies(ack: AsyncAck, body: dict[str, Any], context: AsyncBoltContext) -> None:
    team = (body.get("team") or {}).get("id") or (body.get("user") or {}).get("team_id", "")
    query = body.get("value") or ""
    if not isinstance(query, str) or len(query) > MAX_QUERY:
        length = len(query) if isinstance(query, str) else 0
        await ack(options=render_options_error(too_long(N_("A search"), limit=MAX_QUERY, length=length)))
        return
    await ack_options(ack, study_options(services_of(context), team_id=team, query=query))


async def submitted(
    ack: AsyncAck,
    body: dict[str, Any],
    view: dict[str, Any],
    client: AsyncWebClient,
    respond: AsyncRespond,
    context: AsyncBoltContext,
) -> None:
    study_id, question = _submitted(view)
    if not study_id or study_id == ERROR_OPTION_VALUE:
        await ack(response_action="errors", errors={STUDY_BLOCK: _("Pick a Study from the list.")})
        return
    purpose = _purpose(view)
    if purpose == "ask" and question and len(question) > MAX_QUESTION:
        error = too_long(N_("A question"), limit=MAX_QUESTION, length=len(question))
        await ack(response_action="errors", errors={QUESTION_BLOCK: error})
        return
    check = check_question(question or "") if purpose == "ask" else None
    if check is not None and not check.single:
        reason = _("{reason} Ask exactly one question, or plan several with /minds plan.", reason=check.reason)
        await ack(response_action="errors", errors={QUESTION_BLOCK: reason})
        return
    chosen = picked_audiences(view, study_id)
    if chosen == []:
        await ack(response_action="errors", errors={AUDIENCES_BLOCK: _("Pick at least one Audience.")})
        return
    text = command_for(purpose, study_id, question)
    await ack()
    if purpose == "ask" and question and chosen:  # only some Audiences: asked here, not as a typed command
        invocation = invocation_from_body(services_of(context), body, client=client, respond=respond)
        await ask_some(invocation, study_id=study_id, question=question, audience_ids=chosen)
        return
    if text is not None:
        await router_of(context).dispatch(
            text, invocation_from_body(services_of(context), body, client=client, respond=respond)
        )


def picked_audiences(view: dict[str, Any], study_id: str) -> list[str] | None:
    """The Audiences ticked in the Ask dialog, when it offered the Study's Audiences and that Study is still the
    one picked: None (ask them all) when every one is ticked or none was offered; ``[]`` when none is ticked."""
    meta = decode_metadata(view.get("private_metadata"))
    offered = meta.get("a")
    if meta.get("s") != study_id or not isinstance(offered, list) or not offered:
        return None
    values = (view.get("state") or {}).get("values") or {}
    selected = ((values.get(AUDIENCES_BLOCK) or {}).get(AUDIENCES_ACTION) or {}).get("selected_options") or []
    ticked = [str(o.get("value")) for o in selected if isinstance(o, dict) and o.get("value") in offered]
    return None if set(ticked) == set(offered) else ticked


async def ask_some(invocation: Invocation, *, study_id: str, question: str, audience_ids: list[str]) -> None:
    """One question to only some of a Study's Audiences (the OpenAPI's ``audienceIds``), through the same gate
    and spend policy as every ask."""
    minds = await invocation.minds()
    study = await minds.get_study(study_id)
    known = {a.id for a in study.audiences}
    outcome = await ask_with_consent(
        invocation, study=study, question=question, audience_ids=[a for a in audience_ids if a in known]
    )
    if outcome.message is not None:
        await invocation.reply(outcome.message)


def register(surface: Surface, services: Services) -> None:
    surface.external_options(STUDY_OPTIONS_ACTION)(search_studies)
    surface.view(PICK_STUDY_CALLBACK)(submitted)
