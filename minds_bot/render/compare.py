"""A comparison in Slack: its words, its charts, the "Compare with…" button and dialog, and the private notes.

Owns: the thread's messages read from ``render/comparison.Comparison`` (what is compared — runs with their names
and states, partial and plan-limited said as such, or Audiences — the questions only one run asked, what could not
be compared and why, and, always, that differences between synthetic samples are not significance tests), one
message per compared question (each pair of sides named with its run or Audience letter, Audience and n; shares in
percentage points "+8 pp", a mean's difference with one decimal, an NPS difference in points), paged when long;
the chart of each compared question drawn from the same numbers (``comparison_chart``, ``render/bars.py``); the
"Compare with…" button on a run's result, its loading dialog and its static select of the Study's other runs; and
the private notes ``/minds compare`` answers with (one run only, unknown run, not finished, usage).
Pure: no I/O. Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    InputBlock,
    MarkdownTextObject,
    Option,
    PlainTextObject,
    SectionBlock,
    StaticSelectElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import _, _n, format_decimal, format_number, format_share, join_list, separated
from minds_bot.minds import AgentRun
from minds_bot.minds.models import StudyMessage
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, MAX_WORD_SHOWN, Message, escape, results
from minds_bot.render.bars import Panel, draw_panels
from minds_bot.render.common import MAX_PRIVATE_METADATA, button, encode_value, sections, shorten, split_text
from minds_bot.render.comparison import Asked, Comparison, Pair, QuestionComparison
from minds_bot.render.run_names import hidden_runs_line, run_name
from minds_bot.render.states import state_word

COMPARE_ACTION = "compare_with"
VIEW_COMPARE = "compare_pick"
PICK_BLOCK = "compare_run"
PICK_ACTION = "value"
AUDIENCES_CHOICE = "audiences"  # the dialog's choice "this run's Audiences"
MAX_TITLE = 200
MAX_RUN_OPTIONS = 99  # Slack's static select holds 100 options; one is "this run's Audiences"
MAX_OPTION_TEXT = 75
MAX_OPTION_VALUE = 150  # Slack's limit on an option's value (a run id is far shorter)
MAX_LISTED = 20  # questions named in an "Only in …" line; the rest are counted
MINUS = "−"


# --- words -----------------------------------------------------------------------------------------------


def signed(value: float, *, decimals: int = 0) -> str:
    """ "+8", "−8", "0"; with ``decimals`` "+0.5", "−1.2", "0.0" (a true minus sign)."""
    rounded = round(abs(value), decimals)
    shown = format_decimal(rounded, digits=decimals) if decimals else format_number(rounded)
    if rounded == 0:
        return shown
    return ("+" if value > 0 else MINUS) + shown


def pp(difference: int) -> str:
    # i18n: A difference in percentage points: "+8 pp", "−3 pp".
    return _("{difference} pp", difference=signed(difference))


def status_text(status: str) -> str:
    """Minds' state of a compared run, in words; partial and plan-limited runs are never called complete."""
    if status == "completed":
        return _("completed")
    if status == "partial":
        return _("partial — not complete: some answers are missing")
    if status == "plan_limited":
        return _("stopped by the Minds plan limit: only the questions that ran are compared")
    if status == "cancelled":
        return _("cancelled: only the questions that finished are compared")
    if status == "failed":
        return _("failed: only the questions that finished are compared")
    return state_word(status)


def significance() -> str:
    return _("Differences between synthetic samples are not significance tests.")


def _quoted(title: str) -> str:
    return _("“{name}”", name=escape(shorten(title, MAX_TITLE)))


def _numbers(comparison: Comparison, numbers: tuple[int, int]) -> str:
    if comparison.mode == "audiences" or numbers[0] == numbers[1]:
        return _("Q{number}", number=numbers[0])
    # i18n: A question's numbers in the two runs compared: "Q1 in A, Q3 in B".
    return _("Q{a} in A, Q{b} in B", a=numbers[0], b=numbers[1])


def headline(comparison: Comparison) -> str:
    count = len(comparison.questions)
    if comparison.mode == "runs":
        return _n(
            ":left_right_arrow: *Two runs of {study} compared*: {count} question both asked.",
            ":left_right_arrow: *Two runs of {study} compared*: {count} questions both asked.",
            count,
            study=escape(comparison.study, limit=MAX_NAME_SHOWN),
        )
    return _n(
        ":left_right_arrow: *The Audiences of one run of {study} compared*: {count} question.",
        ":left_right_arrow: *The Audiences of one run of {study} compared*: {count} questions.",
        count,
        study=escape(comparison.study, limit=MAX_NAME_SHOWN),
    )


