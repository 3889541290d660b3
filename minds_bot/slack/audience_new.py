"""The New Audience dialogs: ``/minds audience new`` (no brief) opens the dialog that designs the sample of an
Audience built from a brief; **New Audience from these Minds** on a ``/minds minds`` page opens one that makes an
Audience of the chosen Minds.

Owns: opening the dialogs — the gate first (``access.check`` through ``flows/spend.refused_early`` for a build,
act POST for an Audience of Minds: a refused person gets the refusal and no dialog), at once (trigger ids expire
after 3 s), the brief dialog then updated with the account's limits (a workspace lock says so and offers nothing
to submit); reading and checking the submissions (a clear error beside the field, everything typed kept: an empty
brief, a size outside 1…the plan's cap, links that are not http(s), more than 20 links, no Minds, a missing
name); the dataset step (the dialog becomes "previewing…" within Slack's 3 s, then the review or why not); and
handing the work to the flows as the person's work (``flows/spend.their_work``), announced in the channel the
dialog was opened from. The use cases are ``flows/audience_new.py`` and ``flows/audiences.py``.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.audience_new import (
    create_from_minds,
    create_reviewed,
    may_post,
    mind_options,
    preview_dataset,
    save_review,
)
from minds_bot.flows.audiences import BuildOptions, start_audience
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.planning import Refused
from minds_bot.flows.spend import SpendRequest, refused_early, their_work
from minds_bot.i18n import _, in_channel
from minds_bot.minds import MindsError
from minds_bot.render.audience_new import (
    BRIEF_ACTION,
    BRIEF_BLOCK,
    DATASET_ACTION,
    DATASET_BLOCK,
    FROM_MINDS_VIEW,
    GROUNDING_ACTION,
    GROUNDING_BLOCK,
    KEYWORDS_ACTION,
    KEYWORDS_BLOCK,
    LINKS_ACTION,
    LINKS_BLOCK,
    MAX_KEYWORDS,
    MAX_LINKS,
    MIND_OPTIONS_ACTION,
    MINDS_BLOCK,
    MODE_ACTION,
    MODE_BLOCK,
    MODE_WORDS,
    NAME_ACTION,
    NAME_BLOCK,
    NEW_AUDIENCE_VIEW,
    NO_WEB_VALUE,
    PUBLIC_ACTION,
    PUBLIC_BLOCK,
    PUBLIC_VALUE,
    REVIEW_VIEW,
    SIZE_ACTION,
    SIZE_BLOCK,
    render_audience_made,
    render_from_minds,
    render_locked_dialog,
    render_mind_options,
    render_new_audience,
    render_preview_refused,
    render_previewing,
    render_review,
)
from minds_bot.render.browse import FROM_MINDS_ACTION
from minds_bot.render.common import decode_value, note
from minds_bot.render.errors import user_message
from minds_bot.slack.context import services_of
from minds_bot.slack.listeners import invocation_from_body, pressed
from minds_bot.slack.options import ack_options
from minds_bot.slack.reentry import ephemeral_to

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

LINK_SCHEMES = ("https://", "http://")


async def open_new_audience(invocation: Invocation) -> None:
    """The brief dialog, once the gate let the person build an Audience in this channel."""
    request = SpendRequest(action="audience_build", subject="", command="audience new")  # verbatim
    if await refused_early(invocation, request):
        return
    view = render_new_audience(channel_id=invocation.channel_id, limits=None)
    opened = await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())
    minds = await invocation.minds()
    try:
        limits = await minds.audience_limits()
    except MindsError as exc:
        await invocation.reply(note(user_message(exc)))
        return
    shown = opened.get("view") or {}
    if limits.locked:
        updated = render_locked_dialog()
    else:
        updated = render_new_audience(channel_id=invocation.channel_id, limits=limits)
    await invocation.client.views_update(view_id=shown.get("id"), hash=shown.get("hash"), view=updated.to_dict())


def _value(values: dict[str, Any], block: str, action: str) -> Any:
    return (values.get(block) or {}).get(action) or {}


def _read_brief_dialog(view: dict[str, Any]) -> tuple[str, BuildOptions, str, dict[str, str]]:
    """(brief, options, dataset link, errors by block) from a submitted brief dialog."""
    meta = decode_value(view.get("private_metadata"))
    values = (view.get("state") or {}).get("values") or {}
    errors: dict[str, str] = {}
    brief = str(_value(values, BRIEF_BLOCK, BRIEF_ACTION).get("value") or "").strip()
    if not brief:
        errors[BRIEF_BLOCK] = _("Describe who the Audience should be.")
    name = str(_value(values, NAME_BLOCK, NAME_ACTION).get("value") or "").strip() or None
    size_text = str(_value(values, SIZE_BLOCK, SIZE_ACTION).get("value") or "").strip()
    cap = meta.get("cap") if isinstance(meta.get("cap"), int) else None
    size: int | None = None
    if size_text:
        size = int(size_text) if size_text.isdigit() else None
        if size is None or size < 1 or (cap is not None and size > cap):
            errors[SIZE_BLOCK] = _("Give a whole number of Minds from 1 to {cap}.", cap=cap or 1000)
    mode = (_value(values, MODE_BLOCK, MODE_ACTION).get("selected_option") or {}).get("value")
    if mode is not None and mode not in MODE_WORDS:
        errors[MODE_BLOCK] = _("Pick a creation mode from the list.")
    links = [line.strip() for line in str(_value(values, LINKS_BLOCK, LINKS_ACTION).get("value") or "").splitlines()]
    links = [line for line in links if line]
    if any(not link.startswith(LINK_SCHEMES) or " " in link for link in links):
        errors[LINKS_BLOCK] = _("Each line must be one link starting with https://.")
    elif len(links) > MAX_LINKS:
        errors[LINKS_BLOCK] = _("At most {count} links.", count=MAX_LINKS)
    keywords_text = str(_value(values, KEYWORDS_BLOCK, KEYWORDS_ACTION).get("value") or "")
    keywords = [word.strip() for word in keywords_text.split(",") if word.strip()]
    if len(keywords) > MAX_KEYWORDS:
        errors[KEYWORDS_BLOCK] = _("At most {count} keywords.", count=MAX_KEYWORDS)
    ticked = _value(values, PUBLIC_BLOCK, PUBLIC_ACTION).get("selected_options") or []
    public = any(option.get("value") == PUBLIC_VALUE for option in ticked)
    grounding = _value(values, GROUNDING_BLOCK, GROUNDING_ACTION).get("selected_options") or []
    no_web = any(option.get("value") == NO_WEB_VALUE for option in grounding)
    dataset = str(_value(values, DATASET_BLOCK, DATASET_ACTION).get("value") or "").strip()
    options = BuildOptions(
        name=name,
        member_count=size,
        creation_mode=mode,
        links=tuple(links),
        keywords=tuple(dict.fromkeys(keywords)),
        web_search=not no_web,
        link_sharing=public,
    )
    return brief, options, dataset, errors


def _dialog_invocation(services: Services, body: dict[str, Any], client: Any, channel_id: str) -> Invocation:
    base = invocation_from_body(services, body, client=client, respond=None)
    return Invocation(
        services=services,
        client=client,
        respond=ephemeral_to(client, channel_id=channel_id, user_id=base.user_id),
        team_id=base.team_id,
        channel_id=channel_id,
        user_id=base.user_id,
        trigger_id=body.get("trigger_id"),
    )


async def brief_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    brief, options, dataset, errors = _read_brief_dialog(view)
    if errors:
        await ack(response_action="errors", errors=errors)
        return
    services = services_of(context)
    channel_id = str(decode_value(view.get("private_metadata")).get("c") or "")
    invocation = _dialog_invocation(services, body, client, channel_id)
    if not dataset:
        await ack()
        async with their_work(services, team_id=invocation.team_id, user_id=invocation.user_id):
            await start_audience(invocation, brief=brief, options=options)
        return
    await ack(response_action="update", view=render_previewing().to_dict())
    async with their_work(services, team_id=invocation.team_id, user_id=invocation.user_id):
        preview = await preview_dataset(invocation, dataset)
        if isinstance(preview, str):
            shown = render_preview_refused(preview)
        else:
            key = await save_review(invocation, brief=brief, options=options, preview=preview)
            shown = render_review(preview, request_id=key)
    await client.views_update(view_id=view.get("id"), view=shown.to_dict())


async def review_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()
    services = services_of(context)
    key = str(decode_value(view.get("private_metadata")).get("k") or "")
    base = invocation_from_body(services, body, client=client, respond=None)
    saved = await services.store.get_keyed_request(team_id=base.team_id, key=key)
    invocation = _dialog_invocation(services, body, client, saved.channel_id if saved else "")
    async with their_work(services, team_id=invocation.team_id, user_id=invocation.user_id):
        refused = await create_reviewed(invocation, key=key)
    if isinstance(refused, Refused):
        await invocation.say_mrkdwn(refused.reason)


async def from_minds_pressed(invocation: Invocation, action: dict[str, Any]) -> None:
    """**New Audience from these Minds** on a /minds minds page: the dialog with that page's Minds chosen."""
    refused = await may_post(invocation)
    if refused is not None:
        await invocation.say_mrkdwn(refused)
        return
    listed = decode_value(action.get("value")).get("m") or []
    minds = [(str(m[0]), str(m[1])) for m in listed if isinstance(m, list) and len(m) == 2]
    view = render_from_minds(channel_id=invocation.channel_id, minds=minds)
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


