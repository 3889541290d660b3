"""Issue 36: the Minds answer in the Study's language (else the question's) — open answers, the reason that comes
with a choice, theme labels, the "(4 of 12)" theme line and the quotes — in English, German, Spanish, Chinese and
Korean; a price question in any of them gets a price; prices are quoted exactly as the question gives them; the
same request always gives the same words."""

from __future__ import annotations

import random
import re
import uuid

import httpx
import pytest

from minds_sandbox import (
    RunningSandbox,
    answer_language,
    engine,
    phrases,
    reasons,
    respondents,
    seed,
    topics,
    voices,
    wording,
)
from minds_sandbox.engine import with_audience
from minds_sandbox.phrases import Phrases
from minds_sandbox.state import SandboxState
from minds_sandbox_tests.helpers import LAUNCH_STUDY, confirm, finish_run, plan

SEED = 7
GEN_Z = "Gen Z sneaker buyers in Germany"
KOREA = "Korean skincare enthusiasts"
LANGUAGES = ("en", "de", "es", "zh", "ko")
SWITCH = {
    "en": "What would make you switch running-shoe brand?",
    "de": "Was würde Sie dazu bringen, Ihre Laufschuhmarke zu wechseln?",
    "es": "¿Qué te haría cambiar de marca de zapatillas de running?",
    "zh": "什么会让你更换跑鞋品牌？",
    "ko": "어떤 이유로 운동화 브랜드를 바꾸시겠습니까?",
}
LABEL = {
    "en": "Would a third-party label make a carbon-neutral claim for running shoes more credible?",
    "de": "Würde ein unabhängiges Siegel die Aussage „klimaneutral“ bei Laufschuhen glaubwürdiger machen?",
    "es": "¿Una etiqueta independiente haría más creíble la afirmación de que las zapatillas son neutras en carbono?",
    "zh": "第三方标签会让跑鞋“碳中和”的说法更可信吗？",
    "ko": "제3자 라벨이 있으면 운동화의 탄소 중립 주장을 더 믿을 수 있습니까?",
}
# The planner's own price-point wording, and a way a person might type it
SHOE = {"en": "the new running shoe", "de": "den neuen Laufschuh", "es": "las nuevas zapatillas", "zh": "新跑鞋"}
SHOE["ko"] = "새 운동화"
PLANNED_PRICE = {lang: wording.phrase(lang, "price_wtp", topic=SHOE[lang], currency="EUR") for lang in LANGUAGES}
TYPED_PRICE = {
    "en": "How much would you pay for new running shoes?",
    "de": "Wie viel würden Sie höchstens für neue Laufschuhe bezahlen?",
    "es": "¿Cuánto pagarías por unas zapatillas de running nuevas?",
    "zh": "一双新跑鞋你愿意付多少钱？",
    "ko": "새 운동화에 얼마를 내시겠어요?",
}
THEME_LINE = {
    "en": r"(?P<theme>[^·]+) \((?P<count>\d+) of (?P<total>\d+)\)",
    "de": r"(?P<theme>[^·]+) \((?P<count>\d+) von (?P<total>\d+)\)",
    "es": r"(?P<theme>[^·]+) \((?P<count>\d+) de (?P<total>\d+)\)",
    "zh": r"(?P<theme>[^·]+)（(?P<total>\d+)人中(?P<count>\d+)人）",
    "ko": r"(?P<theme>[^·]+) \((?P<total>\d+)명 중 (?P<count>\d+)명\)",
}
ENGLISH_WORDS = re.compile(r"\b(?:the|I|would|my|is|and|because|that|it)\b")  # case-sensitive: "I"


def minds_of(st: SandboxState, name: str) -> list[dict]:
    audience = next(a for a in st.audiences.values() if a["name"] == name)
    return [with_audience(st, st.minds[m], audience_id=audience["id"]) for m in audience["mindIds"]]


def gen_z() -> list[dict]:
    return minds_of(seed.build_demo_state(SEED), GEN_Z)


def question(text: str, response: dict | None = None, qid: str = "q1") -> dict:
    return {"id": qid, "text": text, "response": response or {"type": "qualitative"}}


def answers(minds: list[dict], asked: dict, locale: str | None) -> list[dict]:
    return [respondents.answer_item(seed=SEED, mind=m, question=asked, history=[], locale=locale) for m in minds]


def table(lang: str) -> Phrases:
    return answer_language.phrases_for(lang)


def themes_of(lang: str) -> set[str]:
    return {theme for by_trait in table(lang).reasons.values() for theme, _ in by_trait.values()}


