"""The words of deleting a Study and of reading, editing and deleting a template, in every language the bot speaks:
the confirmation dialogs name what is deleted, what goes with it and what stays; the outcome says what happened."""

from __future__ import annotations

import json

import pytest

from minds_bot import i18n
from minds_bot.minds import MindDetail, StudyDetail, StudyTemplate
from minds_bot.render.chat import render_chat_deleted, render_group_chat_header
from minds_bot.render.draft_dialogs import (
    render_changed_meanwhile,
    render_template_deleted,
    render_template_updated,
    template_delete_modal,
    template_modal,
    with_note,
)
from minds_bot.render.exports import export_requested
from minds_bot.render.modals import render_pick_study
from minds_bot.render.study import render_study_card
from minds_bot.render.study_delete import render_study_deleted, render_study_gone, study_delete_modal
from minds_bot.slack.grammar import Duplicate, ShowStudy, StudyDelete, Usage, parse_command
from tests.slack.plan_samples import study_data

STUDY = StudyDetail.model_validate(study_data() | {"questionCount": 12, "isLinkSharingEnabled": True})

DIALOG = {
    "en": (
        "Delete Study",
        "Delete the Study *Reusable cups* (`11111111-1111-4111-8111-111111111111`)?",
        "*Deleted with it:* its 12 questions and every answer to them; its runs, summary, charts, heatmaps and "
        "exports; its public link.",
        "*Not deleted:* its Audiences (*Commuters*, *Students*) and their Minds, which other Studies may use.",
        "This cannot be undone.",
    ),
    "de": (
        "Study löschen",
        "Die Study *Reusable cups* (`11111111-1111-4111-8111-111111111111`) löschen?",
        "*Mit ihr gelöscht:* ihre 12 Fragen und alle Antworten darauf; ihre Durchläufe, Zusammenfassung, Diagramme, "
        "Heatmaps und Exporte; ihr öffentlicher Link.",
        "*Nicht gelöscht:* ihre Audiences (*Commuters*, *Students*) und deren Minds, die andere Studies nutzen können.",
        "Das lässt sich nicht rückgängig machen.",
    ),
    "es": (
        "Eliminar Study",
        "¿Eliminar la Study *Reusable cups* (`11111111-1111-4111-8111-111111111111`)?",
        "*Se elimina con ella:* sus 12 preguntas y todas sus respuestas; sus ejecuciones, resumen, gráficos, mapas de "
        "calor y exportaciones; su enlace público.",
        "*No se elimina:* sus Audiences (*Commuters*, *Students*) y sus Minds, que otras Studies pueden usar.",
        "Esto no se puede deshacer.",
    ),
    "zh": (
        "删除 Study",
        "删除 Study *Reusable cups*（`11111111-1111-4111-8111-111111111111`）？",
        "*随之删除：*它的 12 个问题及其全部回答；它的运行、摘要、图表、热力图和导出；它的公开链接。",
        "*不会删除：*它的 Audience（*Commuters*、*Students*）及其 Minds，其他 Study 可能在使用它们。",
        "此操作无法撤销。",
    ),
    "ko": (
        "Study 삭제",
        "Study *Reusable cups* (`11111111-1111-4111-8111-111111111111`) — 삭제할까요?",
        "*함께 삭제됨:* 질문 12개와 그에 대한 모든 답변, 실행, 요약, 차트, 히트맵, 내보내기, 공개 링크.",
        "*삭제되지 않음:* Audience(*Commuters*, *Students*)와 그 Minds. 다른 Study에서 사용할 수 있습니다.",
        "이 작업은 되돌릴 수 없습니다.",
    ),
}
DELETED = {
    "en": "Deleted the Study *Reusable cups*. Its Audiences and their Minds were not deleted.",
    "de": "Die Study *Reusable cups* wurde gelöscht. Ihre Audiences und deren Minds wurden nicht gelöscht.",
    "es": "Se eliminó la Study *Reusable cups*. Sus Audiences y sus Minds no se eliminaron.",
    "zh": "已删除 Study *Reusable cups* 。它的 Audience 及其 Minds 未被删除。",
    "ko": "Study *Reusable cups* 삭제 완료. Audience와 그 Minds는 삭제되지 않았습니다.",
}
GONE = {
    "en": "The Study *Reusable cups* is no longer in Minds (already deleted); nothing was deleted now.",
    "de": "Die Study *Reusable cups* ist nicht mehr in Minds (bereits gelöscht); jetzt wurde nichts gelöscht.",
    "es": "La Study *Reusable cups* ya no está en Minds (ya se eliminó); ahora no se eliminó nada.",
    "zh": "Study *Reusable cups* 已不在 Minds 中（已被删除）；这次没有删除任何内容。",
    "ko": "Study *Reusable cups*는 더 이상 Minds에 없습니다(이미 삭제됨). 이번에는 아무것도 삭제하지 않았습니다.",
}