def intro_text(comparison: Comparison) -> str:
    """The comparison's first message: what is compared (runs, Audiences, states), what was not, and the caveat."""
    lines = [headline(comparison)]
    if comparison.mode == "runs":
        for letter, run in zip("AB", comparison.runs, strict=False):
            name = run_name(run, messages=comparison.messages)
            # i18n: A compared run named at the top: its letter (A or B), then its name, then its state.
            lines.append(_("*{letter}:* {name}", letter=letter, name=separated((name, status_text(run.status)))))
        lines.append(_("Differences are B minus A, Audience by Audience; each side gives its n."))
    else:
        run = comparison.runs[0]
        name = run_name(run, messages=comparison.messages)
        lines.append(_("*Run:* {run} · {status}", run=name, status=status_text(run.status)))
        names = separated(
            _("*{letter}:* {name}", letter=letter, name=escape(name, limit=MAX_NAME_SHOWN))
            for letter, name in comparison.letters
        )
        lines.append(names)
        lines.append(_("Differences are the second side of each line minus the first; each side gives its n."))
    for letter, only in zip("AB", comparison.only, strict=False):
        if only:
            lines.append(_only_line(letter, only))
    for item in comparison.not_compared:
        # i18n: {question} is "Q2" or "Q1 in A, Q3 in B"; {title} the question in quotes; {reason} why.
        line = _(
            "Not compared: {question} {title} — {reason}.",
            title=_quoted(item.title),
            reason=escape(item.reason),
            question=_numbers(comparison, item.numbers),
        )
        lines.append(line)
    if not comparison.questions and comparison.mode == "runs":
        lines.append(_("The two runs share no question that could be compared."))
    if comparison.simulated:
        lines.append(f"_{results.simulated_text()}_")
    lines.append(f"_{significance()}_")
    return "\n".join(lines)


def _only_line(letter: str, only: Sequence[Asked]) -> str:
    named = [
        _("Q{number} {title}", number=q.number, title=_quoted(q.title)) if q.title else _("Q{number}", number=q.number)
        for q in only[:MAX_LISTED]
    ]
    more = len(only) - len(named)
    listed = join_list(named, style="clauses")
    if more:
        # i18n: {run} is the letter of a compared run (A or B); {questions} lists its questions.
        return _n(
            "Only in {run}: {questions} and {count} more.",
            "Only in {run}: {questions} and {count} more.",
            more,
            run=letter,
            questions=listed,
        )
    # i18n: {run} is the letter of a compared run (A or B); {questions} lists its questions ("Q3 “…”").
    return _("Only in {run}: {questions}.", run=letter, questions=listed)


def _pair_lines(question: QuestionComparison, pair: Pair) -> list[str]:
    # i18n: Which two sides a comparison's lines are about: "A · Gen Z (n=14) → B · Gen Z (n=12)".
    lines = [_("*{a} → {b}*", a=escape(pair.a.legend()), b=escape(pair.b.legend()))]
    if pair.nps is not None:
        a, b = pair.nps[0], pair.nps[1]
        # i18n: {a} and {b} are Net Promoter Scores ("NPS +12"); {difference} their difference, signed.
        lines.append(
            _(
                "{a} → {b} ({difference} points)",
                a=results.nps_text(a),
                b=results.nps_text(b),
                difference=signed(b - a),
            )
        )
    if pair.mean is not None:
        a_mean, b_mean = pair.mean[0], pair.mean[1]
        text = _(
            "mean {a} → {b} ({difference})",
            a=format_decimal(a_mean),
            b=format_decimal(b_mean),
            difference=signed(b_mean - a_mean, decimals=1),
        )
        if pair.top_box is not None:
            a_top, b_top = pair.top_box[0], pair.top_box[1]
            # i18n: {text} is the mean's line before this; top-2-box is the share on a scale's two highest points.
            text = _(
                "{text} · top-2-box {a} → {b} ({difference})",
                text=text,
                a=format_share(a_top),
                b=format_share(b_top),
                difference=pp(b_top - a_top),
            )
        lines.append(text)
    if question.kind != "scale" or pair.mean is None and pair.nps is None:
        for row in pair.rows:
            # i18n: One option compared: its label, its share in A → in B, and the difference in points.
            lines.append(
                _(
                    "• {option}: {a} → {b} ({difference})",
                    option=escape(shorten(row.option, MAX_TITLE)),
                    a=format_share(row.a),
                    b=format_share(row.b),
                    difference=pp(row.difference),
                )
            )
    return lines


