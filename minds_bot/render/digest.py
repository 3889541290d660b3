"""Digests in Slack: the channel post, the list, the confirmation and the "Add a digest" modal. Pure.

Owns: how run states read (Minds' states in the reader's words through ``render/states.state_word``: completed,
partial with its coverage gap, plan_limited with how far it got, failed, cancelled — never "complete" for partial
or plan_limited), consistency flags as prompts to
review, the 50-block budget ("and N more" with a pointer to ``/minds runs <study>``, as Minds gives no link to
the rest; N exact, as is a first digest's "its latest 5 of 17 runs" — the run list is read to the end, and past the
newest 1,000 it says "at least" and "more than") and the modal's block and action ids.
Must not touch: I/O, the store, Minds. Links are never built here: the digest content carries none because
Minds returns none for runs. A run is named by its first question ("question unknown" when Minds gave none),
never by its id. Every name, state and error word from Minds is escaped (and bounded);
mentions come only from ``mention``/``channel_mention``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    CheckboxesElement,
    ContextBlock,
    ConversationSelectElement,
    HeaderBlock,
    InputBlock,
    InputInteractiveElement,
    MarkdownTextObject,
    Option,
    PlainTextInputElement,
    PlainTextObject,
    SectionBlock,
    StaticSelectElement,
    TimePickerElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import N_, _, _n, format_number, join_list, sentences
from minds_bot.render import (
    MAX_BLOCKS_PER_MESSAGE,
    MAX_NAME_SHOWN,
    MAX_SECTION_TEXT,
    Message,
    channel_mention,
    escape,
    mention,
)
from minds_bot.render.common import slack_date
from minds_bot.render.digest_news import TERMINAL, DigestContent, RunNews, StudyNews
from minds_bot.render.errors import minds_said
from minds_bot.render.markdown import to_mrkdwn
from minds_bot.render.states import state_word
from minds_bot.render.summary import freshness
from minds_bot.store import Digest

# Blocks kept free for the header, the "since" line, read errors and the "and N more" footer.
RESERVED_BLOCKS = 4
BLOCKS_PER_STUDY = 2

MAX_DIGEST_ARGUMENT = 200  # a time, day, timezone, cron expression or Study name in a digest (command or modal)
MAX_STUDIES_INPUT = 3000  # the modal's Study list (Slack's most for a text input)
ADD_DIGEST_ACTION = "digest_add_open"
ADD_DIGEST_VIEW = "digest_add"
WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# How people read each day of WEEKDAY_NAMES: the dialog's labels and the schedules ``describe`` words.
WEEKDAY_LABELS = (
    N_("Monday"),
    N_("Tuesday"),
    N_("Wednesday"),
    N_("Thursday"),
    N_("Friday"),
    N_("Saturday"),
    N_("Sunday"),
)
# i18n: the label a digest line starts with: "• Research run `1a2b3c4d` (finished): *completed*".
RUN_KINDS = {"research": N_("Research run"), "question": N_("Question")}
ANY_RUN = N_("Run")


# --- the channel post --------------------------------------------------------------------------------------


def render_digest(content: DigestContent, *, schedule: str, requested_by: str | None = None) -> Message:
    """The digest post: news per Study, what could not be read, and a quiet line when nothing happened."""
    blocks: list[Block] = [HeaderBlock(text=_("Research digest")), ContextBlock(elements=[_mrkdwn(_since(content))])]
    if content.errors:
        lines = [
            # i18n: {what} is a Study's name, "your Studies", "Study <id>" or "Minds"; {reason} is the error.
            _("⚠️ Could not read {what}: {reason}", what=_escape(e.what), reason=escape(minds_said(e.message)))
            for e in content.errors
        ]
        left = _fit(
            lines, more=lambda n: _n("…and {count} more could not be read.", "…and {count} more could not be read.", n)
        )
        blocks.append(SectionBlock(text=_mrkdwn(left)))
    with_news = [s for s in content.studies if s.runs or s.more_runs]
    room = (MAX_BLOCKS_PER_MESSAGE - RESERVED_BLOCKS) // BLOCKS_PER_STUDY
    for study in with_news[:room]:
        blocks += _study_blocks(study)
    footer = _footer(content, hidden=with_news[room:], schedule=schedule, requested_by=requested_by)
    blocks.append(ContextBlock(elements=[_mrkdwn(footer)]))
    return Message(text=_fallback(content, with_news), blocks=blocks)


def _since(content: DigestContent) -> str:
    if content.since is None:
        return _("News since this digest started.")
    return _("News since the last digest ({when}).", when=slack_date(content.since))


def _fallback(content: DigestContent, with_news: Sequence[StudyNews]) -> str:
    if content.errors and not with_news:
        return _("Research digest: some of Minds could not be read.")
    if content.quiet:
        return _("Research digest: no research news.")
    return _n("Research digest: news in {count} Study.", "Research digest: news in {count} Studies.", len(with_news))


def _footer(content: DigestContent, *, hidden: Sequence[StudyNews], schedule: str, requested_by: str | None) -> str:
    parts = []
    if content.quiet:
        names = join_list(_escape(s.name) for s in content.studies)
        parts.append(
            _("No research news in {studies} since the last digest.", studies=names)
            if names
            else _("No research news since the last digest.")
        )
    if hidden:
        names = join_list(_escape(s.name) for s in hidden)
        parts.append(
            _n(
                "…and {count} more Studies with news: {studies}. See `/minds runs &lt;study&gt;`.",
                "…and {count} more Studies with news: {studies}. See `/minds runs &lt;study&gt;`.",
                len(hidden),
                studies=names,
            )
        )
    if content.unchecked_studies and content.unchecked_at_least:
        parts.append(
            _n(
                "At least {count} less recently updated Studies were not checked; name Studies in the digest to "
                "follow them.",
                "At least {count} less recently updated Studies were not checked; name Studies in the digest to "
                "follow them.",
                content.unchecked_studies,
            )
        )
    elif content.unchecked_studies:
        parts.append(
            _n(
                "{count} less recently updated Studies were not checked; name Studies in the digest to follow them.",
                "{count} less recently updated Studies were not checked; name Studies in the digest to follow them.",
                content.unchecked_studies,
            )
        )
    # i18n: {schedule} says when the digest posts, e.g. "every Monday at 09:00 (Europe/Berlin)".
    if requested_by:
        parts.append(
            _("Posted now at {person}'s request · {schedule}", person=mention(requested_by), schedule=escape(schedule))
        )
    else:
        parts.append(_("Scheduled · {schedule}", schedule=escape(schedule)))
    return _clip("\n".join(parts))


def _study_blocks(study: StudyNews) -> list[Block]:
    name = _escape(study.name)
    heading = _first_heading(study, name) if study.first else f"*{name}*"
    lines = [_run_line(run) for run in study.runs]
    kept = _fitting(lines, room=MAX_SECTION_TEXT - 200 - len(heading))
    text = "\n".join([heading, *lines[:kept]])
    more = study.more_runs + len(lines) - kept
    if more and study.more_at_least:  # news may go on beyond the newest 1,000 runs read
        text += "\n" + _n(
            "…and at least {count} more runs: `/minds runs {study}`",
            "…and at least {count} more runs: `/minds runs {study}`",
            more,
            study=_study_arg(study.name),
        )
    elif more:
        command = _study_arg(study.name)
        text += "\n" + _n(
            "…and {count} more runs: `/minds runs {study}`",
            "…and {count} more runs: `/minds runs {study}`",
            more,
            study=command,
        )
    blocks: list[Block] = [SectionBlock(text=_mrkdwn(text))]
    summary = _summary_text(study)
    if summary:
        blocks.append(SectionBlock(text=_mrkdwn(summary)))
    return blocks


def _first_heading(study: StudyNews, name: str) -> str:
    """A Study's first digest shows its latest runs, and says exactly how many of how many (read to the end)."""
    shown, total = len(study.runs) + study.more_runs, study.runs_total
    if total is None:
        return _("*{study}* — first digest for this Study: its latest runs", study=name)
    if not study.runs_complete:
        # i18n: {shown} runs are in this digest; {count} is how many the bot read (the newest 1,000), Minds has more.
        return _(
            "*{study}* — first digest for this Study: its latest {shown} of more than {count} runs",
            study=name,
            shown=format_number(shown),
            count=format_number(total),
        )
    if shown >= total:
        return _n(
            "*{study}* — first digest for this Study: its {count} run",
            "*{study}* — first digest for this Study: its {count} runs",
            total,
            study=name,
        )
    # i18n: {shown} runs are in this digest, of {count} the Study has in Minds.
    return _n(
        "*{study}* — first digest for this Study: its latest {shown} of {count} run",
        "*{study}* — first digest for this Study: its latest {shown} of {count} runs",
        total,
        study=name,
        shown=format_number(shown),
    )


