"""Modals that fill in a missing argument: pick a Study (searchable, options from Minds) and, for Ask, a question.

Owns: the modal view (a channel to answer in — its select carries a response URL so the answer and any error
reach the user like a slash command's would —, an external select of Studies, an optional question input), the
option list for the Study select, and the ids a submission is read back with.
Must not touch: I/O.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from slack_sdk.models.blocks import (
    ConversationSelectElement,
    ExternalDataSelectElement,
    InputBlock,
    Option,
    PlainTextInputElement,
    StaticMultiSelectElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import N_, _, format_number
from minds_bot.render import channel_mention, mention
from minds_bot.render.common import MAX_PRIVATE_METADATA, section, shorten
from minds_bot.render.stimulus import refusal_text, stimulus_line

PickPurpose = Literal["ask", "study", "summary"]
PICK_STUDY_CALLBACK = "minds_pick_study"
STUDY_OPTIONS_ACTION = "study_options"
STUDY_BLOCK = "study"
WHERE_BLOCK = "where"
WHERE_ACTION = "where_select"
QUESTION_BLOCK = "question"
AUDIENCES_BLOCK = "audiences"  # the Ask dialog's pick of the Study's Audiences (issue 37)
AUDIENCES_ACTION = "audiences_select"
QUESTION_ACTION = "question_input"
MAX_OPTION_TEXT = 75
MAX_OPTION_VALUE = 150  # Slack's limit; the initial Study can come from a button value, which may be longer
MAX_OPTIONS = 100
MAX_QUESTION = 2_000  # one question (``/minds ask`` and this modal); Minds' question texts are at most 2,000
ERROR_OPTION_VALUE = "__minds_error__"
TITLES = {"ask": N_("Ask one question"), "study": N_("Open a Study"), "summary": N_("Study summary")}
SUBMIT = {"ask": N_("Ask"), "study": N_("Open"), "summary": N_("Show")}


def where_input(channel_id: str) -> InputBlock:
    """The channel to answer in (``WHERE_BLOCK``): the current one unless changed; its select carries a response URL
    so the answer and any error reach the person like a slash command's would."""
    return InputBlock(
        block_id=WHERE_BLOCK,
        label=_("Answer in"),
        element=ConversationSelectElement(
            action_id=WHERE_ACTION,
            initial_conversation=channel_id or None,
            default_to_current_conversation=True,
            response_url_enabled=True,
        ),
    )


def study_option(study_id: str, name: str) -> Option:
    return Option(value=study_id, text=shorten(name, MAX_OPTION_TEXT))


def render_study_options(studies: Sequence[Any]) -> list[dict[str, Any]]:
    """Options for the external select (Slack shows at most 100; an id too long for an option is left out)."""
    fitting = [s for s in studies if len(s.id) <= MAX_OPTION_VALUE]
    return [study_option(s.id, s.name).to_dict() for s in fitting[:MAX_OPTIONS]]


def render_options_error(text: str) -> list[dict[str, Any]]:
    """An options list cannot carry an error, so the error is the one option (and is refused on submit)."""
    return [Option(value=ERROR_OPTION_VALUE, text=shorten(text, MAX_OPTION_TEXT)).to_dict()]


def render_pick_study(
    purpose: PickPurpose,
    *,
    channel_id: str,
    initial: tuple[str, str] | None = None,
    question: str | None = None,
    audiences: Sequence[tuple[str, str]] | None = None,
) -> View:
    """``initial`` is (study id, name) when the Study is already known (e.g. the card's Ask button); then
    ``audiences`` (id, name) are the Study's, all ticked: untick those that should not answer."""
    blocks: list[Any] = [
        where_input(channel_id),
        InputBlock(
            block_id=STUDY_BLOCK,
            label=_("Study"),
            element=ExternalDataSelectElement(
                action_id=STUDY_OPTIONS_ACTION,
                placeholder=_("Type to search your Studies"),
                min_query_length=0,
                initial_option=study_option(*initial) if initial and len(initial[0]) <= MAX_OPTION_VALUE else None,
            ),
        ),
    ]
    if purpose == "ask":
        blocks.append(
            InputBlock(
                block_id=QUESTION_BLOCK,
                label=_("Question"),
                hint=_("Exactly one standalone question. For several questions use /minds plan."),
                element=PlainTextInputElement(
                    action_id=QUESTION_ACTION,
                    multiline=True,
                    max_length=MAX_QUESTION,
                    initial_value=question or None,
                ),
            )
        )
    else:
        blocks.insert(0, section(_("Pick the Study; type part of its name to search.")))
    metadata: dict[str, Any] = {"purpose": purpose}
    offered = [(a_id, name) for a_id, name in audiences or () if len(a_id) <= MAX_OPTION_VALUE][:MAX_OPTIONS]
    if purpose == "ask" and initial and len(offered) > 1:
        options = [Option(value=a_id, text=shorten(name, MAX_OPTION_TEXT)) for a_id, name in offered]
        blocks.append(
            InputBlock(
                block_id=AUDIENCES_BLOCK,
                label=_("Audiences that answer"),
                hint=_("All of the Study's Audiences answer unless you remove some."),
                optional=True,
                element=StaticMultiSelectElement(action_id=AUDIENCES_ACTION, options=options, initial_options=options),
            )
        )
        metadata |= {"s": initial[0], "a": [a_id for a_id, _name in offered]}
    encoded = json.dumps(metadata)
    return View(
        type="modal",
        callback_id=PICK_STUDY_CALLBACK,
        title=_(TITLES[purpose]),
        submit=_(SUBMIT[purpose]),
        close=_("Cancel"),
        private_metadata=encoded if len(encoded) <= MAX_PRIVATE_METADATA else json.dumps({"purpose": purpose}),
        blocks=blocks,
    )


