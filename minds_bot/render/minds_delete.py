"""Deleting several Minds at once (``manage_mind`` ``delete_many``) from a ``/minds minds`` page: **Delete several…**,
the dialog that picks among the page's Minds, the confirmation that names each one, and the outcome per Mind.

Owns: both views' callback and block ids, and the words. The confirmation carries the
chosen ids and names (as Minds listed them on the page) in ``private_metadata``; nothing is deleted before it is
submitted. The outcome says which Minds Minds deleted and which it did not, with its reason for each (it reports
them independently). Every name and reason is escaped here. Must not touch: I/O.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from slack_sdk.models.blocks import CheckboxesElement, InputBlock, Option
from slack_sdk.models.views import View

from minds_bot.i18n import _, _n, join_list
from minds_bot.minds import MindDeletion
from minds_bot.render import MAX_NAME_SHOWN, MAX_REASON_SHOWN, Message, escape
from minds_bot.render.common import section, shorten, split_text

PICK_VIEW = "minds_delete_pick"
CONFIRM_VIEW = "minds_delete_confirm"
PICK_BLOCK, VALUE_ACTION = "minds", "value"
MAX_PICKED = 10  # a checkbox group holds at most 10 options: one /minds minds page
MAX_ID = 100  # Minds' ids are UUIDs: anything longer is not one, and is left out rather than carried
NAME_IN_OPTION = 70


def _usable(minds: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(mind_id, name) for mind_id, name in minds if 0 < len(mind_id) <= MAX_ID][:MAX_PICKED]


def pick_modal(*, channel_id: str, minds: Sequence[tuple[str, str]]) -> View:
    """The page's Minds as checkboxes, none ticked: the person chooses what to delete."""
    minds = _usable(minds)
    options = [Option(value=mind_id, text=shorten(name, NAME_IN_OPTION) or mind_id) for mind_id, name in minds]
    field = InputBlock(
        block_id=PICK_BLOCK,
        label=_("Minds to delete"),
        element=CheckboxesElement(action_id=VALUE_ACTION, options=options),
    )
    return View(
        type="modal",
        callback_id=PICK_VIEW,
        title=_("Delete Minds"),
        submit=_("Next"),
        close=_("Cancel"),
        private_metadata=json.dumps(
            {"c": channel_id, "m": [[i, shorten(n, NAME_IN_OPTION)] for i, n in minds]}, ensure_ascii=False
        ),
        blocks=[section(_("Choose the Minds to delete; the next step names them before anything is deleted.")), field],
    )


def confirm_modal(*, channel_id: str, minds: Sequence[tuple[str, str]]) -> View:
    """The confirmation naming each Mind (at most ``MAX_PICKED``, names as the pick showed them); submitting it
    deletes exactly those."""
    minds = [(mind_id, shorten(name, NAME_IN_OPTION)) for mind_id, name in _usable(minds)]
    names = "\n".join(_("• *{name}*", name=escape(name, limit=MAX_NAME_SHOWN)) for _id, name in minds)
    text = _n(
        "Delete this Mind for good? Minds deletes it with its knowledge, patterns and chat history; Studies and "
        "Audiences no longer include it. This cannot be undone.",
        "Delete these {count} Minds for good? Minds deletes each with its knowledge, patterns and chat history; "
        "Studies and Audiences no longer include them. This cannot be undone.",
        len(minds),
    )
    return View(
        type="modal",
        callback_id=CONFIRM_VIEW,
        title=_("Delete Minds"),
        submit=_("Delete"),
        close=_("Cancel"),
        private_metadata=json.dumps({"c": channel_id, "m": [list(m) for m in minds]}, ensure_ascii=False),
        blocks=[section(text), section(names)],
    )


def render_deleted_many(results: Sequence[MindDeletion], minds: Sequence[tuple[str, str]]) -> Message:
    """Which Minds Minds deleted, and which it did not with its reason (``minds``: the ids and names confirmed)."""
    names = dict(minds)
    deleted = [escape(names.get(r.mind_id, r.mind_id), limit=MAX_NAME_SHOWN) for r in results if r.deleted]
    kept = [
        _(
            "{name} ({reason})",
            name=escape(names.get(r.mind_id, r.mind_id), limit=MAX_NAME_SHOWN),
            reason=escape(r.error or _("no reason given"), limit=MAX_REASON_SHOWN),
        )
        for r in results
        if not r.deleted
    ]
    lines = []
    if deleted:
        lines.append(
            _n(
                "Deleted {count} Mind in Minds: {names}.",
                "Deleted {count} Minds in Minds: {names}.",
                len(deleted),
                names=join_list(deleted),
            )
        )
    if kept:
        lines.append(
            _n(
                "Minds did not delete {count} Mind: {names}.",
                "Minds did not delete {count} Minds: {names}.",
                len(kept),
                names=join_list(kept),
            )
        )
    text = "\n".join(lines)
    return Message(text=text, blocks=[section(chunk) for chunk in split_text(text)])
