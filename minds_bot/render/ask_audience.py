"""Words for asking one Audience directly: the private wrapper Study's name, the plain notice that it was
created, and the refusal of text that is not one question. Must not touch: I/O."""

from __future__ import annotations

import json

from slack_sdk.models.blocks import InputBlock, PlainTextInputElement
from slack_sdk.models.views import View

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
    name = f"Ask {shorten(audience_name, 50)}: {shorten(question, QUESTION_IN_NAME)}"
    return shorten(name, WRAPPER_NAME)


def render_wrapper_created(*, study_name: str, audience_name: str) -> Message:
    text = (
        "Asking an Audience directly creates a new private Study in Minds: "
        f"*{escape(study_name, limit=MAX_NAME_SHOWN)}*, with only {escape(audience_name, limit=MAX_NAME_SHOWN)} in it. "
        "The question runs there; the answers follow in the thread."
    )
    return Message(
        text=text, blocks=[section(text), context("Use `/minds ask &lt;study&gt; …` to ask an existing Study.")]
    )


def render_not_one_question(*, reason: str, audience_name: str) -> Message:
    text = (
        f"{escape(reason, limit=MAX_SECTION_TEXT // 2)} Nothing was sent and no Study was created: asking "
        f"{escape(audience_name, limit=MAX_NAME_SHOWN)} directly takes one question. "
        "For a set of questions, plan them together with `/minds plan &lt;study&gt; &lt;request&gt;`."
    )
    return Message(text=text, blocks=[section(text)])


def ask_audience_modal(*, audience_id: str, audience_name: str, channel_id: str) -> View:
    """One question for one Audience; submitting creates the private Study and asks it in the channel."""
    metadata = json.dumps({"a": audience_id, "n": shorten(audience_name, 75), "c": channel_id})
    return View(
        type="modal",
        callback_id=ASK_AUDIENCE_VIEW,
        title="Ask an Audience",
        submit="Ask",
        close="Cancel",
        private_metadata=metadata,
        blocks=[
            section(f"Audience: *{escape(audience_name, limit=MAX_NAME_SHOWN)}*"),
            InputBlock(
                block_id=QUESTION_BLOCK,
                label=f"One question (at most {MAX_QUESTION:,} characters)",
                element=PlainTextInputElement(action_id=QUESTION_ACTION, multiline=True, max_length=MAX_QUESTION),
            ),
            context(
                "Minds creates a new private Study with only this Audience for the question; "
                "the answers follow in a thread in this channel."
            ),
        ],
    )