def texts(view: dict) -> list[str]:
    """What a person reads in the dialog (the zero-width spaces that let bold render next to CJK are not seen)."""
    found = [view["title"]["text"]]
    for block in view["blocks"]:
        if "text" in block:
            found.append(block["text"]["text"])
        found += [e["text"] for e in block.get("elements", []) if isinstance(e, dict) and "text" in e]
    return [text.replace("\u200b", "") for text in found]


@pytest.mark.parametrize("language", list(DIALOG))
def test_the_delete_dialog_names_the_study_what_goes_and_what_stays(language: str) -> None:
    with i18n.speaking(language):
        view = study_delete_modal(STUDY, metadata=json.dumps({"s": STUDY.id})).to_dict()
    assert texts(view) == list(DIALOG[language])


@pytest.mark.parametrize("language", list(DELETED))
def test_deleted_and_already_gone_say_what_happened(language: str) -> None:
    with i18n.speaking(language):
        assert render_study_deleted(STUDY.name).text.replace("\u200b", "") == DELETED[language]
        assert render_study_gone(STUDY.name).text.replace("\u200b", "") == GONE[language]


def test_a_study_without_a_count_or_audiences_says_so_and_names_are_escaped() -> None:
    bare = STUDY.model_copy(update={"question_count": None, "audiences": [], "name": "<!channel> cups"})
    said = texts(study_delete_modal(bare, metadata="{}").to_dict())
    assert said[1].startswith("Delete the Study *&lt;!channel&gt; cups*")
    assert said[2] == (
        "*Deleted with it:* its questions (Minds gave no count) and every answer to them; its runs, summary, charts, "
        "heatmaps and exports; its public link."
    )
    assert said[3] == "*Not deleted:* no Audiences are attached to it."


@pytest.mark.parametrize(
    ("typed", "study", "name"),
    [
        ('duplicate "Launch positioning" as "Launch Q3"', "Launch positioning", "Launch Q3"),
        ("duplicate Launch positioning as Launch Q3", "Launch positioning", "Launch Q3"),
        ('duplicate "Tested as gift"', "Tested as gift", None),
        ("duplicate Pricing pulse", "Pricing pulse", None),
    ],
)
def test_a_copy_is_named_after_as(typed: str, study: str, name: str | None) -> None:
    parsed = parse_command(typed)
    assert isinstance(parsed, Duplicate) and parsed.study is not None
    assert (parsed.study.text, parsed.name) == (study, name)


def test_study_delete_names_the_study_and_new_still_makes_one() -> None:
    parsed = parse_command('study delete "Pricing pulse"')
    assert isinstance(parsed, StudyDelete) and parsed.study is not None and parsed.study.text == "Pricing pulse"
    assert parse_command("study delete") == StudyDelete(None)
    assert isinstance(parse_command('study "delete me"'), ShowStudy)


COPY_USAGE = {
    "en": 'Say `/minds duplicate <study>` to make a private copy of a Study, or `/minds duplicate <study> as "<name>"` '
    "to name the copy (quote a Study name that holds the word “as”).",
    "de": "Sagen Sie `/minds duplicate <study>`, um eine private Kopie einer Study anzulegen, oder "
    '`/minds duplicate <study> as "<name>"`, um die Kopie zu benennen (setzen Sie einen Study-Namen mit dem Wort „as“ '
    "in Anführungszeichen).",
    "es": "Escribe `/minds duplicate <study>` para hacer una copia privada de una Study, o "
    '`/minds duplicate <study> as "<name>"` para darle nombre a la copia (pon entre comillas el nombre de una Study '
    "que contenga la palabra «as»).",
    "zh": '输入 `/minds duplicate <study>` 复制一个 Study 的私有副本，或输入 `/minds duplicate <study> as "<name>"` '
    "为副本命名（Study 名称中含有单词“as”时请加引号）。",
    "ko": "Study의 비공개 사본을 만들려면 `/minds duplicate <study>`, 사본에 이름을 붙이려면 "
    '`/minds duplicate <study> as "<name>"`'
    "를 입력하세요(Study 이름에 “as”라는 단어가 있으면 따옴표로 묶으세요).",
}


