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


def test_the_csv_has_every_row_and_neutralises_formula_cells(tmp_path: Path) -> None:
    report = SpendReport(
        days=7,
        until=START,
        spends=[spend(1, subject='=HYPERLINK("http://evil")?', decided_by="U0002", detail="run-1"), spend(2)],
    )
    path = tmp_path / "activity.csv"
    _write(path, csv_header(), csv_rows(report))
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
    ]
    assert rows[1] == [
        "2026-12-01 08:59:00",
        "U0001",
        "ask",
        '\'=HYPERLINK("http://evil")?',
        "28",
        "",
        "started",
        "U0002",
        "run-1",
    ]
    assert rows[2][3] == "Would you buy it?" and len(rows) == 3