def _summary_text(study: StudyNews) -> str | None:
    parts = []
    if study.summary_excerpt:
        excerpt = to_mrkdwn(study.summary_excerpt)  # Minds' Markdown as mrkdwn, escaped, lines kept
        if study.summary_more:
            parts.append(
                _(
                    "*Summary*\n{summary}\n(`/minds summary {study}` for the rest)",
                    summary=excerpt,
                    study=_study_arg(study.name),
                )
            )
        else:
            parts.append(_("*Summary*\n{summary}", summary=excerpt))
        parts.append(freshness(generated=study.summary_generated_at, latest_run_ended=study.latest_run_ended))
    if study.summary_note:
        parts.append(escape(study.summary_note))
    return _clip(sentences(*parts)) if parts else None


def _run_line(run: RunNews) -> str:
    """One run in Minds' own words, with what a reader must know about its completeness."""
    what = _(RUN_KINDS.get(run.kind, ANY_RUN))
    finished = run.status in TERMINAL
    event = (_("started and finished") if finished else _("started")) if run.new else _("finished")
    state = state_word(run.status)
    # i18n: {what} is "Research run", "Question" or "Run"; {name} its first question in quotes (or "question
    # unknown"); {event} "started", "finished" or "started and finished"; {state} is the run's state in words
    # (completed, partial…); {detail} starts with " — ".
    line = _(
        "• {what} {name} ({event}): *{state}*{detail}",
        what=what,
        name=_("“{name}”", name=_escape(run.question_titles[0])) if run.question_titles else _("(question unknown)"),
        event=event,
        state=state,
        detail=_state_detail(run),
    )
    extra = (run.questions_total or 0) - len(run.question_titles)
    if len(run.question_titles) > 1 or (run.question_titles and extra > 0):
        asked = join_list(_("“{name}”", name=_escape(t)) for t in run.question_titles)
        if extra > 0:
            said = _n(
                "Asked: {questions} and {count} more", "Asked: {questions} and {count} more", extra, questions=asked
            )
        else:
            said = _("Asked: {questions}", questions=asked)
        line += f"\n    {said}"
    flags = _flags(run)
    if flags:
        line += f"\n    {flags}"
    if run.detail_error:
        unread = _("Details could not be read: {reason}", reason=escape(minds_said(run.detail_error)))
        line += f"\n    {unread}"
    return line


