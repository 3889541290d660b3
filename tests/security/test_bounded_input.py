"""Issue #17 row 8: every free-text argument, modal field, button value and private_metadata has a limit, checked
before any work, with a message that says the limit and never echoes the input whole.

Table tests through the pure grammar (each limit: just under passes, just over is refused with the numbers), a
property over arbitrary text, and end to end through the real Bolt app: 40,000 characters in ``ask``, a
``studies`` query, a digest weekday, modal fields, button values and private_metadata get the clear message,
no Minds call and no ERROR in the log.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minds_bot.minds.models import ConfirmationQuestion
from minds_bot.render.access import MODAL_NOT_YOURS
from minds_bot.render.common import MAX_BUTTON_VALUE, MAX_PRIVATE_METADATA
from minds_bot.render.modals import MAX_QUESTION
from minds_bot.render.plan_dialogs import MAX_PLAN_ANSWER, MAX_PLAN_REQUEST, VIEW_ANSWER_ALL, _answer_element
from minds_bot.slack.grammar import (
    COUNT_LIMITS,
    FIELD_LIMITS,
    MAX_APPROVERS,
    MAX_BRIEF,
    MAX_DIGEST_ARGUMENT,
    MAX_DIGEST_ID,
    MAX_DIGEST_STUDIES,
    MAX_QUERY,
    MAX_STUDY_REF,
    Usage,
    parse_command,
)
from tests.fakes.bot import BotHarness, bot_harness

HUGE = 40_000
MESSAGE_ROOM = 300  # a usage message says the limit in a sentence; it never carries the input


def word(n: int, letter: str = "x") -> str:
    return letter * n


# (what is typed, given an argument of exactly n characters; the words the refusal starts with; the limit)
LIMITS: list[tuple[str, Callable[[int], str], str, int]] = [
    ("ask question", lambda n: f"ask cups {word(n)}", "A question", MAX_QUESTION),
    ("plan request", lambda n: f"plan cups {word(n)}", "A plan request", MAX_PLAN_REQUEST),
    ("studies query", lambda n: f"studies {word(n)}", "A search", MAX_QUERY),
    ("audiences query", lambda n: f"audiences {word(n)}", "A search", MAX_QUERY),
    ("minds query", lambda n: f"minds {word(n)}", "A search", MAX_QUERY),
    ("study reference", lambda n: f"study {word(n)}", "A Study name or id", MAX_STUDY_REF),
    ("quoted study in ask", lambda n: f'ask "{word(n)}" Why?', "A Study name or id", MAX_STUDY_REF),
    ("runs reference", lambda n: f"runs {word(n)}", "A Study name or id", MAX_STUDY_REF),
    ("summary reference", lambda n: f"summary {word(n)} refresh", "A Study name or id", MAX_STUDY_REF),
    ("export reference", lambda n: f"export {word(n)} pdf", "A Study name or id", MAX_STUDY_REF),
    ("share reference", lambda n: f"share {word(n)} on", "A Study name or id", MAX_STUDY_REF),
    ("duplicate reference", lambda n: f"duplicate {word(n)}", "A Study name or id", MAX_STUDY_REF),
    ("audience brief", lambda n: f"audience new {word(n)}", "An Audience brief", MAX_BRIEF),
    ("digest weekday", lambda n: f"digest add weekly {word(n)} 09:00", "A digest argument", MAX_DIGEST_ARGUMENT),
    ("digest time", lambda n: f"digest add daily {word(n)}", "A digest argument", MAX_DIGEST_ARGUMENT),
    (
        "digest timezone",
        lambda n: f"digest add daily 09:00 Europe/{word(n - 7)}",
        "A digest argument",
        MAX_DIGEST_ARGUMENT,
    ),
    (
        "digest cron",
        lambda n: f'digest add cron "0 9 * * {word(n - 8, "1")}"',
        "A digest argument",
        MAX_DIGEST_ARGUMENT,
    ),
    ("digest study", lambda n: f'digest add daily 09:00 "{word(n)}"', "A digest argument", MAX_DIGEST_ARGUMENT),
    ("digest now id", lambda n: f"digest now {word(n)}", "A digest id", MAX_DIGEST_ID),
    ("digest remove id", lambda n: f"digest remove {word(n)}", "A digest id", MAX_DIGEST_ID),
]


@pytest.mark.parametrize(("case", "typed", "refusal", "limit"), LIMITS, ids=[c[0] for c in LIMITS])
def test_each_argument_is_refused_over_its_limit_with_the_numbers(
    case: str, typed: Callable[[int], str], refusal: str, limit: int
) -> None:
    over = parse_command(typed(limit + 1))
    assert isinstance(over, Usage)
    assert over.message.startswith(refusal)
    assert f"at most {limit:,} characters" in over.message
    huge = parse_command(typed(HUGE))
    assert isinstance(huge, Usage) and "(yours has 40,0" in huge.message
    assert len(huge.message) < MESSAGE_ROOM


@pytest.mark.parametrize(("case", "typed", "refusal", "limit"), LIMITS, ids=[c[0] for c in LIMITS])
def test_each_argument_at_its_limit_is_not_refused_for_length(
    case: str, typed: Callable[[int], str], refusal: str, limit: int
) -> None:
    at = parse_command(typed(limit))
    assert not (isinstance(at, Usage) and "at most" in at.message)


def test_the_exact_words_of_a_refusal() -> None:
    refused = parse_command(f"ask cups {word(HUGE)}")
    assert refused == Usage("A question can be at most 2,000 characters (yours has 40,000).")


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        (
            "digest add daily 09:00 " + " ".join(f"s{n}" for n in range(MAX_DIGEST_STUDIES + 1)),
            f"A digest can follow at most {MAX_DIGEST_STUDIES} Studies (you named {MAX_DIGEST_STUDIES + 1}).",
        ),
        (
            "approvers add " + " ".join(f"<@U{n:04d}>" for n in range(MAX_APPROVERS + 1)),
            f"Name at most {MAX_APPROVERS} people at a time (you named {MAX_APPROVERS + 1}).",
        ),
    ],
    ids=["digest studies", "approvers"],
)
def test_lists_have_a_count_limit(typed: str, message: str) -> None:
    assert parse_command(typed) == Usage(message)


def test_an_unknown_word_is_said_back_shortened() -> None:
    refused = parse_command(word(HUGE, "q"))
    assert isinstance(refused, Usage) and len(refused.message) < MESSAGE_ROOM
    assert "qqqq…`" in refused.message


def test_every_limited_field_is_in_the_tables() -> None:
    assert set(FIELD_LIMITS) == {"question", "request", "query", "study", "brief", "digest_id"}
    assert set(COUNT_LIMITS) == {"studies", "users"}


@settings(max_examples=300)
@given(st.sampled_from(["ask s ", "plan s ", "studies ", "study ", "digest add weekly ", "audience new ", ""]),
       st.text(min_size=0, max_size=6000))  # fmt: skip
def test_any_text_is_a_command_within_limits_or_a_short_usage_message(prefix: str, rest: str) -> None:
    parsed = parse_command(prefix + rest)
    if isinstance(parsed, Usage):
        assert len(parsed.message) < MESSAGE_ROOM or parsed.message.startswith("Digest commands")
        return
    for name, (_, limit) in FIELD_LIMITS.items():
        value = getattr(parsed, name, None)
        for item in value if isinstance(value, tuple) else (value,):
            text = getattr(item, "text", item)
            assert not isinstance(text, str) or len(text) <= limit


# --- end to end through the real Bolt app ------------------------------------------------------------------


@pytest.fixture
async def bot(caplog: pytest.LogCaptureFixture) -> AsyncIterator[BotHarness]:
    caplog.set_level(logging.INFO)
    async with bot_harness() as harness:
        yield harness
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], f"ERROR logged: {[r.getMessage() for r in errors]}"


def said(answer: dict[str, Any]) -> str:
    return json.dumps(answer, ensure_ascii=False)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        (f"ask cups {word(HUGE)}", "A question can be at most 2,000 characters (yours has 40,000)."),
        (f"studies {word(HUGE)}", "A search can be at most 200 characters (yours has 40,000)."),
        (
            f"digest add weekly {word(HUGE)} 09:00",
            "A digest argument can be at most 200 characters (yours has 40,000).",
        ),
        (f"plan cups {word(HUGE)}", "A plan request can be at most 3,000 characters (yours has 40,000)."),
        (f"export {word(HUGE)}", "A Study name or id can be at most 200 characters (yours has 40,000)."),
    ],
    ids=["ask", "studies query", "digest weekday", "plan", "export"],
)
async def test_row_8_a_40000_character_argument_gets_the_limit_and_no_minds_call(
    bot: BotHarness, typed: str, message: str
) -> None:
    await bot.command(typed)
    answer = await bot.reply()
    assert answer["text"] == message
    assert word(1000) not in said(answer)  # the input is never echoed back whole
    assert bot.minds_api.sent == []
    assert bot.slack.calls_to("chat.postMessage") == []


@pytest.mark.parametrize(
    "action_id",
    ["browse_next", "summary_next", "answers_show", "share_on_confirmed", "minds_rerun", "ask_retry", "study_export"],
)
async def test_row_8_a_40000_character_button_value_is_out_of_date_not_an_error(
    bot: BotHarness, action_id: str
) -> None:
    await bot.click(action_id, word(HUGE, "{"))
    answer = await bot.reply()
    assert "out of date" in answer["text"] or "Only the person who asked" in answer["text"]
    assert word(1000, "{") not in said(answer)
    assert bot.minds_api.sent == []


async def test_a_button_value_slack_could_carry_still_works(bot: BotHarness) -> None:
    """The bound is Slack's own: a value the bot could have written re-enters the command as before."""
    await bot.click("minds_rerun", f"studies {word(MAX_QUERY + 1)}")
    assert (await bot.reply())["text"] == "A search can be at most 200 characters (yours has 201)."
    assert len(f"studies {word(MAX_QUERY + 1)}") <= MAX_BUTTON_VALUE


