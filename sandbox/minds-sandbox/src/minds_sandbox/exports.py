"""Study export files the sandbox can really produce: the report and the brief as Markdown, PDF and DOCX, the
raw answers as CSV and Markdown.

Owns: ``render_export`` (pure: study snapshot -> bytes), which kind/format pairs are producible, and the report's
words and numbers. The report is written once, as Markdown; its PDF and DOCX are that Markdown drawn as document
structure by ``documents.py`` (headings, lists, real tables), so the three files say the same.

A question's numbers in the full report are the thread's definition (the bot's ``render/results.py``, restated
here because the sandbox imports nothing of the bot): per Audience, the share of its respondents (Minds whose
answer is not empty, ``n``) who chose each option, in Minds' option order (a scale's points low to high), every
listed option kept at 0%; several answers allowed for a multiselect question, so its shares may add up to more
than 100%; a scale adds each Audience's mean, top-2-box share and, for a 0–10 question about recommending, its
NPS. The report has no charts: its numbers are tables.
Every question has one label, the thread's: its number in its run and the run's UTC start ("Q6 (run of 2026-12-05
14:03 UTC)", ``question_label``). The Summary says how many of the report's questions Minds' summary covers and
summarises each one it does not (answered after it was written) in one line. The full report and the executive
brief carry every method calculation of the Study's research runs (``report_calculations``).
Must not touch state or I/O; callers run it off the event loop because PDF layout is CPU work.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from minds_sandbox import documents, report_calculations
from minds_sandbox.engine import headline

KINDS = ("executive_brief", "full_report", "raw_data")
FORMATS = ("pdf", "md", "docx", "pptx", "csv", "xls", "sav")
MIME_TYPES = {
    "md": "text/markdown; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}
# The sandbox renders these pairs; every other pair fails the job with EXPORT_FAILED.
PRODUCIBLE = {
    ("full_report", "md"),
    ("full_report", "pdf"),
    ("full_report", "docx"),
    ("executive_brief", "md"),
    ("executive_brief", "pdf"),
    ("executive_brief", "docx"),
    ("raw_data", "csv"),
    ("raw_data", "md"),
}


class ExportUnsupported(ValueError):
    """A kind/format pair the sandbox cannot produce."""


@dataclass(frozen=True)
class ExportFile:
    filename: str
    mime_type: str
    content: bytes


def unsupported_reason(kind: str, fmt: str) -> str | None:
    if (kind, fmt) in PRODUCIBLE:
        return None
    producible = ", ".join(f"{k}/{f}" for k, f in sorted(PRODUCIBLE))
    return f"The Minds sandbox cannot produce {kind} as {fmt}; it produces {producible}."


def render_export(
    *,
    study: dict[str, Any],
    answers: list[dict[str, Any]],
    kind: str,
    fmt: str,
    runs: Sequence[dict[str, Any]] = (),
    length: str = "standard",
) -> ExportFile:
    """``length`` (``short``, ``standard``, ``detailed``) is honoured: a short report leaves each question's
    details out, a detailed one includes them even for a brief, and the report says its length.
    ``answers`` are the raw answer rows (question, mind, audience, text) of the Study's runs; ``runs`` its runs
    oldest first, ``{"id", "label" (its UTC start, as the bot writes it), "questionIds", "calculations"}``."""
    reason = unsupported_reason(kind, fmt)
    if reason:
        raise ExportUnsupported(reason)
    stem = _slug(study["name"]) + "-" + kind.replace("_", "-")
    if fmt == "csv":
        return ExportFile(f"{stem}.csv", MIME_TYPES["csv"], _csv(answers))
    if kind == "raw_data":
        return ExportFile(f"{stem}.md", MIME_TYPES["md"], _raw_markdown(study, answers).encode())
    detailed = length == "detailed" or (length == "standard" and kind == "full_report")
    lines = _report_lines(study, detailed=detailed, runs=runs)
    lines[3:3] = [f"_Length: {length}._", ""]
    markdown = "\n".join(lines) + "\n"
    if fmt == "md":
        return ExportFile(f"{stem}.md", MIME_TYPES["md"], markdown.encode())
    drawn = documents.pdf(markdown) if fmt == "pdf" else documents.docx(markdown)
    return ExportFile(f"{stem}.{fmt}", MIME_TYPES[fmt], drawn)


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-") or "study"


def _results(study: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in study["messages"] if m["role"] == "assistant" and m["metadata"].get("outputData")]


def question_label(message: dict[str, Any], runs: Sequence[dict[str, Any]], fallback: int) -> str:
    """A question's one label, as the run's thread numbers it: "Q6 (run of 2026-12-05 14:03 UTC)" — its place in
    its run and when that run started; "Q{fallback}" for a result of no known run."""
    run_id, question_id = message["metadata"].get("runId"), message["metadata"].get("questionId")
    run = next((r for r in runs if r["id"] == run_id), None)
    if run is None or question_id not in run["questionIds"]:
        return f"Q{fallback}"
    return f"Q{run['questionIds'].index(question_id) + 1} (run of {run['label']})"


def _report_lines(study: dict[str, Any], *, detailed: bool, runs: Sequence[dict[str, Any]] = ()) -> list[str]:
    lines = [
        f"# {documents.escape(study['name'])}",
        "",
        "_Synthetic research from the Minds sandbox; not human fieldwork._",
        "",
    ]
    results = _results(study)
    labels = [question_label(m, runs, n) for n, m in enumerate(results, start=1)]
    lines += _summary_lines(study, results, labels)
    lines += report_calculations.section(runs)
    lines += ["## Results", ""]
    for message, label in zip(results, map(documents.escape, labels), strict=True):
        output = message["metadata"]["outputData"]
        lines += [f"### {label}. {documents.escape(output['title'])}", "", documents.escape(headline(output)), ""]
        if detailed:
            lines += _detail_lines(output)
    return lines


def _summary_lines(study: dict[str, Any], results: list[dict[str, Any]], labels: list[str]) -> list[str]:
    """Minds' summary, saying how many of the report's questions it covers; every question it does not cover
    (answered after it was written) gets its own one-line summary under it, so none goes unsummarised."""
    saved = study.get("summary") or {}
    summary = saved.get("summary")
    covered = {b.get("messageId") for b in saved.get("blocks") or []} if summary else set()
    later = [(m, label) for m, label in zip(results, labels, strict=True) if m.get("id") not in covered]
    if not summary and not results:
        return []
    lines = ["## Summary", ""]
    if summary:
        written = saved.get("generatedAt") or "an unknown time"
        lines += [
            f"_Minds' summary, written {documents.escape(str(written))}, covers {len(results) - len(later)} of the "
            f"{len(results)} questions in this report._",
            "",
            "\n".join(line for line in summary.splitlines() if not line.startswith("# ")).strip("\n"),
            "",
        ]
    if later:
        lead = "Answered after the summary was written" if summary else "No summary has been written yet"
        lines += [f"_{lead}; each of these {len(later)} questions in one line:_", ""]
        lines += [
            f"- **{documents.escape(label)}.** {documents.escape(m['metadata']['outputData']['title'])} "
            f"— {documents.escape(headline(m['metadata']['outputData']))}"
            for m, label in later
        ]
        lines.append("")
    return lines


def _detail_lines(output: dict[str, Any]) -> list[str]:
    """The numbers of one question: a table of shares per Audience, or its themes as a list."""
    if output.get("type") in ("categorical", "multiselect", "scale"):
        return _share_table(output)
    if output.get("themes"):
        n = output.get("responseCount", 0)
        return [f"- {documents.escape(t['theme'])}: {t['count']} of {n} answers" for t in output["themes"]] + [""]
    return []


def _share_table(output: dict[str, Any]) -> list[str]:
    """Option | one column per Audience "Name (n=12)" | cells "70%"; a scale adds each Audience's mean."""
    kind = output["type"]
    classification = output.get("classification") or {}
    counted = []
    for position, audience in enumerate(output.get("audiences") or [], start=1):
        chosen = [_picked(str(a.get("value", "")), kind) for a in audience.get("answers", [])]
        respondents = [c for c in chosen if c]
        counts: dict[str, int] = {}
        for options in respondents:
            for option in options:
                counts[option] = counts.get(option, 0) + 1
        counted.append((str(audience.get("audience") or f"Audience {position}"), len(respondents), counts))
    if not any(n for _name, n, _counts in counted):
        return ["No answers recorded.", ""]
    options = _options(kind, classification, output, counted)
    header = ["Point" if kind == "scale" else "Option"] + [
        f"{documents.escape(name)} (n={n})" for name, n, _ in counted
    ]
    rows = [
        [documents.escape(option)]
        + [f"{round(100 * counts.get(option, 0) / n) if n else 0}%" for _name, n, counts in counted]
        for option in options
    ]
    if kind == "scale":
        rows += _scale_rows(classification.get("scaleRange") or output.get("scaleRange"), counted)
    base = "% of respondents per Audience (n = respondents)"
    base += "; several answers allowed, so shares may add up to more than 100%." if kind == "multiselect" else "."
    return [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *["| " + " | ".join(row) + " |" for row in rows],
        "",
        f"_{base}_",
        "",
    ]


