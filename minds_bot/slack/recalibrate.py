"""``/minds recalibrate <audience>`` (also the Audience card's Recalibrate… button): owner only, an instruction in a
modal, a confirmation that says which members may change, then progress in a channel thread.

Owns: the command, both modal submissions and installing the tracker's handler. The first step takes the
OpenAPI's research mode (an instruction, or a research query that replaces the brief; one distribution to add;
extra links and keywords) or its selection mode (which grounded distributions drive the members), and consent to
change members other Audiences share; what was chosen is saved on the server (a keyed request, named by the
confirmation's ``private_metadata``, which Slack caps at 3,000 characters) and read back when confirmed.
Ownership is checked on the server when the command arrives and again when the confirmation is submitted
(``flows/recalibrate.py``).
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.keyed import Repeat, arguments_of, begin, saved_for
from minds_bot.flows.keys import derived_key
from minds_bot.flows.planning import Refused
from minds_bot.flows.recalibrate import RecalibrationRequest, may_recalibrate, start_recalibration
from minds_bot.i18n import N_, _
from minds_bot.minds import AudienceDetail, GroundingDistribution, MindsError
from minds_bot.render.common import decode_value
from minds_bot.render.recalibrate import (
    DISTRIBUTION_BLOCK,
    INSTRUCTION_ACTION,
    INSTRUCTION_BLOCK,
    KEYWORDS_BLOCK,
    LINKS_BLOCK,
    MAX_DISTRIBUTION,
    MAX_INSTRUCTION,
    MAX_KEYWORD,
    MAX_LINK,
    MAX_SOURCES,
    MODE_BLOCK,
    MODE_SELECTION,
    QUERY_BLOCK,
    RECALIBRATE_CONFIRM_VIEW,
    RECALIBRATE_VIEW,
    SELECTION_BLOCK,
    SHARED_BLOCK,
    distribution_value,
    recalibrate_confirm_view,
    recalibrate_modal,
    render_grounding_changed,
    render_recalibrate_refused,
)
from minds_bot.slack.context import services_of
from minds_bot.slack.errors import say_failure_privately
from minds_bot.slack.fields import over_limit
from minds_bot.slack.grammar import Recalibrate
from minds_bot.slack.listeners import invocation_from_body
from minds_bot.slack.resolve import resolve_audience, show_progress

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_recalibrate(command: Recalibrate, invocation: Invocation) -> None:
    if command.audience is None:
        await invocation.say_text(_("Say `/minds recalibrate <audience>` to recalibrate an Audience you own."))
        return
    found = await resolve_audience(
        invocation, command.audience, rerun=lambda aid: f"recalibrate {aid}", confirm_fuzzy=True
    )
    if found is None:
        return
    minds = await invocation.minds()
    audience = (
        found
        if isinstance(found, AudienceDetail)
        else await with_progress(minds.get_audience(found.id), show=lambda: show_progress(invocation))
    )
    allowed = await may_recalibrate(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        audience=audience,
    )
    if not allowed:
        await invocation.reply(render_recalibrate_refused(audience_name=audience.name, owner=audience.is_owner))
        return
    grounding = audience.grounding
    view = recalibrate_modal(
        audience_id=audience.id,
        audience_name=audience.name,
        members=audience.mind_count,
        channel_id=invocation.channel_id,
        universe=[d.name for d in grounding.review_distributions] if grounding else (),
        active=[d.name for d in grounding.distributions] if grounding else (),
    )
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


COMMANDS = {Recalibrate: handle_recalibrate}


PURPOSE = "recalibrate_dialog"  # what the first step saves on the server for the confirmation


def _values(view: dict[str, Any], block: str) -> dict[str, Any]:
    values = (view.get("state") or {}).get("values") or {}
    return dict((values.get(block) or {}).get(INSTRUCTION_ACTION) or {})


def _instruction(view: dict[str, Any], block: str = INSTRUCTION_BLOCK) -> str | None:
    text = _values(view, block).get("value")
    return text.strip() if isinstance(text, str) and text.strip() else None


def _allow_shared(view: dict[str, Any]) -> bool:
    return bool(_values(view, SHARED_BLOCK).get("selected_options"))


def _choices(view: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """(what the person chose, errors by block) from the first step: research mode's fields or selection mode's
    distributions (digests, with the names as shown)."""
    errors: dict[str, str] = {}
    instruction, query = _instruction(view), _instruction(view, QUERY_BLOCK)
    if instruction and query:
        errors[QUERY_BLOCK] = _("Give an instruction or a research query that replaces the brief, not both.")
    links = [line.strip() for line in (_instruction(view, LINKS_BLOCK) or "").splitlines() if line.strip()]
    if any(not link.startswith(("https://", "http://")) or " " in link or len(link) > MAX_LINK for link in links):
        errors[LINKS_BLOCK] = _("Each line must be one link starting with https://.")
    elif len(links) > MAX_SOURCES:
        errors[LINKS_BLOCK] = _("At most {count} links.", count=MAX_SOURCES)
    words = [w.strip() for w in (_instruction(view, KEYWORDS_BLOCK) or "").split(",") if w.strip()]
    keywords = list(dict.fromkeys(words))
    if len(keywords) > MAX_SOURCES:
        errors[KEYWORDS_BLOCK] = _("At most {count} keywords.", count=MAX_SOURCES)
    elif any(len(word) > MAX_KEYWORD for word in keywords):
        errors[KEYWORDS_BLOCK] = _("A keyword can be at most {count} characters.", count=MAX_KEYWORD)
    distribution = _instruction(view, DISTRIBUTION_BLOCK)
    selection_mode = (_values(view, MODE_BLOCK).get("selected_option") or {}).get("value") == MODE_SELECTION
    picked = [
        (str(o.get("value")), str((o.get("text") or {}).get("text") or ""))
        for o in _values(view, SELECTION_BLOCK).get("selected_options") or []
    ]
    if selection_mode and (instruction or query or distribution or links or keywords):
        errors[MODE_BLOCK] = _(
            "Selection mode sends only the picked distributions: empty the research fields or pick Research."
        )
    chosen = {
        "i": instruction,
        "q": query,
        "d": distribution,
        "l": links,
        "k": keywords,
        "s": _allow_shared(view),
        "sel": [value for value, _shown in picked] if selection_mode else None,
        "names": [shown for _value, shown in picked] if selection_mode else None,
    }
    return chosen, errors


def _picked(audience: AudienceDetail, digests: list[str]) -> tuple[GroundingDistribution, ...] | None:
    """The review universe's distributions the digests name, as Minds reports them now; None when one of them
    is no longer there (the grounding changed since the dialog opened)."""
    universe = {
        distribution_value(d.name): d for d in (audience.grounding.review_distributions if audience.grounding else [])
    }
    if any(digest not in universe for digest in digests):
        return None
    return tuple(universe[digest] for digest in digests)


async def _confirmed(services: Services, body: dict[str, Any], view: dict[str, Any], client: Any) -> None:
    meta = decode_value(view.get("private_metadata"))
    base = invocation_from_body(services, body, client=client, respond=None)
    channel_id, user_id = meta.get("c", ""), base.user_id
    invocation = Invocation(
        services=services,
        client=client,
        respond=None,
        team_id=base.team_id,
        channel_id=channel_id,
        user_id=user_id,
        trigger_id=base.trigger_id,
    )
    try:
        saved = await saved_for(invocation, key=str(meta.get("k") or ""), purpose=PURPOSE)
        if isinstance(saved, Refused):
            await client.chat_postEphemeral(channel=channel_id, user=user_id, text=saved.reason)
            return
        chosen = arguments_of(saved)
        minds = await services.minds.client_for(invocation.team_id)
        audience = await minds.get_audience(meta.get("a", ""))
        allowed = await may_recalibrate(
            services, client, team_id=invocation.team_id, user_id=user_id, audience=audience
        )
        if not allowed:
            refused = render_recalibrate_refused(audience_name=audience.name, owner=audience.is_owner)
            await client.chat_postEphemeral(channel=channel_id, user=user_id, **refused.as_kwargs())
            return
        selection = None if chosen.get("sel") is None else _picked(audience, list(chosen["sel"]))
        if chosen.get("sel") is not None and selection is None:
            changed = render_grounding_changed(audience_name=audience.name)
            await client.chat_postEphemeral(channel=channel_id, user=user_id, **changed.as_kwargs())
            return
        request = RecalibrationRequest(
            team_id=invocation.team_id,
            channel_id=channel_id,
            user_id=user_id,
            audience=audience,
            instruction=chosen.get("i") or None,
            requested_distribution=chosen.get("d") or None,
            allow_shared_minds=chosen.get("s") is True,
            query=chosen.get("q") or None,
            links=tuple(chosen.get("l") or ()),
            keywords=tuple(chosen.get("k") or ()),
            distributions=selection,
            key=derived_key(purpose="recalibrate", team_id=invocation.team_id, trigger_id=body.get("trigger_id")),
        )
        await start_recalibration(services, client, request)
    except MindsError as exc:  # a modal has no response URL: say it privately in the channel
        await say_failure_privately(client, channel_id=channel_id, user_id=user_id, error=exc)


async def instruction_given(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    limits = {
        INSTRUCTION_BLOCK: (N_("An instruction"), MAX_INSTRUCTION),
        QUERY_BLOCK: (N_("A research query"), MAX_INSTRUCTION),
        DISTRIBUTION_BLOCK: (N_("A distribution"), MAX_DISTRIBUTION),
    }
    chosen, errors = _choices(view)
    if errors := {**errors, **over_limit(view, limits)}:
        await ack(response_action="errors", errors=errors)
        return
    meta = decode_value(view.get("private_metadata"))
    base = invocation_from_body(services_of(context), body, client=client, respond=None)
    invocation = Invocation(
        services=base.services,
        client=client,
        respond=None,
        team_id=base.team_id,
        channel_id=str(meta.get("c") or ""),
        user_id=base.user_id,
        trigger_id=base.trigger_id,
    )
    # What was typed stays on the server (private_metadata holds 3,000 characters); the confirmation names it.
    saved = await begin(invocation, purpose=PURPOSE, subject=str(meta.get("a") or ""), arguments=chosen, again=True)
    assert not isinstance(saved, Repeat)  # ``again``: never "asked before"
    metadata = json.dumps({**meta, "k": saved.key})
    confirm = recalibrate_confirm_view(
        metadata=metadata,
        audience_name=meta.get("n", ""),
        members=int(meta.get("m") or 0),
        instruction=chosen["i"],
        distribution=chosen["d"],
        allow_shared=chosen["s"],
        query=chosen["q"],
        links=chosen["l"],
        keywords=chosen["k"],
        selection=chosen["names"],
    )
    await ack(response_action="update", view=confirm.to_dict())


async def confirmed(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()
    await _confirmed(services_of(context), body, view, client)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)

    surface.view(RECALIBRATE_VIEW)(instruction_given)
    surface.view(RECALIBRATE_CONFIRM_VIEW)(confirmed)
