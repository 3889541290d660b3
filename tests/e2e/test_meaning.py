"""Issue 34 rows 1, 2 and 8 through the real app against the sandbox, in all five languages: what a result *is*
comes from Minds' data, never from words. The same 0–10 question gives an NPS in every language when Minds marks
the run's method NPS (its calculations), and a standalone 0–10 question (no method in Minds' data) is shown as a
scale in every language, saying so once; an ordered option list (Never…Always, Definitely…would not buy) keeps
Minds' order with an unchosen option at 0% in the thread, the chart and the answers CSV, whose scale value and
option position columns let a scale result be recomputed."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from slack_emulator.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown
from tests.e2e.test_languages import SLACK_LOCALE, said
from tests.e2e.test_languages import _connect as connect_in

LAUNCH = "Launch positioning"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def _in(desk: Desk, language: str) -> None:
    for person in (desk.ada, desk.ben):
        desk.emu.state.set_locale(person, SLACK_LOCALE[language])
    await connect_in(desk, language)


async def asked(desk: Desk, question: str) -> tuple[str, Message]:
    """``/minds ask`` in the launch Study: the thread and its result message."""
    since = await desk.type(desk.ben, f'ask "{LAUNCH}" {question}')
    parent = await desk.posted(since, lambda m: not m.is_reply and bool(m.text))

    def result() -> Message | None:
        replies = desk.emu.state.replies(desk.research, parent.ts)
        return next((m for m in replies if "answers_show" in action_ids(m.blocks)), None)

    message = await desk.wait(result)
    return parent.ts, message


RUN_REQUEST = f'plan "{LAUNCH}" Test our new running shoe with Gen Z buyers and whether they would recommend it'


async def run_thread(desk: Desk, language: str) -> str:
    """A guided run planned and approved in ``language``; its thread as a person reads it, once the report is in."""
    since = await desk.type(desk.ben, RUN_REQUEST)
    plan = await desk.posted(since, lambda m: said(language, "Research plan: {study}") in shown(m))
    while "plan_approve" not in action_ids(plan.blocks):
        plan = await desk.answer_first_question(desk.ben, plan)
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)

    def text() -> str:
        said = []
        for m in desk.emu.state.replies(desk.research, plan.ts):
            said += [b["text"]["text"] for b in m.blocks if isinstance(b.get("text"), dict)] if m.blocks else [m.text]
        return "\n".join(said)

    await desk.wait(
        lambda: any(
            desk.emu.state.files[f].name.endswith(".md")
            for m in desk.emu.state.replies(desk.research, plan.ts)
            for f in m.files
        )
    )
    return text()


LADDER = {
    "en": "Never / Rarely / Sometimes / Often / Always",
    "de": "Nie / Selten / Manchmal / Oft / Immer",
    "es": "Nunca / Rara vez / A veces / A menudo / Siempre",
    "zh": "从不 / 很少 / 有时 / 经常 / 总是",
    "ko": "전혀 안 함 / 드물게 / 가끔 / 자주 / 항상",
}
BUY = {
    "en": "Definitely would buy / Probably would buy / Probably would not buy / Definitely would not buy",
    "de": "Würde bestimmt kaufen / Würde wahrscheinlich kaufen / Würde wahrscheinlich nicht kaufen / "
    "Würde bestimmt nicht kaufen",
    "es": "Definitivamente compraría / Probablemente compraría / Probablemente no compraría / "
    "Definitivamente no compraría",
    "zh": "一定会买 / 可能会买 / 可能不会买 / 一定不会买",
    "ko": "반드시 구매 / 아마 구매 / 아마 구매 안 함 / 절대 구매 안 함",
}


async def answers_csv(desk: Desk, thread_ts: str, result: Message) -> tuple[str, list[list[str]]]:
    """ "Show answers", then "All answers as CSV": the reply's words and the file's rows."""
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="answers_show", channel=desk.research, ts=result.ts)
    page = await desk.emu.wait_for_ephemeral(
        desk.ben, lambda e: "answers_csv" in action_ids(e.blocks), since=since, timeout=30
    )
    since = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="answers_csv", channel=desk.research, ts=page.ts)
    reply = await desk.posted(since, lambda m: bool(m.files), thread_ts=thread_ts)
    (file_id,) = reply.files
    content = desk.emu.file_content(file_id)
    assert content is not None
    return reply.text, list(csv.reader(io.StringIO(content.decode("utf-8"))))


def figures(message: Message) -> str:
    """The result's numbers section: one line per Audience (and what was assumed, once)."""
    return [b["text"]["text"] for b in message.blocks if isinstance(b.get("text"), dict)][1]


NBSP = "\u00a0"
GEN_Z = "Gen Z sneaker buyers in Germany"
ZWSP = "\u200b"

# --- row 1: NPS from Minds' data ------------------------------------------------------------------------------

