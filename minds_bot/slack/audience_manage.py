"""The Audience card's managing row: Members, Formations, Edit, Duplicate…, Delete and its ⋯ menu (Follow,
Unfollow, Portraits…), and the dialogs they open.

Owns: those buttons' and dialogs' listeners. Each asks the gate first (``flows/audience_manage.py``: seeing is the
channel's members', changing is its deciders') — when the button is pressed, and again on the server when a dialog
is submitted, with the person Slack names and Minds read afresh (never what a button or a dialog carried). The
Audience's delete dialog names it and its member count; removing members names them; a Formation's delete is
confirmed by name. Duplicate… makes a named copy through ``flows/duplicates.py`` (the channel's "duplicate" line,
keyed on the submission). Nothing here builds blocks (``render/audience_manage.py``).
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from minds_bot.flows import audience_manage as manage
from minds_bot.flows.duplicates import duplicate_audience
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.spend import SpendRequest, refused_early, their_work
from minds_bot.i18n import _
from minds_bot.minds import MindsError
from minds_bot.render import audience_manage as words
from minds_bot.render import formations as fw
from minds_bot.render.common import decode_metadata, decode_value
from minds_bot.render.errors import user_message
from minds_bot.slack.context import services_of
from minds_bot.slack.errors import say_failure_privately
from minds_bot.slack.listeners import ack_with_view_within, invocation_from_body, pressed
from minds_bot.slack.options import ack_options
from minds_bot.slack.reentry import ephemeral_to
from minds_bot.slack.resolve import show_progress

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.models.views import View
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


PROPOSAL_IN_ACK = 2.0  # seconds: Slack waits 3 s for a dialog's acknowledgement


def _chosen(action: dict[str, Any]) -> dict[str, str] | None:
    state = decode_value(action.get("value"))
    fields = {k: state.get(k) for k in ("a", "n", "f")}
    if not isinstance(fields["a"], str) or not isinstance(fields["n"], str):
        return None
    return {k: v for k, v in fields.items() if isinstance(v, str)}


async def _allowed(invocation: Invocation, *, change: bool, channel_id: str | None = None) -> bool:
    """The gate for this person here; a refusal is said privately and nothing more happens."""
    check = manage.may_change if change else manage.may_see
    decision = await check(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        channel_id=channel_id or invocation.channel_id,
    )
    if decision.refused:
        await invocation.say_mrkdwn(decision.reason)
    return decision.allowed


async def _open(invocation: Invocation, view: Any) -> None:
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


# --- the card's buttons --------------------------------------------------------------------------------------------


async def members(invocation: Invocation, action: dict[str, Any]) -> None:
    """Members: who is in, Minds to add and members to remove (changed only after the review step)."""
    chosen = _chosen(action)
    if chosen is None:
        await invocation.say_text(words.stale_button())
        return
    if not await _allowed(invocation, change=False):
        return
    audience = await (await invocation.minds()).get_audience(chosen["a"])
    await _open(invocation, words.members_view(audience=audience, channel_id=invocation.channel_id))


async def search_minds(ack: AsyncAck, body: dict[str, Any], context: AsyncBoltContext) -> None:
    """*Add Minds* as the person types: Minds' search, or one option saying why there is none."""
    team = (body.get("team") or {}).get("id") or (body.get("user") or {}).get("team_id", "")
    services = services_of(context)
    query = str(body.get("value") or "")

    async def found() -> list[dict[str, Any]]:
        return words.render_mind_options(await manage.member_candidates(services, team_id=team, query=query))

    await ack_options(ack, found())


async def formations(invocation: Invocation, action: dict[str, Any]) -> None:
    """Formations: every one Minds lists, each with Recompute and Delete where Minds lets this account change it."""
    chosen = _chosen(action)
    if chosen is None:
        await invocation.say_text(words.stale_button())
        return
    if not await _allowed(invocation, change=False):
        return
    minds = await invocation.minds()
    audience = await minds.get_audience(chosen["a"])
    listed = await minds.list_formations(audience.id)
    await invocation.reply(fw.render_formations(audience=audience, formations=listed))