def question_text(comparison: Comparison, question: QuestionComparison) -> str:
    """One question compared: its text, the base of its shares, then each pair's numbers and differences."""
    lines = [f"*{_numbers(comparison, question.numbers)}. {escape(shorten(question.title, MAX_TITLE))}*"]
    if question.kind == "multiselect":
        lines.append(_("_% of respondents · several answers allowed_"))
    elif question.kind != "scale":
        lines.append(_("_% of respondents_"))
    for pair in question.pairs:
        lines += _pair_lines(question, pair)
    for side in question.unpaired:
        # i18n: An Audience that answered in one compared run only: "Not compared: A · Gen Z (n=14) (no match in
        # the other run)".
        lines.append(_("Not compared: {side} (no match in the other run)", side=escape(side.legend())))
    if not question.pairs:
        lines.append(_("No Audience answered in both runs, so nothing here is compared."))
    return "\n".join(lines)


def _paged(text: str, *, fallback: str) -> list[Message]:
    """``text`` as sections, in as many messages as its length needs (never cut)."""
    blocks: list[Block] = [SectionBlock(text=MarkdownTextObject(text=piece)) for piece in split_text(text)]
    pages = [blocks[i : i + MAX_BLOCKS_PER_MESSAGE] for i in range(0, len(blocks), MAX_BLOCKS_PER_MESSAGE)]
    return [Message(text=fallback, blocks=page) for page in pages]


def render_comparison(comparison: Comparison) -> list[Message]:
    """The thread's messages: the introduction, then one message per compared question (paged when long)."""
    messages = _paged(intro_text(comparison), fallback=headline(comparison))
    for question in comparison.questions:
        fallback = f"{_numbers(comparison, question.numbers)}. {escape(shorten(question.title, MAX_TITLE))}"
        messages += _paged(question_text(comparison, question), fallback=fallback)
    return messages


def charts_comment() -> str:
    return _(
        "One chart per compared question, from the same numbers: % of respondents per option (for a scale, per "
        "point), each side named with its n."
    )


# --- charts ----------------------------------------------------------------------------------------------


def comparison_panel(comparison: Comparison, question: QuestionComparison) -> Panel:
    """The question's bars: one series per side of each pair (its letter, Audience and n), the shares as shown."""
    values: dict[str, list[float]] = {}
    labels: dict[str, list[str]] = {}
    for pair in question.pairs:
        for side, shares in ((pair.a, [r.a for r in pair.rows]), (pair.b, [r.b for r in pair.rows])):
            name = side.legend()
            values.setdefault(name, [float(s) for s in shares])
            labels.setdefault(name, [format_share(s) for s in shares])
    unit = _("% of respondents (several answers allowed)") if question.kind == "multiselect" else _("% of respondents")
    title = f"{_numbers(comparison, question.numbers)}. {question.title}"
    return Panel(title=title, options=list(question.options), values=values, unit=unit, top=100.0, value_labels=labels)


def comparison_chart(*, comparison: Comparison, question: QuestionComparison) -> bytes:
    """A PNG of ``comparison_panel``."""
    return draw_panels([comparison_panel(comparison, question)])


# --- the button, the dialog and the private notes ------------------------------------------------------------


def compare_block(*, study_id: str, run_id: str) -> Block | None:
    """The "Compare with…" button on a run's result; None when its value would not fit."""
    value = encode_value({"s": study_id, "r": run_id})
    if value is None:
        return None
    return ActionsBlock(elements=[button(_("Compare with…"), action_id=COMPARE_ACTION, value=value)])


def with_compare(message: Message, *, study_id: str, run_id: str) -> Message:
    """``message`` (a run's result) closed by its "Compare with…" button, when the button and a block fit."""
    block = compare_block(study_id=study_id, run_id=run_id)
    if block is None or len(message.blocks) >= MAX_BLOCKS_PER_MESSAGE:
        return message
    return Message(text=message.text, blocks=[*message.blocks, block])


def loading_modal() -> View:
    """Shown at once (Slack's trigger expires in 3 s) while the Study's runs are read from Minds."""
    return View(
        type="modal",
        title=_("Compare"),
        close=_("Cancel"),
        blocks=[SectionBlock(text=MarkdownTextObject(text=_(":hourglass_flowing_sand: Reading the Study's runs…")))],
    )


