"""The Recalibrate… dialog's research and selection modes, exactly as a person reads them in each of the five
languages: the confirmation of a research query with extra links and keywords, of a selection, and the request
posted in the channel (``render/recalibrate.py``)."""

from __future__ import annotations

import json

import pytest

from minds_bot import i18n
from minds_bot.render.recalibrate import (
    recalibrate_confirm_view,
    recalibrate_modal,
    render_grounding_changed,
    render_recalibration_request,
)

WORDS = {
    "en": (
        "Research query, replacing the brief: “Collectors in Austria”",
        "Extra links: https://example.com/a",
        "Extra keywords: resale",
        "Selection mode, no new research: only these distributions drive the members: Age, Region",
        "<@U1> asked Minds to recalibrate *Parents* from a new research query: “Collectors in Austria”",
        "Minds' grounded distributions of *Parents* changed since the dialog opened, so nothing was sent. "
        "Open Recalibrate… again to pick from the current ones.",
        "Or a research query that replaces the brief (at most 3,000 characters)",
    ),
    "de": (
        "Forschungsanfrage, die das Briefing ersetzt: „Collectors in Austria“",
        "Zusätzliche Links: https://example.com/a",
        "Zusätzliche Stichwörter: resale",
        "Auswahlmodus, keine neue Forschung: Nur diese Verteilungen bestimmen die Mitglieder: Age, Region",
        "<@U1> hat Minds gebeten, *Parents* mit einer neuen Forschungsanfrage neu zu kalibrieren: "
        "„Collectors in Austria“",
        "Die fundierten Verteilungen von *Parents* in Minds haben sich geändert, seit der Dialog geöffnet wurde; "
        "daher wurde nichts gesendet. Öffnen Sie „Neu kalibrieren…“ erneut, um aus den aktuellen zu wählen.",
        "Oder eine Forschungsanfrage, die das Briefing ersetzt (höchstens 3.000 Zeichen)",
    ),
    "es": (
        "Consulta de investigación que sustituye el brief: «Collectors in Austria»",
        "Enlaces adicionales: https://example.com/a",
        "Palabras clave adicionales: resale",
        "Modo de selección, sin nueva investigación: solo estas distribuciones determinan a los miembros: Age, Region",
        "<@U1> pidió a Minds recalibrar *Parents* con una nueva consulta de investigación: «Collectors in Austria»",
        "Las distribuciones fundamentadas de *Parents* en Minds cambiaron desde que se abrió el diálogo, así que no "
        "se envió nada. Abre «Recalibrar…» de nuevo para elegir entre las actuales.",
        "O una consulta de investigación que sustituye el brief (como máximo 3.000 caracteres)",
    ),
    "zh": (
        "取代简报的研究查询：“Collectors in Austria”",
        "额外链接：https://example.com/a",
        "额外关键词：resale",
        "选择模式，不做新研究：只有这些分布决定成员：Age、Region",
        "<@U1> 请 Minds 用新的研究查询重新校准 *Parents*\u200b：“Collectors in Austria”",
        "自对话框打开以来，Minds 中 *Parents* 的有依据分布已发生变化，因此未发送任何内容。请再次打开“重新校准…”，"
        "从当前分布中选择。",
        "或一个取代简报的研究查询（最多 3,000 个字符）",
    ),
    "ko": (
        "브리프를 대체하는 리서치 쿼리: “Collectors in Austria”",
        "추가 링크: https://example.com/a",
        "추가 키워드: resale",
        "선택 모드, 새 리서치 없음: 이 분포만 구성원을 결정합니다: Age, Region",
        "<@U1>님이 Minds에 새 리서치 쿼리로 *Parents* 재보정을 요청했습니다: “Collectors in Austria”",
        "대화 상자를 연 뒤 Minds에서 *Parents*\u200b의 근거 있는 분포가 바뀌어 아무것도 보내지 않았습니다. "
        "“재보정…”을 다시 열어 현재 분포에서 고르세요.",
        "또는 브리프를 대체하는 리서치 쿼리(최대 3,000자)",
    ),
}


@pytest.mark.parametrize("language", list(WORDS))
def test_the_research_and_selection_modes_read_exactly_so(language: str) -> None:
    query, links, keywords, selection, request, changed, label = WORDS[language]
    with i18n.speaking(language):
        research = json.dumps(
            recalibrate_confirm_view(
                metadata="{}",
                audience_name="Parents",
                members=12,
                instruction=None,
                query="Collectors in Austria",
                links=["https://example.com/a"],
                keywords=["resale"],
            ).to_dict(),
            ensure_ascii=False,
        )
        picked = json.dumps(
            recalibrate_confirm_view(
                metadata="{}", audience_name="Parents", members=12, instruction=None, selection=["Age", "Region"]
            ).to_dict(),
            ensure_ascii=False,
        )
        posted = render_recalibration_request(
            user_id="U1", audience_name="Parents", instruction=None, query="Collectors in Austria"
        )
        modal = json.dumps(
            recalibrate_modal(
                audience_id="a", audience_name="Parents", members=12, channel_id="C1", universe=["Age", "Region"]
            ).to_dict(),
            ensure_ascii=False,
        )
        gone = render_grounding_changed(audience_name="Parents")
    assert query in research and links in research and keywords in research
    assert selection in picked
    assert posted.text == request
    assert gone.text == changed
    assert label in modal


def test_without_a_review_universe_the_dialog_offers_no_selection_mode() -> None:
    bare = json.dumps(recalibrate_modal(audience_id="a", audience_name="P", members=3, channel_id="C1").to_dict())
    assert '"block_id": "mode"' not in bare and '"block_id": "selection"' not in bare
    many = [f"Axis {i}" for i in range(101)]
    modal = recalibrate_modal(audience_id="a", audience_name="P", members=3, channel_id="C1", universe=many)
    text = json.dumps(modal.to_dict())
    assert (
        "Selection mode is not offered here: this Audience has 101 grounded distributions and a Slack list "
        "holds 100." in text
    )
