"""Study export files the sandbox can really produce: Markdown report, CSV raw answers and a PDF brief.

Owns: ``render_export`` (pure: study snapshot -> bytes) and which kind/format pairs are producible. Must not
touch state or I/O; callers run it off the event loop because PDF layout is CPU work.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from minds_bot.sandbox.minds_api.engine import headline

KINDS = ("executive_brief", "full_report", "raw_data")
FORMATS = ("pdf", "md", "docx", "pptx", "csv", "xls", "sav")
MIME_TYPES = {
    "md": "text/markdown; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
    "pdf": "application/pdf",
}
# The sandbox renders these pairs; every other pair fails the job with EXPORT_FAILED.
PRODUCIBLE = {
    ("full_report", "md"),
    ("full_report", "pdf"),
    ("executive_brief", "md"),
    ("executive_brief", "pdf"),
    ("raw_data", "csv"),
    ("raw_data", "md"),
}
_PDF_REPLACEMENTS = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2013": "-",
    "\u2014": "-",
    "\u2026": "...",
    "\u2022": "-",
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


def render_export(*, study: dict[str, Any], answers: list[dict[str, Any]], kind: str, fmt: str) -> ExportFile:
    """``answers`` are the raw answer rows (question, mind, audience, text) of the Study's runs."""
    reason = unsupported_reason(kind, fmt)
    if reason:
        raise ExportUnsupported(reason)
    stem = _slug(study["name"]) + "-" + kind.replace("_", "-")
    if fmt == "csv":
        return ExportFile(f"{stem}.csv", MIME_TYPES["csv"], _csv(answers))
    if kind == "raw_data":
        return ExportFile(f"{stem}.md", MIME_TYPES["md"], _raw_markdown(study, answers).encode())
    lines = _report_lines(study, detailed=kind == "full_report")
    if fmt == "md":
        return ExportFile(f"{stem}.md", MIME_TYPES["md"], "\n".join(lines).encode())
    return ExportFile(f"{stem}.pdf", MIME_TYPES["pdf"], _pdf(lines))


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-") or "study"


def _results(study: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in study["messages"] if m["role"] == "assistant" and m["metadata"].get("outputData")]


def _report_lines(study: dict[str, Any], *, detailed: bool) -> list[str]:
    lines = [
        f"# {study['name']}",
        "",
        "_Synthetic research from the Minds sandbox; not human fieldwork._",
        "",
    ]
    summary = (study.get("summary") or {}).get("summary")
    if summary:
        lines += ["## Summary", "", *[line for line in summary.splitlines() if not line.startswith("# ")], ""]
    lines += ["## Results", ""]
    for message in _results(study):
        output = message["metadata"]["outputData"]
        lines += [f"### {output['title']}", "", headline(output), ""]
        if detailed:
            lines += _detail_lines(output) + [""]
    return lines


def _detail_lines(output: dict[str, Any]) -> list[str]:
    if output.get("distribution"):
        return ["| Option | Count | Share |", "|---|---|---|"] + [
            f"| {d['option']} | {d['count']} | {d['pct']}% |" for d in output["distribution"]
        ]
    if output.get("themes"):
        return [f"- {t['theme']}: {t['count']}" for t in output["themes"]]
    if output.get("mean") is not None:
        return [f"- Mean {output['mean']}, median {output['median']}"]
    return []


def _raw_markdown(study: dict[str, Any], answers: list[dict[str, Any]]) -> str:
    rows = [f"| {a['questionId']} | {a['mindName']} | {a['text']} |" for a in answers]
    return "\n".join([f"# {study['name']}: raw answers", "", "| Question | Mind | Answer |", "|---|---|---|", *rows])


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


def _pdf(lines: list[str]) -> bytes:
    from fpdf import FPDF  # heavy: loaded on the first PDF export

    pdf = FPDF()
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    for line in lines:
        size, text = _pdf_style(line)
        pdf.set_font("Helvetica", style="B" if size > 11 else "", size=size)
        pdf.multi_cell(0, size * 0.55, _pdf_safe(text), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _pdf_style(line: str) -> tuple[int, str]:
    for prefix, size in (("### ", 12), ("## ", 14), ("# ", 18)):
        if line.startswith(prefix):
            return size, line[len(prefix) :]
    return 10, line.replace("**", "").replace("_", "") or " "


def _pdf_safe(text: str) -> str:
    """Core PDF fonts are Latin-1 only; anything else becomes '?' rather than failing the export."""
    for old, new in _PDF_REPLACEMENTS.items():
        text = text.replace(old, new)
    return text.encode("latin-1", "replace").decode("latin-1")
