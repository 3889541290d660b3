"""Pure renderers of spend with consent: the words of a held action, the activity's pages and totals (one model
for list, totals and CSV), and the CSV file with formula-like cells neutralised."""

from __future__ import annotations

import csv
from datetime import UTC, datetime, timedelta
from pathlib import Path

from minds_bot.flows.spend import _write, csv_rows
from minds_bot.render.spend import (
    ACTIVITY_CSV_ACTION,
    ACTIVITY_NEXT_ACTION,
    ACTIVITY_PAGE,
    ACTIVITY_PREV_ACTION,
    SpendReport,
    csv_header,
    render_activity,
    render_hold,
    render_hold_decided,
    render_policy,
)
from minds_bot.store import PolicyMode, Spend, SpendOutcome

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def spend(number: int = 1, **changes: object) -> Spend:
    base = Spend(
        team_id="T1",
        spend_id=f"s{number}",
        channel_id="C0001",
        user_id="U0001",
        action="ask",
        subject="Would you buy it?",
        command="ask s1 Would you buy it?",
        responses=28,
        outcome=SpendOutcome.STARTED,
        created_at=START - timedelta(minutes=number),
    )
    return base.model_copy(update=changes)


def action_ids(message: object) -> list[str]:
    found = []
    for block in message.as_kwargs()["blocks"]:  # type: ignore[attr-defined]
        for element in block.get("elements", []):
            if element.get("action_id"):
                found.append(element["action_id"])
        if (block.get("accessory") or {}).get("action_id"):
            found.append(block["accessory"]["action_id"])
    return found


def test_a_held_question_names_its_requester_the_minds_asked_and_its_words_escaped() -> None:
    held = spend(subject="<!channel> Would you buy it?", outcome=SpendOutcome.HELD)
    line = render_hold(held)
    assert line.text == "<@U0001> wants to ask 28 Minds “&lt;!channel&gt; Would you buy it?” — needs an approver"
    assert action_ids(line) == ["spend_hold_approve", "spend_hold_decline"]
    decided = render_hold_decided(held.model_copy(update={"outcome": SpendOutcome.DECLINED, "decided_by": "U0002"}))
    assert decided.text.endswith("— declined by <@U0002>.") and not action_ids(decided)


def test_a_heatmap_counts_premium_and_an_audience_build_says_not_known() -> None:
    heatmap = spend(action="heatmap", subject="https://x/concept.png", responses=None, cost="premium")
    assert "Minds responses: premium" in str(render_hold(heatmap).as_kwargs())
    counted = heatmap.model_copy(update={"responses": 12})
    assert "Minds responses: 12 (premium)" in str(render_hold(counted).as_kwargs())
    build = spend(action="audience_build", subject="Runners in Berlin", responses=None)
    assert "Minds responses: not known" in str(render_hold(build).as_kwargs())


def test_the_policy_is_one_line_per_action_with_a_select_only_for_those_who_may_change_it() -> None:
    now, approve, refuse = PolicyMode.NOW, PolicyMode.APPROVE, PolicyMode.REFUSE
    modes = [now, refuse, now, approve, refuse, approve]
    editable = render_policy(modes, editable=True)
    assert editable.text.splitlines() == [
        "*Spend policy in this channel*",
        "Ask a question (`/minds ask`) — runs at once",
        "Chat with a Mind (`/minds chat`) — refused",
        "Start a Premium heatmap — runs at once",
        "Build an Audience (`/minds audience new`) — needs an approver",
        "Duplicate a Study or an Audience (`/minds duplicate`) — refused",
        "Turn a Study's public link on (`/minds share … on`) — needs an approver",
    ]
    assert [a for a in action_ids(editable)] == [
        f"spend_policy_set:{a}" for a in ("ask", "chat", "heatmap", "audience_build", "duplicate", "share_on")
    ]
    assert action_ids(render_policy(modes, editable=False)) == []


