"""Minds' own words in every language: each catalog uses the house term of ``glossary.TERMS`` and none of the
variants ``glossary.FORBIDDEN`` names; Korean particles follow the word; bold renders next to Hangul and CJK."""

from __future__ import annotations

import pytest

from minds_bot import i18n
from minds_bot.i18n import catalogs, glossary
from minds_bot.i18n.korean import particle
from minds_bot.i18n.markup import ZWSP, renderable, touching
from minds_bot.render.help import INTRO
from minds_bot.render.markdown import to_mrkdwn

TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.SOURCE_LANGUAGE]


def _entries(language: str) -> list[tuple[str, str]]:
    """(English, translation) for every form of every message in ``language``'s catalog."""
    catalog = catalogs.read(catalogs.po_path(language), locale=language)
    found = []
    for message in catalog:
        if not message.id:
            continue
        english = " ".join(message.id) if isinstance(message.id, tuple) else message.id
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found += [(english, form) for form in forms if form]
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalog_says_minds_own_terms(language: str) -> None:
    wrong = [
        f"{english[:70]!r} → {translation[:90]!r}: {'; '.join(found)}"
        for english, translation in _entries(language)
        if (found := glossary.violations(language, english, translation))
    ]
    assert not wrong, f"{len(wrong)} messages off the glossary:\n" + "\n".join(wrong[:20])


@pytest.mark.parametrize(
    ("language", "english", "translation", "why"),
    [
        ("es", "This Study has no summary yet.", "Este Study aún no tiene resumen.", "la Study"),
        ("es", "Asking creates a new private Study", "crea una Study privado nuevo", "feminine"),
        ("es", "review the exact questions together", "revisad juntos las preguntas", "vosotros"),
        (
            "es",
            "Revision {revision} · requested by {requester}",
            "Revisión {revision} · solicitado por {requester}",
            "solicitada",
        ),
        ("es", "Research digest", "Resumen de investigación", "boletín"),
        (
            "de",
            "Approved by {approver}: revision {revision} is running.",
            "Freigegeben von {approver}: Fassung {revision} läuft.",
            "Revision",
        ),
        ("de", "Answer Minds", "Minds antworten", "imperative"),
        ("de", "copy an Audience (each member becomes a new Mind)", "jedes Mitglied wird ein neues Mind", "der Mind"),
        ("de", "refresh an Audience you own", "eine eigene Audience auffrischen", "neu kalibrieren"),
        ("zh", "Research digest", "研究摘要", "简讯"),
        ("zh", "Answer {count} question… Answer all {count} questions…", "回答全部 {count} 个问题…", "全部"),
        ("ko", "*Members:* {minds}", "*멤버:* {minds}", "구성원"),
        ("ko", "coverage not reported", "응답 범위 보고 없음", "커버리지"),
        ("ko", "{count} Mind {count} Minds", "Mind {count}개", "명"),
        ("ko", "Revision {revision} was already approved.", "수정본 {revision}은(는) 이미 승인되었습니다.", "particle"),
        ("ko", "Generated {when}, after the latest run finished.", "최근 run이 끝난 뒤인 {when}에 생성됨.", "실행"),
        # Issue 34 row 14: one term per concept, titles and capitalised forms included.
        ("de", "A research run has ended.", "Ein Recherche-Durchlauf ist beendet.", "Forschung"),
        ("de", "Research tools", "Recherchewerkzeuge", "Forschung"),
        ("de", "detractors {share}", "Kritiker {share}", "Detraktoren"),
        ("de", "Detractors", "Kritiker", "Detraktoren"),
        ("es", "New Study", "Nuevo Study", "la Study"),
        ("es", "Start a Premium heatmap", "Iniciar un heatmap Premium", "mapa de calor"),
        ("es", "Heatmap", "Heatmap", "mapa de calor"),
        ("es", "Deleted the draft “{name}”.", "Se eliminó el borrador “{name}”.", "« »"),
        ("zh", "Heatmap", "热图", "热力图"),
        ("zh", "Approvers in this channel: {approvers}.", "此频道的批准人：{approvers}。", "审批人"),
        ("zh", "the charts are posted in the thread", "图表会发在线程中", "消息列"),
        ("zh", "Nothing changed. Try again.", "未做任何更改。 请重试。", "no space after Chinese punctuation"),
        ("ko", "Cancel run", "실행 취소", "실행 중단"),
        ("ko", "Cancel the run", "실행 취소", "실행 중단"),
        ("ko", "the run finished with gaps", "실행이 공백을 남긴 채 끝났습니다", "누락"),
    ],
)
def test_the_glossary_finds_each_slip_the_native_review_found(
    language: str, english: str, translation: str, why: str
) -> None:
    found = glossary.violations(language, english, translation)
    assert found and why in " ".join(found)


def test_sharing_may_say_freigabe_and_a_channels_members_may_be_slacks_word() -> None:
    assert glossary.violations("de", "Sharing: {team} · {link}.", "Freigabe: {team} · {link}.") == []
    english = "You are not a member of {channel}, so you cannot send a digest there."
    assert glossary.violations("ko", english, "{channel}의 멤버가 아니므로 다이제스트를 보낼 수 없습니다.") == []


