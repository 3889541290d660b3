"""Managing an Audience from its card: the second row of buttons (Members · Formations · Edit · Duplicate… ·
Delete), the dialogs they open and the private notes that answer them.

Owns: those buttons, views, callback/action/block ids and words. Every destructive step names exactly what goes:
the Audience's delete dialog its name and member count as Minds reports them when the dialog opens; removing
members their names. Formations are ``render/formations.py``. Every Minds and person text is escaped.
Must not touch: I/O.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    CheckboxesElement,
    ExternalDataMultiSelectElement,
    InputBlock,
    InteractiveElement,
    Option,
    OverflowMenuElement,
    PlainTextInputElement,
    StaticMultiSelectElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import _, format_number
from minds_bot.minds import AudienceDetail, MindSummary
from minds_bot.minds.models.audience_manage import ImagesRegeneration
from minds_bot.render import MAX_NAME_SHOWN, Message, escape
from minds_bot.render.browse import minds_label
from minds_bot.render.common import button, context, encode_value, listing, section, sections, shorten

MEMBERS_ACTION = "audience_members"
FORMATIONS_ACTION = "audience_formations"
EDIT_ACTION = "audience_edit"
DUPLICATE_NAMED_ACTION = "audience_duplicate_named"
DELETE_ACTION = "audience_delete"
MORE_ACTION = "audience_more"  # the overflow: Follow · Unfollow · Portraits…

DELETE_VIEW = "audience_delete_confirm"
EDIT_VIEW = "audience_edit_modal"
DUPLICATE_VIEW = "audience_duplicate_modal"
MEMBERS_VIEW = "audience_members_modal"
MEMBERS_CONFIRM_VIEW = "audience_members_confirm"
PORTRAITS_VIEW = "audience_portraits_modal"
FORCE_BLOCK = "portraits_force"
FORCE = "force"
MAX_OPTION_VALUE = 75  # Slack's limit for an overflow option's value

NAME_BLOCK, NAME_ACTION = "audience_name", "value"
TEAM_BLOCK, TEAM_ACTION = "audience_team", "value"
COPY_BLOCK, COPY_ACTION = "copy_name", "value"
ADD_BLOCK, ADD_ACTION = "members_add", "members_add_search"  # its own action: the options request names it
REMOVE_BLOCK, REMOVE_ACTION = "members_remove", "value"
VALUE = "value"

MAX_AUDIENCE_NAME = 200
MAX_PICKED = 15  # Minds picked per dialog: their ids and names travel to the confirmation in private_metadata
NAME_IN_PICK = 30  # each picked name as it travels there (the confirmation shows it, escaped)
MAX_OPTIONS = 100  # Slack's limit for a static select's options
NAME_IN_METADATA = 75
SHARED = "shared"


def audience_value(audience_id: str, name: str) -> str | None:
    return encode_value({"a": audience_id, "n": shorten(name, NAME_IN_METADATA)})


def manage_buttons(audience: AudienceDetail) -> list[Block]:
    """The card's second row; none when the Audience's id cannot fit in a button."""
    value = audience_value(audience.id, audience.name)
    if value is None:
        return []
    elements: list[InteractiveElement] = [
        button(_("Members"), action_id=MEMBERS_ACTION, value=value),
        button(_("Formations"), action_id=FORMATIONS_ACTION, value=value),
        button(_("Edit"), action_id=EDIT_ACTION, value=value),
        button(_("Duplicate…"), action_id=DUPLICATE_NAMED_ACTION, value=value),
        button(_("Delete"), action_id=DELETE_ACTION, value=value, style="danger"),
    ]
    more = [(_("Follow"), "follow"), (_("Unfollow"), "unfollow"), (_("Portraits…"), "portraits")]
    options = [Option(value=f"{verb}:{audience.id}", text=label) for label, verb in more]
    if all(len(o.value or "") <= MAX_OPTION_VALUE for o in options):
        elements.append(OverflowMenuElement(action_id=MORE_ACTION, options=options))
    return [ActionsBlock(elements=elements)]


def modal(*, callback_id: str, title: str, submit: str, metadata: str | dict[str, Any], blocks: list[Block]) -> View:
    """``metadata``: JSON the caller built (or a dict of the bot's own short values, encoded here)."""
    encoded = metadata if isinstance(metadata, str) else json.dumps(metadata, ensure_ascii=False)
    return View(
        type="modal",
        callback_id=callback_id,
        title=shorten(title, 24),
        submit=submit,
        close=_("Cancel"),
        private_metadata=encoded,
        blocks=blocks,
    )


def text_input(block_id: str, label: str, *, initial: str | None, limit: int, multiline: bool = False) -> InputBlock:
    # Minds' text may be longer than the field takes: shown cut to the field's limit, which the person sees and edits.
    element = PlainTextInputElement(
        action_id=VALUE, initial_value=(initial or "")[:limit] or None, max_length=limit, multiline=multiline
    )
    return InputBlock(block_id=block_id, label=label, element=element)


# --- delete the Audience -----------------------------------------------------------------------------------------


def delete_view(*, audience: AudienceDetail, channel_id: str) -> View:
    """Names the Audience and its member count as Minds reports them now; the submission checks both again."""
    name = escape(audience.name, limit=MAX_NAME_SHOWN)
    meta = {"a": audience.id, "c": channel_id, "m": audience.mind_count}
    return modal(
        callback_id=DELETE_VIEW,
        title=_("Delete Audience"),
        submit=_("Delete"),
        metadata=meta,
        blocks=[
            section(
                _(
                    "Delete the Audience *{audience}* and its {minds}?",
                    audience=name,
                    minds=minds_label(audience.mind_count),
                )
            ),
            context(
                _(
                    "Members you own that belong to no other Audience are deleted with it, with their training data "
                    "and Study links; the others are kept. This cannot be undone."
                )
            ),
        ],
    )


def render_deleted(*, audience_name: str, members: int) -> Message:
    text = _(
        "Deleted the Audience *{audience}* ({minds}).",
        audience=escape(audience_name, limit=MAX_NAME_SHOWN),
        minds=minds_label(members),
    )
    return Message(text=text, blocks=[section(text)])


def render_count_changed(*, audience_name: str, then: int, now: int) -> str:
    return _(
        "*{audience}* has {now} now, not the {then} the dialog named. Nothing was deleted; press Delete again.",
        audience=escape(audience_name, limit=MAX_NAME_SHOWN),
        now=minds_label(now),
        then=minds_label(then),
    )


def render_not_owner(*, audience_name: str) -> str:
    return _(
        "Minds says this workspace's account does not own *{audience}*, so it cannot be changed from here. Nothing "
        "was changed.",
        audience=escape(audience_name, limit=MAX_NAME_SHOWN),
    )


# --- edit ----------------------------------------------------------------------------------------------------------


def edit_view(*, audience: AudienceDetail, channel_id: str) -> View:
    shared = Option(value=SHARED, text=_("Share with the team (read and chat with every member)"))
    team = CheckboxesElement(
        action_id=VALUE, options=[shared], initial_options=[shared] if audience.is_shared_with_team else None
    )
    return modal(
        callback_id=EDIT_VIEW,
        title=_("Edit Audience"),
        submit=_("Save"),
        metadata={"a": audience.id, "c": channel_id},
        blocks=[
            text_input(NAME_BLOCK, _("Name"), initial=audience.name, limit=MAX_AUDIENCE_NAME),
            InputBlock(block_id=TEAM_BLOCK, label=_("Team sharing"), element=team, optional=True),
            context(_("A public listing is not changed here.")),
        ],
    )


def render_edited(*, name: str, shared: bool) -> Message:
    sharing = _("shared with the team") if shared else _("not shared with the team")
    text = _(
        "Saved: the Audience is now *{audience}*, {sharing}.",
        audience=escape(name, limit=MAX_NAME_SHOWN),
        sharing=sharing,
    )
    return Message(text=text, blocks=[section(text)])


# --- duplicate with a name -----------------------------------------------------------------------------------------


def duplicate_view(*, audience: AudienceDetail, channel_id: str) -> View:
    copy = _("{audience} (copy)", audience=audience.name)[:MAX_AUDIENCE_NAME]
    return modal(
        callback_id=DUPLICATE_VIEW,
        title=_("Duplicate Audience"),
        submit=_("Duplicate"),
        metadata={"a": audience.id, "n": shorten(audience.name, NAME_IN_METADATA), "c": channel_id},
        blocks=[
            text_input(COPY_BLOCK, _("Name of the copy"), initial=copy, limit=MAX_AUDIENCE_NAME),
            context(
                _(
                    "Every member of {audience} is copied as a new Mind; the copies count toward your plan's Mind "
                    "allowance.",
                    audience=escape(audience.name, limit=MAX_NAME_SHOWN),
                )
            ),
        ],
    )


# --- members -------------------------------------------------------------------------------------------------------


def _mind_option(mind_id: str, name: str) -> Option:
    return Option(value=mind_id, text=shorten(name, 75))


def members_view(*, audience: AudienceDetail, channel_id: str) -> View:
    """Who is in (every name, in sections), Minds to add (searched in Minds as the person types) and members to
    remove (the first ``MAX_OPTIONS``), at most ``MAX_PICKED`` of each."""
    names = [m.name or "—" for m in audience.minds]
    heading = _(
        "*{audience}* has {minds}:",
        audience=escape(audience.name, limit=MAX_NAME_SHOWN),
        minds=minds_label(audience.mind_count),
    )
    blocks: list[Block] = [*sections(heading + "\n" + listing(names, most=len(names) or 1))]
    if audience.mind_count > len(names):
        blocks.append(context(_("Minds listed {shown} of them.", shown=format_number(len(names)))))
    add = ExternalDataMultiSelectElement(action_id=ADD_ACTION, min_query_length=0, max_selected_items=MAX_PICKED)
    blocks.append(InputBlock(block_id=ADD_BLOCK, label=_("Add Minds"), element=add, optional=True))
    if audience.minds:
        remove = StaticMultiSelectElement(
            action_id=VALUE,
            options=[_mind_option(m.id, m.name or m.id) for m in audience.minds[:MAX_OPTIONS]],
            max_selected_items=MAX_PICKED,
        )
        blocks.append(InputBlock(block_id=REMOVE_BLOCK, label=_("Remove members"), element=remove, optional=True))
    return modal(
        callback_id=MEMBERS_VIEW,
        title=_("Audience members"),
        submit=_("Review"),
        metadata={"a": audience.id, "n": shorten(audience.name, NAME_IN_METADATA), "c": channel_id},
        blocks=blocks,
    )


def render_mind_options(minds: Sequence[MindSummary]) -> list[dict[str, Any]]:
    """Minds found for *Add Minds*, at most ``MAX_OPTIONS`` (Slack's limit)."""
    return [_mind_option(m.id, m.name).to_dict() for m in minds[:MAX_OPTIONS]]


def members_confirm_view(*, metadata: str, audience_name: str, add: Sequence[str], remove: Sequence[str]) -> View:
    """The removals named, with the additions; the submission changes the membership."""
    name = escape(audience_name, limit=MAX_NAME_SHOWN)
    lines = []
    if add:
        lines.append(_("Add to *{audience}*: {names}", audience=name, names=listing(add, most=MAX_PICKED)))
    if remove:
        lines.append(_("Remove from *{audience}*: {names}", audience=name, names=listing(remove, most=MAX_PICKED)))
        lines.append(_("The removed Minds themselves are kept."))
    return modal(
        callback_id=MEMBERS_CONFIRM_VIEW,
        title=_("Change members"),
        submit=_("Change"),
        metadata=metadata,
        blocks=sections("\n".join(lines)),
    )


def render_members_changed(*, audience_name: str, added: Sequence[str], removed: Sequence[str]) -> Message:
    name = escape(audience_name, limit=MAX_NAME_SHOWN)
    parts = []
    if added:
        parts.append(_("Added to *{audience}*: {names}.", audience=name, names=listing(added, most=MAX_PICKED)))
    if removed:
        parts.append(_("Removed from *{audience}*: {names}.", audience=name, names=listing(removed, most=MAX_PICKED)))
    text = "\n".join(parts)
    return Message(text=text, blocks=sections(text))


def stale_button() -> str:
    return _("That button is out of date; show the Audience again.")


def pick_from_list() -> str:
    return _("Pick Minds from the list.")


def nothing_picked() -> str:
    return _("Pick Minds to add or members to remove.")


# --- follow, portraits ---------------------------------------------------------------------------------------------


def render_followed(*, audience_name: str, following: bool) -> str:
    name = escape(audience_name, limit=MAX_NAME_SHOWN)
    if following:
        return _("Minds saved *{audience}* for this workspace's account (followed).", audience=name)
    return _("Minds no longer saves *{audience}* for this workspace's account (unfollowed).", audience=name)


def portraits_view(*, audience: AudienceDetail, dry: ImagesRegeneration, channel_id: str) -> View:
    """What Minds would queue (its dry run), and whether to replace the portraits members already have."""
    force = Option(value=FORCE, text=_("Also replace the portraits members already have"))
    return modal(
        callback_id=PORTRAITS_VIEW,
        title=_("Portraits"),
        submit=_("Regenerate"),
        metadata={"a": audience.id, "c": channel_id},
        blocks=[
            section(
                _(
                    "*{audience}*: Minds would make a portrait for {candidates} of {count} members; {skipped} already "
                    "have one.",
                    audience=escape(audience.name, limit=MAX_NAME_SHOWN),
                    candidates=format_number(dry.candidates),
                    count=format_number(dry.total_members),
                    skipped=format_number(dry.skipped),
                )
            ),
            InputBlock(
                block_id=FORCE_BLOCK,
                label=_("Existing portraits"),
                optional=True,
                element=CheckboxesElement(action_id=VALUE, options=[force]),
            ),
        ],
    )


def render_portraits_queued(*, audience_name: str, result: ImagesRegeneration) -> str:
    text = _(
        "Minds queued {queued} portraits for *{audience}*; they arrive in the background.",
        queued=format_number(result.enqueued),
        audience=escape(audience_name, limit=MAX_NAME_SHOWN),
    )
    if result.errors:
        text += " " + _("{count} could not be queued.", count=format_number(result.errors))
    return text