def _state_detail(run: RunNews) -> str:
    total = run.questions_total
    if run.status == "partial":
        parts = []
        if run.partial_questions:
            if total is not None:
                parts.append(
                    _n(
                        "{partial} of {count} questions with missing answers",
                        "{partial} of {count} questions with missing answers",
                        total,
                        partial=run.partial_questions,
                    )
                )
            else:
                parts.append(
                    _n(
                        "{count} questions with missing answers",
                        "{count} questions with missing answers",
                        run.partial_questions,
                    )
                )
        if run.coverage_expected is not None:
            parts.append(
                _n(
                    "{received} of {count} answers received",
                    "{received} of {count} answers received",
                    run.coverage_expected,
                    received=format_number(run.coverage_received or 0),
                )
            )
        gap = join_list(parts, style="clauses") if parts else _("coverage not reported")
        return " — " + _("collection finished with gaps: {gap}. Not complete evidence.", gap=gap)
    if run.status == "plan_limited":
        done = run.questions_completed
        if done is not None and total is not None:
            said = _n(
                "stopped at the plan limit after {completed} of {count} questions; "
                "upgrade before a follow-up run for the rest.",
                "stopped at the plan limit after {completed} of {count} questions; "
                "upgrade before a follow-up run for the rest.",
                total,
                completed=done,
            )
        elif done is not None:
            said = _n(
                "stopped at the plan limit after {count} questions; upgrade before a follow-up run for the rest.",
                "stopped at the plan limit after {count} questions; upgrade before a follow-up run for the rest.",
                done,
            )
        else:
            said = _("stopped at the plan limit after some questions; upgrade before a follow-up run for the rest.")
        return " — " + said
    if run.status == "completed" and total is not None:
        return " — " + _n("{count} questions", "{count} questions", total)
    return ""


