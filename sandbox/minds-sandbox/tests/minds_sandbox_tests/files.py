"""Reading the files a person gets, as a reader would see them: a PDF's tables, outline and text (pdfplumber) and
a DOCX's headings, list paragraphs and tables (python-docx)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

# What Markdown looks like when it is printed instead of drawn: a table row, a heading mark, bold stars.
MARKDOWN_LEFT = re.compile(r"^\s*\|.*\||^\s*#{1,6}\s|\*\*|^\s*\|?\s*-{3,}\s*\|", re.MULTILINE)


@dataclass(frozen=True)
class PdfRead:
    text: str
    tables: list[list[list[str]]]  # every table drawn on any page: rows of cell texts
    outline: list[tuple[int, str]]  # (level from 1, title) of the PDF's bookmarks
    title: str  # the document's title (metadata), as a viewer's window shows it


def read_pdf(content: bytes) -> PdfRead:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(content)) as document:
        text = "\n".join(page.extract_text() or "" for page in document.pages)
        tables = [
            [[" ".join((cell or "").split()) for cell in row] for row in table]
            for page in document.pages
            for table in page.extract_tables()
        ]
        outline = [(level, str(title)) for level, title, *_rest in document.doc.get_outlines()]
        title = str(document.metadata.get("Title", ""))
    return PdfRead(text=text, tables=tables, outline=outline, title=title)


@dataclass(frozen=True)
class DocxRead:
    paragraphs: list[tuple[str, str]]  # (style name, text)
    tables: list[list[list[str]]]
    bold: list[str]  # the text of every bold run
    italic: list[str]
    title: str  # the document's title (its properties)


def read_docx(content: bytes) -> DocxRead:
    import docx

    document = docx.Document(io.BytesIO(content))
    paragraphs = [(p.style.name if p.style is not None else "", p.text) for p in document.paragraphs]
    tables = [[[cell.text for cell in row.cells] for row in table.rows] for table in document.tables]
    runs = [run for p in document.paragraphs for run in p.runs]
    return DocxRead(
        paragraphs=paragraphs,
        tables=tables,
        bold=[r.text for r in runs if r.bold],
        italic=[r.text for r in runs if r.italic],
        title=document.core_properties.title,
    )


def table_with(tables: list[list[list[str]]], header: list[str]) -> list[list[str]]:
    """The one table whose first row is ``header`` (fails the test when there is none)."""
    found = [t for t in tables if t and t[0] == header]
    assert found, f"no table with the header {header}; tables: {[t[0] for t in tables if t]}"
    return found[0]