async def edit(invocation: Invocation, action: dict[str, Any]) -> None:
    chosen = _chosen(action)
    if chosen is None:
        await invocation.say_text(words.stale_button())
        return
    if not await _allowed(invocation, change=True):
        return
    audience = await (await invocation.minds()).get_audience(chosen["a"])
    await _open(invocation, words.edit_view(audience=audience, channel_id=invocation.channel_id))


async def duplicate_named(invocation: Invocation, action: dict[str, Any]) -> None:
    """Duplicate…: the channel's "duplicate" line is asked before the dialog opens (and again when it is sent)."""
    chosen = _chosen(action)
    if chosen is None:
        await invocation.say_text(words.stale_button())
        return
    command = f"duplicate audience {chosen['a']}"  # verbatim
    if await refused_early(
        invocation, SpendRequest(action="duplicate", subject=chosen["n"], command=command, responses=0)
    ):
        return
    audience = await (await invocation.minds()).get_audience(chosen["a"])
    await _open(invocation, words.duplicate_view(audience=audience, channel_id=invocation.channel_id))


async def delete(invocation: Invocation, action: dict[str, Any]) -> None:
    """Delete: the dialog names the Audience and its member count as Minds reports them now."""
    chosen = _chosen(action)
    if chosen is None:
        await invocation.say_text(words.stale_button())
        return
    if not await _allowed(invocation, change=True):
        return
    audience = await (await invocation.minds()).get_audience(chosen["a"])
    if not audience.is_owner:
        await invocation.say_mrkdwn(words.render_not_owner(audience_name=audience.name))
        return
    await _open(invocation, words.delete_view(audience=audience, channel_id=invocation.channel_id))


async def formation_new(invocation: Invocation, action: dict[str, Any]) -> None:
    chosen = _chosen(action)
    if chosen is None:
        await invocation.say_text(words.stale_button())
        return
    if not await _allowed(invocation, change=True):
        return
    view = fw.formation_ask_view(audience_id=chosen["a"], audience_name=chosen["n"], channel_id=invocation.channel_id)
    await _open(invocation, view)


async def _formation_change(invocation: Invocation, action: dict[str, Any], *, remove: bool) -> None:
    chosen = _chosen(action)
    if chosen is None or "f" not in chosen:
        await invocation.say_text(words.stale_button())
        return
    if not await _allowed(invocation, change=True):
        return
    minds = await invocation.minds()
    formation = await manage.read_formation(minds, audience_id=chosen["a"], formation_id=chosen["f"])
    if formation is None:
        await invocation.say_text(words.stale_button())
        return
    if not formation.can_mutate:
        await invocation.say_mrkdwn(fw.render_formation_not_mutable(formation.name))
        return
    if remove:
        await minds.delete_formation(chosen["a"], formation.id)
        await invocation.say_mrkdwn(fw.render_formation_deleted(formation.name))
        return
    await minds.recompute_formation(chosen["a"], formation.id)
    await invocation.say_mrkdwn(fw.render_recomputing(formation.name))


async def formation_recompute(invocation: Invocation, action: dict[str, Any]) -> None:
    await _formation_change(invocation, action, remove=False)


async def formation_delete(invocation: Invocation, action: dict[str, Any]) -> None:
    await _formation_change(invocation, action, remove=True)


async def more(invocation: Invocation, action: dict[str, Any]) -> None:
    """The overflow: Follow, Unfollow or Portraits… (its value: ``<verb>:<audience id>``)."""
    verb, _sep, audience_id = str((action.get("selected_option") or {}).get("value") or "").partition(":")
    if verb not in ("follow", "unfollow", "portraits") or not audience_id:
        await invocation.say_text(words.stale_button())
        return
    if not await _allowed(invocation, change=True):
        return
    minds = await invocation.minds()
    audience = await minds.get_audience(audience_id)
    if verb == "portraits":
        if not audience.is_owner:
            await invocation.say_mrkdwn(words.render_not_owner(audience_name=audience.name))
            return
        dry = await minds.regenerate_audience_images(audience.id, dry=True)
        await _open(invocation, words.portraits_view(audience=audience, dry=dry, channel_id=invocation.channel_id))
        return
    if verb == "follow":
        await minds.follow_audience(audience.id)
    else:
        await minds.unfollow_audience(audience.id)
    await invocation.say_mrkdwn(words.render_followed(audience_name=audience.name, following=verb == "follow"))


