"""``/minds help`` as people read it in Slack: grouped by task, three steps to start that work as written, and the
button that stops a run named as it reads on the run's progress message — in the reader's own language."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from minds_bot import i18n
from slack_emulator.state import Ephemeral
from tests.e2e.desk import Desk, action_ids, open_desk, shown

GROUPS = ["Start here", "Plan and run", "Ask", "Audiences and Minds", "Files", "Schedules", "Settings"]
REQUEST = 'plan "Launch positioning" Test three taglines for our new running shoe with Gen Z buyers'


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    async with open_desk(tmp_path) as running:
        yield running


def headers(help_message: Ephemeral) -> list[str]:
    return [b["text"]["text"] for b in help_message.blocks if b["type"] == "header"]


def in_language(language: str, message: str) -> str:
    with i18n.speaking(language):
        return i18n._(message)


async def test_help_is_grouped_and_its_steps_lead_to_the_cancel_run_button_it_names(desk: Desk) -> None:
    since = await desk.type(desk.ben, "help")
    helped = await desk.private(desk.ben, since, "Start here")
    assert headers(helped) == GROUPS
    text = shown(helped)
    assert "2. Type `/minds plan <study> <request>` with what you want to learn" in text
    assert "3. Press *Approve & run* on the plan" in text
    cancel = re.search(r"\*([^*]+)\* — on a run's progress message: stops the run once you confirm", text)
    assert cancel is not None
    assert "same key" not in text and "same request" not in text

    await desk.faults(run_speed=0.001)  # the run stays live long enough to be cancelled
    plan = await desk.answered_plan(desk.ben, REQUEST)  # step 2, as the help says
    approved = desk.emu.mark()
    await desk.emu.click_button(user=desk.ada, action_id="plan_approve", channel=desk.research, ts=plan.ts)  # step 3
    progress = await desk.posted(approved, lambda m: "run_cancel" in action_ids(m.blocks), thread_ts=plan.ts)
    button = next(e for b in progress.blocks for e in b.get("elements", []) if e.get("action_id") == "run_cancel")
    assert button["text"]["text"] == cancel.group(1) == "Cancel run"

    mark = desk.emu.mark()
    await desk.emu.click_button(user=desk.ben, action_id="run_cancel", channel=desk.research, ts=progress.ts)
    await desk.private(desk.ben, mark, "Minds accepted the cancellation")


@pytest.mark.parametrize("language", ["de", "ko"])
async def test_each_reader_gets_the_groups_in_their_own_language(desk: Desk, language: str) -> None:
    desk.emu.state.set_locale(desk.chloe, {"de": "de-DE", "ko": "ko-KR"}[language])
    since = await desk.type(desk.chloe, "help")
    helped = await desk.private(desk.chloe, since, in_language(language, "Audiences and Minds"))
    assert headers(helped) == [in_language(language, title) for title in GROUPS]
    assert f"*{in_language(language, 'Cancel run')}* — " in shown(helped)
    assert "`/minds help`" in shown(helped) and "`/minds connect`" in shown(helped)


async def test_a_usage_mistake_gets_what_to_type_not_the_whole_help(desk: Desk) -> None:
    since = await desk.type(desk.ben, "share x maybe")
    answer = await desk.private(desk.ben, since, "/minds share <study> on")
    assert headers(answer) == [] and len(answer.blocks) == 1
