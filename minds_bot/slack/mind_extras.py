"""A Mind card's ⋯ menu — Regenerate portrait…, Rebuild knowledge index, Patterns, Patterns by framework, Enrich
from keywords… — and each knowledge source's ⋯ menu — Edit description…, Remove… — with their dialogs.

Owns: those listeners. Each asks the gate first (``flows/mind_card.may``): reading patterns is ``SEE`` in the
channel; everything that changes the Mind acts for the workspace's Minds account (``MANAGE_WORKSPACE``), asked again
from the submitter when a dialog is submitted. Removing a source opens the confirmation of ``slack/mind_card.py``
naming the source as Minds has it now. A menu's value carries only the Mind's id (and the source's, in its action
id): names are read from Minds before anything is shown. Minds' refusals are said in its words; a write Minds did
not confirm says to check the Mind (rule 26); a queued portrait or rebuild is said as queued, never as done.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from minds_bot.flows import access
from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.mind_card import may, show_card
from minds_bot.i18n import N_, _
from minds_bot.minds import MindsError
from minds_bot.render.common import render_stale_button
from minds_bot.render.mind_dialogs import forget_modal
from minds_bot.render.mind_extras import (
    CONTEXT_BLOCK,
    DESCRIPTION_BLOCK,
    ENRICH_VIEW,
    FORCE,
    FORCE_BLOCK,
    KEEP_PROMPT,
    KEEP_PROMPT_BLOCK,
    KEYWORDS_BLOCK,
    MAX_ENRICH_KEYWORDS,
    MAX_KEYWORD_TEXT,
    MAX_PORTRAIT_CONTEXT,
    MAX_SOURCE_DESCRIPTION,
    MIND_MORE_ACTION,
    MORE_VERBS,
    PORTRAIT_VIEW,
    SOURCE_EDIT_VIEW,
    SOURCE_MORE_ACTION,
    SOURCE_VERBS,
    enrich_modal,
    portrait_modal,
    render_frameworks,
    render_index_queued,
    render_patterns,
    render_portrait,
    source_edit_modal,
)
from minds_bot.slack.fields import over_limit, ticked, typed
from minds_bot.slack.listeners import pressed
from minds_bot.slack.mind_card import after_ack, failed, looking

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

MANAGE = access.Act.MANAGE_WORKSPACE
READS = ("patterns", "frameworks")  # the menu's reads: anyone who may see the card


def _picked(action: dict[str, Any], verbs: tuple[str, ...]) -> tuple[str, str] | None:
    verb, _sep, mind_id = str((action.get("selected_option") or {}).get("value") or "").partition(":")
    return (verb, mind_id) if verb in verbs and mind_id and "/" not in mind_id else None


async def _open(invocation: Invocation, view: Any) -> None:
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


async def more(invocation: Invocation, action: dict[str, Any]) -> None:
    """The card's ⋯ menu: the gate for the chosen verb, then the dialog it opens or what Minds answers."""
    picked = _picked(action, MORE_VERBS)
    if picked is None:
        await invocation.reply(render_stale_button())
        return
    verb, mind_id = picked
    if (await may(invocation, access.Act.SEE if verb in READS else MANAGE)).refused:
        return
    minds = await invocation.minds()
    if verb == "frameworks":
        patterns = await with_progress(minds.mind_knowledge_patterns(mind_id), show=lambda: looking(invocation))
        await invocation.reply(render_frameworks(patterns))
        return
    mind = await with_progress(minds.get_mind(mind_id), show=lambda: looking(invocation))
    if verb == "patterns":
        await invocation.reply(render_patterns(mind.name, await minds.mind_patterns(mind.id)))
    elif verb == "portrait":
        has = bool(mind.profile_image_url)
        await _open(
            invocation,
            portrait_modal(mind_id=mind.id, name=mind.name, has_portrait=has, channel_id=invocation.channel_id),
        )
    elif verb == "enrich":
        await _open(invocation, enrich_modal(mind_id=mind.id, name=mind.name, channel_id=invocation.channel_id))
    else:
        await _rebuild_index(invocation, mind_id=mind.id, name=mind.name)


async def _rebuild_index(invocation: Invocation, *, mind_id: str, name: str) -> None:
    """Sent once (it has no key); only Minds' 202 is said as queued."""
    minds = await invocation.minds()
    try:
        await minds.regenerate_mind_embeddings(mind_id)
    except MindsError as exc:
        await failed(invocation, exc, name=name)
        return
    await invocation.reply(render_index_queued(name))