NPS_RUN = {  # the guided run's 0–10 question (Q4) and Gen Z's line: Minds' NPS calculation marks the method
    # (the Minds answer the run's open questions in the Study's language, and each answer follows its earlier ones)
    "en": (
        "*Q4. How likely are you to recommend the new running shoe to a friend or colleague?*",
        f"{GEN_Z} (n=12): NPS −67 · promoters (9–10) 8% · passives (7–8) 17% · detractors (0–6) 75%",
    ),
    "de": (
        "*Q4. Wie wahrscheinlich ist es, dass Sie „new running shoe“ einem Freund oder Kollegen empfehlen?*",
        f"{GEN_Z} (n=12): NPS −34 · Promotoren (9–10) 8{NBSP}% · Passive (7–8) 50{NBSP}% · "
        f"Detraktoren (0–6) 42{NBSP}%",
    ),
    "es": (
        "*Q4. ¿Qué probabilidad hay de que recomiendes «new running shoe» a un amigo o colega?*",
        f"{GEN_Z} (n=12): NPS −41 · promotores (9–10) 17{NBSP}% · pasivos (7–8) 25{NBSP}% · "
        f"detractores (0–6) 58{NBSP}%",
    ),
    "zh": (
        "*Q4. 您向朋友或同事推荐“new running shoe”的可能性有多大？*",
        f"{GEN_Z}（n=12）：NPS −67 · 推荐者（9–10）0% · 被动者（7–8）33% · 贬损者（0–6）67%",
    ),
    "ko": (
        "*Q4. ‘new running shoe’를 친구나 동료에게 추천할 가능성은 얼마나 됩니까?*",
        f"{GEN_Z} (n=12): NPS −25 · 추천 고객(9–10) 8% · 중립 고객(7–8) 58% · 비추천 고객(0–6) 33%",
    ),
}


@pytest.mark.parametrize("language", list(SLACK_LOCALE))
async def test_a_0_to_10_question_of_a_run_minds_marks_nps_shows_the_nps_in_every_language(
    desk: Desk, language: str
) -> None:
    """The sandbox's NPS question, worded in the Study's language, of a run whose calculations hold Minds' NPS
    entry: the NPS with its three groups in every language (no English word decides), never a mean on 0–10."""
    await _in(desk, language)
    thread = await run_thread(desk, language)
    title, line = NPS_RUN[language]
    assert f"{title}\n{line}\n" in thread
    assert "0–10" not in thread.split(title)[1].split("\n")[1]  # the Gen Z line is no mean on 0–10


STANDALONE = {  # the same 0–10 answers in every language: no method in Minds' data → a scale, said once
    "en": (
        f"*{GEN_Z}* (n=12): mean 6.0 on 0–10 · top-2-box 25%",
        "_Minds named no method for this 0–10 scale: shown as a scale (mean), not as an NPS._",
    ),
    "de": (
        f"*{GEN_Z}* (n=12): Mittelwert 6,0 auf 0–10 · Top-2-Box 25{NBSP}%",
        "_Minds hat für diese 0–10-Skala keine Methode genannt: als Skala (Mittelwert) gezeigt, nicht als NPS._",
    ),
    "es": (
        f"*{GEN_Z}* (n=12): media 6,0 en 0–10 · top-2-box 25{NBSP}%",
        "_Minds no indicó ningún método para esta escala 0–10: se muestra como escala (media), no como NPS._",
    ),
    "zh": (
        f"*{GEN_Z}*{ZWSP}（n=12）：平均值 6.0（量表 0–10） · 最高两档占比 25%",
        "_Minds 未为此 0–10 量表指定方法：按量表（平均值）显示，而非 NPS。_",
    ),
    "ko": (
        f"*{GEN_Z}* (n=12): 평균 6.0(0–10점 척도) · 상위 2점 비율 25%",
        "_Minds가 이 0–10 척도에 방법을 지정하지 않았습니다. NPS가 아니라 척도(평균)로 표시합니다._",
    ),
}


@pytest.mark.parametrize("language", list(SLACK_LOCALE))
async def test_a_standalone_0_to_10_question_is_the_same_kind_of_result_in_every_language_and_says_why(
    desk: Desk, language: str
) -> None:
    """``/minds ask`` sends no method: the 0–10 scale is shown as a scale (mean, top-2-box) in every language,
    with one line saying Minds named no method — never an NPS Minds did not mark, never one only in English.
    Its answers CSV carries each answer's scale value and point, from which the thread's mean is recomputed."""
    await _in(desk, language)
    thread_ts, result = await asked(desk, "How likely are you to recommend our recycled sneakers to a friend?")
    line, assumed = STANDALONE[language]
    text = figures(result)
    assert text.startswith(line + "\n") and text.endswith("\n" + assumed) and text.count(assumed) == 1
    assert "NPS −" not in text and "NPS +" not in text
    _reply, rows = await answers_csv(desk, thread_ts, result)
    gen_z = [r for r in rows[1:] if r[1] == GEN_Z]
    values = [float(r[3]) for r in gen_z]
    assert len(values) == 12 and round(sum(values) / len(values), 1) == 6.0  # the thread's mean, recomputed
    assert all(int(r[4]) == int(r[3]) + 1 for r in gen_z)  # the point's place on Minds' 0–10 scale
    assert all(r[2] == r[3] for r in gen_z)


