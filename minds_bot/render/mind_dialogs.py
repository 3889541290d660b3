"""The dialogs of a Mind: create (``/minds mind new``), add knowledge, edit, and the delete confirmations (the Mind,
or one source of its knowledge) that name exactly what is deleted.

Owns: those views, their callback, block and action ids, and the limits they give Slack (checked again on
submission by ``slack/fields.over_limit``). The create dialog carries ``create_mind``'s parameters as the tool
defines them: name, discipline, a description, how Minds trains it (keywords, a person to model, a web page, or
manual) with the field that mode needs, and the kind of Mind. Its ``private_metadata`` holds the idempotency key
chosen when the dialog opened, so a submission Slack delivers twice creates one Mind. Must not touch: I/O.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from slack_sdk.models.blocks import (
    Block,
    CheckboxesElement,
    InputBlock,
    Option,
    PlainTextInputElement,
    StaticSelectElement,
    UrlInputElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import N_, _, _n, format_number
from minds_bot.render import MAX_NAME_SHOWN, escape
from minds_bot.render.common import context, section, shorten

MIND_NEW_VIEW = "mind_new_modal"
MIND_KNOWLEDGE_VIEW = "mind_knowledge_modal"
MIND_EDIT_VIEW = "mind_edit_modal"
MIND_DELETE_VIEW = "mind_delete_confirm"
MIND_FORGET_VIEW = "mind_forget_confirm"
VALUE_ACTION = "value"
NAME_BLOCK, DISCIPLINE_BLOCK, DESCRIPTION_BLOCK = "name", "discipline", "description"
MODE_BLOCK, TYPE_BLOCK, WEB_BLOCK = "mode", "type", "web"
NO_WEB = "no_web"  # the checkbox that sends includeWebSearch: false
KEYWORDS_BLOCK, PERSON_BLOCK, PAGE_BLOCK = "keywords", "persona", "page"
LINK_BLOCK, FILE_BLOCK = "link", "file"
MIN_NAME, MAX_MIND_NAME = 2, 100  # Minds' limits on a Mind's name
MAX_DISCIPLINE = 100
MAX_MIND_DESCRIPTION = 1000
MAX_KEYWORDS = 1000
MAX_PERSON = 3000  # a plain-text input holds at most 3,000 characters
MAX_URL = 2000
MAX_SOURCE_DESCRIPTION = 500
NAME_IN_METADATA = 80

MODES: Mapping[str, str] = {
    "keywords": N_("From keywords (topics Minds researches)"),
    "clone": N_("A digital twin of a person"),
    "link": N_("From a web page"),
    "manual": N_("Manual: only the knowledge you add"),
}
TYPES: Mapping[str, str] = {
    "expert": N_("Expert"),
    "user": N_("Consumer persona"),
    "creative": N_("Creative"),
}


def _text(
    block: str,
    label: str,
    *,
    limit: int,
    optional: bool = False,
    multiline: bool = False,
    initial: str | None = None,
    hint: str | None = None,
) -> InputBlock:
    return InputBlock(
        block_id=block,
        label=label,
        optional=optional,
        hint=hint,
        element=PlainTextInputElement(
            action_id=VALUE_ACTION, max_length=limit, multiline=multiline, initial_value=initial
        ),
    )


def _select(block: str, label: str, choices: Mapping[str, str], *, initial: str) -> InputBlock:
    options = [Option(value=value, text=_(words)) for value, words in choices.items()]
    chosen = next(o for o in options if o.value == initial)
    element = StaticSelectElement(action_id=VALUE_ACTION, options=options, initial_option=chosen)
    return InputBlock(block_id=block, label=label, element=element)


def mind_new_modal(*, channel_id: str, key_id: str) -> View:
    """Create a Mind; ``key_id``: the UUID this Mind is created under (reused if the submission is retried)."""
    blocks: list[Block] = [
        _text(NAME_BLOCK, _("Name"), limit=MAX_MIND_NAME),
        _text(DISCIPLINE_BLOCK, _("Area of expertise"), limit=MAX_DISCIPLINE, hint=_("e.g. Nursing, Retail, B2B SaaS")),
        _text(
            DESCRIPTION_BLOCK,
            _("Who the Mind is (persona brief)"),
            limit=MAX_MIND_DESCRIPTION,
            optional=True,
            multiline=True,
        ),
        _select(MODE_BLOCK, _("How Minds trains it"), MODES, initial="keywords"),
        _text(
            KEYWORDS_BLOCK,
            _("Keywords (for keywords, separated by commas)"),
            limit=MAX_KEYWORDS,
            optional=True,
        ),
        _text(
            PERSON_BLOCK,
            _("The person to model (for a digital twin)"),
            limit=MAX_PERSON,
            optional=True,
            multiline=True,
        ),
        InputBlock(
            block_id=PAGE_BLOCK,
            label=_("The web page to train from (for a web page)"),
            optional=True,
            element=UrlInputElement(action_id=VALUE_ACTION),
        ),
        _select(TYPE_BLOCK, _("Kind of Mind"), TYPES, initial="expert"),
        InputBlock(
            block_id=WEB_BLOCK,
            label=_("Web research"),
            optional=True,
            element=CheckboxesElement(
                action_id=VALUE_ACTION,
                options=[Option(value=NO_WEB, text=_("Skip Minds' automatic web research"))],
            ),
        ),
        context(_("Minds trains the Mind in the background; its card follows the training.")),
    ]
    return View(
        type="modal",
        callback_id=MIND_NEW_VIEW,
        title=_("New Mind"),
        submit=_("Create"),
        close=_("Cancel"),
        private_metadata=json.dumps({"c": channel_id, "k": key_id}),
        blocks=blocks,
    )


def _metadata(*, mind_id: str, name: str, channel_id: str, **more: str) -> str:
    return json.dumps({"m": mind_id, "n": shorten(name, NAME_IN_METADATA), "c": channel_id, **more})


def knowledge_modal(*, mind_id: str, name: str, channel_id: str) -> View:
    """Add one source: a web page, or a file's public or signed address (Minds fetches it; at most 50 MB)."""
    shown = escape(name, limit=MAX_NAME_SHOWN)
    blocks: list[Block] = [
        section(_("Add knowledge to *{name}*: a web page, or a file Minds can download.", name=shown)),
        InputBlock(
            block_id=LINK_BLOCK,
            label=_("Web page"),
            optional=True,
            element=UrlInputElement(action_id=VALUE_ACTION),
        ),
        InputBlock(
            block_id=FILE_BLOCK,
            label=_("Or a file's address"),
            optional=True,
            hint=_("A public or signed link to a PDF or document, at most 50 MB."),
            element=UrlInputElement(action_id=VALUE_ACTION),
        ),
        _text(
            DESCRIPTION_BLOCK,
            _("What it is (at most {limit} characters)", limit=format_number(MAX_SOURCE_DESCRIPTION)),
            limit=MAX_SOURCE_DESCRIPTION,
        ),
    ]
    return View(
        type="modal",
        callback_id=MIND_KNOWLEDGE_VIEW,
        title=_("Add knowledge"),
        submit=_("Add"),
        close=_("Cancel"),
        private_metadata=_metadata(mind_id=mind_id, name=name, channel_id=channel_id),
        blocks=blocks,
    )