def _flags(run: RunNews) -> str | None:
    if run.flag_count:
        if run.flagged_minds:
            return _n(
                "⚑ {count} answer-consistency flags across {minds} Minds to review "
                "(prompts to check, not proof of error)",
                "⚑ {count} answer-consistency flags across {minds} Minds to review "
                "(prompts to check, not proof of error)",
                run.flag_count,
                minds=run.flagged_minds,
            )
        return _n(
            "⚑ {count} answer-consistency flags to review (prompts to check, not proof of error)",
            "⚑ {count} answer-consistency flags to review (prompts to check, not proof of error)",
            run.flag_count,
        )
    if run.consistency in ("incomplete", "failed"):
        return _("Answer-consistency check {state}: some answers were not checked.", state=state_word(run.consistency))
    return None


def _fitting(lines: Sequence[str], *, room: int) -> int:
    """How many of ``lines`` (whole) fit in ``room`` characters."""
    size = 0
    for count, line in enumerate(lines):
        size += len(line) + 1
        if size > room:
            return count
    return len(lines)


def _fit(lines: Sequence[str], *, more: Callable[[int], str]) -> str:
    """Whole lines that fit one section, and how many were left out (``more`` says it for a count)."""
    kept = _fitting(lines, room=MAX_SECTION_TEXT - 100)
    left = "\n" + more(len(lines) - kept) if kept < len(lines) else ""
    return "\n".join(lines[:kept]) + left


def _clip(text: str) -> str:
    """Escaped text cut to one section (never inside an entity)."""
    if len(text) <= MAX_SECTION_TEXT:
        return text
    cut = text[: MAX_SECTION_TEXT - 1]
    entity = cut.rfind("&")
    return (cut[:entity] if entity > cut.rfind(";") else cut) + "…"


def _escape(name: str) -> str:
    return escape(name, limit=MAX_NAME_SHOWN)


def _study_arg(name: str) -> str:
    return _escape(f'"{name}"' if " " in name else name)


def _mrkdwn(text: str) -> MarkdownTextObject:
    return MarkdownTextObject(text=text)


# --- list and confirmation ---------------------------------------------------------------------------------


def render_digest_list(digests: Sequence[tuple[Digest, str]]) -> Message:
    """``(digest, schedule description)`` pairs for this workspace, with the ids to remove or post them."""
    if not digests:
        text = _("No digests yet. Add one with `/minds digest add #channel weekly monday 09:00`.")
        return Message(text=text, blocks=[SectionBlock(text=_mrkdwn(text)), _add_button_row()])
    lines = [_list_line(digest, schedule) for digest, schedule in digests]
    shown = _fit(lines, more=lambda n: _n("…and {count} more digests.", "…and {count} more digests.", n))
    hint = _("`/minds digest now &lt;id&gt;` posts one now · `/minds digest remove &lt;id&gt;`")
    blocks: list[Block] = [SectionBlock(text=_mrkdwn(shown)), ContextBlock(elements=[_mrkdwn(hint)])]
    return Message(text=_n("{count} digests", "{count} digests", len(digests)), blocks=blocks)