# --- rows 2 and 8: Minds' option order in text, chart and CSV --------------------------------------------------

LADDER = {
    "en": ["Never", "Rarely", "Sometimes", "Often", "Always"],
    "de": ["Nie", "Selten", "Manchmal", "Oft", "Immer"],
    "es": ["Nunca", "Rara vez", "A veces", "A menudo", "Siempre"],
    "zh": ["从不", "很少", "有时", "经常", "总是"],
    "ko": ["전혀 안 함", "드물게", "가끔", "자주", "항상"],
}
BUY = {
    "en": ["Definitely would buy", "Probably would buy", "Probably would not buy", "Definitely would not buy"],
    "de": [
        "Würde bestimmt kaufen",
        "Würde wahrscheinlich kaufen",
        "Würde wahrscheinlich nicht kaufen",
        "Würde bestimmt nicht kaufen",
    ],
    "es": [
        "Definitivamente compraría",
        "Probablemente compraría",
        "Probablemente no compraría",
        "Definitivamente no compraría",
    ],
    "zh": ["一定会买", "可能会买", "可能不会买", "一定不会买"],
    "ko": ["반드시 구매", "아마 구매", "아마 구매 안 함", "절대 구매 안 함"],
}
BASE = {
    "en": "(% of respondents · n=12): ",
    "de": "(% der Befragten · n=12): ",
    "es": "(% de quienes respondieron · n=12): ",
    "zh": f"{ZWSP}（占受访者百分比 · n=12）：",
    "ko": "(응답자 대비 % · n=12): ",
}
# Gen Z's shares in Minds' order (an option nobody chose at 0%): the same in every language, since how often a
# Mind buys the category is its own habit, whatever the words of the options
LADDER_SHARES = dict.fromkeys(("en", "de", "es", "zh", "ko"), [0, 17, 33, 42, 8])
BUY_SHARES = {
    "en": [17, 42, 42, 0],
    "de": [17, 50, 33, 0],
    "es": [17, 50, 33, 0],
    "zh": [8, 25, 67, 0],
    "ko": [8, 50, 42, 0],
}
BUY_QUESTION = {"de": "Würden Sie den neuen Laufschuh kaufen?"}
CSV_HEADER = {
    "en": ["Persona", "Audience", "Value", "Scale value", "Option position", "Message"],
    "de": ["Persona", "Audience", "Wert", "Skalenwert", "Position der Option", "Nachricht"],
    "es": ["Persona", "Audience", "Valor", "Valor en la escala", "Posición de la opción", "Mensaje"],
    "zh": ["角色", "Audience", "取值", "量表值", "选项位置", "消息"],
    "ko": ["페르소나", "Audience", "값", "척도 값", "선택지 위치", "메시지"],
}


def share_line(language: str, options: list[str], shares: list[int]) -> str:
    percent = "%" if language in {"en", "zh", "ko"} else f"{NBSP}%"
    said = " · ".join(f"{o} {s}{percent}" for o, s in zip(options, shares, strict=True))
    return f"*{GEN_Z}*" + ("" if language == "zh" else " ") + BASE[language] + said


@pytest.mark.parametrize("language", list(SLACK_LOCALE))
@pytest.mark.parametrize("lists", [LADDER, BUY], ids=["never-always", "definitely-would-not-buy"])
async def test_an_ordered_list_keeps_minds_order_with_an_unchosen_option_in_text_and_csv_in_every_language(
    desk: Desk, language: str, lists: dict[str, list[str]]
) -> None:
    """Minds' option list, in the reader's language, keeps Minds' order (never sorted by share, whatever the
    words), every option shown, the unchosen at 0%; the CSV's option position is the place in Minds' list."""
    await _in(desk, language)
    options = lists[language]
    shares = (LADDER_SHARES if lists is LADDER else BUY_SHARES)[language]
    question = (
        "How often do you buy new sneakers?" if lists is LADDER else BUY_QUESTION.get(language, "Would you buy it?")
    )
    thread_ts, result = await asked(desk, f"{question} ({' / '.join(options)})")
    text = figures(result)
    assert text.split("\n")[0] == share_line(language, options, shares)
    zero = f" 0{'' if language in {'en', 'zh', 'ko'} else NBSP}%"
    assert any(zero in line for line in text.split("\n"))  # an option nobody chose is shown, in its place
    reply, rows = await answers_csv(desk, thread_ts, result)
    assert rows[0] == CSV_HEADER[language]
    assert CSV_HEADER[language][3].lower() in reply.lower()
    assert all(r[3] == "" and r[4] == str(options.index(r[2]) + 1) for r in rows[1:])
    gen_z = [r[2] for r in rows[1:] if r[1] == GEN_Z]
    assert [round(100 * gen_z.count(o) / len(gen_z)) for o in options] == shares  # the thread, recomputed
