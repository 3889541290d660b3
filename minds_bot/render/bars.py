"""Horizontal bar charts as small PNGs, drawn with Pillow.

Owns: laying out one or more panels — a title, one row per option with one bar per series, an x axis with its
ticks and unit, each bar's value written after it when the panel gives ``value_labels`` — plus a legend when
there is more than one series or the bars are labelled, and encoding the PNG. Pure CPU work with no
I/O; callers run it with ``flows.drawing.draw``. Pillow is imported on the first chart, not at import (a bot that
never draws should not pay for it), and its built-in scalable font is used, so no font file is needed — except
for Chinese, Japanese or Korean words, which it cannot draw: a chart holding any is drawn with a CJK font, the
first font — the one ``use_cjk_font`` was given (``MINDS_BOT_CHART_FONT``, which ``scripts/run`` fills from
fontconfig when unset), then ``CJK_FONTS`` (the Docker image installs Noto Sans CJK) — whose glyphs (its cmap, read
with fontTools) cover every such character of the chart. When no font here covers them, ``GlyphsMissing`` is raised
before anything is drawn and the caller says the chart could not be drawn: never a chart of boxes.
Drawing a chart this way takes a few milliseconds and a few MB, where matplotlib took about 100 ms and 45 MB
(``benchmarks/run_fanout.py``: charts were three quarters of the bot's CPU following 1,000 runs).
Must not touch: what the numbers mean (``render.charts`` and ``render.analytics`` decide that).
"""

from __future__ import annotations

import io
import logging
import math
import os
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from minds_bot.i18n import format_number

log = logging.getLogger(__name__)

WIDTH = 770
PAD = 14
TITLE_SIZE = 15
LABEL_SIZE = 13
SMALL_SIZE = 12
TITLE_HEIGHT = 28
BAR_HEIGHT = 13  # one series' bar in a row
SINGLE_BAR_HEIGHT = 20  # the bar of a chart with one series
ROW_GAP = 10
AXIS_HEIGHT = 44  # tick labels and the unit under the bars
LEGEND_ROW = 20
PANEL_GAP = 16
LABEL_CHARS = 28  # option labels are shortened to this many characters
TITLE_CHARS = 80
MAX_LABEL_WIDTH = 260  # pixels
PALETTE = ("#2f6690", "#e07a5f", "#81b29a", "#f2cc8f", "#6d597a", "#3d405b")
AXIS = "#444444"
GRID = "#e6e6e6"
TEXT = "#1d1d1d"


@dataclass(frozen=True)
class Panel:
    """One chart panel: ``values[series][i]`` is the bar of ``options[i]`` for that series."""

    title: str
    options: Sequence[str]
    values: Mapping[str, Sequence[float]]
    unit: str
    top: float | None = None  # the axis' end (100 for shares); None: a round number above the largest value
    value_labels: Mapping[str, Sequence[str]] | None = None  # series → the text written after each of its bars


# Where CJK fonts usually are: Debian/Ubuntu's fonts-noto-cjk, Fedora's and Arch's, macOS's own.
CJK_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/System/Library/Fonts/PingFang.ttc",
)
_configured: list[str | None] = [None]
_CJK_RANGES = ((0x1100, 0x11FF), (0x2E80, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF))


class GlyphsMissing(Exception):
    """No font here has a glyph for some of a chart's characters: drawn, they would be boxes. The caller says
    that the chart could not be drawn instead (``flows.drawing.draw`` returns None)."""

    def __init__(self, characters: str, looked_at: Sequence[str]) -> None:
        super().__init__(characters)
        self.characters = characters
        self.looked_at = tuple(looked_at)


def use_cjk_font(path: str | None) -> None:
    """The font file for charts with Chinese, Japanese or Korean words (set once at start from the settings)."""
    _configured[0] = path
    _cjk_faces.cache_clear()
    _coverage.cache_clear()
    _font.cache_clear()


def _cjk_characters(texts: Sequence[str]) -> frozenset[int]:
    """The Hangul, Han, Kana and full-width characters of ``texts``, which the built-in font cannot draw."""
    return frozenset(ord(c) for text in texts for c in text if any(lo <= ord(c) <= hi for lo, hi in _CJK_RANGES))