# --- "Ask Minds about this" (message shortcut) ---------------------------------------------------------------

ASK_ABOUT_VIEW = "minds_ask_about"
TEXT_BLOCK = "about_text"
TEXT_ACTION = "about_text_input"
MAX_PLAN_REQUEST = 3_000  # Slack's plain-text input limit; a plan request longer than this is edited down by hand


def render_ask_about(
    *,
    metadata: str,
    text: str,
    plan: bool,
    author: str | None,
    channel_id: str,
    file: tuple[str, str, int | None] | None = None,
    file_problem: str | None = None,
    file_limit: int = 0,
) -> View:
    """The dialog of the message shortcut: the message's words as the question (``plan`` False) or as a plan
    request (several questions), a Study to ask in. Words past the input's limit are never cut silently: the
    dialog says how long the message is and holds the first part for the person to edit. ``file``: the
    message's file as (name, kind, size); with no ``file_problem`` it goes with the question as its stimulus,
    else the dialog says why it does not (``render/stimulus.py``; ``file_limit``: the most a stimulus may be)."""
    limit = MAX_PLAN_REQUEST if plan else MAX_QUESTION
    blocks: list[Any] = [section(_ask_about_intro(plan=plan, author=author, channel_id=channel_id))]
    if file is not None and file_problem is None:
        blocks.append(section(":frame_with_picture: " + stimulus_line(name=file[0], kind=file[1], size=file[2])))
    elif file is not None and file_problem is not None:
        blocks.append(section(":warning: " + refusal_text(file_problem, name=file[0], limit=file_limit)))
    if len(text) > limit:
        length, most = format_number(len(text)), format_number(limit)
        if plan:
            warning = _(
                ":warning: The message is {length} characters; a plan request takes at most {limit}. The first "
                "part is below: edit it to what you want to ask.",
                length=length,
                limit=most,
            )
        else:
            warning = _(
                ":warning: The message is {length} characters; a question takes at most {limit}. The first part "
                "is below: edit it to what you want to ask.",
                length=length,
                limit=most,
            )
        blocks.append(section(warning))
    blocks += [
        InputBlock(
            block_id=STUDY_BLOCK,
            label=_("Study"),
            element=ExternalDataSelectElement(
                action_id=STUDY_OPTIONS_ACTION, placeholder=_("Type to search your Studies"), min_query_length=0
            ),
        ),
        InputBlock(
            block_id=TEXT_BLOCK,
            label=_("What to plan") if plan else _("Question"),
            element=PlainTextInputElement(
                action_id=TEXT_ACTION,
                multiline=True,
                max_length=limit,
                initial_value=_first_part(text, limit) or None,
            ),
        ),
    ]
    return View(
        type="modal",
        callback_id=ASK_ABOUT_VIEW,
        title=_("Ask Minds about this"),
        submit=_("Draft a plan") if plan else _("Ask"),
        close=_("Cancel"),
        private_metadata=metadata,
        blocks=blocks,
    )


def _ask_about_intro(*, plan: bool, author: str | None, channel_id: str) -> str:
    """Whose message, where it was posted, and what happens to it: one sentence for each combination."""
    who = mention(author) if author else None
    where = channel_mention(channel_id) if channel_id else None
    if plan:
        if who and where:
            return _(
                "{author}'s message in {channel} holds several questions, so Minds will draft a research plan from "
                "it to review.",
                author=who,
                channel=where,
            )
        if who:
            return _(
                "{author}'s message holds several questions, so Minds will draft a research plan from it to review.",
                author=who,
            )
        if where:
            return _(
                "The message in {channel} holds several questions, so Minds will draft a research plan from it to "
                "review.",
                channel=where,
            )
        return _("The message holds several questions, so Minds will draft a research plan from it to review.")
    if who and where:
        return _(
            "{author}'s message in {channel} goes to the Study's Minds as one question; the answers come in its "
            "thread.",
            author=who,
            channel=where,
        )
    if who:
        return _(
            "{author}'s message goes to the Study's Minds as one question; the answers come in its thread.",
            author=who,
        )
    if where:
        return _(
            "The message in {channel} goes to the Study's Minds as one question; the answers come in its thread.",
            channel=where,
        )
    return _("The message goes to the Study's Minds as one question; the answers come in its thread.")


def _first_part(text: str, limit: int) -> str:
    """``text`` when it fits, else its first ``limit`` characters ending at a word (the dialog says so)."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    return cut.rsplit(maxsplit=1)[0] if " " in cut else cut