def assert_in_language(text: str, lang: str) -> None:
    """The words around the data (occupation, city, brands) are the language's own."""
    hangul = any("\uac00" <= c <= "\ud7a3" for c in text)
    han = any("\u4e00" <= c <= "\u9fff" for c in text)
    if lang == "ko":
        assert hangul and not han, text
    elif lang == "zh":
        assert han and not hangul, text
    else:
        assert not hangul and not han, text
    if lang == "de":
        assert re.search(r"\b(?:ich|mich|mir|nicht|und|die|der|das|es)\b", text, re.I), text
    if lang == "es":
        assert re.search(r"\b(?:de|que|me|mi|no|en|la|el|lo)\b", text, re.I), text
    if lang == "en":
        assert ENGLISH_WORDS.search(text), text
    else:
        assert not ENGLISH_WORDS.search(text), text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_open_answers_their_themes_and_the_theme_line_are_in_the_study_language(lang: str) -> None:
    st = seed.build_demo_state(SEED)
    minds = minds_of(st, GEN_Z) + minds_of(st, KOREA)
    asked = question(SWITCH[lang])
    given = answers(minds, asked, lang)
    names = {m["audienceId"]: m["audienceName"] for m in minds}
    data = respondents.output_data(question=asked, answers=given, missing=[], audience_names=names, locale=lang)
    gen_z_result, korea_result = data["audiences"]
    for audience in data["audiences"]:
        for quote in audience["answers"]:
            assert_in_language(quote["message"], lang)
    # Every theme is the language's own, and the line counts them as the language says it.
    assert {a["theme"] for a in given[:12]} <= themes_of(lang)
    line = re.compile(f"{THEME_LINE[lang]}(?: · |$)")
    counted = {m["theme"]: int(m["count"]) for m in line.finditer(gen_z_result["value"])}
    assert sum(counted.values()) == 12 and set(counted) <= themes_of(lang), gen_z_result["value"]
    assert [m["total"] for m in line.finditer(gen_z_result["value"])] == ["12"] * len(counted)
    assert korea_result["value"] == table(lang).line["theme_count"].format(
        theme=table(lang).line["unfit_theme"], count=16, total=16
    )


def test_the_exact_german_theme_line_and_a_german_answer() -> None:
    given = answers(gen_z(), question(SWITCH["de"]), "de")
    data = respondents.output_data(
        question=question(SWITCH["de"]), answers=given, missing=[], audience_names={}, locale="de"
    )
    value = data["audiences"][0]["value"]
    assert value == (
        "Etwas wirklich Neues (4 von 12) · Nur eine schlechte Erfahrung (4 von 12) · Nachweisbare Nachhaltigkeit "
        "(2 von 12) · Ein besserer Preis (1 von 12) · Unabhängige Belege (1 von 12)"
    )
    texts = {a["text"] for a in given}
    assert (
        "Ein deutlich besserer Preis: dieselbe Qualität für etwa ein Fünftel weniger, und ich würde wechseln. "
        "Als University student in Cologne vergleiche ich Preise, bevor ich etwas kaufe."
    ) in texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reason_that_comes_with_a_yes_or_no_is_in_the_study_language(lang: str) -> None:
    yes, no = wording.choices(lang, "yes_no")
    given = answers(gen_z(), question(LABEL[lang], {"type": "categorical", "categoricalOptions": [yes, no]}), lang)
    assert {a["value"] for a in given} == {yes, no}
    leads = {yes: table(lang).line["lead_yes"], no: table(lang).line["lead_no"]}
    for answer in given:
        assert answer["text"].startswith(leads[answer["value"]]), answer["text"]
        assert answer["text"].endswith(table(lang).line["end"])
        assert_in_language(answer["text"], lang)
        credible = {r for pair in (*table(lang).credible.values(), *table(lang).credible_too.values()) for r in pair}
        assert answer["text"][len(leads[answer["value"]]) : -len(table(lang).line["end"])] in credible


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_scale_reason_and_its_mean_are_in_the_study_language(lang: str) -> None:
    asked = question(f"{SWITCH[lang]} (1-5)", {"type": "scale", "scaleRange": [1, 5]})
    given = answers(gen_z(), asked, lang)
    for answer in given:
        assert_in_language(answer["text"], lang)
    data = respondents.output_data(question=asked, answers=given, missing=[], audience_names={}, locale=lang)
    mean = {"en": r"mean \d\.\d", "de": r"Mittelwert \d,\d", "es": r"media \d,\d", "zh": r"平均值 \d\.\d"}
    assert re.fullmatch(mean.get(lang, r"평균 \d\.\d"), data["audiences"][0]["value"])


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("wordings", [PLANNED_PRICE, TYPED_PRICE], ids=["planned", "typed"])
def test_a_price_question_in_any_language_gets_a_price(lang: str, wordings: dict[str, str]) -> None:
    text = wordings[lang]
    assert voices.kind_of(text) == "price"
    given = answers(gen_z(), question(text), lang)
    bands = {table(lang).line[k].split("{")[0] for k in ("band_under", "band_over")}
    for answer in given:
        assert topics.prices_in(answer["text"]), answer["text"]
        assert answer["theme"] not in themes_of(lang)  # a price band, never a reason like "Trusted names"
        assert any(b in answer["theme"] for b in bands) or " EUR" in answer["theme"], answer["theme"]
        assert_in_language(answer["text"], lang)
        assert "For me it comes down to whether I know and trust the brand" not in answer["text"]


