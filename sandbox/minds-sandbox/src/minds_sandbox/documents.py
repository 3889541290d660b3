"""Documents from Markdown: the sandbox's PDF and DOCX files say what its Markdown says, as document structure.

Owns: ``parse`` (Markdown text -> blocks: headings, paragraphs, bullet and numbered lists, quotes, tables, with
bold, italic and code spans), ``pdf`` (blocks drawn with fpdf2: headings also in the PDF outline, lists indented
with bullets or numbers, tables as real ``pdf.table()`` grids) and ``docx`` (python-docx: Heading styles, List
Bullet / List Number paragraphs, "Table Grid" tables, bold and italic runs). No Markdown syntax (``|``, ``#``,
``**``) reaches a PDF or DOCX.

Fonts: the PDF uses a Unicode font when one is installed (``TEXT_FONTS``: DejaVu Sans, else Noto Sans CJK) and,
for Chinese, Japanese or Korean words, falls back to a CJK font (``CJK_FONTS``, looked up only for text that
needs one). A character no available font can draw is shown as "?" and the document says so at its top
(``MISSING_GLYPHS_NOTE``), rather than failing the export. With no Unicode font at all, the core Latin-1 font
is used under the same rule.

Pure: no state, no I/O beyond reading font files; fpdf2 and python-docx load on first use (callers run this off
the event loop: layout is CPU work). The libraries' own loggers (``QUIET_LOGGERS``: fontTools logs every font
subset at INFO) are set to WARNING when the first PDF is drawn, so a console at INFO shows none of their lines.
Must not contain: anything of the bot.
"""

from __future__ import annotations

import functools
import io
import logging
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

# Loggers of the PDF libraries: fontTools says each table it subsets (hundreds of INFO lines a PDF), fpdf2 its own.
QUIET_LOGGERS = ("fontTools", "fpdf")

# DejaVu Sans: Debian/Ubuntu's fonts-dejavu-core, Fedora's, Arch's. Each entry: regular, bold, italic, bold italic.
TEXT_FONTS: tuple[tuple[str, str, str, str], ...] = (
    (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-BoldOblique.ttf",
    ),
    (
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Oblique.ttf",
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-BoldOblique.ttf",
    ),
    (
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/TTF/DejaVuSans-Oblique.ttf",
        "/usr/share/fonts/TTF/DejaVuSans-BoldOblique.ttf",
    ),
)
# Noto Sans CJK (the bot's Docker image installs fonts-noto-cjk): regular, bold. It also draws Latin text.
CJK_FONTS: tuple[tuple[str, str], ...] = (
    (
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    ),
    (
        "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Bold.ttc",
    ),
    (
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Bold.ttc",
    ),
)
MISSING_GLYPHS_NOTE = (
    "Note: some characters of this document could not be drawn (no font for them is installed where the Minds "
    "sandbox runs) and show as ?. The Markdown export has the full text."
)
MISSING = "?"
# Typographic characters the core (Latin-1) font lacks, drawn as their plain equivalents instead of "?".
_LATIN1_PLAIN = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u201a": "'",
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
    "\u2026": "...",
    "\u2022": "-",
}
# Characters XML 1.0 (and so a DOCX) cannot hold: C0 controls but tab and newline, surrogates, U+FFFE/U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_CJK = re.compile(r"[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")

# ---------------------------------------------------------------- blocks


@dataclass(frozen=True)
class Span:
    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False


@dataclass(frozen=True)
class Heading:
    level: int  # 1 = the document's title
    spans: list[Span]


@dataclass(frozen=True)
class Paragraph:
    spans: list[Span]
    quote: bool = False


@dataclass(frozen=True)
class ListBlock:
    ordered: bool
    items: list[tuple[int, list[Span]]]  # (nesting depth from 0, the item's text)


@dataclass(frozen=True)
class Table:
    header: list[str]
    rows: list[list[str]] = field(default_factory=list)


Block = Heading | Paragraph | ListBlock | Table

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^(\s*)\d{1,9}[.)]\s+(.*)$")
_QUOTE = re.compile(r"^\s*>\s?(.*)$")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$")


