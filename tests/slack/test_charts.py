"""Result charts are small, valid PNGs sized to their content."""

from __future__ import annotations

import struct

from minds_bot.render.charts import distribution_chart

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_MAGIC
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_a_chart_is_a_small_png() -> None:
    data = distribution_chart(
        title="Would you buy the limited edition?",
        options=["Yes", "Maybe", "No"],
        series={"Gen Z sneaker buyers (DE)": {"Yes": 7, "Maybe": 3, "No": 2}, "Skincare fans (KR)": {"No": 5}},
    )
    width, height = png_size(data)
    assert 600 <= width <= 900 and 150 <= height <= 900
    assert len(data) < 150_000


def test_more_options_make_a_taller_chart_and_many_options_fold_into_other() -> None:
    few = distribution_chart(title="t", options=["a", "b"], series={"A": {"a": 1, "b": 1}})
    many_options = [f"option {i}" for i in range(30)]
    many = distribution_chart(title="t", options=many_options, series={"A": {o: 1 for o in many_options}})
    assert png_size(many)[1] > png_size(few)[1]
    capped = distribution_chart(title="t", options=many_options[:12], series={"A": {o: 1 for o in many_options}})
    assert png_size(many)[1] == png_size(capped)[1]


def test_an_audience_with_no_answers_still_renders() -> None:
    data = distribution_chart(title="Empty", options=["Yes", "No"], series={"A": {}})
    assert png_size(data)[0] > 0


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
