"""The plan's dialogs: asking for a plan, answering Minds' confirmation questions (one, or all in one dialog),
revising a revision, and the loading / refused forms of the answer dialog.

Owns: these modals, their callback ids (``VIEW_*``, what ``slack/plan.py`` and the gate listen for) and their
input limits (``MAX_PLAN_REQUEST``, ``MAX_PLAN_ANSWER``, ``MAX_STUDY_INPUT``). Minds' words in mrkdwn are escaped;
labels are plain text. Pure: no I/O.
Must not touch: the plan message (``render/plan.py``), Minds calls, the store, permission decisions.
"""

from __future__ import annotations

from slack_sdk.models.blocks import (
    Block,
    ContextBlock,
    ConversationFilter,
    ConversationSelectElement,
    InputBlock,
    MarkdownTextObject,
    Option,
    PlainTextInputElement,
    SectionBlock,
    StaticSelectElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import N_, _
from minds_bot.minds import ConfirmationQuestion, ResearchPlan
from minds_bot.render import MAX_NAME_SHOWN, MAX_SECTION_TEXT, escape
from minds_bot.render.common import sections, shorten, split_text

# Modal callback ids.
VIEW_PLAN_REQUEST = "plan_request"
VIEW_ANSWER = "plan_answer_view"
VIEW_ANSWER_ALL = "plan_answer_all_view"
VIEW_REVISE = "plan_revise_view"
MAX_PLAN_REQUEST = 3_000  # what the research should find out, or a refinement (Slack caps a text input at 3,000)
MAX_PLAN_ANSWER = 2_000  # a free-text answer to one of Minds' confirmation questions
MAX_STUDY_INPUT = 200  # the request modal's Study name or id
MAX_STIMULUS_LINK = 500  # a Slack message link (the concept to test)
MAX_MODAL_BLOCKS = 100
MAX_LABEL_TEXT = 2000
MAX_OPTIONS_PER_SELECT = 100
MAX_BUTTON_TEXT = 75
SECTION_CHUNK = MAX_SECTION_TEXT - 100
STUDY_LANGUAGES: tuple[tuple[str, str], ...] = (
    ("en", "English"),
    ("de", "Deutsch"),
    ("es", "Español"),
    ("fr", "Français"),
    ("it", "Italiano"),
    ("pt", "Português"),
    ("nl", "Nederlands"),
    ("ja", "日本語"),
    ("ko", "한국어"),
    ("zh", "中文"),
)


def _form(*, callback_id: str, title: str, submit: str, metadata: str, blocks: list[Block]) -> View:
    """A plan dialog that submits (``callback_id``, what it reads back in ``metadata``); Cancel closes it."""
    return View(
        type="modal",
        callback_id=callback_id,
        title=title,
        submit=submit,
        close=_("Cancel"),
        private_metadata=metadata,
        blocks=blocks,
    )


def _mrkdwn_sections(text: str) -> list[Block]:
    return [SectionBlock(text=MarkdownTextObject(text=piece)) for piece in split_text(text, SECTION_CHUNK)]


METHOD_HINT = N_(
    "Asking for MaxDiff, NPS, Kano, TURF, Conjoint, Van Westendorp or Gabor-Granger? After you submit, the bot "
    "checks with Minds and tells you which of them can run; `/minds methods` lists every method."
)


def plan_request_modal(
    *,
    metadata: str,
    study_known: bool,
    study_name: str | None,
    language: str,
    request: str | None = None,
    pick_channel: bool = False,
    stimulus_link: str | None = None,
) -> View:
    """Ask for the study (when unknown), the planner request (``request`` filled in, e.g. from a plan offer),
    optionally the concept to test (a link to a Slack message with an image or PDF, ``flows/stimulus.py``),
    the study language (``language`` chosen first: the person's) and, from the App Home, which has none, the
    channel the plan is posted in (``pick_channel``)."""
    blocks: list[Block] = []
    if pick_channel:
        blocks.append(
            InputBlock(
                block_id="channel",
                label=_("Post the plan in"),
                element=ConversationSelectElement(
                    action_id="value", filter=ConversationFilter(include=["public", "private"], exclude_bot_users=True)
                ),
            )
        )
    if study_known and study_name:
        shown = escape(study_name, limit=MAX_NAME_SHOWN)
        blocks.append(SectionBlock(text=MarkdownTextObject(text=_("Study: *{study}*", study=shown))))
    else:
        blocks.append(
            InputBlock(
                block_id="study",
                label=_("Study"),
                element=PlainTextInputElement(
                    action_id="value", placeholder=_("Study name or id"), max_length=MAX_STUDY_INPUT
                ),
            )
        )
    options = [Option(value=code, text=name) for code, name in STUDY_LANGUAGES]
    initial = next((o for o in options if o.value == language), options[0])
    blocks += [
        InputBlock(
            block_id="request",
            label=_("What should the research find out?"),
            element=PlainTextInputElement(
                action_id="value",
                multiline=True,
                placeholder=_("Goal, audience, the questions you already have…"),
                max_length=MAX_PLAN_REQUEST,
                initial_value=request[:MAX_PLAN_REQUEST] if request else None,  # from a plan offer or a template
            ),
        ),
        InputBlock(
            block_id="stimulus",
            label=_("Concept to test (optional)"),
            optional=True,
            hint=_(
                "A link to a Slack message with an image or PDF (“Copy link” on the message). Minds shows that "
                "file with the questions it fits."
            ),
            element=PlainTextInputElement(
                action_id="value",
                placeholder=_("https://your-team.slack.com/archives/…"),
                max_length=MAX_STIMULUS_LINK,
                initial_value=stimulus_link or None,
            ),
        ),
        InputBlock(
            block_id="language",
            label=_("Study language"),
            element=StaticSelectElement(action_id="value", options=options, initial_option=initial),
        ),
        ContextBlock(
            elements=[
                MarkdownTextObject(
                    text=_("Minds drafts a plan for the channel to review. Nothing runs until someone approves it.")
                )
            ]
        ),
        ContextBlock(elements=[MarkdownTextObject(text=_(METHOD_HINT))]),
    ]
    return _form(
        callback_id=VIEW_PLAN_REQUEST,
        title=_("Plan research"),
        submit=_("Draft plan"),
        metadata=metadata,
        blocks=blocks,
    )


def answer_modal(*, metadata: str, question: str) -> View:
    """``question``: the plain words Minds asked (read back from the plan message with ``unescape``)."""
    return _form(
        callback_id=VIEW_ANSWER,
        title=_("Answer Minds"),
        submit=_("Send answer"),
        metadata=metadata,
        blocks=[
            *_mrkdwn_sections(escape(question)),
            InputBlock(
                block_id="answer",
                label=_("Your answer"),
                element=PlainTextInputElement(action_id="value", multiline=True, max_length=MAX_PLAN_ANSWER),
            ),
        ],
    )


def answer_all_modal(*, metadata: str, plan: ResearchPlan) -> View:
    """Every confirmation question of ``plan`` in one dialog: a choice per question with options, else text.
    Input block ids are ``cq_<index>`` in plan order."""
    blocks: list[Block] = [
        SectionBlock(
            text=MarkdownTextObject(
                text=_("Minds asks these questions about revision {revision}.", revision=plan.revision)
            )
        )
    ]
    for index, question in enumerate(plan.confirmation_questions[: MAX_MODAL_BLOCKS - 1]):
        blocks.append(
            InputBlock(
                block_id=f"cq_{index}",
                label=shorten(question.text, MAX_LABEL_TEXT),
                element=_answer_element(question),
            )
        )
    return _form(
        callback_id=VIEW_ANSWER_ALL,
        title=_("Answer Minds"),
        submit=_("Send answers"),
        metadata=metadata,
        blocks=blocks,
    )


def _answer_element(question: ConfirmationQuestion) -> StaticSelectElement | PlainTextInputElement:
    if question.free_text:
        return PlainTextInputElement(action_id="value", multiline=True, max_length=MAX_PLAN_ANSWER)
    options = [
        Option(value=str(i), text=shorten(option, MAX_BUTTON_TEXT))
        for i, option in enumerate((question.options or [])[:MAX_OPTIONS_PER_SELECT])
    ]
    return StaticSelectElement(action_id="value", options=options)


def loading_modal() -> View:
    """Shown at once (Slack's trigger expires in 3 s) while the plan's questions are read from Minds."""
    return View(
        type="modal",
        title=_("Answer Minds"),
        close=_("Cancel"),
        blocks=[SectionBlock(text=MarkdownTextObject(text=_(":hourglass_flowing_sand: Reading the plan from Minds…")))],
    )


def answer_modal_refused(reason: str) -> View:
    """The answer dialog when the plan cannot be answered from it (out of date, changed in Minds); ``reason`` is
    the refusal as the flow wrote it, mrkdwn with any input already escaped."""
    return View(type="modal", title=_("Answer Minds"), close=_("Close"), blocks=sections(reason))


def revise_modal(*, metadata: str, revision: int) -> View:
    return _form(
        callback_id=VIEW_REVISE,
        title=_("Revise the plan"),
        submit=_("Revise"),
        metadata=metadata,
        blocks=[
            SectionBlock(
                text=MarkdownTextObject(text=_("Minds will revise revision {revision} of the plan.", revision=revision))
            ),
            InputBlock(
                block_id="refinement",
                label=_("What should change?"),
                element=PlainTextInputElement(action_id="value", multiline=True, max_length=MAX_PLAN_REQUEST),
            ),
        ],
    )