def parse(markdown: str) -> list[Block]:
    """Markdown (the subset the sandbox writes, and common summary Markdown) as blocks."""
    lines = markdown.splitlines()
    blocks: list[Block] = []
    paragraph: list[str] = []
    i = 0

    def flush() -> None:
        if paragraph:
            blocks.append(Paragraph(inline(" ".join(p.strip() for p in paragraph))))
            paragraph.clear()

    while i < len(lines):
        line = lines[i]
        if not line.strip():
            flush()
            i += 1
            continue
        if _is_table_start(lines, i):
            flush()
            header = _cells(line)
            rows = []
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(_fit(_cells(lines[i]), len(header)))
                i += 1
            blocks.append(Table(header, rows))
            continue
        if heading := _HEADING.match(line):
            flush()
            blocks.append(Heading(len(heading.group(1)), inline(heading.group(2))))
        elif _RULE.match(line):
            flush()
        elif _BULLET.match(line) or _NUMBERED.match(line):
            flush()
            ordered = bool(_NUMBERED.match(line))
            items = []
            while i < len(lines) and (item := (_NUMBERED if ordered else _BULLET).match(lines[i])):
                depth = len(item.group(1).expandtabs(4)) // 2
                items.append((depth, inline(item.group(2))))
                i += 1
            blocks.append(ListBlock(ordered, items))
            continue
        elif quote := _QUOTE.match(line):
            flush()
            quoted = [quote.group(1)]
            while i + 1 < len(lines) and (more := _QUOTE.match(lines[i + 1])):
                quoted.append(more.group(1))
                i += 1
            blocks.append(Paragraph(inline(" ".join(q.strip() for q in quoted)), quote=True))
        else:
            paragraph.append(line)
        i += 1
    flush()
    return blocks


def _is_table_start(lines: Sequence[str], i: int) -> bool:
    return (
        lines[i].strip().startswith("|")
        and i + 1 < len(lines)
        and "-" in lines[i + 1]
        and bool(_TABLE_SEPARATOR.match(lines[i + 1]))
    )


def _cells(line: str) -> list[str]:
    """A table row's cells as plain text (``\\|`` is a literal bar inside a cell)."""
    text = line.strip()
    text = text[1:] if text.startswith("|") else text
    text = text[:-1] if text.endswith("|") and not text.endswith("\\|") else text
    return [plain(cell.strip()) for cell in re.split(r"(?<!\\)\|", text)]


def _fit(cells: list[str], width: int) -> list[str]:
    return (cells + [""] * width)[:width]


_INLINE = re.compile(
    r"\\(?P<escaped>[\\`*_{}\[\]()#+\-.!|>])"
    r"|`(?P<code>[^`]+)`"
    r"|\*\*(?P<bold>.+?)\*\*"
    r"|__(?P<bold2>.+?)__"
    r"|(?<![\w*])\*(?P<italic>[^\s*](?:.*?[^\s\\])?)\*(?![\w*])"
    r"|(?<![\w_])_(?P<italic2>[^\s_](?:.*?[^\s\\])?)_(?![\w_])"
    r"|\[(?P<label>[^\]]+)\]\((?P<url>[^)\s]+)\)"
)


def inline(text: str, *, bold: bool = False, italic: bool = False) -> list[Span]:
    """Bold, italic and code spans of one line of Markdown; markers never appear in the spans' text."""
    spans: list[Span] = []
    position = 0

    def add(piece: str, **style: bool) -> None:
        if not piece:
            return
        span = Span(
            piece, bold=style.get("bold", bold), italic=style.get("italic", italic), code=style.get("code", False)
        )
        if spans and (spans[-1].bold, spans[-1].italic, spans[-1].code) == (span.bold, span.italic, span.code):
            spans[-1] = Span(spans[-1].text + piece, span.bold, span.italic, span.code)
        else:
            spans.append(span)

    for match in _INLINE.finditer(text):
        add(text[position : match.start()])
        position = match.end()
        groups = match.groupdict()
        if groups["escaped"] is not None:
            add(groups["escaped"])
        elif groups["code"] is not None:
            add(groups["code"], code=True)
        elif (inner := groups["bold"] or groups["bold2"]) is not None:
            for span in inline(inner, bold=True, italic=italic):
                add(span.text, bold=span.bold, italic=span.italic, code=span.code)
        elif (inner := groups["italic"] or groups["italic2"]) is not None:
            for span in inline(inner, bold=bold, italic=True):
                add(span.text, bold=span.bold, italic=span.italic, code=span.code)
        else:
            add(groups["label"])
    add(text[position:])
    return spans


def plain(text: str) -> str:
    """One line of Markdown without its markers (for table cells and outline entries)."""
    return "".join(span.text for span in inline(text))


def escape(text: str) -> str:
    """Someone's words (an option, a title, a name) made literal inside Markdown the sandbox writes."""
    return re.sub(r"([\\`*_|\[\]])", r"\\\1", " ".join(str(text).split()))


