"""Minds' words a person reads go through the catalogs (issue 34 row 13): run, job and export states
(``completed``, ``plan_limited``, ``partial``, ``cancelled``, ``queued`` …), the allowance refusal's limit type and
plan name, the values of ``/minds methods`` and quotation marks — exact words in all five languages."""

from __future__ import annotations

import json

import pytest

from minds_bot import i18n
from minds_bot.minds import AgentRun, PlanLimitError, ResearchMethod
from minds_bot.render.answers import render_run_ended, render_run_progress
from minds_bot.render.compare import render_not_finished
from minds_bot.render.errors import user_message
from minds_bot.render.methods import method_line
from minds_bot.render.run_names import run_line
from minds_bot.render.states import STATES, state_word
from minds_sandbox.views import RESEARCH_METHODS
from tests.fakes.bot import bot_harness
from tests.fakes.minds_http import raw

LANGUAGES = list(i18n.LANGUAGES)

STATE_WORDS = {
    "queued": ("queued", "in der Warteschlange", "en cola", "排队中", "대기 중"),
    "running": ("running", "läuft", "en curso", "运行中", "실행 중"),
    "processing": ("processing", "in Bearbeitung", "en proceso", "处理中", "처리 중"),
    "completed": ("completed", "abgeschlossen", "completada", "已完成", "완료됨"),
    "partial": ("partial", "teilweise – nicht vollständig", "parcial: no completa", "部分完成（不完整）",
                "부분 완료(완료 아님)"),
    "plan_limited": ("plan limit reached", "Plan-Limit erreicht", "límite del plan alcanzado", "已达套餐限额",
                     "플랜 한도 도달"),
    "failed": ("failed", "fehlgeschlagen", "fallida", "失败", "실패"),
    "cancelled": ("cancelled", "abgebrochen", "cancelada", "已取消", "취소됨"),
}  # fmt: skip


