"""A Mind's card and its delete confirmation in every language: the training line (the card's key line), the
knowledge count and the dialog that names what is deleted — word for word as a person reads them."""

from __future__ import annotations

import json

import pytest

from minds_bot import i18n
from minds_bot.minds import KnowledgeItem, MindDetail, TrainingStatus
from minds_bot.render.mind_card import render_mind_card
from minds_bot.render.mind_dialogs import delete_modal

NORA = MindDetail.model_validate(
    {"id": "m-1", "name": "Nora Nights", "discipline": "Nursing", "readyToChat": False, "knowledgeItemCount": 2}
)
SOURCES = [
    KnowledgeItem.model_validate(
        {"id": f"k-{n}", "description": f"Survey {n}", "link": "https://example.com/s", "processing": {"status": s}}
    )
    for n, s in ((1, "queued"), (2, "completed"))
]


def card_text(status: str, language: str) -> str:
    training = TrainingStatus.model_validate({"status": status, "readyToChat": status == "completed"})
    with i18n.speaking(language):
        card = render_mind_card(mind=NORA, training=training, knowledge=SOURCES)
    return json.dumps([b.to_dict() for b in card.blocks], ensure_ascii=False)


RUNNING = {
    "en": "Training: running — Minds is collecting sources and building the profile. Refresh to follow it.",
    "de": "Training: läuft — Minds sammelt Quellen und erstellt das Profil. Aktualisieren Sie, um es zu verfolgen.",
    "es": "Entrenamiento: en curso — Minds está reuniendo fuentes y creando el perfil. Actualiza para seguirlo.",
    "zh": "训练：进行中 — Minds 正在收集来源并构建档案。刷新以跟进。",
    "ko": "학습: 진행 중 — Minds가 출처를 모으고 프로필을 만들고 있습니다. 새로 고침해서 확인하세요.",
}
DONE = {
    "en": "Training: done — ready to chat (`/minds chat Nora Nights`).",
    "de": "Training: fertig — bereit zum Chatten (`/minds chat Nora Nights`).",
    "es": "Entrenamiento: terminado — listo para chatear (`/minds chat Nora Nights`).",
    "zh": "训练：已完成 — 可以对话（`/minds chat Nora Nights`）。",
    "ko": "학습: 완료 — 대화할 수 있습니다(`/minds chat Nora Nights`).",
}
SOURCES_LINE = {
    "en": (
        "Knowledge: 2 sources",
        "• Survey 1 — https://example.com/s — queued",
        "Survey 2 — https://example.com/s — ready",
    ),
    "de": ("Wissen: 2 Quellen", "• Survey 1 — https://example.com/s — in der Warteschlange", "— bereit"),
    "es": ("Conocimiento: 2 fuentes", "• Survey 1 — https://example.com/s — en cola", "— lista"),
    "zh": ("知识：2 个来源", "• Survey 1 — https://example.com/s — 排队中", "— 就绪"),
    "ko": ("지식: 출처 2개", "• Survey 1 — https://example.com/s — 대기 중", "— 준비됨"),
}
DELETE = {
    "en": "Delete the Mind *Nora Nights*? Minds deletes it for good with its knowledge (2 sources), its patterns and "
    "its chat history. Studies and Audiences no longer include it. This cannot be undone.",
    "de": "Den Mind *Nora Nights* löschen? Minds löscht ihn endgültig mit seinem Wissen (2 Quellen), seinen Mustern "
    "und seinem Chatverlauf. Studies und Audiences enthalten ihn danach nicht mehr. Das kann nicht rückgängig "
    "gemacht werden.",
    "es": "¿Eliminar el Mind *Nora Nights*? Minds lo elimina para siempre con su conocimiento (2 fuentes), sus "
    "patrones y su historial de chat. Los Studies y las Audiences dejan de incluirlo. No se puede deshacer.",
    "zh": "要删除 Mind *Nora Nights* 吗？Minds 会将其连同其知识（2 个来源）、其模式和对话记录永久删除。Studies 和 "
    "Audiences 将不再包含它。此操作无法撤销。",
    "ko": "Mind *Nora Nights*를 삭제할까요? Minds가 지식(출처 2개), 패턴, 대화 기록과 함께 영구 삭제합니다. "
    "Studies와 Audiences에서도 빠집니다. 되돌릴 수 없습니다.",
}


@pytest.mark.parametrize("language", ["en", "de", "es", "zh", "ko"])
def test_the_cards_training_line_says_where_training_is(language: str) -> None:
    assert RUNNING[language] in card_text("running", language)
    assert DONE[language] in card_text("completed", language)


@pytest.mark.parametrize("language", ["en", "de", "es", "zh", "ko"])
def test_the_card_lists_each_knowledge_source_with_its_processing(language: str) -> None:
    shown = card_text("running", language)
    for words in SOURCES_LINE[language]:
        assert words in shown


@pytest.mark.parametrize("language", ["en", "de", "es", "zh", "ko"])
def test_the_delete_confirmation_names_the_mind_and_what_goes_with_it(language: str) -> None:
    with i18n.speaking(language):
        view = delete_modal(mind_id="m-1", name="Nora Nights", sources=2, channel_id="C1").to_dict()
    # as Slack shows it: the zero-width space that lets bold render next to Hangul is not seen
    assert view["blocks"][0]["text"]["text"].replace("\u200b", "") == DELETE[language]


def test_a_failed_training_says_whether_a_retrain_may_help() -> None:
    failed = {"status": "failed", "readyToChat": False, "error": {"code": "PROFILE_GEN_FAILED", "retryable": True}}
    card = render_mind_card(mind=NORA, training=TrainingStatus.model_validate(failed), knowledge=[])
    assert "Training: failed (PROFILE_GEN_FAILED). Retrain may recover it." in card.text
    assert "mind_retrain" in json.dumps([b.to_dict() for b in card.blocks])
