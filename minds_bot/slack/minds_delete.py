"""**Delete several…** under a ``/minds minds`` page: pick among the page's Minds, confirm a dialog that names each,
then Minds deletes them (``DELETE /minds``, ``manage_mind`` ``delete_many``) and the outcome of each is said.

Owns: those listeners. Deleting acts for the workspace's Minds account (``MANAGE_WORKSPACE``: an admin or the person
who installed the app, in the channel): asked when the button is pressed and again, from the submitter, when the
confirmation is submitted. The pick is checked before its ack (at least one Mind, said on the field); the
confirmation names exactly the Minds that will be deleted. Minds reports each Mind on its own: those it did not
delete are named with its reason; a reply that does not account for every Mind says to check before trying again.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows import access
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.mind_card import may
from minds_bot.i18n import _
from minds_bot.minds import MindsAPIError, MindsError
from minds_bot.render.browse import DELETE_MANY_ACTION
from minds_bot.render.common import decode_metadata, decode_value, render_stale_button
from minds_bot.render.errors import user_message
from minds_bot.render.minds_delete import (
    CONFIRM_VIEW,
    MAX_PICKED,
    PICK_BLOCK,
    PICK_VIEW,
    confirm_modal,
    pick_modal,
    render_deleted_many,
)
from minds_bot.slack.listeners import pressed
from minds_bot.slack.mind_card import after_ack

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface

MANAGE = access.Act.MANAGE_WORKSPACE


def listed(state: dict[str, Any]) -> list[tuple[str, str]]:
    """The ``[[id, name], …]`` the bot wrote (a button's value or a dialog's metadata); anything else is left out."""
    minds = state.get("m") or []
    pairs = [(m[0], m[1]) for m in minds if isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m)]
    return [(mind_id, name) for mind_id, name in pairs if mind_id][:MAX_PICKED]


async def delete_many_pressed(invocation: Invocation, action: dict[str, Any]) -> None:
    """The page's Minds to pick from, for someone who acts for the workspace's Minds account."""
    minds = listed(decode_value(action.get("value")))
    if not minds:
        await invocation.reply(render_stale_button())
        return
    if (await may(invocation, MANAGE)).refused:
        return
    view = pick_modal(channel_id=invocation.channel_id, minds=minds)
    await invocation.client.views_open(trigger_id=invocation.trigger_id, view=view.to_dict())


async def picked(ack: AsyncAck, view: dict[str, Any]) -> None:
    """The chosen Minds (in the page's order) → the confirmation naming each; none chosen is said on the field."""
    meta = decode_metadata(view.get("private_metadata"))
    values = (view.get("state") or {}).get("values") or {}
    chosen = {
        str(o.get("value"))
        for element in (values.get(PICK_BLOCK) or {}).values()
        if isinstance(element, dict)
        for o in element.get("selected_options") or []
        if isinstance(o, dict)
    }
    minds = [(mind_id, name) for mind_id, name in listed(meta) if mind_id in chosen]
    if not minds:
        await ack(response_action="errors", errors={PICK_BLOCK: _("Choose at least one Mind.")})
        return
    confirm = confirm_modal(channel_id=str(meta.get("c") or ""), minds=minds)
    await ack(response_action="update", view=confirm.to_dict())


async def confirmed(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    await ack()

    async def work(invocation: Invocation, meta: dict[str, Any]) -> None:
        minds = listed(meta)
        if not minds:
            await invocation.reply(render_stale_button())
            return
        client_ = await invocation.minds()
        try:
            deleted = await client_.delete_minds([mind_id for mind_id, _name in minds])
        except MindsAPIError as exc:
            await invocation.say_text(user_message(exc))
            return
        except MindsError as exc:  # no proof either way: the person checks before trying again (rule 26)
            reason = user_message(exc)
            await invocation.say_text(
                _(
                    "Minds did not confirm the deletes: {reason} Check `/minds minds` before trying again.",
                    reason=reason,
                )
            )
            return
        await invocation.reply(render_deleted_many(deleted.results, minds))

    await after_ack(context, body, view, client, work)


def register(surface: Surface, services: Services) -> None:
    surface.action(DELETE_MANY_ACTION)(pressed(delete_many_pressed))
    surface.view(PICK_VIEW)(picked)
    surface.view(CONFIRM_VIEW)(confirmed)
