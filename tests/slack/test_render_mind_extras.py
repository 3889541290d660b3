"""A Mind card's ⋯ menu, its portrait and patterns messages, and the confirmation that deletes several Minds, in
every language — word for word as a person reads them."""

from __future__ import annotations

import json

import pytest

from minds_bot import i18n
from minds_bot.minds import KnowledgePatterns, MindDeletion, RegeneratedImage
from minds_bot.render.mind_extras import more_menu, render_frameworks, render_index_queued, render_portrait
from minds_bot.render.minds_delete import confirm_modal, render_deleted_many

LANGUAGES = ["en", "de", "es", "zh", "ko"]
MIND = "00000000-0000-4000-8000-000000000001"
OTHER = "00000000-0000-4000-8000-000000000002"

MENU = {
    "en": [
        "Regenerate portrait…",
        "Rebuild knowledge index",
        "Patterns",
        "Patterns by framework",
        "Enrich from keywords…",
    ],
    "de": [
        "Porträt neu erstellen…",
        "Wissensindex neu aufbauen",
        "Muster",
        "Muster nach Modell",
        "Mit Stichwörtern anreichern…",
    ],
    "es": [
        "Regenerar retrato…",
        "Reconstruir el índice de conocimiento",
        "Patrones",
        "Patrones por marco",
        "Enriquecer con palabras clave…",
    ],
    "zh": ["重新生成头像…", "重建知识索引", "模式", "按框架查看模式", "用关键词充实…"],
    "ko": ["초상화 다시 만들기…", "지식 색인 다시 만들기", "패턴", "프레임워크별 패턴", "키워드로 보강…"],
}
KEPT = {
    "en": "Minds kept *Nora*'s portrait (image already set). To replace it, tick “Replace the current portrait”.",
    "de": "Minds hat das Porträt von *Nora* behalten (image already set). Um es zu ersetzen, setzen Sie das Häkchen "
    "bei „Aktuelles Porträt ersetzen“.",
    "es": "Minds conservó el retrato de *Nora* (image already set). Para reemplazarlo, marca «Reemplazar el retrato "
    "actual».",
    "zh": "Minds 保留了 *Nora* 的头像（image already set）。如需替换，请勾选“替换当前头像”。",
    "ko": "Minds가 *Nora*\u200b의 초상화를 그대로 두었습니다 (image already set). "
    "바꾸려면 “현재 초상화 바꾸기”를 선택하세요.",
}
QUEUED = {
    "en": "Minds queued a rebuild of *Nora*'s knowledge index; until it finishes, answers use the index as it was.",
    "de": "Minds hat einen Neuaufbau des Wissensindex von *Nora* eingeplant; bis er fertig ist, nutzen Antworten den "
    "bisherigen Index.",
    "es": "Minds puso en cola la reconstrucción del índice de conocimiento de *Nora*; hasta que termine, las "
    "respuestas usan el índice anterior.",
    "zh": "Minds 已将 *Nora* 知识索引的重建加入队列；完成之前，回答仍使用原来的索引。",
    "ko": "Minds가 *Nora*\u200b의 지식 색인 재구성을 대기열에 넣었습니다. 끝날 때까지 답변은 기존 색인을 사용합니다.",
}
CONFIRM = {
    "en": "Delete these 2 Minds for good? Minds deletes each with its knowledge, patterns and chat history; Studies "
    "and Audiences no longer include them. This cannot be undone.",
    "de": "Diese 2 Minds endgültig löschen? Minds löscht jeden mit seinem Wissen, seinen Mustern und seinem "
    "Chatverlauf; Studies und Audiences enthalten sie dann nicht mehr. Das lässt sich nicht rückgängig machen.",
    "es": "¿Eliminar estos 2 Minds para siempre? Minds elimina cada uno con su conocimiento, sus patrones y su "
    "historial de chat; las Studies y Audiences ya no los incluyen. No se puede deshacer.",
    "zh": "永久删除这 2 个 Mind？Minds 会连同各自的知识、模式和聊天记录一起删除；Study 和 Audience 将不再包含它们。"
    "此操作无法撤销。",
    "ko": "이 Mind 2명을 영구 삭제할까요? Minds가 각 Mind를 지식, 패턴, 채팅 기록과 함께 삭제하며 "
    "Study와 Audience에서도 빠집니다. 되돌릴 수 없습니다.",
}
OUTCOME = {
    "en": ("Deleted 1 Mind in Minds: Nora.", "Minds did not delete 1 Mind: Dora (Mind not found)."),
    "de": ("1 Mind in Minds gelöscht: Nora.", "Minds hat 1 Mind nicht gelöscht: Dora (Mind not found)."),
    "es": ("Se eliminó 1 Mind en Minds: Nora.", "Minds no eliminó 1 Mind: Dora (Mind not found)."),
    "zh": ("已在 Minds 中删除 1 个 Mind：Nora。", "Minds 未删除 1 个 Mind：Dora（Mind not found）。"),
    "ko": (
        "Minds에서 Mind 1명을 삭제했습니다: Nora.",
        "Minds가 Mind 1명을 삭제하지 않았습니다: Dora (Mind not found).",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_cards_menu_in_every_language(language: str) -> None:
    with i18n.speaking(language):
        menu = more_menu(MIND)
    assert menu is not None
    assert [o.to_dict()["text"]["text"] for o in menu.options] == MENU[language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_kept_portrait_and_a_queued_rebuild_in_every_language(language: str) -> None:
    kept = RegeneratedImage.model_validate(
        {"mindId": MIND, "name": "Nora", "enqueued": False, "skippedReason": "image already set"}
    )
    with i18n.speaking(language):
        assert render_portrait(kept, name="Nora").text == KEPT[language]
        assert render_index_queued("Nora").text == QUEUED[language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_confirmation_names_each_mind_and_the_outcome_says_each_in_every_language(language: str) -> None:
    results = [
        MindDeletion.model_validate({"mindId": MIND, "deleted": True}),
        MindDeletion.model_validate({"mindId": OTHER, "deleted": False, "error": "Mind not found"}),
    ]
    with i18n.speaking(language):
        view = confirm_modal(channel_id="C1", minds=[(MIND, "Nora"), (OTHER, "Dora")])
        outcome = render_deleted_many(results, [(MIND, "Nora"), (OTHER, "Dora")]).text
    shown = json.dumps(view.to_dict()["blocks"], ensure_ascii=False)
    assert CONFIRM[language] in shown
    assert "• *Nora*" in shown and "• *Dora*" in shown
    assert outcome == "\n".join(OUTCOME[language])


MORE_FRAMEWORKS = {
    "en": "1 more framework is not shown here; Minds shows them all on the Mind's page.",
    "de": "1 weiteres Modell wird hier nicht angezeigt; Minds zeigt alle auf der Seite des Minds.",
    "es": "1 marco más no se muestra aquí; Minds los muestra todos en la página del Mind.",
    "zh": "此处还有 1 个框架未显示；Minds 在该 Mind 的页面上显示全部框架。",
    "ko": "프레임워크 1개가 더 있지만 여기에는 표시되지 않습니다. Minds의 Mind 페이지에서 모두 볼 수 있습니다.",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_patterns_by_framework_say_how_many_frameworks_are_not_shown(language: str) -> None:
    aspect = {"id": "a", "name": "Openness", "occurrences": 1, "subAspects": []}
    frameworks = [{"id": f"f{n}", "name": f"Frame {n}", "totalOccurrences": 1, "aspects": [aspect]} for n in range(41)]
    patterns = KnowledgePatterns.model_validate(
        {"mindId": MIND, "mindName": "Nora", "totalPatterns": 41, "frameworks": frameworks}
    )
    with i18n.speaking(language):
        message = render_frameworks(patterns)
    shown = json.dumps([b.to_dict() for b in message.blocks], ensure_ascii=False)
    assert len(message.blocks) == 42 and "Frame 39" in shown and "Frame 40" not in shown
    assert MORE_FRAMEWORKS[language] in shown