async def test_a_40000_character_pick_modal_question_is_refused_on_the_field(bot: BotHarness) -> None:
    values = {
        "study": {"study_options": {"selected_option": {"value": "s1"}}},
        "question": {"question_input": {"value": word(HUGE)}},
    }
    view = {"callback_id": "minds_pick_study", "private_metadata": json.dumps({"purpose": "ask"})}
    ack = await bot.submit(view, values)
    body = json.loads(ack.body)
    assert body == {
        "response_action": "errors",
        "errors": {"question": "A question can be at most 2,000 characters (yours has 40,000)."},
    }
    assert bot.minds_api.sent == []


@pytest.mark.parametrize(
    ("callback_id", "block", "limit", "words"),
    [
        ("plan_request", "request", MAX_PLAN_REQUEST, "A plan request"),
        ("plan_answer_view", "answer", MAX_PLAN_ANSWER, "An answer"),
        ("plan_revise_view", "refinement", MAX_PLAN_REQUEST, "A refinement"),
    ],
)
async def test_a_40000_character_plan_modal_field_is_refused_on_the_field(
    bot: BotHarness, callback_id: str, block: str, limit: int, words: str
) -> None:
    values = {block: {"value": {"type": "plain_text_input", "value": word(HUGE)}}}
    opened_for = json.dumps({"u": bot.user})  # the dialog was opened for the person submitting it
    ack = await bot.submit({"callback_id": callback_id, "private_metadata": opened_for}, values)
    body = json.loads(ack.body)
    assert body["errors"] == {block: f"{words} can be at most {limit:,} characters (yours has 40,000)."}
    assert bot.minds_api.sent == []