# --- the dialogs ---------------------------------------------------------------------------------------------------


def _values(view: dict[str, Any]) -> dict[str, Any]:
    return (view.get("state") or {}).get("values") or {}


def _text(view: dict[str, Any], block: str) -> str:
    value = (_values(view).get(block) or {}).get(words.VALUE, {}).get("value")
    return value.strip() if isinstance(value, str) else ""


def _picked(view: dict[str, Any], block: str, action: str = words.VALUE) -> list[tuple[str, str]]:
    options = (_values(view).get(block) or {}).get(action, {}).get("selected_options") or []
    return [(o.get("value", ""), (o.get("text") or {}).get("text", "")) for o in options if isinstance(o, dict)][
        : words.MAX_PICKED
    ]


def _submitter(services: Services, body: dict[str, Any], client: Any, channel_id: str) -> Invocation:
    """A dialog's person, answering privately in the channel the dialog was opened from."""
    base = invocation_from_body(services, body, client=client, respond=None)
    return Invocation(
        services=services,
        client=client,
        respond=ephemeral_to(client, channel_id=channel_id, user_id=base.user_id),
        team_id=base.team_id,
        channel_id=channel_id,
        user_id=base.user_id,
        trigger_id=base.trigger_id,
    )


async def _after_submit(services: Services, body: dict[str, Any], client: Any, work: Any) -> None:
    """Run a submitted dialog's work as its person, behind the gate's deciders; Minds' refusal is said privately."""
    meta = decode_metadata((body.get("view") or {}).get("private_metadata"))
    invocation = _submitter(services, body, client, str(meta.get("c") or ""))
    if not await _allowed(invocation, change=True):
        return
    try:
        await work(invocation, meta)
    except MindsError as exc:
        await say_failure_privately(client, channel_id=invocation.channel_id, user_id=invocation.user_id, error=exc)


