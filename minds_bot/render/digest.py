"""Digests in Slack: the channel post, the list, the confirmation and the "Add a digest" modal. Pure.

Owns: how run states read (exactly Minds' words: completed, partial with its coverage gap, plan_limited with how
far it got, failed, cancelled — never "complete" for partial or plan_limited), consistency flags as prompts to
review, the 50-block budget ("and N more" with a pointer to ``/minds runs <study>``, as Minds gives no link to
the rest) and the modal's block and action ids.
Must not touch: I/O, the store, Minds. Links are never built here: the digest content carries none because
Minds returns none for runs. Every name, run id, state and error word from Minds is escaped (and bounded);
mentions come only from ``mention``/``channel_mention``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    CheckboxesElement,
    ContextBlock,
    ConversationSelectElement,
    HeaderBlock,
    InputBlock,
    MarkdownTextObject,
    Option,
    PlainTextInputElement,
    PlainTextObject,
    SectionBlock,
    StaticSelectElement,
    TimePickerElement,
)
from slack_sdk.models.views import View

from minds_bot.render import (
    MAX_BLOCKS_PER_MESSAGE,
    MAX_NAME_SHOWN,
    MAX_SECTION_TEXT,
    MAX_WORD_SHOWN,
    Message,
    channel_mention,
    escape,
    mention,
)
from minds_bot.render.digest_news import TERMINAL, DigestContent, RunNews, StudyNews
from minds_bot.render.errors import minds_said
from minds_bot.store import Digest

SHORT_ID = 8
# Blocks kept free for the header, the "since" line, read errors and the "and N more" footer.
RESERVED_BLOCKS = 4
BLOCKS_PER_STUDY = 2

MAX_DIGEST_ARGUMENT = 200  # a time, day, timezone, cron expression or Study name in a digest (command or modal)
MAX_STUDIES_INPUT = 3000  # the modal's Study list (Slack's most for a text input)
ADD_DIGEST_ACTION = "digest_add_open"
ADD_DIGEST_VIEW = "digest_add"
WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


# --- the channel post --------------------------------------------------------------------------------------


def render_digest(content: DigestContent, *, schedule: str, requested_by: str | None = None) -> Message:
    """The digest post: news per Study, what could not be read, and a quiet line when nothing happened."""
    blocks: list[Block] = [HeaderBlock(text="Research digest"), ContextBlock(elements=[_mrkdwn(_since(content))])]
    if content.errors:
        lines = [f"⚠️ Could not read {_escape(e.what)}: {escape(minds_said(e.message))}" for e in content.errors]
        blocks.append(SectionBlock(text=_mrkdwn(_fit(lines, note="more could not be read"))))
    with_news = [s for s in content.studies if s.runs or s.more_runs]
    room = (MAX_BLOCKS_PER_MESSAGE - RESERVED_BLOCKS) // BLOCKS_PER_STUDY
    for study in with_news[:room]:
        blocks += _study_blocks(study)
    footer = _footer(content, hidden=with_news[room:], schedule=schedule, requested_by=requested_by)
    blocks.append(ContextBlock(elements=[_mrkdwn(footer)]))
    return Message(text=_fallback(content, with_news), blocks=blocks)


def _since(content: DigestContent) -> str:
    if content.since is None:
        return "News since this digest started."
    return f"News since the last digest ({_when(content.since)})."


def _when(moment: datetime) -> str:
    fallback = moment.strftime("%Y-%m-%d %H:%M UTC")
    return f"<!date^{int(moment.timestamp())}^{{date_short_pretty}} {{time}}|{fallback}>"


def _fallback(content: DigestContent, with_news: Sequence[StudyNews]) -> str:
    if content.errors and not with_news:
        return "Research digest: some of Minds could not be read."
    if content.quiet:
        return "Research digest: no research news."
    return f"Research digest: news in {len(with_news)} Stud{'y' if len(with_news) == 1 else 'ies'}."


def _footer(content: DigestContent, *, hidden: Sequence[StudyNews], schedule: str, requested_by: str | None) -> str:
    parts = []
    if content.quiet:
        names = ", ".join(_escape(s.name) for s in content.studies)
        parts.append(f"No research news{f' in {names}' if names else ''} since the last digest.")
    if hidden:
        names = ", ".join(_escape(s.name) for s in hidden)
        parts.append(f"…and {len(hidden)} more Studies with news: {names}. See `/minds runs &lt;study&gt;`.")
    if content.unchecked_studies:
        parts.append(
            f"{content.unchecked_studies} less recently updated Studies were not checked; "
            "name Studies in the digest to follow them."
        )
    origin = f"Posted now at {mention(requested_by)}'s request" if requested_by else "Scheduled"
    parts.append(f"{origin} · {escape(schedule)}")
    return _clip("\n".join(parts))


def _study_blocks(study: StudyNews) -> list[Block]:
    heading = f"*{_escape(study.name)}*" + (" — first digest for this Study: its latest runs" if study.first else "")
    lines = [_run_line(run) for run in study.runs]
    kept = _fitting(lines, room=MAX_SECTION_TEXT - 200 - len(heading))
    text = "\n".join([heading, *lines[:kept]])
    more = study.more_runs + len(lines) - kept
    if more:
        text += f"\n…and {more} more runs: `/minds runs {_study_arg(study.name)}`"
    blocks: list[Block] = [SectionBlock(text=_mrkdwn(text))]
    summary = _summary_text(study)
    if summary:
        blocks.append(ContextBlock(elements=[_mrkdwn(summary)]))
    return blocks


def _summary_text(study: StudyNews) -> str | None:
    parts = []
    if study.summary_excerpt:
        more = f" (`/minds summary {_study_arg(study.name)}` for the rest)" if study.summary_more else ""
        parts.append(f"Summary: {escape(study.summary_excerpt)}{more}")
    if study.summary_note:
        parts.append(escape(study.summary_note))
    return _clip(" ".join(parts)) if parts else None


def _run_line(run: RunNews) -> str:
    """One run in Minds' own words, with what a reader must know about its completeness."""
    what = {"research": "Research run", "question": "Question"}.get(run.kind, "Run")
    finished = run.status in TERMINAL
    event = ("started and finished" if finished else "started") if run.new else "finished"
    state = escape(run.status, limit=MAX_WORD_SHOWN)
    line = f"• {what} `{escape(run.run_id[:SHORT_ID])}` ({event}): *{state}*{_state_detail(run)}"
    if run.question_titles:
        asked = ", ".join(f"“{_escape(t)}”" for t in run.question_titles)
        extra = (run.questions_total or 0) - len(run.question_titles)
        line += f"\n    Asked: {asked}{f' and {extra} more' if extra > 0 else ''}"
    flags = _flags(run)
    if flags:
        line += f"\n    {flags}"
    if run.detail_error:
        line += f"\n    Details could not be read: {escape(minds_said(run.detail_error))}"
    return line


