"""Pure parts of the emulator: Block Kit limits at their edges, ids, view state values, signatures."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from slack_sdk.signature import SignatureVerifier

from slack_emulator import EmulatorUsageError, blockkit, payloads
from slack_emulator.ids import IdFactory, ts_key


@given(st.integers(min_value=1, max_value=3100))
def test_section_text_is_accepted_up_to_3000_characters(length: int) -> None:
    errors = blockkit.validate_blocks([{"type": "section", "text": {"type": "mrkdwn", "text": "x" * length}}])
    assert (errors == []) == (length <= blockkit.MAX_SECTION_TEXT)


@given(st.integers(min_value=0, max_value=120))
def test_block_count_limits_differ_for_messages_and_views(count: int) -> None:
    blocks = [{"type": "divider"}] * count
    assert (blockkit.validate_blocks(blocks) == []) == (count <= 50)
    assert (blockkit.validate_blocks(blocks, limit=blockkit.MAX_BLOCKS_PER_VIEW) == []) == (count <= 100)


def test_errors_point_at_the_offending_field() -> None:
    blocks = [{"type": "divider"}, {"type": "actions", "elements": [{"type": "button", "action_id": "a"}]}]
    assert blockkit.validate_blocks(blocks) == ["missing required field: text [json-pointer:/blocks/1/elements/0]"]


@given(st.lists(st.floats(min_value=1.7e9, max_value=1.8e9), min_size=1, max_size=30))
def test_ts_strictly_increase_whatever_the_clock_does(times: list[float]) -> None:
    readings = iter(times)
    ids = IdFactory(clock=lambda: next(readings))
    issued = [ids.ts() for _ in times]
    assert [ts_key(t) for t in issued] == sorted({ts_key(t) for t in issued})
    assert all(len(t.split(".")[1]) == 6 for t in issued)


def test_ts_key_orders_across_a_change_of_digit_count() -> None:
    assert ts_key("999999999.000001") < ts_key("1000000000.000000")


def test_signature_is_what_slack_sdk_verifies() -> None:
    body = b"command=%2Fminds&text=help"
    signature = payloads.signature(secret="s3cret-for-tests", timestamp="1733140000", body=body)
    verifier = SignatureVerifier("s3cret-for-tests", clock=_At(1_733_140_000))
    assert verifier.is_valid(body=body, timestamp="1733140000", signature=signature)
    assert not verifier.is_valid(body=body + b"x", timestamp="1733140000", signature=signature)


class _At:
    def __init__(self, now: float) -> None:
        self._now = now

    def now(self) -> float:
        return self._now


CHECKBOXES: dict[str, Any] = {
    "type": "input",
    "block_id": "b",
    "label": {"type": "plain_text", "text": "L"},
    "element": {
        "type": "checkboxes",
        "action_id": "c",
        "options": [{"text": {"type": "plain_text", "text": t}, "value": t} for t in ("x", "y")],
    },
}


def test_view_state_values_by_action_or_full_key() -> None:
    assert payloads.view_state_values([CHECKBOXES], {"b/c": ["y"]})["b"]["c"]["selected_options"][0]["value"] == "y"
    assert payloads.view_state_values([CHECKBOXES], {"c": []}) == {
        "b": {"c": {"type": "checkboxes", "selected_options": []}}
    }
    assert payloads.missing_required([CHECKBOXES], payloads.view_state_values([CHECKBOXES], {})) == ["b"]


@pytest.mark.parametrize("inputs", [{"nope": "x"}, {"c": ["z"]}])
def test_unknown_inputs_or_options_are_usage_errors(inputs: dict[str, Any]) -> None:
    with pytest.raises(EmulatorUsageError):
        payloads.view_state_values([CHECKBOXES], inputs)