async def test_a_40000_character_digest_modal_field_is_refused_on_the_field(bot: BotHarness) -> None:
    values = {
        "kind": {"value": {"selected_option": {"value": "daily"}}},
        "time": {"value": {"selected_time": "09:00"}},
        "tz": {"value": {"value": word(HUGE)}},
        "channel": {"value": {"selected_conversation": "C0001"}},
    }
    ack = await bot.submit({"callback_id": "digest_add"}, values)
    body = json.loads(ack.body)
    message = f"A timezone, cron or Study name can be at most {MAX_DIGEST_ARGUMENT} characters (yours has 40,000)."
    assert body["errors"] == {"tz": message}
    assert bot.minds_api.sent == []
    assert await bot.store.list_digests(team_id="T0001") == []


async def test_a_40000_character_private_metadata_is_not_read(bot: BotHarness) -> None:
    values = {"refinement": {"value": {"type": "plain_text_input", "value": "Shorter, please."}}}
    # Opened for the submitter, but longer than Slack lets a dialog carry: it is not read, so it names nobody.
    metadata = json.dumps({"c": "C0001", "ts": "1.0", "r": 1, "u": bot.user, "pad": word(HUGE)})
    assert len(metadata) > MAX_PRIVATE_METADATA
    ack = await bot.submit({"callback_id": "plan_revise_view", "private_metadata": metadata}, values)
    assert json.loads(ack.body)["errors"] == {"refinement": MODAL_NOT_YOURS}
    assert bot.minds_api.sent == []
    assert bot.slack.calls_to("chat.postEphemeral") == [] and bot.slack.calls_to("chat.postMessage") == []


