"""Words for asking one Audience directly: the private wrapper Study's name, the plain notice that it was
created, and the refusal of text that is not one question. Must not touch: I/O."""

from __future__ import annotations

import json

from slack_sdk.models.blocks import InputBlock, PlainTextInputElement
from slack_sdk.models.views import View

from minds_bot.i18n import _, format_number
from minds_bot.render import MAX_NAME_SHOWN, MAX_SECTION_TEXT, Message, escape
from minds_bot.render.common import context, section, shorten
from minds_bot.render.modals import MAX_QUESTION

ASK_AUDIENCE_VIEW = "audience_ask_modal"
QUESTION_BLOCK = "question"
QUESTION_ACTION = "value"
WRAPPER_NAME = 120
QUESTION_IN_NAME = 60


def wrapper_study_name(*, audience_name: str, question: str) -> str:
    """The internal name of the one-Audience Study (Minds shows it in the web app)."""
    # i18n: the name of the private Study Minds creates for the question (people see it in Minds' web app).
    name = _(
        "Ask {audience}: {question}", audience=shorten(audience_name, 50), question=shorten(question, QUESTION_IN_NAME)
    )
    return shorten(name, WRAPPER_NAME)


def render_wrapper_created(*, study_name: str, audience_name: str) -> Message:
    text = _(
        "Asking an Audience directly creates a new private Study in Minds: *{study}*, with only {audience} in it. "
        "The question runs there; the answers follow in the thread.",
        study=escape(study_name, limit=MAX_NAME_SHOWN),
        audience=escape(audience_name, limit=MAX_NAME_SHOWN),
    )
    return Message(
        text=text, blocks=[section(text), context(_("Use `/minds ask &lt;study&gt; …` to ask an existing Study."))]
    )


def render_not_one_question(*, reason: str, audience_name: str) -> Message:
    text = _(
        "{reason} Nothing was sent and no Study was created: asking {audience} directly takes one question. "
        "For a set of questions, plan them together with `/minds plan &lt;study&gt; &lt;request&gt;`.",
        reason=escape(reason, limit=MAX_SECTION_TEXT // 2),
        audience=escape(audience_name, limit=MAX_NAME_SHOWN),
    )
    return Message(text=text, blocks=[section(text)])


def ask_audience_modal(*, audience_id: str, audience_name: str, channel_id: str) -> View:
    """One question for one Audience; submitting creates the private Study and asks it in the channel."""
    metadata = json.dumps({"a": audience_id, "n": shorten(audience_name, 75), "c": channel_id})
    return View(
        type="modal",
        callback_id=ASK_AUDIENCE_VIEW,
        title=_("Ask an Audience"),
        submit=_("Ask"),
        close=_("Cancel"),
        private_metadata=metadata,
        blocks=[
            section(_("Audience: *{audience}*", audience=escape(audience_name, limit=MAX_NAME_SHOWN))),
            InputBlock(
                block_id=QUESTION_BLOCK,
                label=_("One question (at most {limit} characters)", limit=format_number(MAX_QUESTION)),
                element=PlainTextInputElement(action_id=QUESTION_ACTION, multiline=True, max_length=MAX_QUESTION),
            ),
            context(
                _(
                    "Minds creates a new private Study with only this Audience for the question; "
                    "the answers follow in a thread in this channel."
                )
            ),
        ],
    )
