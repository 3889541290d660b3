"""The "new Study" dialog (``/minds study new <name>``): where to answer, the name, and the Audiences to attach
(a searchable multi-select whose options come from Minds).

Owns: the view, its ids, and the Audience options. ``POST /studies`` takes a name and Audiences only (the
OpenAPI declares no language or description for a Study; a plan's language is chosen when planning), so the
dialog asks for nothing Minds would not keep.
Must not touch: I/O.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import (
    ExternalDataMultiSelectElement,
    InputBlock,
    Option,
    PlainTextInputElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import _, _n
from minds_bot.minds import Audience
from minds_bot.render.common import context, shorten
from minds_bot.render.modals import where_input

STUDY_NEW_CALLBACK = "minds_study_new"
AUDIENCE_OPTIONS_ACTION = "study_new_audiences"
AUDIENCES_BLOCK = "study_new_audiences"
NAME_BLOCK = "study_new_name"
NAME_ACTION = "study_new_name_input"
MAX_NAME = 200
MAX_OPTIONS = 100
MAX_OPTION_TEXT = 75
MAX_AUDIENCES = 20


def render_study_new(*, channel_id: str, name: str | None) -> View:
    blocks: list[Any] = [
        where_input(channel_id),
        InputBlock(
            block_id=NAME_BLOCK,
            label=_("Name"),
            element=PlainTextInputElement(action_id=NAME_ACTION, max_length=MAX_NAME, initial_value=name or None),
        ),
        InputBlock(
            block_id=AUDIENCES_BLOCK,
            label=_("Audiences"),
            optional=True,
            hint=_("Type to search your Audiences. You can add Audiences later in Minds."),
            element=ExternalDataMultiSelectElement(
                action_id=AUDIENCE_OPTIONS_ACTION,
                placeholder=_("Type to search your Audiences"),
                min_query_length=0,
                max_selected_items=MAX_AUDIENCES,
            ),
        ),
        context(_("Minds keeps a Study's name and Audiences; the language is chosen when you plan research.")),
    ]
    return View(
        type="modal",
        callback_id=STUDY_NEW_CALLBACK,
        title=_("New Study"),
        submit=_("Create"),
        close=_("Cancel"),
        private_metadata=json.dumps({"c": channel_id}),
        blocks=blocks,
    )


def render_audience_options(audiences: Sequence[Audience]) -> list[dict[str, Any]]:
    """Each Audience with its Mind count (from Minds), at most 100 (Slack's limit)."""
    options = []
    for audience in audiences[:MAX_OPTIONS]:
        count = audience.mind_count
        label = (
            audience.name
            if count is None
            else _n("{name} ({count} Minds)", "{name} ({count} Minds)", count, name=audience.name)
        )
        options.append(Option(value=audience.id, text=shorten(label, MAX_OPTION_TEXT)).to_dict())
    return options
