"""PDF and DOCX files show Markdown as a document: headings (in the PDF's outline too), lists, real tables, bold
and italic — and no ``|``, ``#`` or ``**`` left. German, Chinese and Korean text never breaks a PDF: what no
installed font can draw is shown as "?" and the file says so at its top."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minds_sandbox import documents
from minds_sandbox_tests.files import MARKDOWN_LEFT, read_docx, read_pdf, table_with

REPORT = """# Größe und Preis

_Synthetic research; not **human** fieldwork._

## Results

### Q1. Which shoe would you buy?

Most chose **Runner \\| Pro** (50%, n=12).

| Option | Gen Z (n=12) | Millennials (n=8) |
|---|---|---|
| Runner \\| Pro | 50% | 25% |
| Trail | 50% | 75% |

- Brand trust: 6 of 16 answers
- Novelty: *4* of 16 answers
  - nested point

1. First step
2. Second step
"""


def test_a_pdf_draws_headings_lists_and_a_real_table() -> None:
    read = read_pdf(documents.pdf(REPORT))
    rows = table_with(read.tables, ["Option", "Gen Z (n=12)", "Millennials (n=8)"])
    assert rows[1:] == [["Runner | Pro", "50%", "25%"], ["Trail", "50%", "75%"]]
    assert read.outline == [(1, "Größe und Preis"), (2, "Results"), (3, "Q1. Which shoe would you buy?")]
    assert read.title == "Größe und Preis"
    assert "• Brand trust: 6 of 16 answers" in read.text and "• Novelty: 4 of 16 answers" in read.text
    assert "1. First step" in read.text and "2. Second step" in read.text
    assert "Most chose Runner | Pro (50%, n=12)." in read.text
    assert not MARKDOWN_LEFT.search(read.text), read.text
    assert "_Synthetic" not in read.text and "Synthetic research; not human fieldwork." in read.text


def test_a_docx_has_heading_styles_list_paragraphs_bold_and_a_real_table() -> None:
    read = read_docx(documents.docx(REPORT))
    assert ("Title", "Größe und Preis") in read.paragraphs and read.title == "Größe und Preis"
    assert ("Heading 1", "Results") in read.paragraphs
    assert ("Heading 2", "Q1. Which shoe would you buy?") in read.paragraphs
    assert ("List Bullet", "Brand trust: 6 of 16 answers") in read.paragraphs
    assert ("List Bullet 2", "nested point") in read.paragraphs
    assert ("List Number", "Second step") in read.paragraphs
    rows = table_with(read.tables, ["Option", "Gen Z (n=12)", "Millennials (n=8)"])
    assert rows[1:] == [["Runner | Pro", "50%", "25%"], ["Trail", "50%", "75%"]]
    assert "Runner | Pro" in read.bold and "human" in read.bold and "4" in read.italic
    text = "\n".join(t for _style, t in read.paragraphs)
    assert not MARKDOWN_LEFT.search(text) and "_Synthetic" not in text


@pytest.fixture
def no_cjk_font(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(documents, "CJK_FONTS", ())
    documents._cjk_font.cache_clear()
    yield
    documents._cjk_font.cache_clear()


@pytest.fixture
def no_font_at_all(monkeypatch: pytest.MonkeyPatch, no_cjk_font: None) -> Iterator[None]:
    monkeypatch.setattr(documents, "TEXT_FONTS", ())
    documents._text_font.cache_clear()
    yield
    documents._text_font.cache_clear()


CJK = "# 价格调查\n\n선호하는 브랜드는 „Läufer“ — Größe 42.\n\n| Option | 韩国 (n=3) |\n|---|---|\n| 좋음 | 67% |\n"


def test_chinese_and_korean_without_a_cjk_font_do_not_break_the_pdf_and_it_says_so(no_cjk_font: None) -> None:
    read = read_pdf(documents.pdf(CJK))
    assert read.text.startswith("Note: some characters of this document could not be drawn")
    assert "The Markdown export has the full text." in read.text
    assert "„Läufer“ — Größe 42." in read.text, "Latin text and its punctuation are drawn as written"
    assert table_with(read.tables, ["Option", "?? (n=3)"])[1:] == [["??", "67%"]]


def test_without_any_unicode_font_the_core_font_draws_umlauts_and_says_what_it_could_not(
    no_font_at_all: None,
) -> None:
    read = read_pdf(documents.pdf(CJK))
    assert "Note: some characters" in read.text
    assert "Größe 42." in read.text and '"Läufer"' in read.text
    assert not read_pdf(documents.pdf("# Größe\n\n- Übergröße\n")).text.startswith("Note:")


def test_inline_markdown_becomes_styled_spans_without_markers() -> None:
    spans = documents.inline("**Bold _both_** and `code`, a\\|b, [link](https://x.example) and snake_case")
    assert [(s.text, s.bold, s.italic, s.code) for s in spans] == [
        ("Bold ", True, False, False),
        ("both", True, True, False),
        (" and ", False, False, False),
        ("code", False, False, True),
        (", a|b, link and snake_case", False, False, False),
    ]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(["# ", "- ", "1. ", "| ", " | ", "|---|---|\n", "**", "_", "`", "\n", "\\", "> "])
        | st.text(max_size=12),
        max_size=25,
    )
)
def test_any_text_makes_a_pdf_and_a_docx(pieces: list[str]) -> None:
    markdown = "".join(pieces)
    assert documents.pdf(markdown).startswith(b"%PDF-")
    assert documents.docx(markdown).startswith(b"PK")
