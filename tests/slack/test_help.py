"""``/minds help`` grouped by task: the groups in order, every command of the router on exactly one line, the
buttons named as they read (Approve & run, Revise…, Cancel run), no implementation detail, and Slack's limits in
every language — also for translations three times as long as the English."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from minds_bot import i18n
from minds_bot.app import build_manifest_surface
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_SECTION_TEXT, unescape
from minds_bot.render.browse import BROWSE_KINDS
from minds_bot.render.cancel import cancel_button_block
from minds_bot.render.help import GROUPS, render_help, render_usage
from minds_bot.render.plan import render_plan
from minds_bot.settings import Settings
from minds_bot.slack.grammar import Browse, Usage, parse_command
from tests.slack.plan_samples import CONTEXT, catalogue, plan

GROUP_TITLES = ["Start here", "Plan and run", "Ask", "Audiences and Minds", "Files", "Schedules", "Settings"]
# A character of Chinese, Japanese or Korean script, or CJK punctuation: Slack shows a literal "*" when the
# closing asterisk of *bold* touches one (and the opening one follows one).
CJK = r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f\uff00-\uffef]"


@pytest.fixture(scope="module")
def surface() -> Any:
    return build_manifest_surface(Settings.model_construct())


def blocks(language: str = "en", **kwargs: Any) -> list[dict[str, Any]]:
    with i18n.speaking(language):
        return render_help(**kwargs).as_kwargs()["blocks"]


def block_texts(blocks: list[dict[str, Any]]) -> Iterator[str]:
    for block in blocks:
        if "text" in block:
            yield block["text"]["text"]
        for element in block.get("elements", []):
            yield element["text"]


def group_of(blocks: list[dict[str, Any]], title: str) -> str:
    """Everything a person reads under the header ``title``, up to the next header."""
    start = next(i for i, b in enumerate(blocks) if b["type"] == "header" and b["text"]["text"] == title)
    end = next((i for i, b in enumerate(blocks) if b["type"] == "header" and i > start), len(blocks))
    return "\n".join(block_texts(blocks[start + 1 : end]))


def router_commands(surface: Any) -> list[str]:
    """The router's commands as the help names them; browsing is one command per kind (Studies, Audiences, Minds)."""
    names: list[str] = []
    for command in surface.router.commands:
        names += [f"Browse:{kind}" for kind in BROWSE_KINDS] if command is Browse else [command.__name__]
    return names


def sample(usage: str) -> str:
    """A help line's usage as someone would type it: placeholders filled, options left out, one alternative."""
    text = usage.removeprefix("/minds ").split(" · ")[0]
    text = re.sub(r"\[.*\]", "", text).replace("<email…>", "ana@example.com")
    text = re.sub(r"<([^>]+)>", r"\1", text)
    return re.sub(r"(\w+)\|\w+", r"\1", text)


# --- the groups ----------------------------------------------------------------------------------------------


def test_the_help_is_grouped_by_task_in_this_order() -> None:
    shown = blocks()
    assert [b["text"]["text"] for b in shown if b["type"] == "header"] == GROUP_TITLES
    assert shown[0]["text"]["text"].startswith("*Minds* runs synthetic market research")


def test_start_here_gives_the_three_first_steps_with_the_real_commands() -> None:
    start = group_of(blocks(), "Start here")
    assert start.splitlines()[:3] == [
        "1. Once per workspace an admin types `/minds connect` and pastes the team's Minds API key (skip this if "
        "done).",
        "2. Type `/minds plan &lt;study&gt; &lt;request&gt;` with what you want to learn: Minds drafts a research plan "
        "in the channel. Answer its confirmation questions and review the exact questions together.",
        "3. Press *Approve & run* on the plan (you, the channel's approvers or an admin). Progress, results and the "
        "report follow in the plan's thread.",
    ]
    assert parse_command("connect").__class__.__name__ == "Connect"
    assert parse_command("plan launch Test three taglines").__class__.__name__ == "Plan"


def test_every_command_of_the_router_has_exactly_one_line_in_one_group(surface: Any) -> None:
    covered = Counter(name for group in GROUPS for line in group.lines for name in line.covers)
    commands = router_commands(surface)
    assert len(commands) >= 30
    assert {name: covered[name] for name in commands if covered[name] != 1} == {}, "a command without one line"
    assert set(covered) == set(commands), "a line for a command the router does not have"


def test_each_command_line_is_the_command_it_says_it_covers() -> None:
    for group in GROUPS:
        for line in group.lines:
            if line.command is None:
                continue
            parsed = parse_command(sample(line.command))
            assert not isinstance(parsed, Usage), line.command
            name = f"Browse:{parsed.kind}" if isinstance(parsed, Browse) else type(parsed).__name__
            assert name in line.covers, line.command


def test_every_message_shortcut_is_named_as_slacks_menu_shows_it_in_every_language(surface: Any) -> None:
    names = [s.name for s in surface.shortcuts if s.kind == "message"]
    assert names
    for language in i18n.LANGUAGES:
        text = "\n".join(block_texts(blocks(language)))
        for name in names:
            assert f"*{name}* — " in text, (language, name)


