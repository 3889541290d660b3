"""Study templates in Slack: the ``/minds templates`` list with Use, Open (read in full and edit:
``render/draft_dialogs.py``) and Delete… (only where Minds says the key may), and the planner request a template
becomes.

Owns: the list (each template's name, question count, method and language, exactly as Minds stores them; team
templates are marked), the Use button, and ``template_request`` — the template's questions as planner input
for the plan dialog (planner input is never sent to Minds' respondents verbatim). Names escaped. Pure: no I/O.
Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    InputBlock,
    Option,
    PlainTextInputElement,
    StaticSelectElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import N_, _, _n, annotate, format_number, join_list
from minds_bot.minds import StudyTemplate
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, MAX_WORD_SHOWN, Message, escape
from minds_bot.render.common import MAX_PRIVATE_METADATA, button, context, section

USE_TEMPLATE_ACTION = "template_use"
SAVE_TEMPLATE_ACTION = "plan_save_template"
SAVE_TEMPLATE_CALLBACK = "plan_save_template"
TEMPLATE_NAME_BLOCK = "template_name"
TEMPLATE_GOAL_BLOCK = "template_goal"
MAX_TEMPLATE_NAME = 200
# A template's research goal: the value Minds takes, and its label in the dialog.
GOALS = (
    ("explore", N_("Explore")),
    ("concept", N_("Concept test")),
    ("comparison", N_("Comparison")),
    ("pricing", N_("Pricing")),
    ("market", N_("Market")),
    ("website", N_("Website")),
)
MAX_LISTED = (MAX_BLOCKS_PER_MESSAGE - 3) // 2  # two blocks a template
TEMPLATE_OPEN_ACTION = "template_open"  # read in full and edited: ``slack/draft_edit.py``
TEMPLATE_DELETE_ACTION = "template_delete"
MAX_REQUEST = 3000


def render_templates(templates: Sequence[StudyTemplate]) -> Message:
    if not templates:
        return Message(text=_("You have no Study templates yet. Save one in Minds, then use it here."))
    blocks: list[Block] = [section(_("*Study templates* ({count})", count=format_number(len(templates))))]
    for template in templates[:MAX_LISTED]:
        config = template.configuration
        line = _n(
            "*{template}* — {count} question · method {method} · {language}",
            "*{template}* — {count} questions · method {method} · {language}",
            len(config.questions),
            template=escape(template.name, limit=MAX_NAME_SHOWN),
            method=escape(config.method_id, limit=MAX_WORD_SHOWN),
            language=escape(config.study_locale, limit=MAX_WORD_SHOWN),
        )
        if template.is_shared_with_team:
            line += " · " + _("shared with your team")
        use = button(_("Use"), action_id=f"{USE_TEMPLATE_ACTION}:{template.id}", value=template.id)
        opened = button(_("Open"), action_id=f"{TEMPLATE_OPEN_ACTION}:{template.id}", value=template.id)
        elements = [use, opened]
        if template.can_manage:
            delete = button(_("Delete…"), action_id=f"{TEMPLATE_DELETE_ACTION}:{template.id}", value=template.id)
            elements.append(delete)
        blocks += [section(line), ActionsBlock(elements=elements)]
    if len(templates) > MAX_LISTED:
        blocks.append(
            context(
                _n(
                    "{count} more template is in Minds.",
                    "{count} more templates are in Minds.",
                    len(templates) - MAX_LISTED,
                )
            )
        )
    blocks.append(context(_("Use makes an independent draft in Minds and opens the plan dialog with its questions.")))
    return Message(text=_n("{count} Study template", "{count} Study templates", len(templates)), blocks=blocks)


def template_request(template: StudyTemplate) -> str:
    """The template as planner input: its goal and its questions with how each is answered."""
    config = template.configuration
    lines = [
        _(
            "From the template “{template}” (goal: {goal}, method: {method}).",
            template=template.name,
            goal=config.goal,
            method=config.method_id,
        ),
        _("Questions:"),
    ]
    for number, question in enumerate(config.questions, 1):
        response = question.response
        how: str = response.type
        if response.categorical_options:
            how += ": " + join_list(response.categorical_options, style="choices")
        elif response.scale_range:
            how += f" {format_number(response.scale_range[0])}–{format_number(response.scale_range[-1])}"
        lines.append(f"{number}. {annotate(question.text, how)}")
    text = "\n".join(lines)
    return text if len(text) <= MAX_REQUEST else text[: MAX_REQUEST - 1] + "…"


def render_template_gone() -> Message:
    return Message(text=_("That template is no longer available in Minds. `/minds templates` shows the current list."))


def render_template_used(*, template_name: str, draft_name: str) -> Message:
    return Message(
        text=_(
            "Made the draft “{draft}” from “{template}” in Minds; pick the Study in the dialog to plan it.",
            draft=escape(draft_name, limit=MAX_NAME_SHOWN),
            template=escape(template_name, limit=MAX_NAME_SHOWN),
        )
    )


def save_template_button(revision: int) -> ButtonElement:
    return button(_("Save as template"), action_id=SAVE_TEMPLATE_ACTION, value=str(revision))


def render_save_template_modal(*, channel_id: str, message_ts: str, study_name: str) -> View:
    """Asks the template's name and goal; the questions, language and method come from the plan in Minds."""
    goals = [Option(value=value, text=_(label)) for value, label in GOALS]
    metadata = json.dumps({"c": channel_id, "t": message_ts})
    return View(
        type="modal",
        callback_id=SAVE_TEMPLATE_CALLBACK,
        title=_("Save as template"),
        submit=_("Save"),
        close=_("Cancel"),
        private_metadata=metadata if len(metadata) <= MAX_PRIVATE_METADATA else "{}",  # "{}": refused on submit
        blocks=[
            InputBlock(
                block_id=TEMPLATE_NAME_BLOCK,
                label=_("Template name"),
                element=PlainTextInputElement(
                    action_id="value",
                    max_length=MAX_TEMPLATE_NAME,
                    initial_value=_("{study} plan", study=study_name)[:MAX_TEMPLATE_NAME],
                ),
            ),
            InputBlock(
                block_id=TEMPLATE_GOAL_BLOCK,
                label=_("Goal"),
                element=StaticSelectElement(action_id="value", options=goals, initial_option=goals[0]),
            ),
            context(
                _(
                    "The plan's latest revision in Minds becomes a personal template: its questions, language and "
                    "method."
                )
            ),
        ],
    )


def render_template_saved(*, name: str, questions: int) -> Message:
    return Message(
        text=_n(
            "Saved the template “{template}” with {count} question. `/minds templates` lists it.",
            "Saved the template “{template}” with {count} questions. `/minds templates` lists it.",
            questions,
            template=escape(name, limit=MAX_NAME_SHOWN),
        )
    )


def render_template_not_saved(reason: str) -> Message:
    return Message(
        text=_("The plan was not saved as a template: {reason}", reason=escape(reason, limit=MAX_NAME_SHOWN * 5))
    )
