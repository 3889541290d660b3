"""A standalone question in a thread: the parent line, progress and the result (answer pages: ``answer_pages.py``).

Owns: reading a question's ``StudyOutput`` into ``render/results.QuestionResult`` (the one model the chart and
the text share: n and base per Audience, option order, shares of respondents, mean and top-2-box or NPS) and the
top line per Audience drawn from it (Minds' own per-Audience value when there is nothing to count), a few
representative quotes, themes for qualitative questions (no chart), the simulated-locally line when the embedded
sandbox produced the result, plain words for failed/cancelled runs, and the planning offer for text that is not
one question.
Must not touch: I/O (the chart PNG itself is drawn by ``charts.py`` off the event loop by the caller).
"""

from __future__ import annotations

from collections import Counter

from slack_sdk.models.blocks import ActionsBlock, Block

from minds_bot.i18n import _, _n, annotate, format_number
from minds_bot.minds import OutputAudience, StudyOutput
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, MAX_SECTION_TEXT, Message, escape, mention, results
from minds_bot.render.answer_pages import (  # noqa: F401 — re-exported for the listeners
    ANSWERS_NEXT_ACTION,
    ANSWERS_PREV_ACTION,
    SHOW_ANSWERS_ACTION,
    answer_pages,
    render_answers_page,
)
from minds_bot.render.browse import minds_label
from minds_bot.render.common import (
    button,
    context,
    encode_value,
    note,
    section,
    sections,
    shorten,
)
from minds_bot.render.heatmaps import heatmap_buttons
from minds_bot.render.states import state_word
from minds_bot.render.study import STUDY_PLAN_ACTION, plan_button_value

ASK_RETRY_ACTION = "ask_retry"
QUOTES = 3
QUOTE_PREVIEW = 300
CHARTED_TYPES = frozenset({"scale", "categorical", "multiselect"})


def render_parent(*, user_id: str, study_name: str, question: str) -> str:
    """The channel line a question's thread hangs from (mrkdwn ``text``; the question is bounded by the grammar)."""
    return _(
        "{user} asked *{study}*: “{question}”",
        user=mention(user_id),
        study=escape(study_name, limit=MAX_NAME_SHOWN),
        question=escape(question),
    )


def render_asking(*, minds: int, audiences: int) -> Message:
    if audiences > 1:
        text = _("Asking {minds} in {audiences} Audiences…", minds=minds_label(minds), audiences=audiences)
    else:
        text = _("Asking {minds}…", minds=minds_label(minds))
    return Message(text=text, blocks=[section(text)])


def render_run_progress(status: str) -> Message:
    if status == "queued":
        text = _("Queued at Minds — waiting to start…")
    elif status == "running":
        text = _("Minds are answering…")
    else:
        text = _("Minds reports the run as {status}…", status=state_word(status))
    return Message(text=text, blocks=[section(text)])


def render_run_ended(status: str) -> Message:
    if status == "failed":
        text = _("The question failed at Minds; there are no answers to show. Nothing was retried.")
    elif status == "cancelled":
        text = _("The run was cancelled; there are no answers to show.")
    elif status == "completed":
        text = _("Minds reports the run as completed but gave no answer to read. Open the Study in Minds to check.")
    else:
        text = _("The run ended as {status}; there are no answers to show.", status=state_word(status))
    return Message(text=text, blocks=[section(text)])


def render_ask_failed(text: str, *, client_request_id: str | None) -> Message:
    """The question could not be sent (or we cannot tell); a retry reuses the same clientRequestId."""
    text = escape(text, limit=MAX_SECTION_TEXT)
    blocks: list[Block] = [section(text)]
    if client_request_id is not None:
        retry = button(_("Try again"), action_id=ASK_RETRY_ACTION, value=client_request_id)
        blocks.append(ActionsBlock(elements=[retry]))
        blocks.append(context(_("Trying again sends the same request, so Minds will not run it twice.")))
    return Message(text=text, blocks=blocks)