@pytest.mark.parametrize("language", list(COPY_USAGE))
def test_a_copy_without_a_name_after_as_is_told_how(language: str) -> None:
    with i18n.speaking(language):
        parsed = parse_command('duplicate "Launch positioning" as ""')
    assert isinstance(parsed, Usage) and parsed.message == COPY_USAGE[language]


# --- drafts and templates (issue 37, item 3) -----------------------------------------------------------------------

TEMPLATE = StudyTemplate.model_validate(
    {
        "id": "8b1b2c3d-0000-4000-8000-000000000001",
        "name": "Concept test",
        "revision": 3,
        "isSharedWithTeam": False,
        "canManage": True,
        "canShareWithTeam": False,
        "createdAt": "2026-01-01T00:00:00Z",
        "updatedAt": "2026-01-01T00:00:00Z",
        "configuration": {
            "version": 1,
            "goal": "concept",
            "studyLocale": "en",
            "methodId": "survey",
            "questions": [
                {"text": "First reaction?", "response": {"type": "qualitative"}},
                {"text": "Buy it?", "response": {"type": "categorical", "categoricalOptions": ["Yes", "No"]}},
            ],
        },
    }
)
TEMPLATE_WORDS = {
    "en": (
        "Delete template",
        "Delete the template *Concept test*?",
        "Its 2 questions and its settings are deleted in Minds. Drafts already made from it and Studies planned with "
        "it stay.",
        "*Concept test* · revision 3 · goal concept · method survey · en",
        "Saved the template *Concept test* (revision 3).",
        "Deleted the template *Concept test*.",
        "The template changed in Minds since you opened it; nothing was saved. Open it again.",
    ),
    "de": (
        "Vorlage löschen",
        "Die Vorlage *Concept test* löschen?",
        "Ihre 2 Fragen und ihre Einstellungen werden in Minds gelöscht. Bereits daraus erstellte Entwürfe und damit "
        "geplante Studies bleiben.",
        "*Concept test* · Revision 3 · Ziel concept · Methode survey · en",
        "Die Vorlage *Concept test* wurde gespeichert (Revision 3).",
        "Die Vorlage *Concept test* wurde gelöscht.",
        "Die Vorlage wurde in Minds geändert, seit Sie sie geöffnet haben; es wurde nichts gespeichert. Öffnen Sie "
        "sie erneut.",
    ),
    "es": (
        "Eliminar plantilla",
        "¿Eliminar la plantilla *Concept test*?",
        "Sus 2 preguntas y su configuración se eliminan en Minds. Los borradores ya creados con ella y las Studies "
        "planificadas con ella se quedan.",
        "*Concept test* · revisión 3 · objetivo concept · método survey · en",
        "Se guardó la plantilla *Concept test* (revisión 3).",
        "Se eliminó la plantilla *Concept test*.",
        "La plantilla cambió en Minds desde que la abriste; no se guardó nada. Vuelve a abrirla.",
    ),
    "zh": (
        "删除模板",
        "删除模板 *Concept test* ？",
        "它的 2 个问题和设置将在 Minds 中删除。已由它生成的草稿和用它规划的 Study 会保留。",
        "*Concept test* · 修订版 3 · 目标 concept · 方法 survey · en",
        "已保存模板 *Concept test* （修订版 3）。",
        "已删除模板 *Concept test* 。",
        "自你打开后，该模板已在 Minds 中被修改；未保存任何内容。请重新打开。",
    ),
    "ko": (
        "템플릿 삭제",
        "템플릿 *Concept test* — 삭제할까요?",
        "질문 2개와 설정이 Minds에서 삭제됩니다. 이 템플릿으로 이미 만든 초안과 계획한 Study는 남습니다.",
        "*Concept test* · 수정본 3 · 목표 concept · 방법 survey · en",
        "템플릿 *Concept test* 저장 완료(수정본 3).",
        "템플릿 *Concept test* 삭제 완료.",
        "템플릿을 연 뒤 Minds에서 변경되어 아무것도 저장하지 않았습니다. 다시 여세요.",
    ),
}