async def delete_submitted(
    ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        minds = await invocation.minds()
        named = meta["m"] if isinstance(meta.get("m"), int) else -1
        audience, outcome = await manage.delete_audience(
            minds, audience_id=str(meta.get("a") or ""), members_named=named
        )
        if outcome == "not_owner":
            await invocation.say_mrkdwn(words.render_not_owner(audience_name=audience.name))
        elif outcome == "count_changed":
            said = words.render_count_changed(audience_name=audience.name, then=named, now=audience.mind_count)
            await invocation.say_mrkdwn(said)
        else:
            await invocation.reply(words.render_deleted(audience_name=audience.name, members=audience.mind_count))

    await _after_submit(services_of(context), body, client, work)


async def edit_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    name = _text(view, words.NAME_BLOCK)
    if not name:
        await ack(response_action="errors", errors={words.NAME_BLOCK: _("An Audience needs a name.")})
        return
    await ack()
    shared = bool((_values(view).get(words.TEAM_BLOCK) or {}).get(words.VALUE, {}).get("selected_options"))

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        minds = await invocation.minds()
        updated = await minds.update_audience(str(meta.get("a") or ""), name=name, shared_with_team=shared)
        await invocation.reply(words.render_edited(name=updated.name, shared=shared))

    await _after_submit(services_of(context), body, client, work)


async def duplicate_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    copy_name = _text(view, words.COPY_BLOCK)
    if not copy_name:
        await ack(response_action="errors", errors={words.COPY_BLOCK: _("The copy needs a name.")})
        return
    await ack()
    services = services_of(context)
    meta = decode_metadata(view.get("private_metadata"))
    invocation = _submitter(services, body, client, str(meta.get("c") or ""))
    try:
        async with their_work(services, team_id=invocation.team_id, user_id=invocation.user_id):
            await duplicate_audience(
                invocation,
                audience_id=str(meta.get("a") or ""),
                audience_name=str(meta.get("n") or ""),
                copy_name=copy_name,
                show=lambda: show_progress(invocation),
            )
    except MindsError as exc:
        await say_failure_privately(client, channel_id=invocation.channel_id, user_id=invocation.user_id, error=exc)


async def members_given(ack: AsyncAck, view: dict[str, Any]) -> None:
    """The review step: what will be added and removed, by name; nothing is changed yet."""
    add, remove = _picked(view, words.ADD_BLOCK, words.ADD_ACTION), _picked(view, words.REMOVE_BLOCK)
    if any(i.startswith("__") for i, _name in add):  # the one option that says why Minds found none
        await ack(response_action="errors", errors={words.ADD_BLOCK: words.pick_from_list()})
        return
    if not add and not remove:
        block = words.ADD_BLOCK if words.ADD_BLOCK in _values(view) else words.REMOVE_BLOCK
        await ack(response_action="errors", errors={block: words.nothing_picked()})
        return
    meta = decode_metadata(view.get("private_metadata"))
    metadata = {**meta, "add": [i for i, _n in add], "rm": [i for i, _n in remove]}
    metadata |= {"an": [n[: words.NAME_IN_PICK] for _i, n in add], "rn": [n[: words.NAME_IN_PICK] for _i, n in remove]}
    confirm = words.members_confirm_view(
        metadata=json.dumps(metadata, ensure_ascii=False),
        audience_name=str(meta.get("n") or ""),
        add=[n for _i, n in add],
        remove=[n for _i, n in remove],
    )
    await ack(response_action="update", view=confirm.to_dict())


async def members_confirmed(
    ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        minds = await invocation.minds()
        audience = await minds.get_audience(str(meta.get("a") or ""))
        if not audience.is_owner:
            await invocation.say_mrkdwn(words.render_not_owner(audience_name=audience.name))
            return
        add = [str(i) for i in meta.get("add") or []][: words.MAX_PICKED]
        remove = [str(i) for i in meta.get("rm") or []][: words.MAX_PICKED]
        await manage.change_members(minds, audience_id=audience.id, add=add, remove=remove)
        changed = words.render_members_changed(
            audience_name=audience.name, added=list(meta.get("an") or []), removed=list(meta.get("rn") or [])
        )
        await invocation.reply(changed)

    await _after_submit(services_of(context), body, client, work)


async def formation_asked(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    """Minds' proposal (or why there is none) replaces the dialog. When it comes within ``PROPOSAL_IN_ACK`` it is
    the acknowledgement itself; otherwise "proposing…" is, and the proposal follows with ``views.update`` — never
    the other way round, so a late acknowledgement cannot overwrite the proposal."""
    services = services_of(context)
    meta = decode_metadata(view.get("private_metadata"))
    invocation = _submitter(services, body, client, str(meta.get("c") or ""))
    proposal = asyncio.ensure_future(_proposal(invocation, meta, _text(view, fw.SPLIT_BLOCK)))
    waiting = fw.formation_working_view()
    pending = await ack_with_view_within(ack, proposal, waiting=waiting, seconds=PROPOSAL_IN_ACK)
    if pending is not None:
        await client.views_update(view_id=view.get("id"), view=(await pending).to_dict())


async def _proposal(invocation: Invocation, meta: dict[str, Any], request: str) -> View:
    """The review dialog for Minds' proposal; the gate's refusal or Minds' reason instead of it."""
    decision = await manage.may_change(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        channel_id=invocation.channel_id,
    )
    if decision.refused:  # nothing was sent to Minds: the dialog says why, in the gate's words
        return fw.formation_refused_view(decision.reason)
    try:
        minds = await invocation.minds()
        preview = await minds.preview_formation(str(meta.get("a") or ""), user_input=request)
    except MindsError as exc:
        return fw.formation_failed_view(user_message(exc))
    metadata = json.dumps({**meta, "g": len(preview.hypothesis.subgroups)}, ensure_ascii=False)
    return fw.formation_review_view(preview=preview, metadata=metadata)


async def formation_reviewed(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    meta = decode_metadata(view.get("private_metadata"))
    count = meta["g"] if isinstance(meta.get("g"), int) else 0
    labels = [_text(view, fw.LABEL_BLOCK.format(index=i)) for i in range(min(count, fw.MAX_GROUPS))]
    if len({label.lower() for label in labels}) != len(labels):
        await ack(
            response_action="errors",
            errors={fw.LABEL_BLOCK.format(index=len(labels) - 1): fw.labels_repeat()},
        )
        return
    ids = manage.subgroup_ids(labels)
    groups = [(sid, labels[i], _text(view, fw.DEFINITION_BLOCK.format(index=i))) for i, sid in enumerate(ids)]
    try:
        hypothesis = manage.hypothesis_from(_text(view, fw.INTENT_BLOCK), groups)
    except ValidationError:  # a blank field (spaces only), or a dialog the bot did not write: nothing is sent
        await ack(response_action="errors", errors={fw.INTENT_BLOCK: fw.review_incomplete()})
        return
    await ack()
    name = _text(view, fw.FORMATION_NAME_BLOCK) or None

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        made = await (await invocation.minds()).create_formation(
            str(meta.get("a") or ""), hypothesis=hypothesis, name=name
        )
        said = fw.render_formation_created(name=made.name or name or hypothesis.intent, groups=len(ids))
        await invocation.say_mrkdwn(said)

    await _after_submit(services_of(context), body, client, work)


async def portraits_submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()
    force = bool((_values(view).get(words.FORCE_BLOCK) or {}).get(words.VALUE, {}).get("selected_options"))

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        minds = await invocation.minds()
        audience = await minds.get_audience(str(meta.get("a") or ""))
        if not audience.is_owner:
            await invocation.say_mrkdwn(words.render_not_owner(audience_name=audience.name))
            return
        result = await minds.regenerate_audience_images(audience.id, force=force or None)
        await invocation.say_mrkdwn(words.render_portraits_queued(audience_name=audience.name, result=result))

    await _after_submit(services_of(context), body, client, work)


def register(surface: Surface, services: Services) -> None:
    surface.action(words.MEMBERS_ACTION)(pressed(members))
    surface.action(words.FORMATIONS_ACTION)(pressed(formations))
    surface.action(words.EDIT_ACTION)(pressed(edit))
    surface.action(words.DUPLICATE_NAMED_ACTION)(pressed(duplicate_named))
    surface.action(words.DELETE_ACTION)(pressed(delete))
    surface.action(fw.FORMATION_NEW_ACTION)(pressed(formation_new))
    surface.action(words.MORE_ACTION)(pressed(more))
    surface.external_options(words.ADD_ACTION)(search_minds)
    surface.view(words.PORTRAITS_VIEW)(portraits_submitted)
    surface.action(re.compile(rf"^{fw.FORMATION_RECOMPUTE_ACTION}:"))(pressed(formation_recompute))
    surface.action(re.compile(rf"^{fw.FORMATION_DELETE_ACTION}:"))(pressed(formation_delete))
    surface.view(words.DELETE_VIEW)(delete_submitted)
    surface.view(words.EDIT_VIEW)(edit_submitted)
    surface.view(words.DUPLICATE_VIEW)(duplicate_submitted)
    surface.view(words.MEMBERS_VIEW)(members_given)
    surface.view(words.MEMBERS_CONFIRM_VIEW)(members_confirmed)
    surface.view(fw.FORMATION_ASK_VIEW)(formation_asked)
    surface.view(fw.FORMATION_REVIEW_VIEW)(formation_reviewed)
