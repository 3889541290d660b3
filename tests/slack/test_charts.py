"""Result charts are small, valid PNGs sized to their content."""

from __future__ import annotations

import asyncio
import json
import struct
from collections.abc import Iterator
from typing import Any

import pytest

from minds_bot.render import results
from minds_bot.render.charts import result_chart
from tests.fakes.bot import bot_harness
from tests.fakes.minds_http import ok, raw

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


KOREAN = "가격예아니오"
CHINESE = "占比（%）"


def font_with(path, characters: str) -> str:  # a pytest tmp_path
    """A tiny TrueType font whose cmap has exactly ``characters`` (and the Latin letters): a font set with or
    without CJK coverage, made here so the tests do not depend on the machine's fonts."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    codes = sorted({ord(c) for c in characters + "ANPxyz0123456789%() .-"})
    names = [".notdef", *(f"u{code:04X}" for code in codes)]
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({code: f"u{code:04X}" for code in codes})
    pen = TTGlyphPen(None)
    pen.moveTo((0, 0))
    pen.lineTo((0, 500))
    pen.lineTo((500, 500))
    pen.closePath()
    box = pen.glyph()
    builder.setupGlyf({name: box for name in names})
    builder.setupHorizontalMetrics({name: (600, 0) for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Test", "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost()
    font = path / "test-font.ttf"
    builder.save(str(font))
    return str(font)


def panels() -> tuple[Any, Any]:
    from minds_bot.render import bars

    korean = bars.Panel(title="가격", options=["예", "아니오"], values={"A": [60.0, 40.0]}, unit=CHINESE, top=100.0)
    latin = bars.Panel(title="Price", options=["Yes", "No"], values={"A": [60.0, 40.0]}, unit="Share (%)", top=100.0)
    return korean, latin


@pytest.fixture
def no_system_cjk_fonts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The machine's CJK fonts are out of sight: only what a test configures is looked at."""
    from minds_bot.render import bars

    monkeypatch.setattr(bars, "CJK_FONTS", ())
    bars.use_cjk_font(None)
    yield
    bars.use_cjk_font(None)


def test_korean_or_chinese_words_pick_a_font_whose_glyphs_cover_them(tmp_path, no_system_cjk_fonts) -> None:
    """The built-in font has no Hangul or Han: a chart with them uses the configured font when its cmap has
    every one of their characters; Latin words keep the built-in font."""
    from minds_bot.render import bars

    korean, latin = panels()
    assert bars._cjk_characters([CHINESE]) and bars._cjk_characters(["예"])
    assert not bars._cjk_characters(["Preis 42 % — ¿sí?"])
    covering = font_with(tmp_path, KOREAN + CHINESE)
    bars.use_cjk_font(covering)
    assert bars._face([korean]) == covering
    assert bars._face([latin]) is None
    assert bars.draw_panels([korean]).startswith(b"\x89PNG")


@pytest.mark.parametrize("configured", ["latin", "broken", "none"])
def test_without_a_font_covering_the_labels_no_chart_of_boxes_is_drawn(
    tmp_path,
    no_system_cjk_fonts: None,
    configured: str,
) -> None:
    """Issue 34 row 15: a font set without CJK coverage (a Latin-only font, a file that is not a font, or no
    font at all) never gives a chart of boxes: ``GlyphsMissing`` names the characters, and ``draw`` (the one way
    flows draw) returns None so the caller says the chart could not be drawn."""
    from minds_bot.flows.drawing import draw
    from minds_bot.render import bars

    korean, latin = panels()
    if configured == "latin":
        bars.use_cjk_font(font_with(tmp_path, "가"))  # Hangul 가 only: 격, 예… and the Chinese are missing
    elif configured == "broken":
        broken = tmp_path / "broken.otf"
        broken.write_bytes(b"not a font")
        bars.use_cjk_font(str(broken))
    with pytest.raises(bars.GlyphsMissing) as missing:
        bars.draw_panels([korean])
    assert "예" in missing.value.characters and "가" not in missing.value.characters or configured != "latin"
    assert bars.draw_panels([latin]).startswith(b"\x89PNG")  # Latin charts are unaffected
    assert asyncio.run(draw(bars.draw_panels, panels=[korean])) is None


CHART_NOT_DRAWN = {
    "en": ":warning: The chart could not be drawn: this server has no font for these letters (a CJK font such as "
    "Noto Sans CJK). The figures are in the text.",
    "de": ":warning: Das Diagramm konnte nicht gezeichnet werden: Auf diesem Server fehlt eine Schrift für diese "
    "Zeichen (eine CJK-Schrift wie Noto Sans CJK). Die Zahlen stehen im Text.",
    "es": ":warning: No se pudo dibujar el gráfico: este servidor no tiene una fuente para estos caracteres (una "
    "fuente CJK como Noto Sans CJK). Las cifras están en el texto.",
    "zh": ":warning: 无法绘制图表：此服务器没有可显示这些文字的字体（例如 Noto Sans CJK 等 CJK 字体）。数字见正文。",
    "ko": ":warning: 차트를 그리지 못했습니다. 이 서버에는 이 글자를 표시할 글꼴(Noto Sans CJK 같은 CJK 글꼴)이 "
    "없습니다. 수치는 본문에 있습니다.",
}


@pytest.mark.parametrize("language", ["en", "de", "es", "zh", "ko"])
def test_the_missing_chart_is_said_in_every_language(language: str) -> None:
    from minds_bot import i18n
    from minds_bot.render.charts import chart_not_drawn

    with i18n.speaking(language):
        assert chart_not_drawn() == CHART_NOT_DRAWN[language]


async def test_a_chinese_result_without_a_cjk_font_says_so_in_the_thread_instead_of_boxes(
    no_system_cjk_fonts: None,
) -> None:
    """Through the real app: a Chinese workspace's direct question ends; no font here covers the chart's Chinese
    labels, so no PNG is uploaded and the thread says, in Chinese, that the chart could not be drawn."""
    from minds_bot import i18n
    from tests.i18n.test_languages import _workspace_speaks
    from tests.slack import samples
    from tests.slack.test_ask import RUNS, STUDY, accepted, asked

    async with bot_harness() as bot:
        await _workspace_speaks(bot, "zh")
        bot.minds_api.on("GET", f"/studies/{STUDY}", ok(samples.study_detail()))
        bot.minds_api.on("POST", RUNS, accepted(bot))
        run = await asked(bot)
        bot.minds_api.on(
            "GET", f"/runs/{samples.RUN_ID}", ok(samples.agent_run("completed", message_id=samples.MESSAGE_ID))
        )
        bot.minds_api.on(
            "GET",
            f"/studies/{STUDY}/messages/{samples.MESSAGE_ID}/answers",
            raw({"messageId": samples.MESSAGE_ID, "outputData": samples.output_data("categorical")}),
        )
        assert await bot.tracker.tick() == 1
        said = [c["text"] for c in bot.slack.calls_to("chat.postMessage") if c.get("thread_ts") == run.thread_ts]
        assert CHART_NOT_DRAWN["zh"] in said
        assert bot.slack.calls_to("files.completeUploadExternal") == [] and bot.slack.uploads == {}
        with i18n.speaking("zh"):
            chart_claim = i18n._(
                "The chart above draws these same answers: % of respondents per option, per Audience, with n."
            )
        assert chart_claim not in json.dumps(bot.slack.calls, ensure_ascii=False)  # no chart is claimed
