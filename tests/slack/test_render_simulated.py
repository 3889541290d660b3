"""Honest labelling (issue #25): a result the embedded sandbox simulated (its ``outputData.simulated: true``)
says so in one line under its heading — a guided run's result and a ``/minds ask`` result alike — and a result
from Minds (no mark) never does."""

from __future__ import annotations

from typing import Any

from minds_bot.minds import ResearchRun
from minds_bot.minds.output import parse_output
from minds_bot.render.answers import render_result
from minds_bot.render.runs import render_results
from tests.slack.plan_samples import categorical_output, run_data

SIMULATED = "Simulated locally by the minds-bot sandbox — not answers from Minds."


def simulated(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "simulated": True}


def run_result_blocks(*, mark: bool) -> list[dict[str, Any]]:
    data = run_data("completed")
    if mark:
        data["artifacts"] = [
            {**a, "outputData": simulated(a["outputData"])} if a.get("outputData") else a for a in data["artifacts"]
        ]
    run = ResearchRun.model_validate(data)
    return [b.to_dict() for m in render_results(run, study_name="Cups") for b in m.blocks]


def context_texts(blocks: list[dict[str, Any]]) -> list[str]:
    return [e["text"] for b in blocks if b["type"] == "context" for e in b["elements"]]


def test_a_simulated_run_result_says_so_under_its_headline() -> None:
    blocks = run_result_blocks(mark=True)
    assert blocks[0]["text"]["text"].startswith(":white_check_mark: Completed:")
    assert blocks[1] == {"type": "context", "elements": [{"type": "mrkdwn", "text": SIMULATED}]}
    assert context_texts(blocks).count(SIMULATED) == 1


def test_a_run_result_from_minds_carries_no_simulated_line() -> None:
    assert ResearchRun.model_validate(run_data("completed")).simulated is False
    assert SIMULATED not in context_texts(run_result_blocks(mark=False))


def test_a_simulated_ask_result_says_so_and_one_from_minds_does_not() -> None:
    output = parse_output(simulated(categorical_output()))
    assert output.simulated is True
    blocks = [b.to_dict() for b in render_result(output, study_id="S", message_id="M", charted=False).blocks]
    assert context_texts(blocks) == [SIMULATED]
    plain = render_result(parse_output(categorical_output()), study_id="S", message_id="M", charted=False)
    assert SIMULATED not in context_texts([b.to_dict() for b in plain.blocks])