@cache
def _cjk_faces() -> tuple[str, ...]:
    """The CJK font files present: the configured one first, then ``CJK_FONTS``."""
    candidates = [_configured[0], *CJK_FONTS] if _configured[0] else list(CJK_FONTS)
    return tuple(path for path in dict.fromkeys(candidates) if path and os.path.isfile(path))


@cache
def _coverage(face: str) -> frozenset[int]:
    """The characters ``face`` has glyphs for (its cmap, read with fontTools — the first font of a collection,
    the one Pillow draws with); empty when the file cannot be read as a font."""
    from fontTools.ttLib import TTFont, TTLibError  # type: ignore[import-untyped]

    try:
        with TTFont(face, fontNumber=0, lazy=True) as font:
            return frozenset(font.getBestCmap() or {})
    except (OSError, TTLibError, KeyError, AssertionError) as exc:
        log.warning("the chart font could not be read", extra={"fields": {"font": face, "error": type(exc).__name__}})
        return frozenset()


def _cjk_face(needed: frozenset[int]) -> str:
    """The first CJK font present whose glyphs cover ``needed``; ``GlyphsMissing`` when none does."""
    faces = _cjk_faces()
    for face in faces:
        if needed <= _coverage(face):
            return face
    covered = set().union(*(_coverage(face) for face in faces)) if faces else set()
    missing = "".join(sorted(chr(c) for c in needed - covered)[:20]) or "".join(sorted(chr(c) for c in needed)[:20])
    log.warning(
        "no chart font covers the labels: the chart is not drawn (set MINDS_BOT_CHART_FONT or install fonts-noto-cjk)",
        extra={"fields": {"looked_at": faces or CJK_FONTS, "missing": missing}},
    )
    raise GlyphsMissing(missing, faces)


@cache
def _font(size: int, face: str | None = None) -> Any:
    from PIL import ImageFont

    if face is not None:
        try:
            return ImageFont.truetype(face, size=size)
        except OSError:
            log.warning("the chart font could not be read; the built-in one is used", extra={"fields": {"font": face}})
    return ImageFont.load_default(size=size)


def _face(panels: Sequence[Panel]) -> str | None:
    """The font file for ``panels``: None (the built-in font) without CJK characters, else the first CJK font
    that has every one of them; ``GlyphsMissing`` when none here has."""
    texts = [t for p in panels for t in (p.title, p.unit, *p.options, *p.values)]
    texts += [label for p in panels for labels in (p.value_labels or {}).values() for label in labels]
    needed = _cjk_characters(texts)
    return _cjk_face(needed) if needed else None


def _ticks(top: float) -> list[float]:
    """Five or so round steps from 0 to ``top``."""
    if top <= 0:
        return [0.0, 1.0]
    raw = top / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    return [step * i for i in range(int(math.ceil(top / step)) + 1)]


def _tick_text(value: float) -> str:
    return format_number(round(value, 2))  # "2.5" / "2,5", "10,000" / "10.000" as the language writes them


def _panel_height(panel: Panel) -> int:
    series = max(1, len(panel.values))
    bar = SINGLE_BAR_HEIGHT if series == 1 else BAR_HEIGHT
    return TITLE_HEIGHT + max(1, len(panel.options)) * (bar * series + ROW_GAP) + AXIS_HEIGHT


