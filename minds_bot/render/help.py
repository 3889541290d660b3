"""The ``/minds help`` message: what the bot does, three steps to start, and every command grouped by task.

Owns: ``GROUPS`` — the help's groups in order (Start here · Plan and run · Ask · Audiences and Minds · Files ·
Schedules · Settings), each a header and lines that say what a person gets; every ``/minds`` command the router
knows sits on exactly one line (``HelpLine.covers`` names the router's command types; a test fails when a command
has no line), beside the buttons and message shortcuts people need to know (the plan's *Approve & run* and
*Revise…*, a run's *Cancel run*). Button names are the buttons' own message ids, so the help says what the button
says in every language; message shortcuts are named verbatim, as Slack's ⋯ menu shows them (the manifest has one
language). ``render_help`` (a header and sections per group, each section under Slack's 3,000 characters) and
``render_usage`` (what to type instead of a command that could not be read).
Must not touch: I/O of any kind; how the bot does things (keys, retries, endpoints) — help says what people get.
"""

from __future__ import annotations

from dataclasses import dataclass

from slack_sdk.models.blocks import Block, ContextBlock, HeaderBlock, MarkdownTextObject, SectionBlock

from minds_bot.i18n import N_, _, separated
from minds_bot.render import MAX_SECTION_TEXT, Message, escape
from minds_bot.render.common import split_text

# The labels of the buttons the help names: the same message ids as the buttons themselves (render/plan.py,
# render/cancel.py, render/drafts.py, render/jobs.py), so both read the same in every language.
BUTTONS: dict[str, str] = {
    "approve": N_("Approve & run"),
    "revise": N_("Revise…"),
    "discard": N_("Discard"),
    "cancel": N_("Cancel run"),
    "try_again": N_("Try again"),
    "heatmap": N_("Heatmap"),
    "export_heatmap": N_("Export heatmap"),
}
# The commands the steps of "Start here" name, as typed (in code in every language).
STEP_COMMANDS: dict[str, str] = {"connect": "/minds connect", "plan": "/minds plan <study> <request>"}
# Message shortcuts as Slack's ⋯ menu names them: verbatim, in the one language of the app manifest
# (slack/ask_about.py, slack/source_import.py; a test keeps them equal).
ASK_ABOUT_SHORTCUT = "Ask Minds about this"  # verbatim
FROM_FILES_SHORTCUT = "Audience from files"  # verbatim


@dataclass(frozen=True)
class HelpLine:
    """One line of help: a command as typed, buttons, or a message shortcut — then what the person gets.

    ``what`` is a message id; its ``{approve}``, ``{cancel}``… placeholders are the labels in ``BUTTONS``.
    ``covers``: the router's commands this line explains (command type names; ``Browse:<kind>`` for each kind of
    browsing), so each command has exactly one line."""

    what: str
    command: str | None = None  # `/minds …` exactly as typed: the same in every language
    buttons: tuple[str, ...] = ()  # keys of BUTTONS
    shortcut: str | None = None  # a message shortcut's verbatim name
    covers: tuple[str, ...] = ()


@dataclass(frozen=True)
class HelpGroup:
    title: str  # message id, shown as the group's header
    lines: tuple[HelpLine, ...]
    steps: tuple[str, ...] = ()  # message ids: numbered steps shown before the lines ({connect}, {plan}, buttons)
    note: str | None = None  # message id: what to know about the whole group, shown small below it


START_HERE = HelpGroup(
    title=N_("Start here"),
    steps=(
        # i18n: {connect} and {plan} are commands shown in code, as typed; {approve} is the plan's button label.
        N_("Once per workspace an admin types {connect} and pastes the team's Minds API key (skip this if done)."),
        N_(
            "Type {plan} with what you want to learn: Minds drafts a research plan in the channel. Answer its "
            "confirmation questions and review the exact questions together."
        ),
        N_(
            "Press *{approve}* on the plan (you, the channel's approvers or an admin). Progress, results and the "
            "report follow in the plan's thread."
        ),
    ),
    lines=(HelpLine(command="/minds help", what=N_("this overview"), covers=("Help",)),),
)