@pytest.mark.parametrize("language", list(TEMPLATE_WORDS))
def test_a_template_read_edited_and_deleted_in_every_language(language: str) -> None:
    title, ask, goes, heading, saved, deleted, changed = TEMPLATE_WORDS[language]
    with i18n.speaking(language):
        confirm = texts(template_delete_modal(TEMPLATE, metadata="{}").to_dict())
        form = template_modal(TEMPLATE, metadata="{}", editable=True).to_dict()
        said = (
            render_template_updated(TEMPLATE).text,
            render_template_deleted(TEMPLATE.name).text,
            render_changed_meanwhile("template").text,
        )
    assert confirm[:3] == [title, ask, goes]
    assert texts(form)[1] == heading
    fields = [b["block_id"] for b in form["blocks"] if b["type"] == "input"]
    initial = [b["element"].get("initial_value") for b in form["blocks"] if b["type"] == "input"]
    assert fields == ["name", "goal", "question_1", "question_2"], "no team field: Minds says the owner has no team"
    assert initial == ["Concept test", None, "First reaction?", "Buy it?"]
    assert [s.replace("\u200b", "") for s in said] == [saved, deleted, changed]


def test_a_template_one_may_not_change_lists_every_question_with_its_answer_format() -> None:
    view = with_note(template_modal(TEMPLATE, metadata="{}", editable=False), "Only a workspace admin.").to_dict()
    said = texts(view)
    assert "submit" not in view
    assert "2 questions\n1. First reaction? (Open answer)\n2. Buy it? (One of: Yes · No)" in said
    assert said[-1] == "Only a workspace admin."


# --- one question's results from the Study card (issue 37, item 2) -------------------------------------------------

RESULTS_WORDS = {
    "en": (
        "*Results by question* (also those asked in Minds):",
        "1 older question with results is not listed here; its results are in Minds.",
    ),
    "de": (
        "*Ergebnisse je Frage* (auch der in Minds gestellten):",
        "1 ältere Frage mit Ergebnissen ist hier nicht aufgeführt; ihre Ergebnisse sind in Minds.",
    ),
    "es": (
        "*Resultados por pregunta* (también de las hechas en Minds):",
        "1 pregunta más antigua con resultados no aparece aquí; sus resultados están en Minds.",
    ),
    "zh": (
        "*按问题查看结果*（包括在 Minds 中提出的问题）：",
        "另有 1 个较早的有结果的问题未在此列出；其结果在 Minds 中。",
    ),
    "ko": (
        "*질문별 결과* (Minds에서 한 질문 포함):",
        "결과가 있는 이전 질문 1개는 여기에 나열되지 않습니다. 결과는 Minds에 있습니다.",
    ),
}


def answered_study(count: int) -> StudyDetail:
    messages = []
    for n in range(count):
        when = f"2026-11-01T09:{n:02d}:00Z"
        messages.append({"id": f"u{n}", "role": "user", "content": f"Question {n}?", "createdAt": when})
        output = {"title": f"Question {n} <b>?", "type": "categorical"}
        metadata = {"outputData": output}
        messages.append({"id": f"a{n}", "role": "assistant", "content": "", "metadata": metadata, "createdAt": when})
    return StudyDetail.model_validate(study_data() | {"messages": messages})


@pytest.mark.parametrize("language", list(RESULTS_WORDS))
def test_the_card_lists_the_latest_ten_answered_questions_and_counts_the_older(language: str) -> None:
    with i18n.speaking(language):
        card = render_study_card(answered_study(12), [], hidden_messages={"a11"})
    blocks = [b.to_dict() for b in card.blocks or []]
    rows = [b for b in blocks if (b.get("accessory") or {}).get("action_id") == "study_result"]
    said = [b["text"]["text"].replace("\u200b", "") for b in blocks if b["type"] == "section"]
    heading, older = RESULTS_WORDS[language]
    assert heading in said
    assert len(rows) == 10 and rows[0]["text"]["text"].startswith("• Question 10 &lt;b&gt;?"), "newest first, escaped"
    assert json.loads(rows[0]["accessory"]["value"]) == {"s": STUDY.id, "m": "a10"}, "a11 is of a hidden run"
    contexts = [e["text"].replace("\u200b", "") for b in blocks if b["type"] == "context" for e in b["elements"]]
    assert older in contexts