def draw_panels(panels: Sequence[Panel]) -> bytes:
    """The PNG of ``panels`` stacked top to bottom, with one legend for every series name. ``GlyphsMissing``
    (before anything is drawn) when no font here has every character of the labels: a chart of boxes is never
    made."""
    face = _face(panels)
    from PIL import Image, ImageDraw

    names = list(dict.fromkeys(name for panel in panels for name in panel.values))
    colours = {name: PALETTE[index % len(PALETTE)] for index, name in enumerate(names)}
    legend_rows = math.ceil(len(names) / 2) if len(names) > 1 or any(p.value_labels for p in panels) else 0
    height = PAD + sum(_panel_height(p) for p in panels) + PANEL_GAP * (len(panels) - 1)
    height += legend_rows * LEGEND_ROW + (PAD if legend_rows else 0) + PAD
    image = Image.new("RGB", (WIDTH, height), "white")
    canvas = ImageDraw.Draw(image)
    labels = [textwrap.shorten(o, LABEL_CHARS, placeholder="…") or "–" for p in panels for o in p.options]
    label_width = min(
        MAX_LABEL_WIDTH, max((canvas.textlength(t, font=_font(LABEL_SIZE, face)) for t in labels), default=0)
    )
    left = PAD + int(label_width) + 10
    right = WIDTH - PAD - (44 if any(p.value_labels for p in panels) else 16)  # room for a value after a bar
    y = PAD
    for panel in panels:
        y = _draw_panel(canvas, panel, colours=colours, left=left, right=right, y=y, face=face) + PANEL_GAP
    y -= PANEL_GAP
    if legend_rows:
        _draw_legend(canvas, names, colours=colours, y=y + PAD, face=face)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def _draw_panel(
    canvas: Any, panel: Panel, *, colours: dict[str, str], left: int, right: int, y: int, face: str | None
) -> int:
    canvas.text(
        (PAD, y + 4),
        textwrap.shorten(panel.title, TITLE_CHARS, placeholder="…"),
        fill=TEXT,
        font=_font(TITLE_SIZE, face),
    )
    y += TITLE_HEIGHT
    series = list(panel.values)
    bar = SINGLE_BAR_HEIGHT if len(series) <= 1 else BAR_HEIGHT
    row = bar * max(1, len(series)) + ROW_GAP
    rows = max(1, len(panel.options))
    bottom = y + rows * row
    largest = max((v for values in panel.values.values() for v in values), default=0.0)
    ticks = _ticks(panel.top if panel.top is not None else largest)
    scale = (right - left) / (ticks[-1] or 1)
    for tick in ticks:
        x = left + tick * scale
        canvas.line([(x, y), (x, bottom)], fill=GRID, width=1)
        text = _tick_text(tick)
        width = canvas.textlength(text, font=_font(SMALL_SIZE, face))
        canvas.text((x - width / 2, bottom + 5), text, fill=AXIS, font=_font(SMALL_SIZE, face))
    for index, option in enumerate(panel.options):
        top = y + index * row + ROW_GAP // 2
        label = textwrap.shorten(option, LABEL_CHARS, placeholder="…") or "–"
        width = canvas.textlength(label, font=_font(LABEL_SIZE, face))
        middle = top + bar * max(1, len(series)) / 2
        canvas.text((left - 8 - width, middle - LABEL_SIZE / 2 - 1), label, fill=TEXT, font=_font(LABEL_SIZE, face))
        for position, name in enumerate(series):
            values = panel.values[name]
            value = values[index] if index < len(values) else 0.0
            x0, y0 = left, top + position * bar
            if value > 0:
                canvas.rectangle([x0, y0, x0 + max(1.0, value * scale), y0 + bar - 2], fill=colours[name])
            if panel.value_labels is not None:
                said = _value_label(panel, name, index)
                canvas.text(
                    (x0 + value * scale + 4, y0 + (bar - SMALL_SIZE) / 2 - 2),
                    said,
                    fill=TEXT,
                    font=_font(SMALL_SIZE, face),
                )
    canvas.line([(left, y), (left, bottom)], fill=AXIS, width=1)
    canvas.line([(left, bottom), (right, bottom)], fill=AXIS, width=1)
    unit = panel.unit
    width = canvas.textlength(unit, font=_font(SMALL_SIZE, face))
    canvas.text(((left + right) / 2 - width / 2, bottom + 23), unit, fill=AXIS, font=_font(SMALL_SIZE, face))
    return bottom + AXIS_HEIGHT


def _value_label(panel: Panel, name: str, index: int) -> str:
    texts = (panel.value_labels or {}).get(name, [])
    return texts[index] if index < len(texts) else ""


def _draw_legend(canvas: Any, names: Sequence[str], *, colours: dict[str, str], y: int, face: str | None) -> None:
    column = (WIDTH - 2 * PAD) // 2
    for index, name in enumerate(names):
        x = PAD + (index % 2) * column
        top = y + (index // 2) * LEGEND_ROW
        canvas.rectangle([x, top + 3, x + 14, top + 13], fill=colours[name])
        text = textwrap.shorten(name, 48, placeholder="…")
        canvas.text((x + 20, top), text, fill=TEXT, font=_font(SMALL_SIZE, face))