def _picked(value: str, kind: str) -> list[str]:
    value = value.strip()
    if not value:
        return []
    if kind == "multiselect":
        return list(dict.fromkeys(v.strip() for v in value.split(";") if v.strip()))
    if kind == "scale":
        try:
            number = float(value)
        except ValueError:
            return [value]
        return [str(int(number)) if number.is_integer() else value]
    return [value]


def _options(
    kind: str, classification: dict[str, Any], output: dict[str, Any], counted: list[tuple[str, int, dict[str, int]]]
) -> list[str]:
    """Minds' option order (a scale's points low to high), every listed option kept; answers off the list after."""
    given = list(dict.fromkeys(option for *_head, counts in counted for option in counts))
    if kind == "scale":
        scale_range = classification.get("scaleRange") or output.get("scaleRange")
        points = [str(p) for p in range(int(scale_range[0]), int(scale_range[1]) + 1)] if scale_range else []
        numeric = sorted({*points, *(g for g in given if _is_number(g))}, key=float)
        return [*numeric, *(g for g in given if not _is_number(g))]
    listed = [str(o) for o in classification.get("options") or []]
    return [*listed, *(g for g in given if g not in listed)]


def _is_number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def _scale_rows(scale_range: list[float] | None, counted: list[tuple[str, int, dict[str, int]]]) -> list[list[str]]:
    """A scale's statistics as the thread gives them: the mean, the top-2-box share (the two highest points) and,
    for a 0–10 question (the sandbox's NPS question, whatever its language), the NPS (promoters 9–10 minus
    detractors 0–6, in points)."""
    numeric = [{float(v): c for v, c in counts.items() if _is_number(v)} for _name, _n, counts in counted]
    rows = [
        ["Mean"] + [_stat(values, lambda v, n: f"{sum(x * c for x, c in v.items()) / n:.1f}") for values in numeric]
    ]
    if scale_range and scale_range[0] < scale_range[1]:
        low, high = int(scale_range[0]), int(scale_range[1])
        rows.append(
            [f"Top-2-box ({high - 1}–{high})"]
            + [_stat(values, lambda v, n: f"{round(100 * _on(v, lambda x: x > high - 2) / n)}%") for values in numeric]
        )
        if (low, high) == (0, 10):  # the sandbox's only 0–10 question is its NPS one (scored as a calculation)
            rows.append(["NPS"] + [_stat(values, _nps) for values in numeric])
    return rows