def _list_line(digest: Digest, schedule: str) -> str:
    count = len(digest.study_ids)
    facts = [_n("{count} Study", "{count} Studies", count) if count else _("all Studies")]
    if digest.skip_quiet:
        facts.append(_("quiet periods skipped"))
    if digest.last_posted_at:
        facts.append(_("last posted {when}", when=slack_date(digest.last_posted_at)))
    where = channel_mention(digest.channel_id)
    # i18n: One digest in the list: its id, the channel it posts to, its schedule in words, then facts about it
    # ("3 Studies, quiet periods skipped").
    return _(
        "`{digest_id}` → {channel} {schedule}, {facts}",
        digest_id=escape(digest.digest_id),
        channel=where,
        schedule=escape(schedule),
        facts=join_list(facts),
    )


def render_digest_added(digest: Digest, *, schedule: str, study_names: Sequence[str], tz_note: str | None) -> Message:
    studies = join_list(_escape(n) for n in study_names) if study_names else _("all your Studies")
    where = channel_mention(digest.channel_id)
    digest_id = escape(digest.digest_id)
    text = _(
        "Digest `{digest_id}` added: research news from {studies} in {channel}, {schedule}.",
        digest_id=digest_id,
        studies=studies,
        channel=where,
        schedule=escape(schedule),
    )
    if tz_note:
        text = sentences(text, escape(tz_note))
    text = _clip(text)
    hint = _(
        "`/minds digest now {digest_id}` posts one now; `/minds digest remove {digest_id}` stops it.",
        digest_id=digest_id,
    )
    return Message(text=text, blocks=[SectionBlock(text=_mrkdwn(text)), ContextBlock(elements=[_mrkdwn(hint)])])


# --- the "Add a digest" modal ------------------------------------------------------------------------------


def add_digest_button() -> ButtonElement:
    return ButtonElement(text=_("Add a digest"), action_id=ADD_DIGEST_ACTION, value="open")


def _add_button_row() -> ActionsBlock:
    return ActionsBlock(elements=[add_digest_button()])


def render_digest_modal(*, timezone: str, channel_id: str | None = None) -> View:
    """Channel, schedule kind, time, weekday, cron, timezone (the user's Slack timezone filled in), Studies."""
    often = (("daily", _("Daily")), ("weekly", _("Weekly")), ("cron", _("Cron")))
    kinds = [Option(value=k, label=label) for k, label in often]
    days = [Option(value=d, label=_(label)) for d, label in zip(WEEKDAY_NAMES, WEEKDAY_LABELS, strict=True)]
    skip = [Option(value="skip", label=_("Post nothing when there is no news"))]
    channel = ConversationSelectElement(action_id="value", initial_conversation=channel_id)
    blocks: list[Block] = [
        _input("channel", _("Channel"), channel),
        _input("kind", _("How often"), StaticSelectElement(action_id="value", options=kinds, initial_option=kinds[1])),
        _input("time", _("Time (daily, weekly)"), TimePickerElement(action_id="value", initial_time="09:00")),
        _input("weekday", _("Day (weekly)"), StaticSelectElement(action_id="value", options=days), optional=True),
        _input(
            "cron",
            _("Cron (cron only)"),
            PlainTextInputElement(action_id="value", placeholder="0 9 * * 1", max_length=MAX_DIGEST_ARGUMENT),
            optional=True,
        ),
        _input(
            "tz",
            _("Timezone (IANA name)"),
            PlainTextInputElement(action_id="value", initial_value=timezone, max_length=MAX_DIGEST_ARGUMENT),
        ),
        _input(
            "studies",
            _("Studies, one per line (empty: all)"),
            PlainTextInputElement(action_id="value", multiline=True, max_length=MAX_STUDIES_INPUT),
            optional=True,
        ),
        _input("quiet", _("Quiet periods"), CheckboxesElement(action_id="value", options=skip), optional=True),
    ]
    return View(
        type="modal",
        callback_id=ADD_DIGEST_VIEW,
        title=PlainTextObject(text=_("Add a digest")),
        submit=PlainTextObject(text=_("Add")),
        close=PlainTextObject(text=_("Cancel")),
        blocks=blocks,
    )


def _input(block_id: str, label: str, element: InputInteractiveElement, *, optional: bool = False) -> InputBlock:
    return InputBlock(block_id=block_id, label=label, element=element, optional=optional)