def message_modal(text: str) -> View:
    """The dialog when there is nothing to pick: ``text`` is mrkdwn with anyone's words already escaped."""
    return View(type="modal", title=_("Compare"), close=_("Close"), blocks=sections(text))


def _option_text(text: str) -> str:
    return shorten(text, MAX_OPTION_TEXT)


def compare_modal(*, metadata: str, choices: Sequence[tuple[str, str]], audiences: bool) -> View:
    """Pick what this run is compared with: another finished run of the Study (``choices``: run id, plain-text
    name), or this run's own Audiences."""
    fitting = [(run_id, label) for run_id, label in choices if len(run_id) <= MAX_OPTION_VALUE]
    options = [Option(value=run_id, text=_option_text(label)) for run_id, label in fitting[:MAX_RUN_OPTIONS]]
    if audiences:
        options.append(Option(value=AUDIENCES_CHOICE, text=_option_text(_("This run's Audiences, side by side"))))
    if len(metadata) > MAX_PRIVATE_METADATA:
        return message_modal(_("That button is out of date; run the command again."))
    if not options:
        return message_modal(_("This Study has no other finished run to compare this run with."))
    select = StaticSelectElement(action_id=PICK_ACTION, options=options, placeholder=_("Choose a run"))
    return View(
        type="modal",
        callback_id=VIEW_COMPARE,
        title=_("Compare"),
        submit=_("Compare"),
        close=_("Cancel"),
        private_metadata=metadata,
        blocks=[
            InputBlock(block_id=PICK_BLOCK, label=PlainTextObject(text=_("Compare this run with")), element=select),
            SectionBlock(text=MarkdownTextObject(text=f"_{significance()}_")),
        ],
    )


def render_one_run_only(*, study: str, run: AgentRun, messages: Sequence[StudyMessage] = ()) -> str:
    """The Study has one finished run: nothing to compare it with yet."""
    name = escape(study, limit=MAX_NAME_SHOWN)
    return _(
        "{study} has one finished run ({run}), so there is nothing to compare it with yet. Compare its Audiences "
        "with `/minds compare {study} 1`, or run the research again.",
        study=name,
        run=run_name(run, messages=messages),
    )


def render_no_finished_runs(*, study: str) -> str:
    return _("{study} has no finished run to compare yet.", study=escape(study, limit=MAX_NAME_SHOWN))


def render_unknown_run(
    *,
    study: str,
    said: str,
    runs: Sequence[AgentRun],
    messages: Sequence[StudyMessage] = (),
    hidden: Collection[str] = (),
) -> str:
    """``runs``: the Study's runs, numbered as the command reads them (1 = newest); ``hidden``: runs of channels
    the person is not in, left out of the listing and counted."""
    lines = [
        _(
            "{number}. {run}",
            number=number,
            run=separated((run_name(run, messages=messages), state_word(run.status))),
        )
        for number, run in enumerate(runs, 1)
        if run.run_id not in hidden
    ]
    if len(lines) < len(runs):
        lines.append(hidden_runs_line(len(runs) - len(lines)))
    listing = "\n".join(lines)
    # i18n: {said} is what the person typed for a run; {runs} the Study's runs, one numbered line each.
    return _(
        "{study} has no run “{said}”. Name a run by its number below (1 = newest, as `/minds runs` lists them) or "
        "its id:\n{runs}",
        study=escape(study, limit=MAX_NAME_SHOWN),
        said=escape(said, limit=MAX_WORD_SHOWN),
        runs=listing,
    )


def render_not_finished(*, number: int, status: str) -> str:
    # i18n: {status} is the run's state in words (queued, running).
    return _(
        "Run {number} is {status}; only finished runs can be compared.",
        number=number,
        status=state_word(status),
    )


def render_same_run() -> str:
    return _("Name two different runs to compare them, or one run to compare its Audiences.")


def render_one_audience(*, run: AgentRun, messages: Sequence[StudyMessage] = ()) -> str:
    return _(
        "The run {run} has no question that two Audiences answered, so its Audiences cannot be compared. Name "
        "a second run to compare with.",
        run=run_name(run, messages=messages),
    )


def compare_usage() -> str:
    """How to say the command (mrkdwn)."""
    return escape(
        _(
            "Say `/minds compare <study>` to compare its two latest finished runs, `/minds compare <study> <run>` to "
            "compare one run's Audiences, or `/minds compare <study> <run> <run>` (a run is its number in "
            "`/minds runs`, 1 = newest, or its id)."
        )
    )