# --- asking only some of a Study's Audiences (issue 37, item 2) ----------------------------------------------------

AUDIENCE_PICK_WORDS = {
    "en": (
        "Audiences that answer",
        "All of the Study's Audiences answer unless you remove some.",
        "Pick at least one Audience.",
    ),
    "de": (
        "Audiences, die antworten",
        "Alle Audiences der Study antworten, sofern Sie keine entfernen.",
        "Wählen Sie mindestens eine Audience.",
    ),
    "es": (
        "Audiences que responden",
        "Responden todas las Audiences de la Study, salvo las que quites.",
        "Elige al menos una Audience.",
    ),
    "zh": (
        "回答的 Audience",
        "除非你移除其中一些，否则该 Study 的所有 Audience 都会回答。",
        "请至少选择一个 Audience。",
    ),
    "ko": (
        "답변할 Audience",
        "일부를 빼지 않으면 Study의 모든 Audience가 답변합니다.",
        "Audience를 하나 이상 고르세요.",
    ),
}


@pytest.mark.parametrize("language", list(AUDIENCE_PICK_WORDS))
def test_the_ask_dialog_offers_the_studys_audiences_all_ticked(language: str) -> None:
    label, hint, none_left = AUDIENCE_PICK_WORDS[language]
    audiences = [("a1", "Commuters"), ("a2", "Students")]
    with i18n.speaking(language):
        view = render_pick_study("ask", channel_id="C1", initial=("s1", "Cups"), audiences=audiences).to_dict()
        said_when_none = i18n._("Pick at least one Audience.")
    (block,) = [b for b in view["blocks"] if b.get("block_id") == "audiences"]
    assert (block["label"]["text"], block["hint"]["text"], said_when_none) == (label, hint, none_left)
    assert [o["value"] for o in block["element"]["initial_options"]] == ["a1", "a2"], "all ticked"
    assert json.loads(view["private_metadata"]) == {"purpose": "ask", "s": "s1", "a": ["a1", "a2"]}


def test_a_study_with_one_audience_or_no_study_chosen_offers_no_pick() -> None:
    one = render_pick_study("ask", channel_id="C1", initial=("s1", "Cups"), audiences=[("a1", "Commuters")])
    unknown = render_pick_study("ask", channel_id="C1", audiences=[("a1", "A"), ("a2", "B")])
    for view in (one.to_dict(), unknown.to_dict()):
        assert all(b.get("block_id") != "audiences" for b in view["blocks"])


# --- export options are named, never dropped (issue 37, item 6) ----------------------------------------------------

EXPORT_OPTIONS_WORDS = {
    "en": "Asked for: length short, a new file, not Minds' cached one (force), Minds' CSV unchanged (original).",
    "de": "Gewünscht: Länge short, eine neue Datei, nicht die zwischengespeicherte von Minds (force), die CSV-Datei "
    "von Minds unverändert (original).",
    "es": "Pedido: extensión short, un archivo nuevo, no el que Minds tiene en caché (force), el CSV de Minds sin "
    "cambios (original).",
    "zh": "要求：长度 short、新文件，而非 Minds 缓存的文件（force）、Minds 的 CSV 原样保留（original）。",
    "ko": "요청: 길이 short, Minds에 캐시된 파일이 아닌 새 파일(force), Minds의 CSV 그대로(original).",
}


@pytest.mark.parametrize("language", list(EXPORT_OPTIONS_WORDS))
def test_the_export_request_line_names_every_option_asked(language: str) -> None:
    with i18n.speaking(language):
        line = export_requested(
            study_name="Cups", kind="raw_data", format="csv", user_id="U1", length="short", force=True, original=True
        )
        plain = export_requested(study_name="Cups", kind="raw_data", format="csv", user_id="U1")
    assert line.replace("\u200b", "").endswith(" " + EXPORT_OPTIONS_WORDS[language])
    assert line.startswith(plain) and "(force)" not in plain, "nothing asked, nothing named"


