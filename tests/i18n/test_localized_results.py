"""Issue 26: a result reads in the reader's language, numbers included — the exact line a German, Spanish,
Chinese or Korean reader sees for the same answers ("Gen Z (% der Befragten · n=12): Ja 92 % · Nein 8 %",
"Mittelwert 3,9 auf 1–5 · Top-2-Box 75 %"), an NPS with its true minus, and the plan's chrome around Minds' option
labels. Option labels are Minds' own (here as Minds writes them in each Study language); every word, separator,
bracket and number around them is the bot's.

These lines use messages added in issue 26 (``mean {value} on {low}–{high}``, ``top-2-box {share}``,
``{option} {share}``, ``{audience} ({base}): {figures}``): they read as asserted once the translations in
``notes/tr/numbers.json`` are merged into the catalogs."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from minds_bot import i18n
from minds_bot.minds.models import PlanQuestion
from minds_bot.render import plan, results
from slack_emulator.state import Message
from tests.e2e.desk import Desk, open_desk, shown
from tests.e2e.test_languages import COMPLETED, COMPLETED_PLURAL, PARTIAL, SLACK_LOCALE, said
from tests.e2e.test_languages import _approved_plan as approved_plan
from tests.e2e.test_languages import _connect as connect_in

NBSP = "\u00a0"
YES_NO = {"de": ("Ja", "Nein"), "es": ("Sí", "No"), "zh": ("是", "否"), "ko": ("예", "아니요")}
# 20 answers on 1–5: mean 78 / 20 = 3.9, the two highest points 15 / 20 = 75%.
SCALE_ANSWERS = ["5"] * 6 + ["4"] * 9 + ["3"] * 2 + ["2"] * 3
# 12 answers on 0–10: 2 promoters (17%), 3 passives (25%), 7 detractors (58%): NPS 17 − 58 = −41.
NPS_ANSWERS = ["10", "9", "8", "7", "7", "6", "5", "4", "3", "2", "1", "0"]


def _line(language: str, *, kind: str, answers: Sequence[str], **model: object) -> str:
    with i18n.speaking(language):
        result = results.build(
            title="How likely are you to recommend it?", kind=kind, audiences=[("Gen Z", answers)], **model
        )  # type: ignore[arg-type]
        assert result is not None
        return results.audience_line(result, result.audiences[0], name="Gen Z")


@pytest.mark.parametrize(
    ("language", "expected"),
    ids=["en", "de", "es", "zh", "ko"],
    argvalues=[
        ("en", "Gen Z (% of respondents · n=12): Yes 92% · No 8%"),
        ("de", f"Gen Z (% der Befragten · n=12): Ja 92{NBSP}% · Nein 8{NBSP}%"),
        ("es", f"Gen Z (% de quienes respondieron · n=12): Sí 92{NBSP}% · No 8{NBSP}%"),
        ("zh", "Gen Z（占受访者百分比 · n=12）：是 92% · 否 8%"),
        ("ko", "Gen Z (응답자 대비 % · n=12): 예 92% · 아니요 8%"),
    ],
)
def test_a_share_line_reads_in_the_readers_language(language: str, expected: str) -> None:
    yes, no = YES_NO.get(language, ("Yes", "No"))
    answers = [yes] * 11 + [no]
    assert _line(language, kind="categorical", answers=answers, listed=[yes, no]) == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    ids=["en", "de", "es", "zh", "ko"],
    argvalues=[
        ("en", "Gen Z (n=20): mean 3.9 on 1–5 · top-2-box 75%"),
        ("de", f"Gen Z (n=20): Mittelwert 3,9 auf 1–5 · Top-2-Box 75{NBSP}%"),
        ("es", f"Gen Z (n=20): media 3,9 en 1–5 · top-2-box 75{NBSP}%"),
        ("zh", "Gen Z（n=20）：平均值 3.9（量表 1–5） · 最高两档占比 75%"),
        ("ko", "Gen Z (n=20): 평균 3.9(1–5점 척도) · 상위 2점 비율 75%"),
    ],
)
def test_a_scale_line_says_mean_and_top_2_box_in_the_readers_words_and_numbers(language: str, expected: str) -> None:
    assert _line(language, kind="scale", answers=SCALE_ANSWERS, scale_range=[1, 5]) == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    ids=["en", "de", "es", "zh", "ko"],
    argvalues=[
        ("en", "Gen Z (n=12): NPS −41 · promoters (9–10) 17% · passives (7–8) 25% · detractors (0–6) 58%"),
        (
            "de",
            f"Gen Z (n=12): NPS −41 · Promotoren (9–10) 17{NBSP}% · Passive (7–8) 25{NBSP}% · "
            f"Detraktoren (0–6) 58{NBSP}%",
        ),
        (
            "es",
            f"Gen Z (n=12): NPS −41 · promotores (9–10) 17{NBSP}% · pasivos (7–8) 25{NBSP}% · "
            f"detractores (0–6) 58{NBSP}%",
        ),
        ("zh", "Gen Z（n=12）：NPS −41 · 推荐者（9–10）17% · 被动者（7–8）25% · 贬损者（0–6）58%"),
        ("ko", "Gen Z (n=12): NPS −41 · 추천 고객(9–10) 17% · 중립 고객(7–8) 25% · 비추천 고객(0–6) 58%"),
    ],
)
def test_an_nps_line_keeps_its_true_minus_in_every_language(language: str, expected: str) -> None:
    assert _line(language, kind="scale", answers=NPS_ANSWERS, scale_range=[0, 10], method_nps=True) == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    ids=["en", "de", "es", "zh", "ko"],
    argvalues=[
        ("en", "Q1. Would you buy it?\n(One of: Yes · No)"),
        ("de", "Q1. Would you buy it?\n(Eine Antwort aus: Yes · No)"),
        ("es", "Q1. Would you buy it?\n(Una de: Yes · No)"),
        ("zh", "Q1. Would you buy it?\n（单选：Yes · No）"),
        ("ko", "Q1. Would you buy it?\n(하나 선택: Yes · No)"),
    ],
)
def test_the_plans_chrome_around_minds_options_follows_the_readers_language(language: str, expected: str) -> None:
    question = PlanQuestion.model_validate(
        {
            "id": "q1",
            "text": "Would you buy it?",
            "response": {"type": "categorical", "categoricalOptions": ["Yes", "No"]},
        }
    )
    with i18n.speaking(language):
        assert plan.question_text(question, 1, {"q1": 1}) == expected


# --- end to end: the result thread of a real run, in the workspace's language ---------------------------------


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


async def _result_thread(desk: Desk, language: str) -> str:
    """Connect in ``language``, plan and approve the launch research, and return its result thread's text."""
    for person in (desk.ada, desk.ben):
        desk.emu.state.set_locale(person, SLACK_LOCALE[language])
    await connect_in(desk, language)
    plan_message = await approved_plan(desk, language)
    ends = (said(language, COMPLETED, plural=COMPLETED_PLURAL, count=4), said(language, PARTIAL))

    def result() -> Message | None:
        replies = desk.emu.state.replies(desk.research, plan_message.ts)
        return next((m for m in replies if any(end in shown(m) for end in ends)), None)

    await desk.wait(result)
    await desk.wait(  # the report comes after the results: the thread is complete
        lambda: any(
            desk.emu.state.files[f].name.endswith(".md")
            for m in desk.emu.state.replies(desk.research, plan_message.ts)
            for f in m.files
        )
    )
    return "\n".join(shown(m) for m in desk.emu.state.replies(desk.research, plan_message.ts))