def test_activity_pages_newest_first_with_totals_of_the_whole_period() -> None:
    spends = [spend(n) for n in range(1, ACTIVITY_PAGE + 4)]
    spends += [spend(90, outcome=SpendOutcome.HELD), spend(91, outcome=SpendOutcome.REFUSED, responses=None)]
    spends += [spend(92, action="heatmap", responses=None, cost="premium", outcome=SpendOutcome.SENT)]
    report = SpendReport(days=7, until=START, spends=spends)
    first = render_activity(report)
    total = ACTIVITY_PAGE + 3
    assert (
        f"*Totals:* {total + 1} requests sent to Minds, counting {total * 28} Minds responses · 1 premium · "
        "1 waiting for an approver · 1 not sent"
    ) in first.text
    assert "Page 1 of 2 · 21 entries, newest first." in str(first.as_kwargs())
    assert action_ids(first) == [ACTIVITY_NEXT_ACTION, ACTIVITY_CSV_ACTION]
    second = render_activity(report, page=1)
    assert action_ids(second) == [ACTIVITY_PREV_ACTION, ACTIVITY_CSV_ACTION]
    assert second.text.count("• ") == len(spends) - ACTIVITY_PAGE
    empty = render_activity(SpendReport(days=1, until=START, spends=[]))
    assert empty.text == "*Minds spending in this channel, last 1 day* Nothing was asked for in this period."


def test_the_csv_names_people_keeps_their_ids_and_neutralises_every_formula_cell(tmp_path: Path) -> None:
    report = SpendReport(
        days=7,
        until=START,
        spends=[spend(1, subject='=HYPERLINK("http://evil")?', decided_by="U0002", detail="run-1"), spend(2)],
    )
    names = {"U0001": "Ben Okafor", "U0002": "@SUM(1+1)*cmd"}  # a name is someone's words too
    path = tmp_path / "activity.csv"
    _write(path, csv_header(), csv_rows(report, names))
    rows = list(csv.reader(path.open(encoding="utf-8")))
    assert rows[0] == [
        "when (UTC)",
        "user",
        "action",
        "about",
        "Minds responses",
        "kind",
        "outcome",
        "decided by",
        "Minds said",
        "user id",
        "decided by id",
    ]
    assert rows[1] == [
        "2026-12-01 08:59:00",
        "Ben Okafor",
        "ask",
        '\'=HYPERLINK("http://evil")?',
        "28",
        "",
        "started",
        "'@SUM(1+1)*cmd",
        "run-1",
        "U0001",
        "U0002",
    ]
    assert rows[2][1:4] == ["Ben Okafor", "ask", "Would you buy it?"] and rows[2][7:] == ["", "", "U0001", ""]
    assert len(rows) == 3
    assert csv_rows(report)[0][1] == "U0001", "someone Slack does not name keeps their id"


def test_chat_research_and_audience_copies_say_what_they_are() -> None:
    start = spend(action="chat", subject="Mia <Novak>", command="chat 0000-mind", responses=0)
    assert render_hold(start).text == "<@U0001> wants to start a chat with Mia &lt;Novak&gt; — needs an approver"
    turn = spend(action="chat", subject="Would you buy it?", command='{"thread_ts": "1.2", "text": "…"}', responses=1)
    assert "wants to send “Would you buy it?” to a Mind in a chat thread" in render_hold(turn).text
    research = spend(action="research", subject="Launch positioning", responses=None, decided_by="U0002")
    line = render_activity(SpendReport(days=7, until=START, spends=[research])).text
    assert (
        "Run approved research (a plan's *Approve & run*): run the approved research plan of Launch positioning · "
        "Minds responses: not known · started at Minds (decided by <@U0002>)"
    ) in line.replace("&amp;", "&")
    assert "*Totals:* 1 request sent to Minds, counting 0 Minds responses · 1 with a count not known" in line
    copy = spend(action="duplicate", subject="Commuters", command="duplicate audience 0000-aud", responses=0)
    assert "wants to duplicate the Audience Commuters" in render_hold(copy).text
    study = spend(action="duplicate", subject="Pricing pulse", command="duplicate 0000-study", responses=0)
    assert "wants to duplicate the Study Pricing pulse" in render_hold(study).text