@pytest.mark.parametrize(
    ("word", "which", "said"),
    [
        ("수정본 2", "이", "수정본 2가"),  # 이 (two) ends in a vowel
        ("3", "이", "3이"),  # 삼
        ("10", "은", "10은"),  # 십
        ("1", "으로", "1로"),  # 일: ㄹ takes 로
        ("3", "으로", "3으로"),
        ("1,000", "을", "1,000을"),  # 천
        ("75%", "이", "75%가"),  # 퍼센트
        ("서울", "으로", "서울로"),
        ("가격 조사", "과", "가격 조사와"),
        ("Study", "을", "Study를"),
        ("Audience", "과", "Audience와"),
        ("Plan", "은", "Plan은"),
        ("CSV", "을", "CSV를"),
        ("URL", "으로", "URL로"),
        ("notes.png", "이", "notes.png가"),
        ("*가격*", "을", "*가격*을"),
        ("<@U123>", "이", "<@U123>이(가)"),  # a mention reads as a name we do not see: the fallback
        ("价格", "을", "价格을(를)"),
    ],
)
def test_a_korean_particle_follows_the_last_syllable(word: str, which: str, said: str) -> None:
    assert word + particle(word, which) == said


def test_a_catalog_placeholder_takes_its_particle_from_the_value() -> None:
    message = "Revision {revision} was already approved; its run is in the thread."
    with i18n.speaking("ko"):
        assert i18n._(message, revision=2).startswith("수정본 2는 이미 승인되었습니다")
        assert i18n._(message, revision=3).startswith("수정본 3은 이미 승인되었습니다")
        assert i18n._("Deleted the draft “{name}”.", name="가격").startswith("초안 “가격”을 삭제했습니다")
        assert i18n._("Deleted the draft “{name}”.", name="Pricing").startswith("초안 “Pricing”을 삭제했습니다")
    assert i18n._(message, revision=2) == "Revision 2 was already approved; its run is in the thread."


@pytest.mark.parametrize(
    ("text", "renders"),
    [
        ("*Minds*는 합성 시장 조사를 합니다", "*Minds*\u200b는 합성 시장 조사를 합니다"),
        ("*다시 시도*를 누르세요", "*다시 시도*\u200b를 누르세요"),
        ("*计划运行之前*，每个问题", "*计划运行之前*\u200b，每个问题"),
        ("点“*重试*”", "点“\u200b*重试*\u200b”"),
        ("모델은*Acme*로", "모델은\u200b*Acme*\u200b로"),
        ("_기울임_을", "_기울임_\u200b을"),
        ("*Minds* runs research", "*Minds* runs research"),  # nothing to do in English
        ("`*a*는`", "`*a*는`"),  # code is never changed
        ("<https://x.test|*a*>는", "<https://x.test|*a*>는"),
        ("digest_id와 plan_id", "digest_id와 plan_id"),
    ],
)
def test_bold_next_to_hangul_and_cjk_gets_a_zero_width_space(text: str, renders: str) -> None:
    assert renderable(text) == renders
    assert renderable(renders) == renders  # applying it again changes nothing
    assert touching(renders) == []


def test_chinese_sentences_joined_without_a_space_keep_their_bold() -> None:
    with i18n.speaking("zh"):
        assert i18n.sentences("已批准 *修订版 2*", "进度见消息列。") == "已批准 *修订版 2*\u200b进度见消息列。"


def test_minds_markdown_in_korean_and_chinese_keeps_its_bold() -> None:
    """A summary Minds wrote in Korean or Chinese: its bold renders in Slack too."""
    said = to_mrkdwn("## 요약\n**가격**은 높습니다. **价格**，很高。")
    assert said == "*요약*\n*가격*\u200b은 높습니다. *价格*\u200b，很高。"
    assert to_mrkdwn("이것은 *강조*입니다") == "이것은 _강조_\u200b입니다"  # Minds' italic stays italic


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("value", ["x", "가격", "价格", "*가격*"])
def test_no_message_leaves_bold_touching_hangul_or_cjk(language: str, value: str) -> None:
    """Every message of every catalog, filled with Latin, Hangul, Chinese and bold values, as ``_`` returns it."""
    template = catalogs.read(catalogs.TEMPLATE)
    touched = []
    with i18n.speaking(language):
        for source in template:
            if not source.id:
                continue
            if isinstance(source.id, tuple):
                names = catalogs.placeholders(source.id[0]) | catalogs.placeholders(source.id[1])
                texts = [
                    i18n._n(source.id[0], source.id[1], n, **{k: value for k in names - {"count"}}) for n in (1, 2)
                ]
            else:
                texts = [i18n._(source.id, **{k: value for k in catalogs.placeholders(source.id)})]
            touched += [f"{text[:80]!r}: {touching(text)}" for text in texts if touching(text)]
    assert not touched, "\n".join(touched[:10])


def test_the_korean_intro_renders_its_bold() -> None:
    with i18n.speaking("ko"):
        intro = i18n._(INTRO)
    assert intro.startswith(f"*Minds*{ZWSP}는 ")


def test_minds_own_words_for_an_audiences_grounding_and_sentence_spacing_pass() -> None:
    """What the row 14 rules must not catch: Minds' German Web-/Hintergrundrecherche for an Audience's grounding,
    a Chinese placeholder right after a colon, a heatmap written the house way in a title."""
    assert glossary.violations("de", "*Background research:* {phase}", "*Hintergrundrecherche:* {phase}") == []
    assert glossary.violations("de", "Minds researches each dimension", "Minds recherchiert jede Dimension") == []
    assert (
        glossary.violations("zh", "Minds could not build the export: {reason}.", "Minds 无法生成导出文件：{reason}。")
        == []
    )
    assert glossary.violations("es", "Heatmap", "Mapa de calor") == []
    assert glossary.violations("ko", "Cancel run", "실행 중단") == []