# --- what the lines say ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_plan_and_run_names_the_cancel_run_button_as_the_button_reads(language: str) -> None:
    with i18n.speaking(language):
        label = cancel_button_block("run-1").to_dict()["elements"][0]["text"]["text"]
        approvable = render_plan(plan(confirmationQuestions=[]), CONTEXT, catalogue=catalogue()).message
        buttons = [
            e["text"]["text"]
            for b in approvable.as_kwargs()["blocks"]
            if b["type"] == "actions"
            for e in b["elements"]
            if e.get("action_id") in ("plan_approve", "plan_revise")
        ]
    plan_and_run = group_of(blocks(language), i18n._translations(language).gettext("Plan and run"))
    assert f"*{label}* — " in plan_and_run
    assert len(buttons) == 2 and all(f"*{button}*" in plan_and_run for button in buttons)


def test_the_cancel_line_says_what_the_person_gets() -> None:
    line = next(t for t in group_of(blocks(), "Plan and run").splitlines() if t.startswith("*Cancel run*"))
    assert line == (
        "*Cancel run* — on a run's progress message: stops the run once you confirm; questions that already finished "
        "keep their answers (for whoever may approve in the channel, or whoever asked the question)"
    )


def test_revising_is_explained_on_the_plan_line_and_its_own() -> None:
    plan_and_run = group_of(blocks(), "Plan and run")
    assert (
        "*Revise…* · *Discard* — on a plan: say what should change and Minds drafts the next revision, which the "
        "channel reviews like the first; *Discard* closes the plan (Minds keeps it as a draft)"
    ) in plan_and_run


def test_the_help_says_what_people_get_not_how_the_bot_does_it() -> None:
    text = "\n".join(block_texts(blocks())).lower()
    for detail in ("same key", "same request", "idempotency", "request id", "endpoint", "post /", "get /"):
        assert detail not in text, detail
    assert "*try again* on a copy or an audience build that minds did not answer never makes a second one." in text
    assert "refresh an audience" not in text and "recalibrate an audience you own:" in text


def test_a_usage_mistake_shows_only_what_to_type_instead_escaped() -> None:
    message = render_usage("Say `/minds share <study> on` <!channel>").as_kwargs()
    assert message["blocks"] == [
        {"type": "section", "text": {"type": "mrkdwn", "text": "Say `/minds share &lt;study&gt; on` &lt;!channel&gt;"}}
    ]
    assert message["text"] == "Say `/minds share &lt;study&gt; on` &lt;!channel&gt;"


def test_a_note_above_the_help_comes_first_then_the_groups() -> None:
    shown = blocks(note="`/minds frobnicate` is not available in this version yet.")
    assert shown[0]["text"]["text"] == "`/minds frobnicate` is not available in this version yet."
    assert [b["text"]["text"] for b in shown if b["type"] == "header"] == GROUP_TITLES


# --- Slack's limits and bold that renders, in every language ---------------------------------------------------


def assert_fits(shown: list[dict[str, Any]]) -> None:
    assert len(shown) <= MAX_BLOCKS_PER_MESSAGE
    for block in shown:
        if block["type"] == "section":
            assert len(block["text"]["text"]) <= MAX_SECTION_TEXT
        if block["type"] == "header":
            assert len(block["text"]["text"]) <= 150


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_the_help_fits_slacks_limits_and_keeps_its_groups_in_every_language(language: str) -> None:
    shown = blocks(language, note="x" * 4000)
    assert_fits(shown)
    with i18n.speaking(language):
        titles = [i18n._(title) for title in GROUP_TITLES]
    assert [b["text"]["text"] for b in shown if b["type"] == "header"] == titles


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_no_asterisk_of_the_groups_touches_cjk_text_from_outside(language: str) -> None:
    shown = blocks(language)
    first_header = next(i for i, b in enumerate(shown) if b["type"] == "header")
    text = "\n".join(block_texts(shown[first_header:]))  # the button names the groups put in bold
    bold = re.finditer(r"(?<![*\w])\*(?=\S)(.+?)(?<=\S)\*", text)
    for match in bold:
        before, after = text[match.start() - 1 : match.start()], text[match.end() : match.end() + 1]
        assert not re.match(CJK, before) and not re.match(CJK, after), (language, match.group(0))


class _Stretched:
    """A catalog whose every message is three times as long as the English: a language far wordier than German."""

    def gettext(self, message: str) -> str:
        return " ".join([message] * 3)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return " ".join([singular if count == 1 else plural] * 3)


def test_translations_three_times_as_long_are_split_into_more_sections_never_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    english = blocks()
    monkeypatch.setattr(i18n, "_translations", lambda language: _Stretched())
    stretched = blocks("de")
    assert_fits(stretched)
    assert len([b for b in stretched if b["type"] == "section"]) > len([b for b in english if b["type"] == "section"])
    text = unescape("\n".join(block_texts(stretched)))
    for group in GROUPS:
        for line in group.lines:
            assert line.command is None or line.command in text