def test_the_german_price_question_of_the_issue_is_answered_with_a_price_in_german() -> None:
    text = "Wie viel würden Sie höchstens für den neuen Laufschuh bezahlen? Bitte nennen Sie einen Betrag in EUR."
    given = answers(gen_z(), question(text), "de")
    for answer in given:
        assert re.fullmatch(r"Etwa \d+ EUR fände ich fair, weil .+\. Als .+ in .+\.", answer["text"]), answer["text"]


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("de", "Haben Sie kürzlich neue Laufschuhe gekauft? Wie viel haben Sie bezahlt?"),
        ("es", "¿Compraste zapatillas hace poco? ¿Cuánto pagaste?"),
        ("zh", "你最近买跑鞋花了多少钱？"),
        ("ko", "최근 운동화를 사셨다면 얼마를 지불하셨나요?"),
    ],
)
def test_what_a_mind_paid_is_said_as_what_it_paid(lang: str, text: str) -> None:
    for answer in answers(gen_z(), question(text), lang):
        assert answer["text"].startswith(table(lang).line["price_paid"].split("{")[0]), answer["text"]


@pytest.mark.parametrize(
    ("lang", "text", "asked"),
    [
        ("de", "Würden Sie den neuen Laufschuh für 139,99 EUR kaufen?", "139,99 EUR"),
        ("es", "¿Comprarías las nuevas zapatillas por 139,99 EUR?", "139,99 EUR"),
        ("en", "Would you buy the new running shoe at 189 USD?", "189 USD"),
        ("zh", "你会以189 USD的价格购买这双新跑鞋吗？", "189 USD"),
        ("ko", "새 운동화를 189 USD에 구매하시겠습니까?", "189 USD"),
    ],
)
def test_a_price_is_quoted_exactly_as_the_question_gives_it(lang: str, text: str, asked: str) -> None:
    yes, no = wording.choices(lang, "yes_no")
    given = answers(gen_z(), question(text, {"type": "categorical", "categoricalOptions": [yes, no]}), lang)
    rounded = {"139,99 EUR": ("140 EUR", "139 EUR", "139,9 EUR"), "189 USD": ("190 USD", "185 USD")}[asked]
    for answer in given:
        assert asked in answer["text"], answer["text"]
        assert not any(r in answer["text"].replace(asked, "") for r in rounded), answer["text"]
        assert_in_language(answer["text"], lang)


@pytest.mark.parametrize(("lang", "mark"), [("de", ","), ("es", ","), ("en", "."), ("zh", "."), ("ko", ".")])
def test_a_small_price_keeps_its_cents_and_a_mind_names_its_own_with_the_currency_decimals(
    lang: str, mark: str
) -> None:
    text = {
        "de": "Würden Sie Schnürsenkel für 2,49 EUR kaufen?",
        "es": "¿Comprarías unos cordones por 2,49 EUR?",
        "en": "Would you buy laces at 2.49 EUR?",
        "zh": "这包口香糖2.49 EUR，你会买吗？",
        "ko": "이 껌을 2.49 EUR에 사시겠습니까?",
    }[lang]
    asked = "2.49 EUR" if "2.49" in text else "2,49 EUR"
    options = ["A bargain", "About right", "Too expensive"]
    given = answers(gen_z(), question(text, {"type": "categorical", "categoricalOptions": options}), lang)
    for answer in given:
        assert asked in answer["text"], answer["text"]
        own = re.findall(r"(\d+(?:[.,]\d\d)?) EUR", answer["text"].replace(asked, ""))
        assert own and all(re.fullmatch(rf"\d+\{mark}\d\d|\d+", n) for n in own), answer["text"]
        assert "2 EUR" not in answer["text"].replace(asked, "") or own == ["2"]
    assert answer_language.money(2.7, "EUR", lang) == f"2{mark}70 EUR"
    assert answer_language.money(94.2, "EUR", lang) == "95 EUR"