async def search_minds(ack: AsyncAck, body: dict[str, Any], context: AsyncBoltContext) -> None:
    services = services_of(context)
    team = (body.get("team") or {}).get("id") or (body.get("user") or {}).get("team_id", "")

    async def search() -> list[dict[str, Any]]:
        minds = await services.minds.client_for(team)
        return render_mind_options(await mind_options(minds, query=str(body.get("value") or "")))

    await ack_options(ack, search())


async def minds_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    values = (view.get("state") or {}).get("values") or {}
    name = str(_value(values, NAME_BLOCK, NAME_ACTION).get("value") or "").strip()
    picked = _value(values, MINDS_BLOCK, MIND_OPTIONS_ACTION).get("selected_options") or []
    mind_ids = [str(o.get("value")) for o in picked if o.get("value") and not str(o.get("value")).startswith("__")]
    errors: dict[str, str] = {}
    if not name:
        errors[NAME_BLOCK] = _("Give the Audience a name.")
    if not mind_ids:
        errors[MINDS_BLOCK] = _("Pick at least one Mind from the list.")
    if errors:
        await ack(response_action="errors", errors=errors)
        return
    await ack()
    ticked = _value(values, PUBLIC_BLOCK, PUBLIC_ACTION).get("selected_options") or []
    public = any(option.get("value") == PUBLIC_VALUE for option in ticked)
    services = services_of(context)
    channel_id = str(decode_value(view.get("private_metadata")).get("c") or "")
    invocation = _dialog_invocation(services, body, client, channel_id)
    async with their_work(services, team_id=invocation.team_id, user_id=invocation.user_id):
        made = await create_from_minds(invocation, name=name, mind_ids=mind_ids, public=public)
    if isinstance(made, str):
        await invocation.say_mrkdwn(made)
        return
    with in_channel():  # the announcement is the channel's
        message = render_audience_made(made, user_id=invocation.user_id)
    await client.chat_postMessage(channel=channel_id, **message.as_kwargs())


def register(surface: Surface, services: Services) -> None:
    surface.view(NEW_AUDIENCE_VIEW)(brief_submitted)
    surface.view(REVIEW_VIEW)(review_submitted)
    surface.action(FROM_MINDS_ACTION)(pressed(from_minds_pressed))
    surface.external_options(MIND_OPTIONS_ACTION)(search_minds)
    surface.view(FROM_MINDS_VIEW)(minds_submitted)
