"""The New Audience words in every language the bot speaks, word for word: the dataset review (rows used,
segments with their shares, held-out variables, counts "not reported" when Minds leaves them out, the mode), the
channel line for an Audience made from chosen Minds, and the dialog's creation modes."""

from __future__ import annotations

import pytest

from minds_bot import i18n
from minds_bot.minds import AudienceCreated, AudienceLimits, SegmentationPreview
from minds_bot.render.audience_new import render_audience_made, render_new_audience, render_review
from tests.minds.design_samples import audience_created, segmentation_preview

NB = "\u00a0"  # German and Spanish write a no-break space before the percent sign
ZW = "\u200b"  # the bot's word break after closing bold before CJK text
REVIEW = {
    "en": (
        "*panel.csv*: 40 of 42 rows used (every completed respondent row). Minds recommends 12 Minds.",
        "*Age band*: 18-34 50% (20) · 35-54 50% (20)\n*Region*: North 100% (40)",
        "Relationships between variables: not reported. Dependencies: not reported.",
        "Built in the Benchmark depth mode, which a reviewed dataset needs.",
    ),
    "de": (
        "*panel.csv*: 40 von 42 Zeilen genutzt (jede vollständig ausgefüllte Befragtenzeile). "
        "Minds empfiehlt 12 Minds.",
        f"*Age band*: 18-34 50{NB}% (20) · 35-54 50{NB}% (20)\n*Region*: North 100{NB}% (40)",
        "Beziehungen zwischen Variablen: nicht angegeben. Abhängigkeiten: nicht angegeben.",
        "Erstellt im Modus Benchmark-Tiefe, den ein geprüfter Datensatz braucht.",
    ),
    "es": (
        "*panel.csv*: se usan 40 de 42 filas (todas las filas de encuestados completas). Minds recomienda 12 Minds.",
        f"*Age band*: 18-34 50{NB}% (20) · 35-54 50{NB}% (20)\n*Region*: North 100{NB}% (40)",
        "Relaciones entre variables: no indicado. Dependencias: no indicado.",
        "Se crea en el modo Profundidad de referencia, que requiere un conjunto de datos revisado.",
    ),
    "zh": (
        f"*panel.csv*{ZW}：使用了 42 行中的 40 行（所有已完成的受访者行）。Minds 建议 12 个 Mind。",
        f"*Age band*{ZW}：18-34 50%（20） · 35-54 50%（20）\n*Region*{ZW}：North 100%（40）",
        "变量之间的关系：未报告。依赖关系：未报告。",
        "将以基准深度模式创建，这是经审阅的数据集所需的模式。",
    ),
    "ko": (
        "*panel.csv*: 42행 중 40행 사용(완료된 모든 응답자 행). Minds 권장: Mind 12명.",
        "*Age band*: 18-34 50%(20) · 35-54 50%(20)\n*Region*: North 100%(40)",
        "변수 간 관계: 보고되지 않음. 종속성: 보고되지 않음.",
        "검토한 데이터셋에 필요한 벤치마크 심도 모드로 만듭니다.",
    ),
}
MADE = {
    "en": "<@U1> made the Audience *Coffee fans* from 3 Minds.",
    "de": "<@U1> hat die Audience *Coffee fans* aus 3 Minds erstellt.",
    "es": "<@U1> creó la Audience *Coffee fans* con 3 Minds.",
    "zh": f"<@U1> 用 3 个 Mind 创建了 Audience *Coffee fans*{ZW}。",
    "ko": f"<@U1>님이 Mind 3명으로 Audience *Coffee fans*{ZW}를 만들었습니다.",
}
NO_WEB = {
    "en": "No web search: only the brief, links, keywords and dataset",
    "de": "Keine Websuche: nur Beschreibung, Links, Stichwörter und Datensatz",
    "es": "Sin búsqueda web: solo descripción, enlaces, palabras clave y datos",
    "zh": "不进行网络搜索：仅依据描述、链接、关键词和数据集",
    "ko": "웹 검색 없음: 설명, 링크, 키워드, 데이터셋만 사용",
}
MODES = {
    "en": ["Balanced", "Segment coverage", "Benchmark depth"],
    "de": ["Ausgewogen", "Segmentabdeckung", "Benchmark-Tiefe"],
    "es": ["Equilibrado", "Cobertura de segmentos", "Profundidad de referencia"],
    "zh": ["均衡", "细分覆盖", "基准深度"],
    "ko": ["균형", "세그먼트 커버리지", "벤치마크 심도"],
}


def _texts(view: dict) -> list[str]:
    return [
        b["text"]["text"] if "text" in b else b["elements"][0]["text"] for b in view["blocks"] if b["type"] != "input"
    ]


@pytest.mark.parametrize("language", sorted(REVIEW))
def test_the_review_in_every_language(language: str) -> None:
    older = segmentation_preview()
    for key in ("relationships", "relationshipCount", "functionalDependencies", "dependencyCount"):
        older.pop(key)  # an older reply: its counts are "not reported", never zero
    with i18n.speaking(language):
        texts = _texts(render_review(SegmentationPreview.model_validate(older), request_id="k").to_dict())
    summary, segments, counts, mode = REVIEW[language]
    assert texts[0] == summary and texts[2] == segments and counts in texts and texts[-1] == mode


@pytest.mark.parametrize("language", sorted(MADE))
def test_an_audience_made_from_minds_in_every_language(language: str) -> None:
    made = AudienceCreated.model_validate(audience_created(mind_ids=("m1", "m2", "m3")))
    with i18n.speaking(language):
        assert render_audience_made(made, user_id="U1").text == MADE[language]


@pytest.mark.parametrize("language", sorted(MODES))
def test_the_creation_modes_in_every_language(language: str) -> None:
    limits = AudienceLimits.model_validate(
        {"perAudienceCap": 50, "modes": [{"mode": m} for m in ("balanced", "segment_coverage", "benchmark_depth")]}
    )
    with i18n.speaking(language):
        view = render_new_audience(channel_id="C1", limits=limits).to_dict()
    (select,) = [b["element"] for b in view["blocks"] if b.get("block_id") == "audience_new_mode"]
    assert [o["text"]["text"] for o in select["options"]] == MODES[language]
    assert select["initial_option"]["value"] == "balanced"
    (grounding,) = [b["element"] for b in view["blocks"] if b.get("block_id") == "audience_new_grounding"]
    assert grounding["options"][0]["text"]["text"] == NO_WEB[language]