def render_plan_offer(*, study_id: str, study_name: str, text: str, reason: str) -> Message:
    """Not one standalone question: nothing was sent; offer the planning flow with the text prefilled."""
    lead = escape(
        # i18n: {reason} says why the text is not one standalone question (already translated).
        _(
            "{reason} Nothing was sent to Minds: a set of questions is planned and run together, never asked one at "
            "a time, so the answers stay comparable.",
            reason=reason,
        ),
        limit=MAX_SECTION_TEXT,
    )
    blocks: list[Block] = [
        section(lead),
        ActionsBlock(
            elements=[
                button(
                    _("Plan research in {study}", study=study_name),
                    action_id=STUDY_PLAN_ACTION,
                    value=plan_button_value(study_id, text),
                    style="primary",
                )
            ]
        ),
        context(escape(_("Or ask one question: `/minds ask <study> <question>`."))),
    ]
    return Message(text=lead, blocks=blocks)


def render_planning_required(*, study_id: str, study_name: str, question: str, reason: str | None) -> Message:
    if reason:
        text = _(
            "Minds says this is a research brief rather than one question ({reason}). No run was started.",
            reason=escape(reason, limit=MAX_SECTION_TEXT // 2),
        )
    else:
        text = _("Minds says this is a research brief rather than one question. No run was started.")
    return Message(
        text=text,
        blocks=[
            section(text),
            ActionsBlock(
                elements=[
                    button(
                        _("Plan research"),
                        action_id=STUDY_PLAN_ACTION,
                        value=plan_button_value(study_id, question),
                        style="primary",
                    )
                ]
            ),
        ],
    )


# --- results ---------------------------------------------------------------------------------------------


def _unique_names(output: StudyOutput) -> list[str]:
    seen: Counter[str] = Counter()
    names = []
    for audience in output.audiences:
        seen[audience.name] += 1
        names.append(
            audience.name if seen[audience.name] == 1 else annotate(audience.name, format_number(seen[audience.name]))
        )
    return names


def _listed(output: StudyOutput) -> list[str]:
    options = (output.classification or {}).get("options")
    if isinstance(options, list) and options:
        return [str(o) for o in options]
    return [entry.label for entry in output.category_codebook]


def _anchors(output: StudyOutput) -> tuple[str, str] | None:
    labels = (output.classification or {}).get("scaleLabels")
    if isinstance(labels, list) and len(labels) == 2 and all(isinstance(v, str) and v for v in labels):
        return (labels[0], labels[1])
    return None


def distribution(output: StudyOutput) -> results.QuestionResult | None:
    """The result the text and the chart both say; None for qualitative questions (they get themes, not a chart)."""
    if output.type not in CHARTED_TYPES or output.answer_count == 0:
        return None
    return results.build(
        title=output.title,
        kind=output.type,
        audiences=[
            (name, [a.value for a in audience.answers])
            for name, audience in zip(_unique_names(output), output.audiences, strict=True)
        ],
        listed=_listed(output),
        scale_range=output.scale_range,
        anchors=_anchors(output),
    )


def _top_line(result: results.QuestionResult | None, name: str, audience: OutputAudience) -> str:
    """ "*Gen Z* (% of respondents · n=12): Yes 70% · No 30%", or Minds' own value when there is no result."""
    counted = next((a for a in result.audiences if a.name == name), None) if result else None
    shown = f"*{escape(name, limit=MAX_NAME_SHOWN)}*"
    if result is not None and counted is not None and counted.n:
        # every option, never cut: sections() splits long text
        return results.audience_line(result, counted, name=shown)
    answered = _n("{count} answer", "{count} answers", len(audience.answers))
    return _(
        "{audience} ({base}): {figures}",
        audience=shown,
        base=answered,
        figures=escape(shorten(audience.value, 200)),
    )


def _quotes(output: StudyOutput) -> list[str]:
    """A few answers in the words Minds gave, taken in turn from each Audience; words another quote already shows
    are skipped, so two Minds who said the same are not shown as two voices."""
    quotes: list[str] = []
    seen: set[str] = set()
    depth = 0
    while len(quotes) < QUOTES and any(depth < len(a.answers) for a in output.audiences):
        for audience in output.audiences:
            if depth < len(audience.answers) and len(quotes) < QUOTES:
                answer = audience.answers[depth]
                words = " ".join(answer.message.split()).casefold()
                if words and words not in seen:
                    seen.add(words)
                    said = escape(shorten(answer.message, QUOTE_PREVIEW))
                    persona = escape(answer.persona, limit=MAX_NAME_SHOWN)
                    # i18n: Who gave a quoted answer: a persona's name, then its Audience's name.
                    who = _(
                        "{persona}, {audience}", persona=persona, audience=escape(audience.name, limit=MAX_NAME_SHOWN)
                    )
                    quotes.append("> " + _("“{name}”", name=said) + f"\n— {who}")
        depth += 1
    return quotes


def result_lines(output: StudyOutput) -> list[str]:
    """What the result says per Audience (mrkdwn, escaped): its top line from the counted result, then once what
    was assumed where Minds' data is silent (``results.assumed_text``), or for a qualitative question its name,
    answer count and Minds' themes. The thread and a workflow step both read these."""
    if output.type == "qualitative":
        lines = []
        for audience in output.audiences:
            name = _n(
                "*{name}* ({count} answers)",
                "*{name}* ({count} answers)",
                len(audience.answers),
                name=escape(audience.name),
            )
            lines.append(f"{name}\n{escape(audience.value)}")
        return lines
    result = distribution(output)
    lines = [_top_line(result, n, a) for n, a in zip(_unique_names(output), output.audiences, strict=True)]
    assumed = results.assumed_text(result) if result is not None else None
    return [*lines, f"_{escape(assumed)}_"] if assumed else lines


def result_title(output: StudyOutput) -> str:
    """The result's one-line fallback: "Results: {title} — {count} answers" (or Themes: …)."""
    title = escape(shorten(output.title, 200))
    if output.type == "qualitative":
        return _n(
            "Themes: {title} — {count} answers", "Themes: {title} — {count} answers", output.answer_count, title=title
        )
    return _n(
        "Results: {title} — {count} answers", "Results: {title} — {count} answers", output.answer_count, title=title
    )


def render_result(output: StudyOutput, *, study_id: str, message_id: str, charted: bool) -> Message:
    """Top-line numbers per Audience, a few quotes and a button that pages every answer."""
    themes = output.type == "qualitative"
    shown = escape(shorten(output.title, 300))
    heading = _("*Themes:* {title}", title=shown) if themes else _("*Results:* {title}", title=shown)
    blocks: list[Block] = [section(heading)]
    if output.simulated:
        blocks.append(context(results.simulated_text()))
    if themes:
        for theme in result_lines(output):
            blocks += sections(theme)
    else:
        blocks += sections("\n".join(result_lines(output)) or _("No Audience reported answers."))
    quotes = _quotes(output)
    if quotes:
        blocks += sections("\n".join(quotes))
    value = encode_value({"s": study_id, "m": message_id, "p": 0})
    elements = (
        [button(_("Show answers"), action_id=SHOW_ANSWERS_ACTION, value=value)] if value and output.answer_count else []
    )
    elements += heatmap_buttons(output, study_id=study_id, message_id=message_id)
    if elements:
        blocks.append(ActionsBlock(elements=elements))
    if charted:
        blocks.append(
            context(_("The chart above draws these same answers: % of respondents per option, per Audience, with n."))
        )
    if len(blocks) > MAX_BLOCKS_PER_MESSAGE:
        # Only very many Audiences' themes get here; every answer stays one click away.
        blocks = [*blocks[: MAX_BLOCKS_PER_MESSAGE - 2], context(_("More themes than fit here.")), blocks[-1]]
    return Message(text=result_title(output), blocks=blocks)


# --- private notes to the asker ------------------------------------------------------------------------------


def render_not_on_record() -> Message:
    return note(_("That question is no longer on record; ask it again with `/minds ask`."))


def render_retry_refused(requester_id: str) -> Message:
    text = _("Only {user} can retry their question.", user=mention(requester_id))
    return Message(text=text, blocks=[section(text)])


def render_already_asked() -> Message:
    return note(_("This question was already sent to Minds; its answers will appear in the thread."))


def render_unreadable(reason: str) -> Message:
    """The run finished but its answers could not be read (Minds' words in ``reason``)."""
    return note(reason)


def render_finished() -> Message:
    return note(_("Finished — see below."))