GEN_Z = re.escape("Gen Z sneaker buyers in Germany")  # the sandbox's Audience, named as Minds names it
D = r"\d{1,3}"  # a whole number: the sandbox's figures are its own, their words and format are the bot's


@pytest.mark.parametrize(
    ("language", "scale", "top_line"),
    ids=["de", "es", "zh", "ko"],
    argvalues=[
        ("de", rf"{GEN_Z} \(n=12\): Mittelwert \d,\d auf 1–5 · Top-2-Box {D}\u00a0%", rf"{GEN_Z}: \S"),
        ("es", rf"{GEN_Z} \(n=12\): media \d,\d en 1–5 · top-2-box {D}\u00a0%", rf"{GEN_Z}: \S"),
        ("zh", rf"{GEN_Z}（n=12）：平均值 \d\.\d（量表 1–5） · 最高两档占比 {D}%", rf"{GEN_Z}：\S"),
        ("ko", rf"{GEN_Z} \(n=12\): 평균 \d\.\d\(1–5점 척도\) · 상위 2점 비율 {D}%", rf"{GEN_Z}: \S"),
    ],
)
async def test_a_result_thread_says_its_statistics_in_the_workspaces_language(
    desk: Desk, language: str, scale: str, top_line: str
) -> None:
    """The sandbox's launch research, planned in the Study language: each 1–5 scale question's line for Gen Z says
    mean and top-2-box in the reader's words and number format (German "Mittelwert 3,6 auf 1–5 · Top-2-Box 58 %"),
    and the bot's colon before Minds' own top line of an open question is the language's (Chinese "：")."""
    thread = await _result_thread(desk, language)
    lines = thread.split("\\n")  # the thread's blocks are JSON: a line break in mrkdwn reads as "\\n" here
    gen_z = [line for line in lines if re.match(GEN_Z, line)]
    scales = [line for line in gen_z if "n=12" in line]
    # the taglines are a message test (issue 36): persuasion, memorability, credibility and brand fit on 1–5
    assert len(scales) == 4, gen_z
    assert all(re.fullmatch(scale, line) for line in scales), scales
    assert any(re.match(top_line, line) for line in gen_z), gen_z
    for english in ("mean ", " on 1–5"):  # (Spanish keeps the research term "top-2-box")
        assert not any(english in line for line in scales)