@pytest.mark.parametrize("status", sorted(STATE_WORDS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_state_minds_reports_is_said_in_the_readers_language(status: str, language: str) -> None:
    with i18n.speaking(language):
        assert state_word(status) == STATE_WORDS[status][LANGUAGES.index(language)]


def test_every_state_is_translated_and_an_unknown_state_is_shown_as_minds_wrote_it() -> None:
    for language in LANGUAGES[1:]:
        with i18n.speaking(language):
            assert [s for s in STATES if state_word(s) == STATES[s] and s != "beta"] == [], language
            assert state_word("<archived>") == "&lt;archived&gt;"


@pytest.mark.parametrize(
    ("language", "progress", "ended", "not_finished"),
    [
        ("en", "Minds reports the run as processing…", "The run ended as partial; there are no answers to show.",
         "Run 2 is queued; only finished runs can be compared."),
        ("de", "Minds meldet den Status des Durchlaufs: in Bearbeitung…",
         "Der Durchlauf endete mit dem Status „teilweise – nicht vollständig“; es gibt keine Antworten anzuzeigen.",
         "Status von Durchlauf 2: in der Warteschlange; nur abgeschlossene Durchläufe lassen sich vergleichen."),
        ("es", "Minds informa del estado de la ejecución: en proceso…",
         "La ejecución terminó con el estado «parcial: no completa»; no hay respuestas que mostrar.",
         "Estado de la ejecución 2: en cola; solo se pueden comparar ejecuciones terminadas."),
        ("zh", "Minds 报告的运行状态为处理中…", "运行以“部分完成（不完整）”状态结束，没有可显示的回答。",
         "运行 2 的状态为排队中；只能比较已结束的运行。"),
        ("ko", "Minds가 보고한 실행 상태: 처리 중…",
         "실행이 ‘부분 완료(완료 아님)’ 상태로 끝나 표시할 답변이 없습니다.",
         "실행 2의 상태는 대기 중입니다. 완료된 실행만 비교할 수 있습니다."),
    ],
)  # fmt: skip
def test_run_states_in_sentences_read_in_every_language(
    language: str, progress: str, ended: str, not_finished: str
) -> None:
    with i18n.speaking(language):
        assert render_run_progress("processing").text == progress
        assert render_run_ended("partial").text == ended
        assert render_not_finished(number=2, status="queued") == not_finished


ALLOWANCE = {
    "en": "Your Minds responses allowance is used up (100 of 100 on the Premium plan).",
    "de": "Ihr Minds-Kontingent für Antworten ist aufgebraucht (100 von 100 im Tarif Premium).",
    "es": "Se agotó tu cupo de respuestas en Minds (100 de 100 en el plan Premium).",
    "zh": "你的 Minds 回答额度已用完（高级版套餐已用 100/100）。",
    "ko": "Minds 응답 한도를 모두 사용했습니다(프리미엄 요금제 100 중 100 사용).",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_allowance_refusal_names_what_is_used_up_in_the_readers_words(language: str) -> None:
    refused = PlanLimitError(
        status_code=403,
        code="PLAN_LIMIT",
        data={"limitType": "responses", "currentPlan": "premium", "limit": 100, "current": 100},
    )
    with i18n.speaking(language):
        said = user_message(refused)
    assert said.startswith(ALLOWANCE[language])
    if language != "en":
        assert "responses" not in said and "premium" not in said


METHOD_LINES = {
    "en": (
        "• *Van Westendorp price sensitivity* (`van-westendorp`) — runnable · advanced: the approver ticks the "
        "advanced-method opt-in · complexity: intermediate · needs: product description, currency · outputs: price "
        "range",
        "• *Conjoint* (`conjoint`) — not runnable (planned) · complexity: advanced · needs: attributes with levels · "
        "outputs: utilities · alternative to review: MaxDiff",
    ),
    "de": (
        "• *Van-Westendorp-Preissensitivität* (`van-westendorp`) — ausführbar · fortgeschritten: Die genehmigende "
        "Person muss fortgeschrittene Methoden ausdrücklich zulassen · Komplexität: mittel · benötigt: "
        "Produktbeschreibung, Währung · liefert: Preisspanne",
        "• *Conjoint* (`conjoint`) — nicht ausführbar (geplant) · Komplexität: fortgeschritten · benötigt: Attribute "
        "mit Ausprägungen · liefert: Teilnutzenwerte · Alternative zur Prüfung: MaxDiff",
    ),
    "es": (
        "• *Sensibilidad al precio de Van Westendorp* (`van-westendorp`) — ejecutable · avanzado: quien aprueba "
        "debe marcar la opción de métodos avanzados · complejidad: intermedia · requiere: descripción del "
        "producto, moneda · resultados: rango de precios",
        "• *Conjoint* (`conjoint`) — no ejecutable (previsto) · complejidad: avanzada · requiere: atributos con "
        "niveles · resultados: utilidades · alternativa para revisar: MaxDiff",
    ),
    "zh": (
        "• *Van Westendorp 价格敏感度*\u200b（`van-westendorp`） — 可运行 · 高级：审批人需勾选启用高级方法 · "
        "复杂度：中等 · 需要：产品描述、币种 · 输出：价格区间",
        "• *Conjoint*\u200b（`conjoint`） — 不可运行（计划中） · 复杂度：高级 · 需要：带水平的属性 · 输出：效用值 · "
        "可供审阅的替代方法：MaxDiff",
    ),
    "ko": (
        "• *Van Westendorp 가격 민감도* (`van-westendorp`) — 실행 가능 · 고급: 승인자가 고급 방법 사용에 동의해야 "
        "합니다 · 복잡도: 중급 · 필요: 제품 설명, 통화 · 출력: 가격 범위",
        "• *Conjoint* (`conjoint`) — 실행 불가(예정) · 복잡도: 고급 · 필요: 수준이 있는 속성 · 출력: 효용값 · 검토할 "
        "대안: MaxDiff",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_method_catalogues_values_read_in_every_language(language: str) -> None:
    methods = [ResearchMethod.model_validate(m) for m in RESEARCH_METHODS]
    by_id = {m.id: m for m in methods}
    with i18n.speaking(language):
        lines = method_line(by_id["van-westendorp"], methods), method_line(by_id["conjoint"], methods)
    assert lines == METHOD_LINES[language]


def test_every_value_of_the_sandbox_catalogue_is_translated() -> None:
    """Every complexity, availability, need, output and descriptive name the sandbox sends (Minds' catalogue)
    reads differently in each translated language; only the proper names (MaxDiff, Conjoint, Kano) stay."""
    from minds_bot.render import method_words

    values = {m.get("complexity") for m in RESEARCH_METHODS} | {m.get("availability") for m in RESEARCH_METHODS}
    values |= {w for m in RESEARCH_METHODS for w in (*m.get("requiredConfiguration", ()), *m.get("outputTypes", ()))}
    known = {
        **method_words.COMPLEXITY,
        **method_words.AVAILABILITY,
        **method_words.REQUIRES,
        **method_words.OUTPUTS,
        **method_words.NAMES,
    }
    names = {m["name"] for m in RESEARCH_METHODS} - {"MaxDiff", "Conjoint", "Kano", "Net Promoter Score"}
    missing = sorted(v for v in (values - {None}) | names if v not in known)
    assert missing == []
    for language in LANGUAGES[1:]:
        with i18n.speaking(language):
            same = sorted(
                v
                for v in known.values()
                if i18n._(v) == v and v not in ("Minds", "Net Promoter Score", "experimental", "beta")
            )
        assert same == [], language


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "• date unknown · “How much would you pay?” · n unknown · plan limit reached"),
        ("de", "• Datum unbekannt · „How much would you pay?“ · n unbekannt · Plan-Limit erreicht"),
        ("es", "• fecha desconocida · «How much would you pay?» · n desconocido · límite del plan alcanzado"),
        ("zh", "• 日期未知 · “How much would you pay?” · n 未知 · 已达套餐限额"),
        ("ko", "• 날짜 알 수 없음 · “How much would you pay?” · n 알 수 없음 · 플랜 한도 도달"),
    ],
)
def test_a_run_line_quotes_and_states_in_the_readers_language(language: str, expected: str) -> None:
    run = AgentRun.model_validate({"runId": "r1", "status": "plan_limited", "question": "How much would you pay?"})
    with i18n.speaking(language):
        assert run_line(run) == expected


async def test_minds_methods_through_the_app_speaks_the_persons_language() -> None:
    async with bot_harness() as bot:
        bot.slack.users[bot.user] = {"id": bot.user, "locale": "de-DE"}
        bot.minds_api.set("GET", "/research-methods", raw({"data": list(RESEARCH_METHODS)}))
        await bot.command("methods")
        reply = await bot.reply()
        shown = json.dumps(reply["blocks"], ensure_ascii=False)
    assert METHOD_LINES["de"][1] in shown
    assert "Komplexität: einfach" in shown and "liefert: Kategorien, Mehrfachauswahl, Skala, offene Antworten" in shown
    assert "planned" not in shown and "price_range" not in shown and "intermediate" not in shown
