"""The "Show answers" pages of a question's result: every answer once, Previous/Next, "All answers as CSV".

Owns: one answer's blocks (persona · Audience — value, then what the Mind said when it says more than the value:
an answer whose message equals its value is shown once), pages budgeted so none exceeds Slack's limits (long
answers split, never cut), the pager and the CSV button (its state carries the result's thread), and the rows of
the CSV's header (persona, Audience, value, scale value, option position, message);
``flows/answers_csv.py`` writes and neutralises the rows.
Must not touch: I/O.
"""

from __future__ import annotations

from slack_sdk.models.blocks import ActionsBlock, Block

from minds_bot.i18n import N_, _, separated
from minds_bot.minds import OutputAnswer, StudyOutput
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, Message, escape
from minds_bot.render.common import button, context, encode_value, pager, section, sections, shorten

SHOW_ANSWERS_ACTION = "answers_show"
ANSWERS_PREV_ACTION = "answers_prev"
ANSWERS_NEXT_ACTION = "answers_next"
ANSWERS_CSV_ACTION = "answers_csv"
ANSWERS_PER_PAGE = 8
PAGE_BLOCK_BUDGET = MAX_BLOCKS_PER_MESSAGE - 6  # room for the heading, count line, CSV button and pager
CSV_HEADER = (
    N_("Persona"),
    N_("Audience"),
    N_("Value"),
    N_("Scale value"),  # the answer's number on Minds' scale (scale questions)
    N_("Option position"),  # its place in Minds' option list or on Minds' scale, 1 = first
    N_("Message"),
)


def _same(value: str, message: str) -> bool:
    return " ".join(value.split()).casefold() == " ".join(message.split()).casefold()


def _answer_blocks(audience: str, answer: OutputAnswer) -> list[Block]:
    who = separated([f"*{escape(answer.persona, limit=MAX_NAME_SHOWN)}*", escape(audience, limit=MAX_NAME_SHOWN)])
    said = answer.message.strip()
    if not said or _same(answer.value, said):
        return sections(
            f"{who} — {escape(answer.value)}" if len(answer.value) <= 200 else f"{who}\n{escape(answer.value)}"
        )
    return sections(f"{who} — {escape(shorten(answer.value, 200))}\n{escape(said)}")


def answer_pages(output: StudyOutput) -> list[list[list[Block]]]:
    """Every answer's blocks, grouped into pages that fit one message. Deterministic for the same output."""
    pages: list[list[list[Block]]] = [[]]
    used = 0
    for audience in output.audiences:
        for answer in audience.answers:
            blocks = _answer_blocks(audience.name, answer)
            full = len(pages[-1]) >= ANSWERS_PER_PAGE or used + len(blocks) > PAGE_BLOCK_BUDGET
            if pages[-1] and full:
                pages.append([])
                used = 0
            pages[-1].append(blocks)
            used += len(blocks)
    return pages


def csv_header() -> tuple[str, ...]:
    return tuple(_(title) for title in CSV_HEADER)


def render_answers_page(
    output: StudyOutput, *, study_id: str, message_id: str, page: int, thread_ts: str | None = None
) -> Message:
    pages = answer_pages(output)
    index = min(max(page, 0), len(pages) - 1)
    title = escape(shorten(output.title, 150))
    heading = _("Answers to “{title}” — page {page} of {pages}", title=title, page=index + 1, pages=len(pages))
    blocks: list[Block] = [context(heading)]
    for answer in pages[index]:
        blocks += answer
    if not output.answer_count:
        blocks.append(section(_("Minds reported no individual answers for this question.")))
    state = {"s": study_id, "m": message_id}
    blocks += pager(
        prev_id=ANSWERS_PREV_ACTION,
        next_id=ANSWERS_NEXT_ACTION,
        prev_state={**state, "p": index - 1, "t": thread_ts} if index > 0 else None,
        next_state={**state, "p": index + 1, "t": thread_ts} if index + 1 < len(pages) else None,
    )
    csv_value = encode_value({**state, "t": thread_ts}) if thread_ts else None
    if output.answer_count and csv_value:
        blocks.append(
            ActionsBlock(elements=[button(_("All answers as CSV"), action_id=ANSWERS_CSV_ACTION, value=csv_value)])
        )
    return Message(text=_("Answers, page {page} of {pages}", page=index + 1, pages=len(pages)), blocks=blocks)