def edit_modal(*, mind_id: str, name: str, discipline: str | None, description: str | None, channel_id: str) -> View:
    blocks: list[Block] = [
        _text(NAME_BLOCK, _("Name"), limit=MAX_MIND_NAME, initial=shorten(name, MAX_MIND_NAME)),
        _text(
            DISCIPLINE_BLOCK,
            _("Area of expertise"),
            limit=MAX_DISCIPLINE,
            optional=True,
            initial=shorten(discipline, MAX_DISCIPLINE) if discipline else None,
        ),
        _text(
            DESCRIPTION_BLOCK,
            _("Who the Mind is (persona brief)"),
            limit=MAX_MIND_DESCRIPTION,
            optional=True,
            multiline=True,
            initial=shorten(description, MAX_MIND_DESCRIPTION) if description else None,
        ),
    ]
    return View(
        type="modal",
        callback_id=MIND_EDIT_VIEW,
        title=_("Edit Mind"),
        submit=_("Save"),
        close=_("Cancel"),
        private_metadata=_metadata(mind_id=mind_id, name=name, channel_id=channel_id),
        blocks=blocks,
    )


def delete_modal(*, mind_id: str, name: str, sources: int | None, channel_id: str) -> View:
    """The confirmation naming the Mind and what goes with it; submitting it deletes."""
    shown = escape(name, limit=MAX_NAME_SHOWN)
    what = (
        _n("its knowledge ({count} source)", "its knowledge ({count} sources)", sources)
        if sources is not None
        else _("its knowledge")
    )
    text = _(
        "Delete the Mind *{name}*? Minds deletes it for good with {knowledge}, its patterns and its chat history. "
        "Studies and Audiences no longer include it. This cannot be undone.",
        name=shown,
        knowledge=what,
    )
    return View(
        type="modal",
        callback_id=MIND_DELETE_VIEW,
        title=_("Delete Mind"),
        submit=_("Delete"),
        close=_("Cancel"),
        private_metadata=_metadata(mind_id=mind_id, name=name, channel_id=channel_id),
        blocks=[section(text)],
    )


def forget_modal(*, mind_id: str, name: str, item_id: str, description: str, channel_id: str) -> View:
    text = _(
        "Remove “{description}” from *{name}*'s knowledge? Minds deletes the source with its patterns and "
        "retrieval data; the Mind's prompt is not rebuilt. This cannot be undone.",
        description=escape(description, limit=MAX_NAME_SHOWN),
        name=escape(name, limit=MAX_NAME_SHOWN),
    )
    metadata = _metadata(mind_id=mind_id, name=name, channel_id=channel_id, i=item_id, d=shorten(description, 120))
    return View(
        type="modal",
        callback_id=MIND_FORGET_VIEW,
        title=_("Remove knowledge"),
        submit=_("Remove"),
        close=_("Cancel"),
        private_metadata=metadata,
        blocks=[section(text)],
    )