def _state_detail(run: RunNews) -> str:
    total = f" of {run.questions_total}" if run.questions_total is not None else ""
    if run.status == "partial":
        parts = []
        if run.partial_questions:
            parts.append(f"{run.partial_questions}{total} questions with missing answers")
        if run.coverage_expected is not None:
            parts.append(f"{run.coverage_received} of {run.coverage_expected} answers received")
        gap = "; ".join(parts) if parts else "coverage not reported"
        return f" — collection finished with gaps: {gap}. Not complete evidence."
    if run.status == "plan_limited":
        done = f"{run.questions_completed}{total}" if run.questions_completed is not None else "some"
        return f" — stopped at the plan limit after {done} questions; upgrade before a follow-up run for the rest."
    if run.status == "completed" and run.questions_total is not None:
        return f" — {run.questions_total} questions"
    return ""


def _flags(run: RunNews) -> str | None:
    if run.flag_count:
        minds = f" across {run.flagged_minds} Minds" if run.flagged_minds else ""
        return f"⚑ {run.flag_count} answer-consistency flags{minds} to review (prompts to check, not proof of error)"
    if run.consistency in ("incomplete", "failed"):
        return f"Answer-consistency check {escape(run.consistency)}: some answers were not checked."
    return None


def _fitting(lines: Sequence[str], *, room: int) -> int:
    """How many of ``lines`` (whole) fit in ``room`` characters."""
    size = 0
    for count, line in enumerate(lines):
        size += len(line) + 1
        if size > room:
            return count
    return len(lines)