PLAN_AND_RUN = HelpGroup(
    title=N_("Plan and run"),
    lines=(
        HelpLine(command="/minds studies [query]", what=N_("browse your Studies"), covers=("Browse:studies",)),
        HelpLine(
            command="/minds study <study>",
            what=N_("a Study card with its audiences, questions and recent runs"),
            covers=("ShowStudy",),
        ),
        HelpLine(
            command="/minds study new <name>",
            what=N_("create a Study; a dialog asks which Audiences to attach"),
            covers=("StudyNew",),
        ),
        HelpLine(
            command="/minds plan <study> <request>",
            # i18n: {approve} is the label of the plan's approve button.
            what=N_(
                "Minds drafts a research plan in the channel: answer its confirmation questions, review the exact "
                "questions together, then press *{approve}*. Nothing runs before that."
            ),
            covers=("Plan",),
        ),
        HelpLine(
            buttons=("revise", "discard"),
            # i18n: follows the bold button names "Revise… · Discard"; {discard} is that button's label.
            what=N_(
                "on a plan: say what should change and Minds drafts the next revision, which the channel reviews "
                "like the first; *{discard}* closes the plan (Minds keeps it as a draft)"
            ),
        ),
        HelpLine(
            buttons=("cancel",),
            # i18n: follows the bold button name "Cancel run".
            what=N_(
                "on a run's progress message: stops the run once you confirm; questions that already finished keep "
                "their answers (for whoever may approve in the channel, or whoever asked the question)"
            ),
        ),
        HelpLine(
            command="/minds drafts",
            what=N_(
                "your active Study drafts: Open (read or edit in full), Resume and Delete (save one from an open "
                "plan)"
            ),
            covers=("Drafts",),
        ),
        HelpLine(
            command="/minds templates",
            what=N_(
                "your Study templates: Open (read, edit or delete in full) or Use one to plan research from its "
                "questions"
            ),
            covers=("Templates",),
        ),
        HelpLine(
            command="/minds methods [query]",
            what=N_("the research methods Minds lists: which run, what each needs"),
            covers=("Methods",),
        ),
        HelpLine(command="/minds runs <study>", what=N_("a Study's recent runs and their states"), covers=("Runs",)),
        HelpLine(
            command="/minds compare <study> [run] [run]",
            # i18n: A run is named by its number in `/minds runs` (1 = newest). Keep "Compare with…" as the button.
            what=N_(
                "compare two runs question by question (none named: the two latest; one: its Audiences), with "
                "the differences and a chart per question in a thread; a run is its number in `/minds runs`, "
                "1 = newest. Also *Compare with…* on a run's result"
            ),
            covers=("Compare",),
        ),
        HelpLine(
            command="/minds summary <study> [refresh [force] [short|standard|detailed]]",
            what=N_("read a Study's summary, or refresh it (force: regenerate even if nothing changed; a length)"),
            covers=("Summary",),
        ),
        HelpLine(
            command="/minds analytics <study>",
            what=N_("a Study's analytics as Minds computed them, with a chart"),
            covers=("Analytics",),
        ),
        HelpLine(
            command="/minds duplicate <study> [as <name>]",
            what=N_("make a private copy of a Study, named as you say (asked again within 6 hours: a second copy?)"),
            covers=("Duplicate",),
        ),
        HelpLine(
            command="/minds study delete <study>",
            what=N_("delete a Study (admins): a dialog names it and what goes with it first; its Audiences stay"),
            covers=("StudyDelete",),
        ),
    ),
    note=N_(
        "A plan can be approved once every confirmation question is answered and every method runs in Minds; a "
        "method that does not is offered with its fallback as a revision to review, never swapped in silently."
    ),
)

ASK = HelpGroup(
    title=N_("Ask"),
    lines=(
        HelpLine(
            command="/minds ask <study> <question>",
            what=N_("ask a Study's Minds one question; the numbers, a chart and quotes follow in a thread"),
            covers=("Ask",),
        ),
        HelpLine(
            command="/minds ask audience <name> <question>",
            what=N_("ask one Audience directly (Minds creates a private Study for it)"),
            covers=("AskAudience",),
        ),
        HelpLine(
            shortcut=ASK_ABOUT_SHORTCUT,
            what=N_("in a message's ⋯ menu: ask a Study's Minds about that message, answered in its thread"),
        ),
        HelpLine(
            command="/minds chat <mind>",
            what=N_(
                "talk to one Mind in a thread, or up to five at once (names separated by commas); every reply there "
                "continues the same chat, each Mind answering under its name; *Delete chat* deletes it in Minds"
            ),
            covers=("Chat",),
        ),
    ),
)