# --- a chat with several Minds, and deleting a chat (issue 37, item 5) ----------------------------------------------

CHAT_WORDS = {
    "en": (
        "<@U1> opened a chat with *Lena* and *Tom*",
        "Reply in this thread to talk to all of them; each answers in turn, named. The chat closes after 24 hours "
        "without messages.",
        "The chat with Lena and Tom and all its messages are deleted in Minds; the Minds stay. This thread stays in "
        "Slack and takes no more replies.",
        "<@U2> deleted this chat with Lena and Tom in Minds; replies here are no longer sent.",
    ),
    "de": (
        "<@U1> hat einen Chat mit *Lena* und *Tom* geöffnet",
        "Antworten Sie in diesem Thread, um mit allen zu sprechen; jeder antwortet der Reihe nach, mit Namen. Der "
        "Chat schließt nach 24 Stunden ohne Nachrichten.",
        "Der Chat mit Lena und Tom und alle seine Nachrichten werden in Minds gelöscht; die Minds bleiben. Dieser "
        "Thread bleibt in Slack und nimmt keine Antworten mehr an.",
        "<@U2> hat diesen Chat mit Lena und Tom in Minds gelöscht; Antworten hier werden nicht mehr gesendet.",
    ),
    "es": (
        "<@U1> abrió un chat con *Lena* y *Tom*",
        "Responde en este hilo para hablar con todos; cada uno contesta por turno, con su nombre. El chat se cierra "
        "tras 24 horas sin mensajes.",
        "El chat con Lena y Tom y todos sus mensajes se eliminan en Minds; los Minds se quedan. Este hilo se queda "
        "en Slack y ya no admite respuestas.",
        "<@U2> eliminó este chat con Lena y Tom en Minds; las respuestas aquí ya no se envían.",
    ),
    "zh": (
        "<@U1> 开启了与 *Lena*和*Tom* 的聊天",
        "在此消息列中回复即可与他们所有人交谈；每位依次回答并署名。24 小时无消息后聊天将关闭。",
        "与 Lena和Tom 的聊天及其所有消息将在 Minds 中删除；这些 Minds 会保留。此消息列保留在 Slack 中，不再接收回复。",
        "<@U2> 已在 Minds 中删除与 Lena和Tom 的此聊天；此处的回复不再发送。",
    ),
    "ko": (
        "<@U1> 님이 *Lena* 및 *Tom*과 채팅을 열었습니다",
        "이 스레드에 답장하면 모두와 대화합니다. 각자 이름을 밝히고 차례로 답합니다. "
        "24시간 동안 메시지가 없으면 채팅이 닫힙니다.",
        "Lena 및 Tom과의 채팅과 모든 메시지가 Minds에서 삭제됩니다. Minds는 남습니다. "
        "이 스레드는 Slack에 남지만 더 이상 답장을 받지 않습니다.",
        "<@U2> 님이 Minds에서 Lena 및 Tom과의 이 채팅을 삭제했습니다. 여기의 답장은 더 이상 전송되지 않습니다.",
    ),
}


def mind(name: str) -> MindDetail:
    return MindDetail.model_validate({"id": f"m-{name}", "name": name, "readyToChat": True})


@pytest.mark.parametrize("language", list(CHAT_WORDS))
def test_a_chat_with_several_minds_names_them_and_its_deletion_in_every_language(language: str) -> None:
    opened, how, confirm, deleted = CHAT_WORDS[language]
    with i18n.speaking(language):
        header = render_group_chat_header(minds=[mind("Lena"), mind("Tom")], started_by="U1", idle_hours=24)
        names = i18n.join_list(["Lena", "Tom"], style="and")
        gone = render_chat_deleted(minds=names, deleted_by="U2").text
    blocks = [b.to_dict() for b in header.blocks or []]
    first = blocks[0]["text"]["text"].replace("\u200b", "").split("\n")[0]
    assert first == opened
    assert blocks[1]["elements"][0]["text"].replace("\u200b", "") == how
    assert blocks[-1]["elements"][0]["confirm"]["text"]["text"] == confirm
    assert gone.replace("\u200b", "") == deleted
