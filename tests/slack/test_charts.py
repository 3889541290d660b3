"""Result charts are small, valid PNGs sized to their content."""

from __future__ import annotations

import struct

from minds_bot.render import results
from minds_bot.render.charts import result_chart

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_MAGIC
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def chart(title: str, kind: str, audiences: list[tuple[str, list[str]]], listed: list[str]) -> bytes:
    result = results.build(title=title, kind=kind, audiences=audiences, listed=listed)
    assert result is not None
    return result_chart(result=result, title=title)


def test_a_chart_is_a_small_png() -> None:
    data = chart(
        "Would you buy the limited edition?",
        "categorical",
        [("Gen Z sneaker buyers (DE)", ["Yes"] * 7 + ["Maybe"] * 3 + ["No"] * 2), ("Skincare fans (KR)", ["No"] * 5)],
        ["Yes", "Maybe", "No"],
    )
    width, height = png_size(data)
    assert 600 <= width <= 900 and 150 <= height <= 900
    assert len(data) < 150_000


def test_more_options_make_a_taller_chart() -> None:
    few = chart("t", "categorical", [("A", ["a", "b"])], ["a", "b"])
    many_options = [f"option {i}" for i in range(30)]
    many = chart("t", "categorical", [("A", many_options)], many_options)
    assert png_size(many)[1] > png_size(few)[1]


def test_korean_or_chinese_words_pick_the_cjk_font_and_a_broken_one_still_draws(tmp_path) -> None:
    """The built-in font has no Hangul or Han: a chart with them uses the configured CJK font; a font file that
    cannot be read is logged and the chart is drawn anyway."""
    from minds_bot.render import bars

    korean = bars.Panel(title="가격", options=["예", "아니오"], values={"A": [60.0, 40.0]}, unit="占比（%）", top=100.0)
    latin = bars.Panel(title="Price", options=["Yes", "No"], values={"A": [60.0, 40.0]}, unit="Share (%)", top=100.0)
    assert bars.needs_cjk(["占比（%）"]) and bars.needs_cjk(["예"]) and not bars.needs_cjk(["Preis 42 % — ¿sí?"])
    broken = tmp_path / "broken.otf"
    broken.write_bytes(b"not a font")
    bars.use_cjk_font(str(broken))
    try:
        assert bars._face([korean]) == str(broken)
        assert bars._face([latin]) is None  # Latin words keep the built-in font
        assert bars.draw_panels([korean]).startswith(b"\x89PNG")
    finally:
        bars.use_cjk_font(None)