async def test_a_plan_offer_button_is_read_as_study_id_and_request(bot: BotHarness) -> None:
    """The ``study_plan`` value is "<study id>\\n<request>": the id alone names the Study, the request fills the
    dialog; an id longer than a Study reference is not read as one."""
    await bot.click("study_plan", "s-1\nWhich launch message works best?")
    opened = await bot.slack.next_call("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    assert json.loads(view["private_metadata"])["s"] == "s-1"
    (request,) = [b for b in view["blocks"] if b.get("block_id") == "request"]
    assert request["element"]["initial_value"] == "Which launch message works best?"

    await bot.click("study_plan", f"{word(MAX_STUDY_REF + 1)}\nWhy?")
    opened = await bot.slack.next_call("views.open")
    view = json.loads(opened["view"]) if isinstance(opened["view"], str) else opened["view"]
    assert json.loads(view["private_metadata"])["s"] is None  # the dialog asks for the Study instead
    assert bot.minds_api.sent == []


DIGEST_FIELDS = {"kind": "daily", "time": "09:00", "tz": "Europe/Berlin", "channel": "C0001"}


def _digest_values(**given: Any) -> dict[str, Any]:
    """The digest dialog's state as Slack sends it: a select's option, the time picker's time, the texts."""
    fields = {**DIGEST_FIELDS, **given}
    values: dict[str, Any] = {
        "kind": {"value": {"selected_option": {"value": fields["kind"]}}},
        "time": {"value": {"selected_time": fields["time"]}},
        "tz": {"value": {"value": fields["tz"]}},
        "channel": {"value": {"selected_conversation": fields["channel"]}},
    }
    if "weekday" in fields:
        values["weekday"] = {"value": {"selected_option": {"value": fields["weekday"]}}}
    return values


@pytest.mark.parametrize(
    ("given", "field", "words"),
    [
        ({"kind": "weekly", "weekday": "<!channel>" + word(HUGE)}, "weekday", "is not a day of the week"),
        ({"time": "<!channel>" + word(HUGE)}, "time", "is not a time of day"),
        ({"kind": "weekly", "weekday": "monday", "time": word(HUGE, "9")}, "time", "is not a time of day"),
        ({"kind": word(HUGE)}, "kind", "is not a kind of schedule; use daily, weekly or cron."),
    ],
    ids=["weekday", "daily time", "weekly time", "kind"],
)
async def test_issue_28_a_40000_character_digest_day_time_or_kind_is_refused_with_a_short_echo(
    bot: BotHarness, given: dict[str, str], field: str, words: str
) -> None:
    """Issue 28, hardening 5: the dialog's selects (day, time, kind) are forged at 40,000 characters; the
    refusal sits on that field and quotes at most 40 characters of it."""
    ack = await bot.submit({"callback_id": "digest_add"}, _digest_values(**given))
    errors = json.loads(ack.body)["errors"]
    assert list(errors) == [field] and words in errors[field]
    assert len(errors[field]) < MESSAGE_ROOM and word(100, given[field][-1]) not in errors[field]
    assert "…" in errors[field]
    assert bot.minds_api.sent == [] and await bot.store.list_digests(team_id="T0001") == []


async def test_issue_28_a_forged_digest_dialog_with_objects_for_texts_is_refused_not_a_crash(bot: BotHarness) -> None:
    values = _digest_values(kind="weekly")
    values["weekday"] = {"value": {"selected_option": {"value": {"nested": word(HUGE)}}}}
    values["time"] = {"value": {"selected_time": [word(HUGE)]}}
    ack = await bot.submit({"callback_id": "digest_add"}, values)
    assert json.loads(ack.body)["errors"] == {"weekday": "A weekly digest needs a day of the week, e.g. monday."}
    assert await bot.store.list_digests(team_id="T0001") == []


async def test_issue_28_the_digest_command_quotes_a_bad_timezone_short_and_escaped(bot: BotHarness) -> None:
    await bot.command(f"digest add daily 09:00 Europe/<!channel>{word(150)}")
    answer = (await bot.reply())["text"]
    assert "&lt;!channel&gt;" in answer and "<!channel>" not in answer
    assert "is not a timezone I know" in answer and word(60) not in answer


async def test_issue_28_a_40000_character_typed_answer_in_answer_all_is_refused_on_its_field(bot: BotHarness) -> None:
    values = {
        "cq_0": {"value": {"type": "static_select", "selected_option": {"value": "1"}}},
        "cq_1": {"value": {"type": "plain_text_input", "value": word(HUGE)}},
    }
    opened_for = json.dumps({"u": bot.user, "c": "C0001", "ts": "1.0", "r": 1})
    ack = await bot.submit({"callback_id": VIEW_ANSWER_ALL, "private_metadata": opened_for}, values)
    message = f"An answer can be at most {MAX_PLAN_ANSWER:,} characters (yours has 40,000)."
    assert json.loads(ack.body)["errors"] == {"cq_1": message}
    assert bot.minds_api.sent == []


def test_issue_28_every_typed_answer_field_has_slacks_max_length() -> None:
    question = ConfirmationQuestion(id="q1", text="Which price?")
    assert _answer_element(question).max_length == MAX_PLAN_ANSWER


# Issue 28, the same pattern as hardening 5: every dialog input with a max_length is held to it on submission.
DIALOG_FIELDS = {
    "study name": ("minds_study_new", "study_new_name", "study_new_name_input", "A Study name", 200),
    "template name": ("plan_save_template", "template_name", "value", "A template name", 200),
    "recalibration": ("audience_recalibrate_modal", "instruction", "value", "An instruction", 3_000),
    "recalibration query": ("audience_recalibrate_modal", "query", "value", "A research query", 3_000),
    "question to an Audience": ("audience_ask_modal", "question", "value", "A question", 2_000),
    "Audience brief": ("audience_from_files_modal", "brief", "value", "An Audience brief", 3_000),
}


@pytest.mark.parametrize(
    ("callback_id", "block", "action", "what", "limit"), DIALOG_FIELDS.values(), ids=DIALOG_FIELDS.keys()
)
async def test_issue_28_a_40000_character_dialog_field_is_refused_on_the_field(
    bot: BotHarness, callback_id: str, block: str, action: str, what: str, limit: int
) -> None:
    values = {block: {action: {"type": "plain_text_input", "value": word(HUGE)}}}
    ack = await bot.submit({"callback_id": callback_id, "private_metadata": "{}"}, values)
    assert json.loads(ack.body) == {
        "response_action": "errors",
        "errors": {block: f"{what} can be at most {limit:,} characters (yours has 40,000)."},
    }
    assert bot.minds_api.sent == [] and bot.slack.calls_to("chat.postEphemeral") == []