def _texts(blocks: Sequence[Block]) -> Iterator[str]:
    for block in blocks:
        if isinstance(block, Table):
            yield from block.header
            for row in block.rows:
                yield from row
        elif isinstance(block, ListBlock):
            for _depth, spans in block.items:
                yield from (s.text for s in spans)
        else:
            yield from (s.text for s in block.spans)


def _title(blocks: Sequence[Block]) -> str:
    """The document's title (its metadata): its first heading."""
    return next(("".join(s.text for s in b.spans) for b in blocks if isinstance(b, Heading)), "")


# ---------------------------------------------------------------- PDF


@dataclass
class _Fonts:
    family: str  # "body" (a Unicode font) or "helvetica" (core, Latin-1 only)
    covered: Any  # str -> bool: whether a character can be drawn
    code: str


@functools.cache
def _quiet_libraries() -> None:
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)


def pdf(markdown: str) -> bytes:
    """The Markdown as a PDF: real headings (also in the outline), lists and tables."""
    from fpdf import FPDF  # heavy: loaded on the first PDF

    _quiet_libraries()
    blocks = parse(markdown)
    document = FPDF()
    document.set_auto_page_break(auto=True, margin=15)
    document.set_margins(18, 18, 18)
    fonts = _load_fonts(document, cjk=any(_CJK.search(t) for t in _texts(blocks)))
    missing = any(not fonts.covered(ch) for text in _texts(blocks) for ch in text)
    document.set_title(_title(blocks))
    document.set_creator("Minds sandbox")
    document.add_page()
    writer = _PdfWriter(document, fonts)
    if missing:
        writer.paragraph(Paragraph([Span(MISSING_GLYPHS_NOTE, italic=True)]))
    for block in blocks:
        writer.block(block)
    return bytes(document.output())


@functools.cache
def _text_font() -> tuple[str, str, str, str] | None:
    return next((faces for faces in TEXT_FONTS if os.path.isfile(faces[0])), None)


@functools.cache
def _cjk_font() -> tuple[str, str] | None:
    return next((faces for faces in CJK_FONTS if os.path.isfile(faces[0])), None)


def _load_fonts(document: Any, *, cjk: bool) -> _Fonts:
    text, east = _text_font(), _cjk_font() if cjk else None
    if text is None and east is None:
        return _Fonts("helvetica", _latin1_covered, "courier")
    families: list[Any] = []
    if text is not None:
        regular, bold, italic, bold_italic = text
        for style, path in (("", regular), ("B", bold), ("I", italic), ("BI", bold_italic)):
            document.add_font("body", style, path if os.path.isfile(path) else regular)
        families.append(document.fonts["body"])
    if east is not None:
        regular, bold = east
        name = "cjk" if text is not None else "body"
        for style, path in (("", regular), ("B", bold), ("I", regular), ("BI", bold)):
            document.add_font(name, style, path if os.path.isfile(path) else regular)
        families.append(document.fonts[name])
        if text is not None:
            document.set_fallback_fonts(["cjk"], exact_match=False)
    cmaps = [font.cmap for font in families]
    return _Fonts("body", lambda ch: ch.isspace() or any(ord(ch) in cmap for cmap in cmaps), "body")


def _latin1_covered(ch: str) -> bool:
    return ch in _LATIN1_PLAIN or ord(ch) < 256