def _fit(lines: Sequence[str], *, note: str) -> str:
    """Whole lines that fit one section, and how many were left out."""
    kept = _fitting(lines, room=MAX_SECTION_TEXT - 100)
    left = f"\n…and {len(lines) - kept} {note}." if kept < len(lines) else ""
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
        text = "No digests yet. Add one with `/minds digest add #channel weekly monday 09:00`."
        return Message(text=text, blocks=[SectionBlock(text=_mrkdwn(text)), _add_button_row()])
    lines = [_list_line(digest, schedule) for digest, schedule in digests]
    blocks: list[Block] = [
        SectionBlock(text=_mrkdwn(_fit(lines, note="more digests"))),
        ContextBlock(
            elements=[_mrkdwn(escape("`/minds digest now <id>` posts one now · `/minds digest remove <id>`"))]
        ),
    ]
    return Message(text=f"{len(digests)} digests", blocks=blocks)


def _list_line(digest: Digest, schedule: str) -> str:
    count = len(digest.study_ids)
    studies = f"{count} Stud{'y' if count == 1 else 'ies'}" if count else "all Studies"
    last = f", last posted {_when(digest.last_posted_at)}" if digest.last_posted_at else ""
    quiet = ", quiet periods skipped" if digest.skip_quiet else ""
    where = channel_mention(digest.channel_id)
    return f"`{escape(digest.digest_id)}` → {where} {escape(schedule)}, {studies}{quiet}{last}"


def render_digest_added(digest: Digest, *, schedule: str, study_names: Sequence[str], tz_note: str | None) -> Message:
    studies = ", ".join(_escape(n) for n in study_names) if study_names else "all your Studies"
    where = channel_mention(digest.channel_id)
    digest_id = escape(digest.digest_id)
    text = f"Digest `{digest_id}` added: research news from {studies} in {where}, {escape(schedule)}."
    if tz_note:
        text += f" {escape(tz_note)}"
    text = _clip(text)
    hint = f"`/minds digest now {digest_id}` posts one now; `/minds digest remove {digest_id}` stops it."
    return Message(text=text, blocks=[SectionBlock(text=_mrkdwn(text)), ContextBlock(elements=[_mrkdwn(hint)])])


# --- the "Add a digest" modal ------------------------------------------------------------------------------


def add_digest_button() -> ButtonElement:
    return ButtonElement(text="Add a digest", action_id=ADD_DIGEST_ACTION, value="open")


def _add_button_row() -> ActionsBlock:
    return ActionsBlock(elements=[add_digest_button()])


def render_digest_modal(*, timezone: str, channel_id: str | None = None) -> View:
    """Channel, schedule kind, time, weekday, cron, timezone (the user's Slack timezone filled in), Studies."""
    kinds = [Option(value=k, label=label) for k, label in (("daily", "Daily"), ("weekly", "Weekly"), ("cron", "Cron"))]
    days = [Option(value=d, label=d.capitalize()) for d in WEEKDAY_NAMES]
    skip = [Option(value="skip", label="Post nothing when there is no news")]
    blocks: list[Block] = [
        _input("channel", "Channel", ConversationSelectElement(action_id="value", initial_conversation=channel_id)),
        _input("kind", "How often", StaticSelectElement(action_id="value", options=kinds, initial_option=kinds[1])),
        _input("time", "Time (daily, weekly)", TimePickerElement(action_id="value", initial_time="09:00")),
        _input("weekday", "Day (weekly)", StaticSelectElement(action_id="value", options=days), optional=True),
        _input(
            "cron",
            "Cron (cron only)",
            PlainTextInputElement(action_id="value", placeholder="0 9 * * 1", max_length=MAX_DIGEST_ARGUMENT),
            optional=True,
        ),
        _input(
            "tz",
            "Timezone (IANA name)",
            PlainTextInputElement(action_id="value", initial_value=timezone, max_length=MAX_DIGEST_ARGUMENT),
        ),
        _input(
            "studies",
            "Studies, one per line (empty: all)",
            PlainTextInputElement(action_id="value", multiline=True, max_length=MAX_STUDIES_INPUT),
            optional=True,
        ),
        _input("quiet", "Quiet periods", CheckboxesElement(action_id="value", options=skip), optional=True),
    ]
    return View(
        type="modal",
        callback_id=ADD_DIGEST_VIEW,
        title=PlainTextObject(text="Add a digest"),
        submit=PlainTextObject(text="Add"),
        close=PlainTextObject(text="Cancel"),
        blocks=blocks,
    )


def _input(block_id: str, label: str, element: object, *, optional: bool = False) -> InputBlock:
    return InputBlock(block_id=block_id, label=label, element=element, optional=optional)