def test_the_study_language_changes_the_words_never_the_answers() -> None:
    yes, no = wording.choices("en", "yes_no")
    asked = question(LABEL["en"], {"type": "categorical", "categoricalOptions": [yes, no]})
    english, german = answers(gen_z(), asked, "en"), answers(gen_z(), asked, "de")
    assert [a["value"] for a in english] == [a["value"] for a in german]
    assert [a["sentiment"] for a in english] == [a["sentiment"] for a in german]
    assert all(e["text"] != g["text"] for e, g in zip(english, german, strict=True))
    for answer in german:
        assert_in_language(answer["text"], "de")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_same_request_gives_the_same_words(lang: str) -> None:
    asked = question(SWITCH[lang])
    assert answers(gen_z(), asked, lang) == answers(gen_z(), asked, lang)


def test_which_language_a_mind_answers_in() -> None:
    assert answer_language.language_of("de", "What would make you switch?") == "de"
    assert answer_language.language_of("fr", "Was würde Sie dazu bringen zu wechseln?") == "en"
    assert answer_language.language_of(None, SWITCH["ko"]) == "ko"
    assert answer_language.language_of("en", SWITCH["de"]) == "de"
    assert answer_language.language_of(None, SWITCH["en"]) == "en"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_planned_question_is_read_by_its_wording_in_every_language(lang: str) -> None:
    topic = {"en": "the shoe", "de": "den Schuh", "es": "la zapatilla", "zh": "这双鞋", "ko": "이 신발"}[lang]
    for key in ("price_wtp", "vw_too_cheap", "price_barrier", "concept_reaction", "aware_heard", "recommend"):
        text = wording.phrase(lang, key, topic=topic, currency="EUR", at="")
        assert answer_language.planned_key(text) == key, (key, text)
    assert voices.kind_of(wording.phrase(lang, "vw_expensive", topic=topic, currency="EUR")) == "price"
    assert voices.kind_of(wording.phrase(lang, "price_wtp", topic=topic, currency="EUR")) == "price"
    assert voices.kind_of(wording.phrase(lang, "price_barrier", topic=topic, at="")) == "barrier"
    assert reasons.closed_kind(wording.phrase(lang, "aware_heard", topic=topic)) == "heard"
    assert reasons.closed_kind(wording.phrase(lang, "recommend", topic=topic)) == "recommend"
    assert answer_language.planned_key("Something nobody planned, about shoes?") is None


def test_a_method_price_point_is_a_price_whatever_its_words() -> None:
    method = {"methodId": "van-westendorp", "role": "cheap"}
    assert voices.kind_of("Und ab wann?", method) == "price"
    assert reasons.closed_kind("Und?", {"methodId": "gabor-granger"}) == "intent"


def template(lang: str, key: str) -> re.Pattern[str]:
    """A line of the language's table with its blanks open."""
    return re.compile(re.sub(r"\\\{[a-z]+\\\}", ".+?", re.escape(table(lang).line[key])))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_chat_reply_is_in_the_language_of_the_message(lang: str) -> None:
    reply = voices.chat_reply(mind=gen_z()[0], message=TYPED_PRICE[lang], rng=random.Random(1), role_phrase="a barista")
    assert template(lang, "price_fair").fullmatch(reply), reply
    assert topics.prices_in(reply)
    assert_in_language(reply, lang)


