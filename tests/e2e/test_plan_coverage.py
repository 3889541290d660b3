"""Issue 25, "Plans that a researcher would approve", through the real bot against the Minds sandbox: the README's
pricing example plans a willingness-to-pay question and an open "why" under a module titled for them; a Study with
one Audience asks the requester whether the price is final, and the answer stays on the next revision; the German
and Korean briefs of docs/guide.md's *Languages* section are planned in German and Korean when that is the Study
language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from slack_emulator.state import Message
from tests.e2e.desk import Desk, action_ids, open_desk, shown

README_PRICING = (
    'plan "Launch positioning" How do Gen Z sneaker buyers in Germany feel about a 140 EUR price for our new '
    "running shoe?"
)
GERMAN = (
    'plan "Launch positioning" Wie finden Gen-Z-Sneakerkäufer in Deutschland einen Preis von 140 EUR für unseren '
    "neuen Laufschuh?"
)
KOREAN = 'plan "Launch positioning" 독일의 Z세대 운동화 구매자들은 우리 새 러닝화의 140유로 가격을 어떻게 생각할까요?'


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


def _button(message: Message, label: str) -> str:
    return next(
        e["action_id"]
        for b in message.blocks
        if b.get("type") == "actions"
        for e in b.get("elements", [])
        if e.get("type") == "button" and e["text"]["text"] == label
    )


async def _revision(desk: Desk, plan: Message, number: int) -> Message:
    return await desk.wait(
        lambda: next(
            (
                m
                for m in desk.emu.state.messages(desk.research)
                if m.ts == plan.ts and f"Revision {number} ·" in shown(m)
            ),
            None,
        )
    )


async def test_the_readme_pricing_example_plans_a_price_point_and_an_open_why(desk: Desk) -> None:
    since = await desk.type(desk.ada, README_PRICING)
    plan = await desk.posted(since, lambda m: "Research plan" in m.text)
    text = shown(plan)
    assert (
        "Find out how Gen Z sneaker buyers in Germany judge a price of 140 EUR for the new running shoe, what they "
        "would be willing to pay, and why."
    ) in text
    assert "What is the most you would pay for the new running shoe? Please give an amount in EUR." in text
    assert "Why that amount? What makes the new running shoe worth paying for, or not, to you?" in text
    assert "*Price and value*" in text and "First impressions" not in text
    assert "*Minds asks:* Which Audiences should answer this plan?" in text

    await desk.emu.click_button(
        user=desk.ada, action_id=_button(plan, "Gen Z sneaker buyers in Germany"), channel=desk.research, ts=plan.ts
    )
    second = await _revision(desk, plan, 2)
    assert "plan_approve" in action_ids(second.blocks)
    assert "What is the most you would pay for the new running shoe?" in shown(second)


async def test_a_single_audience_study_asks_the_requester_whether_the_price_is_final(desk: Desk) -> None:
    since = await desk.type(desk.ben, 'plan "Pricing pulse" How do IT buyers judge a 140 EUR price for our dock?')
    plan = await desk.posted(since, lambda m: "Research plan" in m.text)
    question = "Is 140 EUR the final shelf price of the dock, including VAT?"
    assert f"*Minds asks:* {question}" in shown(plan)
    assert "Should the Minds" not in shown(plan)
    assert "What is the most you would pay for the dock? Please give an amount in EUR." in shown(plan)

    await desk.emu.click_button(user=desk.ben, action_id=_button(plan, "Yes"), channel=desk.research, ts=plan.ts)
    second = await _revision(desk, plan, 2)
    assert f"Answered by <@{desk.ben}>: {question} — Yes" in shown(second)
    assert "plan_approve" in action_ids(second.blocks)


async def test_the_german_brief_is_planned_in_german(desk: Desk) -> None:
    desk.emu.state.set_locale(desk.ben, "de-DE")  # /minds plan asks Minds for a plan in Ben's language
    since = await desk.type(desk.ben, GERMAN)
    plan = await desk.posted(since, lambda m: "Research plan" in m.text)
    text = shown(plan)
    assert (
        "Herausfinden, wie Gen-Z-Sneakerkäufer in Deutschland einen Preis von 140 EUR für den neuen Laufschuh "
        "beurteilen, wie viel sie zu zahlen bereit wären und warum."
    ) in text
    assert (
        "Wie viel würden Sie höchstens für den neuen Laufschuh bezahlen? Bitte nennen Sie einen Betrag in EUR." in text
    )
    assert "Warum dieser Betrag?" in text and "*Preis und Wert*" in text
    assert "*Minds asks:* Welche Audiences sollen diesen Plan beantworten?" in text
    assert "Wie finden Gen-Z-Sneakerkäufer" not in text and "have you bought" not in text  # no brief pasted whole

    await desk.emu.click_button(
        user=desk.ben, action_id=_button(plan, "Gen Z sneaker buyers in Germany"), channel=desk.research, ts=plan.ts
    )
    second = await _revision(desk, plan, 2)
    assert "Welche Audiences sollen diesen Plan beantworten? — Gen Z sneaker buyers in Germany" in shown(second)
    assert "plan_approve" in action_ids(second.blocks)


async def test_the_korean_brief_is_planned_in_korean(desk: Desk) -> None:
    desk.emu.state.set_locale(desk.ben, "ko-KR")
    since = await desk.type(desk.ben, KOREAN)
    plan = await desk.posted(since, lambda m: "Research plan" in m.text)
    text = shown(plan)
    assert (
        "독일의 Z세대 운동화 구매자들이 새 러닝화의 140 EUR 가격을 어떻게 평가하는지, 얼마까지 지불할 의향이 있는지, "
        "그 이유는 무엇인지 알아봅니다."
    ) in text
    assert "새 러닝화에 최대 얼마까지 지불하시겠습니까? 유로 기준 금액으로 답해 주십시오." in text
    assert "왜 그 금액입니까?" in text and "*가격과 가치*" in text
    assert "*Minds asks:* 어떤 Audience가 이 계획에 답해야 합니까?" in text
    assert "have you bought" not in text and "What is the most" not in text


@pytest.mark.parametrize(
    ("slack_locale", "brief", "price_point", "who_asks"),
    [
        (
            "es-ES",
            "¿Qué opinan los compradores de zapatillas de la Generación Z en España de un precio de 140 EUR para "
            "nuestras nuevas zapatillas de running?",
            "¿Cuánto es lo máximo que pagarías por las nuevas zapatillas de running? Indica un importe en EUR.",
            "¿Qué Audiences deben responder a este plan?",
        ),
        (
            "zh-CN",
            "德国的Z世代运动鞋买家如何看待我们新跑鞋140欧元的定价？",
            "您最多愿意为新跑鞋支付多少钱？请给出一个以欧元计的金额。",
            "哪些 Audience 应回答这个方案？",
        ),
    ],
)
async def test_spanish_and_chinese_briefs_are_planned_in_their_language(
    desk: Desk, slack_locale: str, brief: str, price_point: str, who_asks: str
) -> None:
    desk.emu.state.set_locale(desk.ben, slack_locale)
    since = await desk.type(desk.ben, f'plan "Launch positioning" {brief}')
    plan = await desk.posted(since, lambda m: "Research plan" in m.text)
    assert price_point in shown(plan) and f"*Minds asks:* {who_asks}" in shown(plan)