def _stat(values: dict[float, int], said: Callable[[dict[float, int], int], str]) -> str:
    n = sum(values.values())
    return said(values, n) if n else "-"


def _on(values: dict[float, int], where: Callable[[float], bool]) -> int:
    return sum(count for value, count in values.items() if where(value))


def _nps(values: dict[float, int], n: int) -> str:
    score = round(100 * _on(values, lambda x: x >= 9) / n) - round(100 * _on(values, lambda x: x <= 6) / n)
    return f"+{score}" if score > 0 else f"\u2212{-score}" if score < 0 else "0"


def _raw_markdown(study: dict[str, Any], answers: list[dict[str, Any]]) -> str:
    esc = documents.escape
    rows = [f"| {esc(a['questionId'])} | {esc(a['mindName'])} | {esc(a['text'])} |" for a in answers]
    return "\n".join(
        [f"# {esc(study['name'])}: raw answers", "", "| Question | Mind | Answer |", "|---|---|---|", *rows]
    )


def _csv(answers: list[dict[str, Any]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["run_id", "question_id", "question", "mind_id", "mind_name", "audience_id", "answer"])
    for a in answers:
        writer.writerow(
            [
                a["runId"],
                a["questionId"],
                a["question"],
                a["mindId"],
                a["mindName"],
                a["audienceId"],
                a["text"],
            ]
        )
    return buffer.getvalue().encode()