AUDIENCES_AND_MINDS = HelpGroup(
    title=N_("Audiences and Minds"),
    lines=(
        HelpLine(
            command="/minds audiences [query]",
            what=N_("browse your Audiences and how many Minds each has"),
            covers=("Browse:audiences",),
        ),
        HelpLine(
            command="/minds minds [query]",
            what=N_("browse the Minds (AI personas) in your Audiences"),
            covers=("Browse:minds",),
        ),
        HelpLine(
            command="/minds mind <name>",
            what=N_("a Mind's training and knowledge; Add knowledge · Retrain · Edit · Delete"),
            covers=("ShowMind",),
        ),
        HelpLine(
            command="/minds mind new",
            what=N_("create a Mind (a persona or an expert) from keywords, a person, a web page or by hand"),
            covers=("MindNew",),
        ),
        HelpLine(
            command="/minds audience <name>",
            what=N_(
                "an Audience's members, coverage, Formations, builds; Ask · Export · Members · Formations · Edit · "
                "Duplicate… · Delete"
            ),
            covers=("ShowAudience",),
        ),
        HelpLine(
            command="/minds audience new [brief]",
            what=N_(
                "build an Audience from a description of who it should be; alone, a dialog to design its sample "
                "(size, mode, links, a dataset to review)"
            ),
            covers=("AudienceNew",),
        ),
        HelpLine(
            command="/minds duplicate audience <name>",
            what=N_("copy an Audience (each member becomes a new Mind)"),
            covers=("DuplicateAudience",),
        ),
        HelpLine(
            command="/minds recalibrate <audience>",
            what=N_(
                "recalibrate an Audience you own: an instruction or a research query, links and keywords, or a "
                "selection of its distributions; confirmation, progress in a thread"
            ),
            covers=("Recalibrate",),
        ),
    ),
    # i18n: {try_again} is the label of the "Try again" button.
    note=N_("*{try_again}* on a copy or an Audience build that Minds did not answer never makes a second one."),
)

FILES = HelpGroup(
    title=N_("Files"),
    lines=(
        HelpLine(
            command="/minds export <study> [format] [kind] [length] [original] [force]",
            what=N_(
                "attach a report, brief or raw data to the thread, saying when Minds generated it and whether it "
                "covers the latest run (`force` makes a new file; CSV cells that could run as formulas get a leading "
                "'; `original` attaches Minds' file unchanged)"
            ),
            covers=("Export",),
        ),
        HelpLine(
            command="/minds export audience|mind <name> [format]",
            what=N_("attach an Audience brief or a Mind's profile to a thread"),
            covers=("ExportProfile",),
        ),
        HelpLine(
            shortcut=FROM_FILES_SHORTCUT,
            what=N_("in a message's ⋯ menu: build an Audience from the message's .txt, .md, .csv or .json files"),
        ),
        HelpLine(
            buttons=("heatmap", "export_heatmap"),
            what=N_(
                "on a result whose question shows an image or video: where attention went, in the thread; on one "
                "whose question shows a website: its heatmap archive (ZIP)"
            ),
        ),
    ),
)

SCHEDULES = HelpGroup(
    title=N_("Schedules"),
    lines=(
        HelpLine(
            command="/minds digest add [#channel] daily 09:00 …",
            what=N_("post research news to a channel daily or weekly; `/minds digest add` alone shows every option"),
            covers=("DigestAdd",),
        ),
        HelpLine(
            command="/minds digest list · now <id> · remove <id>",
            what=N_("see, post or stop scheduled digests"),
            covers=("DigestList", "DigestNow", "DigestRemove"),
        ),
    ),
)