async def test_a_german_concept_test_is_answered_in_german_to_the_end(
    client: httpx.AsyncClient, sandbox: RunningSandbox
) -> None:
    request = (
        "Konzepttest: Wie finden Gen-Z-Sneakerkäufer in Deutschland unseren neuen Laufschuh aus Recyclingmaterial?"
    )
    planned = await plan(client, LAUNCH_STUDY, {"request": request, "studyLocale": "de"}, key=str(uuid.uuid4()))
    revision = planned.json()["data"]
    run_id = (await confirm(client, LAUNCH_STUDY, revision)).json()["data"]["runId"]
    run = await finish_run(client, sandbox, LAUNCH_STUDY, run_id)
    results = [a["outputData"] for a in run["artifacts"] if a["kind"] == "response"]
    assert any(r["type"] == "qualitative" for r in results)
    for result in results:
        for audience in result["audiences"]:
            if result["type"] == "qualitative":
                one = re.sub(r"\?P<[a-z]+>", "?:", THEME_LINE["de"])
                assert re.fullmatch(rf"{one}(?: · {one})*", audience["value"]), audience
                assert " of " not in audience["value"]
            if result["type"] == "scale":
                assert re.fullmatch(r"Mittelwert \d,\d", audience["value"])
            for quote in audience["answers"]:
                assert_in_language(quote["message"], "de")


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_says_everything_english_says(lang: str) -> None:
    english, other = table("en"), table(lang)
    assert set(other.line) == set(english.line)
    assert set(other.fields) == set(english.fields)
    for kind, by_trait in english.reasons.items():
        assert set(other.reasons[kind]) == set(by_trait), kind
    assert set(other.reasons) == set(english.reasons) == set(phrases.OPEN_KINDS)
    assert set(other.says) == set(english.says) == set(phrases.CLOSED_KINDS)
    for name in ("about_me", "after_speaker", "brand_habit", "credible", "credible_too", "draws", "puts_off"):
        assert set(getattr(other, name)) == set(phrases.TRAITS), name
    amounts = {"{mine}", "{asked}", "{extra}", "{paid}", "{usual}", "{guess}", "{count}", "{total}", "{theme}"}
    for key, text in english.line.items():  # no blank English does not fill; every amount and count said
        theirs, ours = set(re.findall(r"\{\w+\}", other.line[key])), set(re.findall(r"\{\w+\}", text))
        assert theirs <= ours and theirs & amounts == ours & amounts, key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_what_a_mind_would_use_it_for_first_is_answered_as_a_use(lang: str) -> None:
    text = wording.phrase(lang, "concept_use", topic=SHOE[lang])
    assert voices.kind_of(text) == "use"
    uses = {theme for theme, _ in table(lang).reasons["use"].values()}
    for answer in answers(gen_z(), question(text), lang):
        assert answer["theme"] in uses, answer["text"]
        assert not answer["text"].startswith(table(lang).line["intent_no"])
        assert_in_language(answer["text"], lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_how_believable_a_concept_is_is_answered_about_the_concept_not_a_label(lang: str) -> None:
    text = wording.phrase(lang, "concept_believe", topic=SHOE[lang])
    believable = {s for s in table(lang).says["believable"]}
    given = answers(gen_z(), question(text, {"type": "scale", "scaleRange": [1, 5]}), lang)
    for answer in given:
        assert any(answer["text"].startswith(s[:1].upper() + s[1:]) for s in believable), answer["text"]
        assert_in_language(answer["text"], lang)


@pytest.mark.parametrize("lang", ["en", "de", "es", "ko"])  # (no loyal Mind answers the Chinese wording so)
def test_a_loyal_mind_never_says_it_switches_easily(lang: str) -> None:
    loyal = table(lang).reasons["switch"]["brandLoyalty"][1]
    said = [a["text"] for a in answers(gen_z(), question(SWITCH[lang]), lang) if loyal in a["text"]]
    assert said  # some Minds of the Audience stay with their brand
    for text in said:
        assert not text.startswith(table(lang).line["switch_easy"]), text


@pytest.mark.parametrize(
    ("lang", "theme_line", "mean_line"),
    [
        ("en", "Leading theme: ", "Mean "),
        ("de", "Häufigstes Thema: ", "Mittelwert "),
        ("es", "Tema principal: ", "Media de "),
        ("zh", "最主要的主题：", "平均值 "),
        ("ko", "가장 많은 주제: ", "평균 "),
    ],
)
def test_a_study_summary_says_each_result_in_the_language_of_its_answers(
    lang: str, theme_line: str, mean_line: str
) -> None:
    minds = gen_z()
    open_asked = question(SWITCH[lang])
    scale_asked = question(LABEL[lang], {"type": "scale", "scaleRange": [1, 5]}, qid="q2")
    outputs = [
        respondents.output_data(question=q, answers=answers(minds, q, lang), missing=[], audience_names={}, locale=lang)
        for q in (open_asked, scale_asked)
    ]
    said = [engine.headline(output) for output in outputs]
    assert said[0].startswith(theme_line) and outputs[0]["themes"][0]["theme"] in said[0], said[0]
    assert said[1].startswith(mean_line), said[1]
    assert ("," if lang in ("de", "es") else ".") in said[1].split("(")[0], said[1]
