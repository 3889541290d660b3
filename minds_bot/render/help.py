"""The ``/minds help`` message and the App Home tab: what the bot does and how to start."""

from __future__ import annotations

from slack_sdk.models.blocks import (
    ActionsBlock,
    ContextBlock,
    DividerBlock,
    HeaderBlock,
    MarkdownTextObject,
    SectionBlock,
)
from slack_sdk.models.views import View

from minds_bot.render import Message, escape
from minds_bot.render.digest import add_digest_button

COMMANDS: tuple[tuple[str, str], ...] = (
    ("/minds help", "this overview"),
    ("/minds studies [query]", "browse your Studies"),
    ("/minds audiences [query]", "browse your Audiences and how many Minds each has"),
    ("/minds minds [query]", "browse the Minds (AI personas) in your Audiences"),
    ("/minds study <study>", "a Study card with its audiences, questions and recent runs"),
    ("/minds plan <study> <request>", "draft a research plan for the channel to review and approve"),
    ("/minds ask <study> <question>", "ask one standalone question"),
    ("/minds runs <study>", "a Study's recent runs and their states"),
    ("/minds summary <study> [refresh]", "read or refresh a Study's summary"),
    ("/minds export <study> [format] [kind] [length]", "attach a report, brief or raw data to the thread"),
    ("/minds share <study> on|off", "turn a Study's public link on (after you confirm) or off"),
    ("/minds duplicate <study>", "make a private copy of a Study"),
    ("/minds audience new <brief>", "build an Audience from a description of who it should be"),
    ("/minds audience <name>", "an Audience's members, coverage, Formations, builds; Ask · Export · Duplicate"),
    ("Message menu → Audience from files", "import a message's .txt/.md/.csv/.json files and build an Audience"),
    ("Heatmap · Export heatmap on a result", "where the question shows an image or video: attention, or a ZIP"),
    ("/minds ask audience <name> <question>", "ask one Audience directly (Minds creates a private Study for it)"),
    ("/minds recalibrate <audience>", "refresh an Audience you own: instruction, confirmation, progress in a thread"),
    ("/minds invite <study> <email…> [admin]", "invite collaborators to a Study (account owners; you confirm first)"),
    ("/minds methods [query]", "the research methods Minds lists: which run, what each needs"),
    ("/minds models", "the team's model connections in Minds, verified or not (when the server has them)"),
    ("/minds approvers list · add|remove @someone", "who may approve research plans in this channel"),
    ("/minds digest add …", "post research news to a channel on a schedule"),
    ("/minds digest list · now <id> · remove <id>", "see, post or stop scheduled digests"),
    ("/minds connect", "connect this workspace to a Minds account"),
)

INTRO = (
    "*Minds* runs synthetic market research on Audiences of AI personas. Plan a study here, review the exact "
    "questions together, approve it, and follow the run in the thread."
)
CAVEAT = "Synthetic research is a fast first pass; it does not replace representative fieldwork with people."


def _command_list() -> str:
    return "\n".join(f"`{escape(usage)}` — {escape(what)}" for usage, what in COMMANDS)


def render_help(*, note: str | None = None) -> Message:
    blocks = [SectionBlock(text=MarkdownTextObject(text=note))] if note else []
    blocks += [
        SectionBlock(text=MarkdownTextObject(text=INTRO)),
        SectionBlock(text=MarkdownTextObject(text=_command_list())),
        ContextBlock(elements=[MarkdownTextObject(text=CAVEAT)]),
    ]
    return Message(text="Minds: plan and run synthetic research from Slack. Try /minds help.", blocks=blocks)


def render_home(*, connected: bool) -> View:
    status = (
        "This workspace is connected to Minds."
        if connected
        else "This workspace is not connected to Minds yet: an admin can run `/minds connect`."
    )
    return View(
        type="home",
        blocks=[
            HeaderBlock(text="Minds for Slack"),
            SectionBlock(text=MarkdownTextObject(text=INTRO)),
            SectionBlock(text=MarkdownTextObject(text=status)),
            DividerBlock(),
            SectionBlock(text=MarkdownTextObject(text=_command_list())),
            ActionsBlock(elements=[add_digest_button()]),
            ContextBlock(elements=[MarkdownTextObject(text=CAVEAT)]),
        ],
    )
