"""All answers as CSV: every answer one row, formula cells neutralised as the project's CSV safety does."""

from __future__ import annotations

import csv
from pathlib import Path

from minds_bot.flows.answers_csv import _write, answer_rows
from minds_bot.minds import StudyOutput


def test_every_answer_is_a_row_and_formulas_are_neutralised(tmp_path: Path) -> None:
    output = StudyOutput.model_validate(
        {
            "title": "Price",
            "type": "categorical",
            "audiences": [
                {"name": "Gen Z", "value": "Yes", "answers": [{"value": "=1+1", "persona": "@Mia", "message": "-5"}]}
            ],
        }
    )
    path = tmp_path / "answers.csv"
    header = ("Persona", "Audience", "Value", "Scale value", "Option position", "Message")
    _write(path, header, answer_rows(output))
    rows = list(csv.reader(path.open(encoding="utf-8")))
    assert rows == [list(header), ["'@Mia", "Gen Z", "'=1+1", "", "", "-5"]]  # off Minds' list: no position
