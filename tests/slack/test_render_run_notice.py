"""The words of the DM when a research run ends, the approval line's Notify me button and the App Home's Recent
results: the outcome is the plan message's closing line, word for word, for every way a run ends."""

from __future__ import annotations

import json

import pytest

from minds_bot.render import Message
from minds_bot.render.run_notice import (
    NOTIFY_ME_ACTION,
    EndedRun,
    recent_results_blocks,
    render_run_ended_dm,
    run_dms_blocks,
    with_notify_button,
)

LINK = "https://acme.slack.com/archives/C1/p1700000000000100"


def run(status: str, **changes: object) -> EndedRun:
    fields = {"study_name": "Cups <& saucers>", "channel_id": "C1", "status": status, "revision": 2, "permalink": LINK}
    return EndedRun(**{**fields, **changes})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("status", "outcome"),
    [
        ("completed", ":white_check_mark: Completed — results in the thread."),
        (
            "partial",
            ":warning: Partial — not complete: the run finished with gaps. Results and gaps are in the thread.",
        ),
        (
            "plan_limited",
            ":no_entry: Stopped by the Minds plan limit — the results of the questions that completed are in the "
            "thread.",
        ),
        ("failed", ":x: Failed — what Minds reported is in the thread."),
        ("cancelled", ":heavy_multiplication_x: Cancelled — what Minds reported is in the thread."),
    ],
)
def test_the_dm_says_how_the_run_ended_in_the_closing_lines_words(status: str, outcome: str) -> None:
    dm = render_run_ended_dm(run(status), requested=True)
    assert dm.text == (
        f"A research run has ended.\n*Cups &lt;&amp; saucers&gt;* in <#C1>, revision 2: {outcome} "
        f"<{LINK}|Open the thread>"
    )
    assert "You get this because you requested this research." in json.dumps(dm.as_kwargs()["blocks"])


def test_a_cancelled_run_names_who_cancelled_and_a_missing_link_is_left_out() -> None:
    dm = render_run_ended_dm(run("cancelled", cancelled_by="U9", permalink=None, revision=None), requested=False)
    assert dm.text == (
        "A research run has ended.\n*Cups &lt;&amp; saucers&gt;* in <#C1>: "
        ":heavy_multiplication_x: Cancelled by <@U9> — what Minds reported is in the thread."
    )
    assert "because you pressed “Notify me when it ends” on its plan" in json.dumps(
        dm.as_kwargs()["blocks"], ensure_ascii=False
    )


def test_the_approval_line_offers_notify_me_with_the_run() -> None:
    message = with_notify_button(Message(text="Approved"), "run-7")
    (actions,) = [b.to_dict() for b in message.blocks]
    assert [(e["action_id"], e["value"], e["text"]["text"]) for e in actions["elements"]] == [
        (NOTIFY_ME_ACTION, "run-7", "Notify me when it ends")
    ]


def test_recent_results_say_what_they_cover_and_plainly_when_there_is_none() -> None:
    empty = json.dumps([b.to_dict() for b in recent_results_blocks([])])
    assert "*Recent results*" in empty and "_No research run has ended yet in those channels._" in empty
    listed = json.dumps([b.to_dict() for b in recent_results_blocks([run("partial"), run("completed")])])
    assert "The last 10 runs that ended in channels you are in where you requested or approved research" in listed
    assert listed.count("Open the thread") == 2


def test_the_dm_switch_says_its_state_and_offers_the_other() -> None:
    (on,) = [b.to_dict() for b in run_dms_blocks(on=True)]
    assert on["text"]["text"].startswith("*DMs when a run ends:* On\n")
    assert (on["accessory"]["text"]["text"], on["accessory"]["value"]) == ("Turn off", "off")
    (off,) = [b.to_dict() for b in run_dms_blocks(on=False)]
    assert off["text"]["text"].startswith("*DMs when a run ends:* Off\n")
    assert (off["accessory"]["text"]["text"], off["accessory"]["value"]) == ("Turn on", "on")