class _PdfWriter:
    SIZES = {1: 18, 2: 14, 3: 12}
    BODY = 10
    LINE = 5.2
    CELL_PADDING = 1.2
    INDENT = 6

    def __init__(self, document: Any, fonts: _Fonts) -> None:
        self.pdf = document
        self.fonts = fonts
        self.outline_level = -1

    def safe(self, text: str) -> str:
        if self.fonts.family == "helvetica":
            text = "".join(_LATIN1_PLAIN.get(ch, ch) for ch in text)
        return "".join(ch if self.fonts.covered(ch) else MISSING for ch in text)

    def block(self, block: Block) -> None:
        if isinstance(block, Heading):
            self.heading(block)
        elif isinstance(block, Paragraph):
            self.paragraph(block)
        elif isinstance(block, ListBlock):
            self.list(block)
        else:
            self.table(block)

    def heading(self, block: Heading) -> None:
        pdf = self.pdf
        size = self.SIZES.get(block.level, 11)
        level = min(block.level - 1, self.outline_level + 1)
        self.outline_level = level
        plain_text = "".join(s.text for s in block.spans)
        pdf.ln(3 if block.level > 1 else 0)
        if pdf.will_page_break(size + 3 * self.LINE):
            pdf.add_page()  # a heading starts the page its first lines are on, never alone at the bottom
        pdf.start_section(self.safe(plain_text), level=level)
        pdf.set_font(self.fonts.family, "B", size)
        pdf.multi_cell(0, size * 0.5, self.safe(plain_text), align="L", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1.5)

    def spans(self, spans: Sequence[Span], *, italic: bool = False) -> None:
        for span in spans:
            style = ("B" if span.bold else "") + ("I" if span.italic or italic else "")
            family = self.fonts.code if span.code else self.fonts.family
            self.pdf.set_font(family, style if not span.code else "", self.BODY)
            self.pdf.write(self.LINE, self.safe(span.text))
        self.pdf.ln(self.LINE)

    def paragraph(self, block: Paragraph) -> None:
        if block.quote:
            with self._indented(self.INDENT):
                self.spans(block.spans, italic=True)
        else:
            self.spans(block.spans)
        self.pdf.ln(1.5)

    def list(self, block: ListBlock) -> None:
        numbers: dict[int, int] = {}
        for depth, spans in block.items:
            numbers = {d: n for d, n in numbers.items() if d <= depth}
            numbers[depth] = numbers.get(depth, 0) + 1
            marker = f"{numbers[depth]}." if block.ordered else self.safe("\u2022")
            width = 7 if block.ordered else 5
            with self._indented(2 + self.INDENT * depth):
                self.pdf.set_font(self.fonts.family, "", self.BODY)
                self.pdf.cell(width, self.LINE, marker)
                with self._indented(width):
                    self.spans(spans)
        self.pdf.ln(1.5)

    def table(self, block: Table) -> None:
        pdf = self.pdf
        pdf.set_font(self.fonts.family, "", self.BODY - 1)
        columns = len(block.header)
        first = 0.4 if columns > 2 else 0.5
        widths = [first] + [(1 - first) / (columns - 1)] * (columns - 1) if columns > 1 else None
        # A table that fits on one page is never split across two: it starts on the next page instead (its
        # header may wrap to two lines, hence the one row more than it has).
        height = (len(block.rows) + 2) * (self.LINE + 2 * self.CELL_PADDING)
        if height < pdf.h - pdf.t_margin - pdf.b_margin and pdf.will_page_break(height):
            pdf.add_page()
        with pdf.table(
            col_widths=widths,
            text_align=["LEFT"] + ["RIGHT"] * (columns - 1),
            line_height=self.LINE,
            padding=self.CELL_PADDING,
            markdown=False,
        ) as grid:
            for cells in [block.header, *block.rows]:
                row = grid.row()
                for cell in cells:
                    row.cell(self.safe(cell))
        pdf.ln(3)

    def _indented(self, by: float) -> Any:
        writer = self

        class Indent:
            def __enter__(self) -> None:
                self.before = writer.pdf.l_margin
                writer.pdf.set_left_margin(writer.pdf.l_margin + by)
                writer.pdf.set_x(writer.pdf.l_margin)

            def __exit__(self, *exc: object) -> None:
                writer.pdf.set_left_margin(self.before)

        return Indent()


# ---------------------------------------------------------------- DOCX


def docx(markdown: str) -> bytes:
    """The Markdown as a Word document: Heading styles, list paragraphs, grid tables, bold and italic runs."""
    from docx import Document  # heavy: loaded on the first DOCX

    document = Document()
    blocks = parse(markdown)
    document.core_properties.title = _NOT_XML.sub(MISSING, _title(blocks))
    for block in blocks:
        if isinstance(block, Heading):
            heading = document.add_heading("", level=min(block.level - 1, 9) if block.level > 1 else 0)
            _runs(heading, block.spans)
        elif isinstance(block, Paragraph):
            paragraph = document.add_paragraph(style="Quote" if block.quote else None)
            _runs(paragraph, block.spans)
        elif isinstance(block, ListBlock):
            base = "List Number" if block.ordered else "List Bullet"
            for depth, spans in block.items:
                style = base if depth == 0 else f"{base} {min(depth + 1, 3)}"
                _runs(document.add_paragraph(style=style), spans)
        else:
            table = document.add_table(rows=1 + len(block.rows), cols=len(block.header))
            table.style = "Table Grid"
            for row, cells in zip(table.rows, [block.header, *block.rows], strict=True):
                for cell, text in zip(row.cells, cells, strict=True):
                    cell.text = _NOT_XML.sub(MISSING, text)
            for cell in table.rows[0].cells:
                for run in cell.paragraphs[0].runs:
                    run.bold = True
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _runs(paragraph: Any, spans: Sequence[Span]) -> None:
    for span in spans:
        run = paragraph.add_run(_NOT_XML.sub(MISSING, span.text))
        run.bold = span.bold or None
        run.italic = span.italic or None
        if span.code:
            run.font.name = "Courier New"