async def source(invocation: Invocation, action: dict[str, Any]) -> None:
    """A source's ⋯ menu: Edit description… or Remove…, each naming the source as Minds lists it now."""
    picked = _picked(action, SOURCE_VERBS)
    item_id = str(action.get("action_id", "")).removeprefix(f"{SOURCE_MORE_ACTION}:")
    if picked is None or not item_id:
        await invocation.reply(render_stale_button())
        return
    verb, mind_id = picked
    if (await may(invocation, MANAGE)).refused:
        return
    minds = await invocation.minds()
    mind = await with_progress(minds.get_mind(mind_id), show=lambda: looking(invocation))
    listed = await minds.list_mind_knowledge(mind.id)
    item = next((i for i in listed.items if i.id == item_id), None)
    if item is None:
        await invocation.say_text(_("Minds no longer lists this source of the Mind's knowledge; refresh the card."))
        return
    where = {"mind_id": mind.id, "name": mind.name, "item_id": item.id, "channel_id": invocation.channel_id}
    if verb == "edit":
        await _open(invocation, source_edit_modal(description=item.description, **where))
    else:
        await _open(invocation, forget_modal(description=item.description, **where))


# --- the dialogs --------------------------------------------------------------------------------------------------


async def portrait_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    if errors := over_limit(view, {CONTEXT_BLOCK: (N_("The description"), MAX_PORTRAIT_CONTEXT)}):
        await ack(response_action="errors", errors=errors)
        return
    await ack()
    force, persona = ticked(view, FORCE_BLOCK, FORCE), typed(view, CONTEXT_BLOCK)

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        minds = await invocation.minds()
        result = await minds.regenerate_mind_image(str(meta.get("m") or ""), force=force, persona_context=persona)
        await invocation.reply(render_portrait(result, name=result.name))

    await after_ack(context, body, view, client, work)


def keywords_of(text: str | None) -> list[str]:
    """The dialog's keywords: separated by commas, trimmed, each once."""
    return list(dict.fromkeys(k.strip() for k in (text or "").split(",") if k.strip()))


async def enrich_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    keywords = keywords_of(typed(view, KEYWORDS_BLOCK))
    errors = over_limit(view, {KEYWORDS_BLOCK: (N_("The keywords"), MAX_KEYWORD_TEXT)})
    if not errors and not keywords:
        errors[KEYWORDS_BLOCK] = _("Give at least one keyword.")
    elif not errors and len(keywords) > MAX_ENRICH_KEYWORDS:
        errors[KEYWORDS_BLOCK] = _("At most {limit} keywords.", limit=MAX_ENRICH_KEYWORDS)
    if errors:
        await ack(response_action="errors", errors=errors)
        return
    await ack()
    keep = ticked(view, KEEP_PROMPT_BLOCK, KEEP_PROMPT)

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        mind_id = str(meta.get("m") or "")
        minds = await invocation.minds()
        queued = await minds.enrich_mind_knowledge(mind_id, keywords=keywords, regenerate_prompt=not keep)
        await show_card(invocation, mind_id, note="enriched", source="\n".join(queued.keywords))

    await after_ack(context, body, view, client, work)


async def source_edit_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    description = typed(view, DESCRIPTION_BLOCK)
    errors = over_limit(view, {DESCRIPTION_BLOCK: (N_("A description"), MAX_SOURCE_DESCRIPTION)})
    if description is None:
        errors[DESCRIPTION_BLOCK] = _("Say in a few words what it is: Minds needs a description.")
    if errors:
        await ack(response_action="errors", errors=errors)
        return
    await ack()

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        mind_id, item_id = str(meta.get("m") or ""), str(meta.get("i") or "")
        minds = await invocation.minds()
        saved = await minds.update_mind_knowledge(mind_id, item_id, description=description or "")
        await show_card(invocation, mind_id, note="renamed", source=saved.description)

    await after_ack(context, body, view, client, work)


def register(surface: Surface, services: Services) -> None:
    surface.action(MIND_MORE_ACTION)(pressed(more))
    surface.action(re.compile(rf"^{SOURCE_MORE_ACTION}:"))(pressed(source))
    surface.view(PORTRAIT_VIEW)(portrait_submitted)
    surface.view(ENRICH_VIEW)(enrich_submitted)
    surface.view(SOURCE_EDIT_VIEW)(source_edit_submitted)