SETTINGS = HelpGroup(
    title=N_("Settings"),
    lines=(
        HelpLine(
            command="/minds connect",
            what=N_("connect this workspace to a Minds account, or change its language (admins)"),
            covers=("Connect",),
        ),
        HelpLine(
            command="/minds approvers list · add|remove @someone",
            what=N_("who may approve research plans in this channel"),
            covers=("Approvers",),
        ),
        HelpLine(
            command="/minds policy",
            what=N_(
                "what may spend Minds here — ask, heatmap, Audience build, duplicate, share on: at once, after an "
                "approver's click, or never (admins and approvers change it)"
            ),
            covers=("Policy",),
        ),
        HelpLine(
            command="/minds activity [days]",
            what=N_("who spent what in this channel (last 7 days unless you say), with totals and a CSV"),
            covers=("Activity",),
        ),
        HelpLine(
            command="/minds models",
            what=N_("the team's model connections in Minds, verified or not (when the server has them)"),
            covers=("Models",),
        ),
        HelpLine(
            command="/minds invite <study> <email…> [admin]",
            what=N_("invite collaborators to a Study (account owners; you confirm first)"),
            covers=("Invite",),
        ),
        HelpLine(
            command="/minds share <study> on|off",
            what=N_("turn a Study's public link on (after you confirm) or off"),
            covers=("Share",),
        ),
    ),
)

GROUPS: tuple[HelpGroup, ...] = (START_HERE, PLAN_AND_RUN, ASK, AUDIENCES_AND_MINDS, FILES, SCHEDULES, SETTINGS)

INTRO = N_(
    "*Minds* runs synthetic market research on Audiences of AI personas. Plan a study here, review the exact "
    "questions together, approve it, and follow the run in the thread."
)
CAVEAT = N_("Synthetic research is a fast first pass; it does not replace representative fieldwork with people.")


def _button_labels() -> dict[str, str]:
    """Each button's label in the spoken language, as the button itself shows it."""
    return {key: _(label) for key, label in BUTTONS.items()}


def _line_text(line: HelpLine) -> str:
    """``name — what you get``: a command in code, buttons and shortcuts in bold (spaces around every ``*``)."""
    labels = _button_labels()
    if line.command is not None:
        name = f"`{escape(line.command)}`"
    elif line.shortcut is not None:
        name = f"*{escape(line.shortcut)}*"
    else:
        name = separated(f"*{labels[key]}*" for key in line.buttons)
    # i18n: {name} is a command (in code), a button or a menu item (bold); {what} says what it gives the reader.
    return _("{name} — {what}", name=name, what=_(line.what, **labels))


def _group_text(group: HelpGroup) -> str:
    labels = _button_labels() | {key: f"`{escape(command)}`" for key, command in STEP_COMMANDS.items()}
    # i18n: a numbered step of "Start here"; {step} is one whole sentence or two.
    steps = [_("{number}. {step}", number=n, step=_(step, **labels)) for n, step in enumerate(group.steps, start=1)]
    return "\n".join([*steps, *(_line_text(line) for line in group.lines)])


def _group_blocks(group: HelpGroup) -> list[Block]:
    """A header, the group's lines in as few sections as fit Slack's 3,000 characters, and its note."""
    blocks: list[Block] = [HeaderBlock(text=_(group.title))]
    blocks += [
        SectionBlock(text=MarkdownTextObject(text=chunk))
        for chunk in split_text(_group_text(group), MAX_SECTION_TEXT)
        if chunk.strip()
    ]
    if group.note is not None:
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=_(group.note, **_button_labels()))]))
    return blocks


def render_help(*, note: str | None = None) -> Message:
    """``note``: plain words said above the overview (a usage hint may repeat what someone typed), escaped here."""
    blocks: list[Block] = [_note_block(note)] if note else []
    blocks.append(SectionBlock(text=MarkdownTextObject(text=_(INTRO))))
    for group in GROUPS:
        blocks += _group_blocks(group)
    blocks.append(ContextBlock(elements=[MarkdownTextObject(text=_(CAVEAT))]))
    return Message(text=_("Minds: plan and run synthetic research from Slack. Try /minds help."), blocks=blocks)


def render_usage(message: str) -> Message:
    """A ``/minds`` command that could not be read: what to type instead (the grammar's words, escaped)."""
    return Message(text=escape(message, limit=MAX_SECTION_TEXT), blocks=[_note_block(message)])


def _note_block(note: str) -> SectionBlock:
    return SectionBlock(text=MarkdownTextObject(text=escape(note, limit=MAX_SECTION_TEXT)))
