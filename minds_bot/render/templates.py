"""Study templates in Slack: the ``/minds templates`` list with Use, and the planner request a template becomes.

Owns: the list (each template's name, question count, method and language, exactly as Minds stores them; team
templates are marked), the Use button, and ``template_request`` — the template's questions as planner input
for the plan dialog (planner input is never sent to Minds' respondents verbatim). Names escaped. Pure: no I/O.
Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from slack_sdk.models.blocks import Block, ButtonElement, InputBlock, Option, PlainTextInputElement, StaticSelectElement
from slack_sdk.models.views import View

from minds_bot.minds import StudyTemplate
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, MAX_WORD_SHOWN, Message, escape
from minds_bot.render.common import MAX_PRIVATE_METADATA, button, context, section

USE_TEMPLATE_ACTION = "template_use"
SAVE_TEMPLATE_ACTION = "plan_save_template"
SAVE_TEMPLATE_CALLBACK = "plan_save_template"
TEMPLATE_NAME_BLOCK = "template_name"
TEMPLATE_GOAL_BLOCK = "template_goal"
MAX_TEMPLATE_NAME = 200
GOALS = (
    ("explore", "Explore"),
    ("concept", "Concept test"),
    ("comparison", "Comparison"),
    ("pricing", "Pricing"),
    ("market", "Market"),
    ("website", "Website"),
)
MAX_LISTED = MAX_BLOCKS_PER_MESSAGE - 3
MAX_REQUEST = 3000


def render_templates(templates: Sequence[StudyTemplate]) -> Message:
    if not templates:
        return Message(text="You have no Study templates yet. Save one in Minds, then use it here.")
    blocks: list[Block] = [section(f"*Study templates* ({len(templates)})")]
    for template in templates[:MAX_LISTED]:
        config = template.configuration
        shared = " · shared with your team" if template.is_shared_with_team else ""
        line = (
            f"*{escape(template.name, limit=MAX_NAME_SHOWN)}* — {len(config.questions)} questions"
            f" · method {escape(config.method_id, limit=MAX_WORD_SHOWN)}"
            f" · {escape(config.study_locale, limit=MAX_WORD_SHOWN)}{shared}"
        )
        row = section(line)
        row.accessory = button("Use", action_id=f"{USE_TEMPLATE_ACTION}:{template.id}", value=template.id)
        blocks.append(row)
    if len(templates) > MAX_LISTED:
        blocks.append(context(f"{len(templates) - MAX_LISTED} more templates are in Minds."))
    blocks.append(context("Use makes an independent draft in Minds and opens the plan dialog with its questions."))
    return Message(text=f"{len(templates)} Study templates", blocks=blocks)


def template_request(template: StudyTemplate) -> str:
    """The template as planner input: its goal and its questions with how each is answered."""
    config = template.configuration
    lines = [f"From the template “{template.name}” (goal: {config.goal}, method: {config.method_id}).", "Questions:"]
    for number, question in enumerate(config.questions, 1):
        response = question.response
        how = response.type
        if response.categorical_options:
            how += ": " + " / ".join(response.categorical_options)
        elif response.scale_range:
            how += f" {response.scale_range[0]:g}–{response.scale_range[-1]:g}"
        lines.append(f"{number}. {question.text} ({how})")
    text = "\n".join(lines)
    return text if len(text) <= MAX_REQUEST else text[: MAX_REQUEST - 1] + "…"


def render_template_gone() -> Message:
    return Message(text="That template is no longer available in Minds. `/minds templates` shows the current list.")


def render_template_used(*, template_name: str, draft_name: str) -> Message:
    return Message(
        text=f"Made the draft “{escape(draft_name, limit=MAX_NAME_SHOWN)}” from "
        f"“{escape(template_name, limit=MAX_NAME_SHOWN)}” in Minds; pick the Study in the dialog to plan it."
    )


def save_template_button(revision: int) -> ButtonElement:
    return button("Save as template", action_id=SAVE_TEMPLATE_ACTION, value=str(revision))


def render_save_template_modal(*, channel_id: str, message_ts: str, study_name: str) -> View:
    """Asks the template's name and goal; the questions, language and method come from the plan in Minds."""
    goals = [Option(value=value, text=label) for value, label in GOALS]
    metadata = json.dumps({"c": channel_id, "t": message_ts})
    return View(
        type="modal",
        callback_id=SAVE_TEMPLATE_CALLBACK,
        title="Save as template",
        submit="Save",
        close="Cancel",
        private_metadata=metadata if len(metadata) <= MAX_PRIVATE_METADATA else "{}",  # "{}": refused on submit
        blocks=[
            InputBlock(
                block_id=TEMPLATE_NAME_BLOCK,
                label="Template name",
                element=PlainTextInputElement(
                    action_id="value",
                    max_length=MAX_TEMPLATE_NAME,
                    initial_value=f"{study_name} plan"[:MAX_TEMPLATE_NAME],
                ),
            ),
            InputBlock(
                block_id=TEMPLATE_GOAL_BLOCK,
                label="Goal",
                element=StaticSelectElement(action_id="value", options=goals, initial_option=goals[0]),
            ),
            context(
                "The plan's latest revision in Minds becomes a personal template: its questions, language and method."
            ),
        ],
    )


def render_template_saved(*, name: str, questions: int) -> Message:
    return Message(
        text=f"Saved the template “{escape(name, limit=MAX_NAME_SHOWN)}” with {questions} questions. "
        "`/minds templates` lists it."
    )


def render_template_not_saved(reason: str) -> Message:
    return Message(text=f"The plan was not saved as a template: {escape(reason, limit=MAX_NAME_SHOWN * 5)}")
