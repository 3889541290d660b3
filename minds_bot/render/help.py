"""The ``/minds help`` message: what the bot does, how to start, and the rules a run
follows (answered confirmation questions, executable methods, retries that keep their key)."""

from __future__ import annotations

from slack_sdk.models.blocks import (
    ContextBlock,
    MarkdownTextObject,
    SectionBlock,
)

from minds_bot.i18n import N_, _
from minds_bot.render import MAX_SECTION_TEXT, Message, escape

COMMANDS: tuple[tuple[str, str], ...] = (
    ("/minds help", N_("this overview")),
    ("/minds studies [query]", N_("browse your Studies")),
    ("/minds audiences [query]", N_("browse your Audiences and how many Minds each has")),
    ("/minds minds [query]", N_("browse the Minds (AI personas) in your Audiences")),
    ("/minds study <study>", N_("a Study card with its audiences, questions and recent runs")),
    ("/minds study new <name>", N_("create a Study; a dialog asks which Audiences to attach")),
    ("/minds plan <study> <request>", N_("draft a plan: answer Minds' questions, review it together, then approve")),
    ("/minds drafts", N_("your active Study drafts, with Resume and Delete (save one from an open plan)")),
    ("/minds templates", N_("your Study templates; Use one to plan research from its questions")),
    ("/minds ask <study> <question>", N_("ask one standalone question")),
    ("/minds runs <study>", N_("a Study's recent runs and their states")),
    (
        "/minds summary <study> [refresh [force] [short|standard|detailed]]",
        N_("read a Study's summary, or refresh it (force: regenerate even if nothing changed; a length)"),
    ),
    ("/minds analytics <study>", N_("a Study's analytics as Minds computed them, with a chart")),
    (
        "/minds export <study> [format] [kind] [length] [original]",
        N_(
            "attach a report, brief or raw data to the thread (CSV cells that could run as formulas get a leading "
            "'; `original` attaches Minds' file unchanged)"
        ),
    ),
    ("/minds export audience|mind <name> [format]", N_("attach an Audience brief or a Mind's profile to a thread")),
    ("/minds duplicate audience <name>", N_("copy an Audience (each member becomes a new Mind)")),
    ("/minds share <study> on|off", N_("turn a Study's public link on (after you confirm) or off")),
    ("/minds duplicate <study>", N_("make a private copy of a Study (asked again within 6 hours: a second copy?)")),
    ("/minds audience new <brief>", N_("build an Audience from a description of who it should be")),
    ("/minds chat <mind>", N_("talk to one Mind in a thread; every reply there continues the same chat")),
    ("/minds audience <name>", N_("an Audience's members, coverage, Formations, builds; Ask · Export · Duplicate")),
    (
        N_("Message menu → Audience from files"),
        N_("import a message's .txt/.md/.csv/.json files and build an Audience"),
    ),
    (N_("Heatmap · Export heatmap on a result"), N_("where the question shows an image or video: attention, or a ZIP")),
    ("/minds ask audience <name> <question>", N_("ask one Audience directly (Minds creates a private Study for it)")),
    (
        "/minds recalibrate <audience>",
        N_("refresh an Audience you own: instruction, confirmation, progress in a thread"),
    ),
    (
        "/minds invite <study> <email…> [admin]",
        N_("invite collaborators to a Study (account owners; you confirm first)"),
    ),
    ("/minds methods [query]", N_("the research methods Minds lists: which run, what each needs")),
    ("/minds models", N_("the team's model connections in Minds, verified or not (when the server has them)")),
    ("/minds approvers list · add|remove @someone", N_("who may approve research plans in this channel")),
    ("/minds digest add …", N_("post research news to a channel on a schedule")),
    ("/minds digest list · now <id> · remove <id>", N_("see, post or stop scheduled digests")),
    ("/minds connect", N_("connect this workspace to a Minds account")),
)

INTRO = N_(
    "*Minds* runs synthetic market research on Audiences of AI personas. Plan a study here, review the exact "
    "questions together, approve it, and follow the run in the thread."
)
RULES = N_(
    "*Before a plan runs* every confirmation question Minds asks is answered (the plan says how many are left) "
    "and every method is executable in Minds' catalogue; a method that is not names its fallback, offered as a "
    "revision to review — never swapped in silently. *Try again* on a duplicate or an Audience build that got "
    "no answer sends the same request with the same key, so Minds never makes two."
)
CAVEAT = N_("Synthetic research is a fast first pass; it does not replace representative fieldwork with people.")


def _command_lines() -> list[str]:
    return [f"`{escape(_(usage))}` — {escape(_(what))}" for usage, what in COMMANDS]


def _command_sections() -> list[SectionBlock]:
    """The command list in as few sections as fit: each section's text stays under Slack's 3,000 characters."""
    chunks: list[list[str]] = [[]]
    for line in _command_lines():
        if chunks[-1] and len("\n".join([*chunks[-1], line])) > MAX_SECTION_TEXT:
            chunks.append([])
        chunks[-1].append(line)
    return [SectionBlock(text=MarkdownTextObject(text="\n".join(chunk))) for chunk in chunks]


def render_help(*, note: str | None = None) -> Message:
    """``note``: plain words said above the overview (a usage hint may repeat what someone typed), escaped here."""
    blocks = [SectionBlock(text=MarkdownTextObject(text=escape(note, limit=MAX_SECTION_TEXT)))] if note else []
    blocks += [
        SectionBlock(text=MarkdownTextObject(text=_(INTRO))),
        *_command_sections(),
        SectionBlock(text=MarkdownTextObject(text=_(RULES))),
        ContextBlock(elements=[MarkdownTextObject(text=_(CAVEAT))]),
    ]
    return Message(text=_("Minds: plan and run synthetic research from Slack. Try /minds help."), blocks=blocks)


def render_usage(message: str) -> Message:
    """A ``/minds`` command that could not be read: what to type instead (the grammar's words, escaped)."""
    text = escape(message, limit=MAX_SECTION_TEXT)
    return Message(text=text, blocks=render_help(note=message).blocks[:1])
