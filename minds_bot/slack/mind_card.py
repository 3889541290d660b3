"""``/minds mind <name>`` (a Mind's card) and ``/minds mind new`` (the create dialog), the card's buttons — Refresh,
Add knowledge, Retrain, Rebuild prompt, Edit, Delete, Remove (a knowledge source) — and the dialogs' submissions.

Owns: those listeners. Each asks the gate before it shows or changes anything (``flows/mind_card.may``): again
when a dialog is submitted, from the submitter, so a dialog opened by someone who may no longer act changes
nothing. Deleting (a Mind, or one source of its knowledge) goes through a confirmation dialog that names exactly
what is deleted. A dialog's fields are checked before its ack (errors said on the field, nothing lost); its work
runs after the ack, and its answer goes privately to the channel it was opened from.
Reading and writing is ``flows/mind_card.py``; the words ``render/mind_card.py`` and ``render/mind_dialogs.py``.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from minds_bot.flows import access
from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.flows.mind_card import (
    NewMind,
    create,
    file_name,
    is_web_address,
    may,
    new_mind_errors,
    show_card,
)
from minds_bot.i18n import N_, _
from minds_bot.minds import Conflict, MindsAPIError, MindsError, ServerError
from minds_bot.render.common import decode_metadata, decode_value, render_stale_button
from minds_bot.render.errors import user_message
from minds_bot.render.mind_card import (
    MIND_DELETE_ACTION,
    MIND_EDIT_ACTION,
    MIND_FORGET_ACTION,
    MIND_KNOWLEDGE_ACTION,
    MIND_PROMPT_ACTION,
    MIND_REFRESH_ACTION,
    MIND_RETRAIN_ACTION,
    render_deleted,
    render_no_prompt,
    render_still_training,
    render_unconfirmed,
)
from minds_bot.render.mind_dialogs import (
    DESCRIPTION_BLOCK,
    DISCIPLINE_BLOCK,
    FILE_BLOCK,
    KEYWORDS_BLOCK,
    LINK_BLOCK,
    MAX_DISCIPLINE,
    MAX_KEYWORDS,
    MAX_MIND_DESCRIPTION,
    MAX_MIND_NAME,
    MAX_PERSON,
    MAX_SOURCE_DESCRIPTION,
    MAX_URL,
    MIN_NAME,
    MIND_DELETE_VIEW,
    MIND_EDIT_VIEW,
    MIND_FORGET_VIEW,
    MIND_KNOWLEDGE_VIEW,
    MIND_NEW_VIEW,
    MODE_BLOCK,
    MODES,
    NAME_BLOCK,
    NO_WEB,
    PAGE_BLOCK,
    PERSON_BLOCK,
    TYPE_BLOCK,
    TYPES,
    WEB_BLOCK,
    delete_modal,
    edit_modal,
    forget_modal,
    knowledge_modal,
    mind_new_modal,
)
from minds_bot.slack.context import services_of
from minds_bot.slack.fields import over_limit, ticked, typed
from minds_bot.slack.grammar import MindNew, ShowMind
from minds_bot.slack.listeners import invocation_from_body, pressed
from minds_bot.slack.reentry import ephemeral_to
from minds_bot.slack.resolve import resolve_mind

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.router import Handler
    from minds_bot.slack.surface import Surface

UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
MANAGE = access.Act.MANAGE_WORKSPACE
NEW_LIMITS = {
    NAME_BLOCK: (N_("A name"), MAX_MIND_NAME),
    DISCIPLINE_BLOCK: (N_("An area of expertise"), MAX_DISCIPLINE),
    DESCRIPTION_BLOCK: (N_("A description"), MAX_MIND_DESCRIPTION),
    KEYWORDS_BLOCK: (N_("The keywords"), MAX_KEYWORDS),
    PERSON_BLOCK: (N_("The person to model"), MAX_PERSON),
    PAGE_BLOCK: (N_("A web address"), MAX_URL),
}


# --- the commands -------------------------------------------------------------------------------------------------


async def handle_mind_new(command: MindNew, invocation: Invocation) -> None:
    if (await may(invocation, MANAGE)).refused:
        return
    view = mind_new_modal(channel_id=invocation.channel_id, key_id=str(uuid.uuid4()))
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


async def handle_show_mind(command: ShowMind, invocation: Invocation) -> None:
    if (await may(invocation, access.Act.SEE)).refused:
        return
    if UUID.match(command.mind):
        await show_card(invocation, command.mind)
        return
    mind = await resolve_mind(invocation, command.mind, rerun=lambda mind_id: f"mind {mind_id}")
    if mind is not None:
        await show_card(invocation, mind.id)


COMMANDS: dict[type, Handler] = {MindNew: handle_mind_new, ShowMind: handle_show_mind}


# --- the card's buttons -------------------------------------------------------------------------------------------


def _chosen(action: dict[str, Any]) -> dict[str, str] | None:
    state = decode_value(action.get("value"))
    wanted = ("m", "n", "i", "d") if str(action.get("action_id", "")).startswith(MIND_FORGET_ACTION) else ("m", "n")
    if not all(isinstance(state.get(key), str) and state[key] for key in wanted):
        return None
    return {key: state[key] for key in wanted}


def button_work(act: access.Act, work: Callable[[Invocation, dict[str, str]], Awaitable[None]]) -> Any:
    """A card button: its value read, the gate asked for ``act``, then ``work(invocation, chosen)``."""

    async def listener(invocation: Invocation, action: dict[str, Any]) -> None:
        chosen = _chosen(action)
        if chosen is None:
            await invocation.reply(render_stale_button())
            return
        if (await may(invocation, act)).refused:
            return
        await work(invocation, chosen)

    listener.__name__ = listener.__qualname__ = work.__name__
    listener.__doc__ = work.__doc__
    return pressed(listener)


async def refresh(invocation: Invocation, chosen: dict[str, str]) -> None:
    """Read the Mind again: the card, in place, with its training and knowledge as they are now."""
    await show_card(invocation, chosen["m"], replace=True)


async def open_knowledge(invocation: Invocation, chosen: dict[str, str]) -> None:
    view = knowledge_modal(mind_id=chosen["m"], name=chosen["n"], channel_id=invocation.channel_id)
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


async def retrain(invocation: Invocation, chosen: dict[str, str]) -> None:
    """Queue retraining (sent once: it has no key), then the card with its new training status."""
    minds = await invocation.minds()
    try:
        await minds.retrain_mind(chosen["m"])
    except Conflict:
        await invocation.reply(render_still_training(chosen["n"]))
        return
    except MindsError as exc:
        await failed(invocation, exc, name=chosen["n"])
        return
    await show_card(invocation, chosen["m"], note="retrained")


async def rebuild_prompt(invocation: Invocation, chosen: dict[str, str]) -> None:
    """Ask Minds to build the prompt from the knowledge (sent once), then the card; too little knowledge is said."""
    minds = await invocation.minds()
    try:
        await minds.regenerate_mind_prompt(chosen["m"])
    except ServerError as exc:  # Minds' 500: too little content to build from, or a generation error
        await invocation.reply(render_no_prompt(name=chosen["n"], reason=user_message(exc)))
        return
    except MindsError as exc:
        await failed(invocation, exc, name=chosen["n"])
        return
    await show_card(invocation, chosen["m"], note="prompted")


async def open_edit(invocation: Invocation, chosen: dict[str, str]) -> None:
    minds = await invocation.minds()
    mind = await with_progress(minds.get_mind(chosen["m"]), show=lambda: looking(invocation))
    view = edit_modal(
        mind_id=mind.id,
        name=mind.name,
        discipline=mind.discipline,
        description=mind.description,
        channel_id=invocation.channel_id,
    )
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


async def open_delete(invocation: Invocation, chosen: dict[str, str]) -> None:
    """The confirmation names the Mind as Minds has it now, with how many knowledge sources go with it."""
    minds = await invocation.minds()
    mind = await with_progress(minds.get_mind(chosen["m"]), show=lambda: looking(invocation))
    view = delete_modal(
        mind_id=mind.id, name=mind.name, sources=mind.knowledge_item_count, channel_id=invocation.channel_id
    )
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


async def open_forget(invocation: Invocation, chosen: dict[str, str]) -> None:
    view = forget_modal(
        mind_id=chosen["m"],
        name=chosen["n"],
        item_id=chosen["i"],
        description=chosen["d"],
        channel_id=invocation.channel_id,
    )
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


async def looking(invocation: Invocation) -> None:
    await invocation.say_text(_("Looking it up in Minds…"))


async def failed(invocation: Invocation, exc: MindsError, *, name: str) -> None:
    """Minds refused (its words), or did not confirm: then the person checks the Mind before trying again."""
    if isinstance(exc, MindsAPIError):
        await invocation.say_text(user_message(exc))
    else:
        await invocation.reply(render_unconfirmed(name=name, reason=user_message(exc)))


# --- the dialogs --------------------------------------------------------------------------------------------------


def _picked(view: dict[str, Any], block: str, choices: dict[str, str] | Any, default: str) -> str:
    values = (view.get("state") or {}).get("values") or {}
    for element in (values.get(block) or {}).values():
        chosen = ((element or {}).get("selected_option") or {}).get("value") if isinstance(element, dict) else None
        if chosen in choices:
            return str(chosen)
    return default


def _submitter(services: Services, body: dict[str, Any], view: dict[str, Any], client: Any) -> Invocation:
    """Who submitted, answered privately in the channel the dialog was opened from (a dialog has no response
    URL)."""
    base = invocation_from_body(services, body, client=client, respond=None)
    channel_id = str(decode_metadata(view.get("private_metadata")).get("c") or "")
    return Invocation(
        services=services,
        client=client,
        respond=ephemeral_to(client, channel_id=channel_id, user_id=base.user_id),
        team_id=base.team_id,
        channel_id=channel_id,
        user_id=base.user_id,
        trigger_id=base.trigger_id,
    )


async def after_ack(
    context: AsyncBoltContext,
    body: dict[str, Any],
    view: dict[str, Any],
    client: Any,
    work: Callable[[Invocation, dict[str, Any]], Awaitable[None]],
) -> None:
    """The gate asked again for the submitter, then ``work``; what Minds answered is said privately."""
    invocation = _submitter(services_of(context), body, view, client)
    meta = decode_metadata(view.get("private_metadata"))
    if (await may(invocation, MANAGE)).refused:
        return
    try:
        await work(invocation, meta)
    except MindsError as exc:
        await failed(invocation, exc, name=str(meta.get("n") or ""))


def _new_mind(view: dict[str, Any]) -> NewMind:
    return NewMind(
        name=typed(view, NAME_BLOCK),
        discipline=typed(view, DISCIPLINE_BLOCK),
        description=typed(view, DESCRIPTION_BLOCK),
        mode=_picked(view, MODE_BLOCK, MODES, "keywords"),
        mind_type=_picked(view, TYPE_BLOCK, TYPES, "expert"),
        keywords=typed(view, KEYWORDS_BLOCK),
        person=typed(view, PERSON_BLOCK),
        page=typed(view, PAGE_BLOCK),
        web_search=not ticked(view, WEB_BLOCK, NO_WEB),
    )


async def new_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    new = _new_mind(view)
    if errors := over_limit(view, NEW_LIMITS) or new_mind_errors(new):
        await ack(response_action="errors", errors=errors)
        return
    await ack()

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        key = meta.get("k")
        if not isinstance(key, str) or not UUID.match(key):
            await invocation.reply(render_stale_button())
            return
        mind_id = await create(await invocation.minds(), new, key=key)
        await show_card(invocation, mind_id, note="created")

    await after_ack(context, body, view, client, work)


async def knowledge_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    limits = {
        LINK_BLOCK: (N_("A web address"), MAX_URL),
        FILE_BLOCK: (N_("A web address"), MAX_URL),
        DESCRIPTION_BLOCK: (N_("A description"), MAX_SOURCE_DESCRIPTION),
    }
    link, file_url, description = typed(view, LINK_BLOCK), typed(view, FILE_BLOCK), typed(view, DESCRIPTION_BLOCK)
    errors = over_limit(view, limits)
    if not errors and (link is None) == (file_url is None):
        errors[LINK_BLOCK] = _("Give one web page or one file's address (not both).")
    for block, address in ((LINK_BLOCK, link), (FILE_BLOCK, file_url)):
        if address is not None and not is_web_address(address):
            errors[block] = _("Give a web address that starts with https://.")
    if description is None:
        errors[DESCRIPTION_BLOCK] = _("Say in a few words what it is: Minds needs a description.")
    if errors:
        await ack(response_action="errors", errors=errors)
        return
    await ack()

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        mind_id = str(meta.get("m") or "")
        file = {"name": file_name(file_url), "url": file_url} if file_url else None
        minds = await invocation.minds()
        await minds.add_mind_knowledge(mind_id, description=description or "", link=link, file=file)
        await show_card(invocation, mind_id, note="added", source=description)

    await after_ack(context, body, view, client, work)


async def edit_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    limits = {key: NEW_LIMITS[key] for key in (NAME_BLOCK, DISCIPLINE_BLOCK, DESCRIPTION_BLOCK)}
    name = typed(view, NAME_BLOCK)
    errors = over_limit(view, limits)
    if name is None or len(name) < MIN_NAME:
        errors[NAME_BLOCK] = _("A name of {low} to {high} characters.", low=MIN_NAME, high=MAX_MIND_NAME)
    if errors:
        await ack(response_action="errors", errors=errors)
        return
    await ack()

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        mind_id = str(meta.get("m") or "")
        minds = await invocation.minds()
        await minds.update_mind(
            mind_id,
            name=name,
            discipline=typed(view, DISCIPLINE_BLOCK) or "",
            description=typed(view, DESCRIPTION_BLOCK) or "",
        )
        await show_card(invocation, mind_id, note="edited")

    await after_ack(context, body, view, client, work)


async def delete_confirmed(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        minds = await invocation.minds()
        await minds.delete_mind(str(meta.get("m") or ""))
        await invocation.reply(render_deleted(str(meta.get("n") or "")))

    await after_ack(context, body, view, client, work)


async def forget_confirmed(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        mind_id = str(meta.get("m") or "")
        minds = await invocation.minds()
        await minds.delete_mind_knowledge(mind_id, str(meta.get("i") or ""))
        await show_card(invocation, mind_id, note="removed", source=str(meta.get("d") or ""))

    await after_ack(context, body, view, client, work)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(MIND_REFRESH_ACTION)(button_work(access.Act.SEE, refresh))
    surface.action(MIND_KNOWLEDGE_ACTION)(button_work(MANAGE, open_knowledge))
    surface.action(MIND_RETRAIN_ACTION)(button_work(MANAGE, retrain))
    surface.action(MIND_PROMPT_ACTION)(button_work(MANAGE, rebuild_prompt))
    surface.action(MIND_EDIT_ACTION)(button_work(MANAGE, open_edit))
    surface.action(MIND_DELETE_ACTION)(button_work(MANAGE, open_delete))
    surface.action(re.compile(rf"^{MIND_FORGET_ACTION}:"))(button_work(MANAGE, open_forget))
    surface.view(MIND_NEW_VIEW)(new_submitted)
    surface.view(MIND_KNOWLEDGE_VIEW)(knowledge_submitted)
    surface.view(MIND_EDIT_VIEW)(edit_submitted)
    surface.view(MIND_DELETE_VIEW)(delete_confirmed)
    surface.view(MIND_FORGET_VIEW)(forget_confirmed)
