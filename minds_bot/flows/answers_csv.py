"""**All answers as CSV**: every individual answer of one question, attached as a CSV file in the result's thread.

Owns: reading the question's answers from Minds, writing persona, Audience, value, scale value, option position
and message per answer (header from ``render/answer_pages.csv_header``; the scale value and the position in
Minds' option list or on Minds' scale come from the same ``render/results.QuestionResult`` the thread text and
chart are drawn from, ``results.csv_cells``, so a scale result can be recomputed from the file), with formula
cells neutralised by ``csv_safety.needs_neutralising`` (OWASP: a leading ``'``), and uploading the file into the
thread; Minds' error in words when the read fails.
Must not touch: Block Kit (render/), SQL.
"""

from __future__ import annotations

import asyncio
import csv
import tempfile
from pathlib import Path

from minds_bot.flows.csv_safety import NEUTRALISER, needs_neutralising
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.uploads import upload_file
from minds_bot.i18n import _, _n, in_channel
from minds_bot.minds import MindsError, StudyOutput, parse_output
from minds_bot.render import escape, results
from minds_bot.render.answer_pages import csv_header
from minds_bot.render.answers import distribution
from minds_bot.render.common import note, shorten
from minds_bot.render.errors import user_message

Row = tuple[str, str, str, str, str, str]


def answer_rows(output: StudyOutput) -> list[Row]:
    """Every answer as a CSV row (persona, Audience, value, scale value, option position, message), the value and
    message as Minds sent them."""
    result = distribution(output)
    return [
        (a.persona, audience.name, a.value, *results.csv_cells(result, a.value), a.message)
        for audience in output.audiences
        for a in audience.answers
    ]


def _safe(value: str) -> str:
    return NEUTRALISER + value if needs_neutralising(value) else value


def _write(path: Path, header: tuple[str, ...], rows: list[Row]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([_safe(cell) for cell in header])
        writer.writerows([_safe(cell) for cell in row] for row in rows)


async def attach_answers_csv(invocation: Invocation, *, study_id: str, message_id: str, thread_ts: str) -> None:
    try:
        read = await (await invocation.minds()).get_message_answers(study_id, message_id)
    except MindsError as exc:
        await invocation.reply(note(user_message(exc)))
        return
    output: StudyOutput = parse_output(read.output_data)
    with in_channel():  # the file and its header are read by everyone in the thread
        header = csv_header()
        title = escape(shorten(output.title, 150))
        comment = _n(
            "{count} answer to “{title}” as CSV (persona, Audience, value, scale value, option position, message).",
            "All {count} answers to “{title}” as CSV "
            "(persona, Audience, value, scale value, option position, message).",
            output.answer_count,
            title=title,
        )
    directory = Path(await asyncio.to_thread(tempfile.mkdtemp, prefix="minds-answers-"))
    path = directory / "answers.csv"
    try:
        await asyncio.to_thread(_write, path, header, answer_rows(output))
        await upload_file(
            invocation.client,
            path=path,
            filename="answers.csv",
            title=_("Answers to {title}", title=shorten(output.title, 150)),
            channel=invocation.channel_id,
            thread_ts=thread_ts,
            initial_comment=comment,
        )
    finally:
        await asyncio.to_thread(path.unlink, missing_ok=True)
        await asyncio.to_thread(directory.rmdir)
