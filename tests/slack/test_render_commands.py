"""Pure renderers of the /minds commands: every message validates, fits Slack's limits and pages what is long."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from slack_sdk.models.views import View

from minds_bot.minds import (
    AgentRun,
    Audience,
    LookupResult,
    SemanticSummary,
    SharingState,
    Study,
    StudyDetail,
    StudyDuplicate,
    parse_output,
)
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_SECTION_TEXT, Message
from minds_bot.render.answers import (
    SHOW_ANSWERS_ACTION,
    answer_pages,
    distribution,
    render_answers_page,
    render_plan_offer,
    render_result,
    render_run_ended,
)
from minds_bot.render.browse import BrowsePage, render_browse
from minds_bot.render.common import decode_value, render_candidates, render_not_found, split_text
from minds_bot.render.jobs import render_duplicate
from minds_bot.render.markdown import to_mrkdwn
from minds_bot.render.modals import render_pick_study
from minds_bot.render.share import SHARE_ON_ACTION, render_share_prompt, render_sharing
from minds_bot.render.study import parse_plan_button_value, plan_button_value, render_study_card
from minds_bot.render.summary import render_summary
from tests.slack import samples


def walk(value: Any) -> list[dict[str, Any]]:
    """Every dict inside a rendered payload."""
    found: list[dict[str, Any]] = []
    if isinstance(value, dict):
        found.append(value)
        for item in value.values():
            found += walk(item)
    elif isinstance(value, list):
        for item in value:
            found += walk(item)
    return found


def assert_fits(message: Message) -> dict[str, Any]:
    payload = message.as_kwargs()
    assert payload["text"]
    assert len(payload["blocks"]) <= MAX_BLOCKS_PER_MESSAGE
    for block in payload["blocks"]:
        if block["type"] == "section" and "text" in block:
            assert len(block["text"]["text"]) <= MAX_SECTION_TEXT
    return payload


def buttons(message: Message) -> dict[str, dict[str, Any]]:
    return {d["action_id"]: d for d in walk(message.as_kwargs()["blocks"]) if d.get("type") == "button"}


def text_of(message: Message) -> str:
    return "\n".join(d["text"] for d in walk(message.as_kwargs()["blocks"]) if isinstance(d.get("text"), str))


def studies(n: int) -> list[Study]:
    return [Study.model_validate(samples.study(i)) for i in range(n)]


# --- browse ------------------------------------------------------------------------------------------------


def test_first_page_counts_from_the_total_and_offers_next_only() -> None:
    message = render_browse(BrowsePage(kind="studies", items=studies(10), offset=0, total=134))
    assert_fits(message)
    assert "Studies 1–10 of 134" in text_of(message)
    found = buttons(message)
    assert "browse_next" in found and "browse_prev" not in found
    assert decode_value(found["browse_next"]["value"]) == {"k": "studies", "o": 10}


def test_a_middle_page_offers_both_directions_and_the_last_page_only_previous() -> None:
    middle = buttons(render_browse(BrowsePage(kind="studies", items=studies(10), offset=10, total=25)))
    assert decode_value(middle["browse_prev"]["value"])["o"] == 0
    assert decode_value(middle["browse_next"]["value"])["o"] == 20
    last = buttons(render_browse(BrowsePage(kind="studies", items=studies(5), offset=20, total=25)))
    assert "browse_prev" in last and "browse_next" not in last


def test_each_study_row_opens_its_card_and_shows_audience_mind_counts() -> None:
    message = render_browse(BrowsePage(kind="studies", items=studies(2), offset=0, total=2))
    opens = [b for b in buttons(message).values() if b["action_id"].startswith("minds_rerun")]
    assert [b["value"] for b in opens] == [f"study {samples.uid(1000)}", f"study {samples.uid(1001)}"]
    assert "Parents (12 Minds)" in text_of(message)


def test_audiences_show_their_mind_counts() -> None:
    items = [
        Audience.model_validate(samples.audience(1, "Commuters", minds=1)),
        Audience.model_validate(samples.audience(2, minds=40)),
    ]
    text = text_of(render_browse(BrowsePage(kind="audiences", items=items, offset=0, total=2)))
    assert "*Commuters* — 1 Mind" in text and "40 Minds" in text


def test_a_query_keeps_its_text_in_the_paging_state() -> None:
    page = BrowsePage(
        kind="studies", items=studies(10), offset=0, total=12, query="launch", scanned=1000, exhaustive=False
    )
    message = render_browse(page)
    assert "12 Studies match “launch” among the newest 1,000" in text_of(message)
    assert decode_value(buttons(message)["browse_next"]["value"]) == {"k": "studies", "o": 10, "q": "launch"}


def test_no_match_among_the_newest_explains_the_limit() -> None:
    page = BrowsePage(kind="studies", items=[], offset=0, total=0, query="zebra", scanned=1000, exhaustive=False)
    text = text_of(render_browse(page))
    assert "newest 1,000 Studies" in text and "exact id" in text


def test_an_empty_account_is_not_a_failed_search() -> None:
    text = text_of(render_browse(BrowsePage(kind="audiences", items=[], offset=0, total=0)))
    assert "no Audiences in this Minds account yet" in text


# --- candidates, not found ---------------------------------------------------------------------------------


def test_ambiguous_names_become_buttons_that_rerun_with_the_exact_id() -> None:
    from minds_bot.minds import resolve

    items = [Study.model_validate(samples.study(i, f"Launch {i}")) for i in range(3)]
    result = resolve("launch", items, exhaustive=True)
    assert result.kind == "ambiguous"
    message = render_candidates(
        what="Study", query="launch", candidates=result.candidates, rerun=lambda sid: f"ask {sid} Why?"
    )
    assert_fits(message)
    values = sorted(b["value"] for b in buttons(message).values())
    assert values == sorted(f"ask {s.id} Why?" for s in items)


def test_not_found_says_older_items_need_their_id() -> None:
    result = LookupResult(kind="not_found", query="x", scanned=1000, exhaustive=False)
    assert "Older items can only be opened by their exact id" in text_of(render_not_found(what="Study", result=result))


# --- study card --------------------------------------------------------------------------------------------


def test_study_card_has_its_parts_and_four_buttons() -> None:
    study = StudyDetail.model_validate(samples.study_detail(questions=5))
    runs = [
        AgentRun.model_validate(samples.agent_run(s, run_id=samples.uid(50 + i)))
        for i, s in enumerate(["running", "failed"])
    ]
    message = render_study_card(study, runs)
    assert_fits(message)
    text = text_of(message)
    assert "Parents — 12 Minds" in text and "Students — 8 Minds" in text
    assert "*Questions asked:* 5" in text
    assert "running" in text and "failed" in text
    assert "Public link: off" in text
    found = buttons(message)
    assert set(found) == {"study_plan", "study_ask", "study_summary", "study_export", "study_analytics", "study_delete"}
    assert found["study_plan"]["value"] == study.id and found["study_export"]["value"] == study.id
    audiences = [[a.id, a.name] for a in study.audiences]
    assert decode_value(found["study_ask"]["value"]) == {"s": study.id, "n": study.name, "a": audiences}


def test_plan_button_value_carries_the_text_when_it_fits() -> None:
    assert parse_plan_button_value(plan_button_value("S1")) == ("S1", None)
    assert parse_plan_button_value(plan_button_value("S1", "Q1?\nQ2?")) == ("S1", "Q1?\nQ2?")
    assert plan_button_value("S1", "x" * 5000) == "S1"


# --- answers -----------------------------------------------------------------------------------------------


def output(kind: str = "categorical") -> Any:
    return parse_output(samples.output_data(kind))


def test_distribution_counts_answers_per_audience_and_option() -> None:
    shares = distribution(output())
    assert shares is not None
    assert {a.name: (a.n, a.counts) for a in shares.audiences} == {
        "Parents": (4, {"Yes": 3, "No": 1}),
        "Students": (3, {"No": 2, "Yes": 1}),
    }
    assert set(shares.options) == {"Yes", "No"}


def test_qualitative_questions_have_no_chart_but_themes_and_quotes() -> None:
    assert distribution(output("qualitative")) is None
    message = render_result(output("qualitative"), study_id="S", message_id="M", charted=False)
    text = text_of(message)
    assert "*Themes:*" in text and "late arrivals" in text and "> “" in text


def test_result_has_top_lines_quotes_and_a_show_answers_button() -> None:
    message = render_result(output(), study_id="S", message_id="M", charted=True)
    assert_fits(message)
    text = text_of(message)
    assert "*Parents* (% of respondents · n=4): Yes 75% · No 25%" in text
    assert text.count("> “") == 3
    assert decode_value(buttons(message)[SHOW_ANSWERS_ACTION]["value"]) == {"s": "S", "m": "M", "p": 0}


def test_two_minds_who_said_the_same_words_are_quoted_once() -> None:
    data = samples.output_data()
    data["audiences"][0]["answers"] = [
        {"value": "Yes", "persona": "Ji-woo", "message": "Yes — a label from someone independent feels real."},
        {"value": "Yes", "persona": "Jonas", "message": "Yes —  a label from someone independent feels real. "},
        {"value": "No", "persona": "Lena", "message": "No — a label alone doesn't tell me how it is made."},
    ]
    data["audiences"] = data["audiences"][:1]
    text = text_of(render_result(parse_output(data), study_id="S", message_id="M", charted=False))
    assert text.count("a label from someone independent feels real") == 1
    assert "No — a label alone" in text


@pytest.mark.parametrize("status", ["failed", "cancelled"])
def test_failed_and_cancelled_runs_say_so_plainly(status: str) -> None:
    assert status in render_run_ended(status).text


def test_plan_offer_explains_and_carries_the_study_and_text() -> None:
    message = render_plan_offer(
        study_id="S1", study_name="Launch", text="A?\nB?", reason="This text holds 2 questions."
    )
    assert "Nothing was sent to Minds" in message.text
    assert parse_plan_button_value(buttons(message)["study_plan"]["value"]) == ("S1", "A?\nB?")


def many_answers(count: int, *, length: int) -> Any:
    data = samples.output_data()
    data["audiences"][0]["answers"] = [
        {"value": "Yes", "persona": f"P{i}", "message": f"answer{i} " + "word " * (length // 5)} for i in range(count)
    ]
    return parse_output(data)


@pytest.mark.parametrize(("count", "length"), [(1, 10), (30, 50), (12, 9000)])
def test_answer_pages_show_every_answer_once_and_each_page_fits(count: int, length: int) -> None:
    out = many_answers(count, length=length)
    pages = answer_pages(out)
    seen = []
    for index in range(len(pages)):
        message = render_answers_page(out, study_id="S", message_id="M", page=index)
        assert_fits(message)
        seen += [p for p in range(count) if f"answer{p} " in text_of(message)]
        nav = buttons(message)
        assert ("answers_next" in nav) == (index + 1 < len(pages))
        assert ("answers_prev" in nav) == (index > 0)
    assert sorted(seen) == list(range(count))


def test_a_long_answer_is_split_not_cut() -> None:
    out = many_answers(1, length=9000)
    text = text_of(render_answers_page(out, study_id="S", message_id="M", page=0))
    assert text.count("word") == out.audiences[0].answers[0].message.count("word")


# --- summary -----------------------------------------------------------------------------------------------


def summary(text: str | None, *, generating: bool = False) -> SemanticSummary:
    return SemanticSummary(summary=text, revision=4, is_generating=generating)


def test_a_long_summary_is_paged_and_nothing_is_lost() -> None:
    body = "\n\n".join(f"## Part {i}\n" + f"finding{i} " * 400 for i in range(12))
    first = render_summary(study_id="S", study_name="Launch", summary=summary(body))
    nav = buttons(first)
    assert "summary_next" in nav and "summary_prev" not in nav
    state = decode_value(nav["summary_next"]["value"])
    words = []
    page = 0
    while True:
        message = render_summary(study_id="S", study_name="Launch", summary=summary(body), page=page)
        assert_fits(message)
        words += [w for w in text_of(message).split() if w.startswith("finding")]
        if "summary_next" not in buttons(message):
            break
        page += 1
    assert len(words) == 12 * 400
    assert state == {"s": "S", "n": "Launch", "p": 1}


def test_is_generating_is_shown_honestly() -> None:
    assert "generating a newer summary" in text_of(
        render_summary(study_id="S", study_name="L", summary=summary("x", generating=True))
    )
    assert "generating the first summary" in text_of(
        render_summary(study_id="S", study_name="L", summary=summary(None, generating=True))
    )
    assert "no summary yet" in text_of(render_summary(study_id="S", study_name="L", summary=summary(None)))


def test_markdown_becomes_mrkdwn_without_mentions_or_hidden_links() -> None:
    # A Markdown link keeps its address in sight: Minds' text cannot hide https://evil.example behind "site".
    assert to_mrkdwn("# Top\n**bold** and [site](https://x.test) <!channel>") == (
        "*Top*\n*bold* and site (https://x.test) &lt;!channel&gt;"
    )


@settings(max_examples=60)
@given(st.text(alphabet=st.sampled_from("ab \n"), max_size=9000), st.integers(min_value=20, max_value=3000))
def test_split_text_never_exceeds_the_limit_and_keeps_every_word(text: str, limit: int) -> None:
    chunks = split_text(text, limit)
    assert all(len(c) <= limit for c in chunks)
    assert "".join("\n".join(chunks).split()) == "".join(text.split())


# --- share, duplicate, modals -------------------------------------------------------------------------------


def test_share_prompt_confirms_and_names_what_becomes_public() -> None:
    study = StudyDetail.model_validate(samples.study_detail())
    message = render_share_prompt(study=study, requester_id="U1")
    assert_fits(message)
    confirm = buttons(message)[SHARE_ON_ACTION]["confirm"]
    assert confirm["title"]["text"] == "Turn on public link?"
    assert "Parents" in confirm["text"]["text"] and "Minds also become publicly readable" in confirm["text"]["text"]
    assert decode_value(buttons(message)[SHARE_ON_ACTION]["value"])["u"] == "U1"


@pytest.mark.parametrize(
    ("public", "link", "url", "shown"),
    [
        (False, True, "https://getminds.ai/s/abc?x=1", True),
        (True, False, "https://getminds.ai/s/abc?x=1", True),
        (False, False, "https://getminds.ai/s/abc?x=1", False),
    ],
)
def test_the_link_is_shown_unchanged_and_only_while_active(public: bool, link: bool, url: str, shown: bool) -> None:
    state = SharingState(is_public=public, is_link_sharing_enabled=link, public_share_id="abc", shared_study_url=url)
    text = render_sharing(study_name="Launch", state=state, asked_on=True).text
    assert (url in text) is shown


def test_duplicate_shows_the_copy_and_the_workspace_url_unchanged() -> None:
    copy = samples.study(9, "Launch (copy)")
    result = StudyDuplicate.model_validate(
        {"study": copy, "replayed": False, "workspaceUrl": "https://getminds.ai/w/s/9?a=b"}
    )
    text = render_duplicate(result, source_name="Launch").text
    assert "Launch (copy)" in text
    assert "https://getminds.ai/w/s/9?a=b" in text_of(render_duplicate(result, source_name="Launch"))


@pytest.mark.parametrize("purpose", ["ask", "study", "summary"])
def test_pick_modal_has_an_external_study_select(purpose: str) -> None:
    view = render_pick_study(purpose, channel_id="C1")  # type: ignore[arg-type]
    assert isinstance(view, View)
    view.validate_json()
    elements = [d for d in walk(view.to_dict()) if d.get("type") == "external_select"]
    assert len(elements) == 1 and elements[0]["min_query_length"] == 0
    assert any(d.get("response_url_enabled") for d in walk(view.to_dict()))
    assert ("plain_text_input" in str(view.to_dict())) is (purpose == "ask")
