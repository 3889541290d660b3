"""What Slack sends for the choices the page offers: a ticked checkbox on a message (block_actions with
``selected_options`` and the message's ``state.values``), a multi_external_select's chosen options whole, a
datepicker's date (its initial date when left alone)."""

from __future__ import annotations

from slack_emulator import payloads

OPT_IN = {
    "type": "actions",
    "block_id": "plan_opt_in_block",
    "elements": [
        {
            "type": "checkboxes",
            "action_id": "plan_opt_in",
            "options": [{"value": "advanced", "text": {"type": "plain_text", "text": "I opt in"}}],
        }
    ],
}
AUDIENCES = {
    "type": "input",
    "block_id": "study_new_audiences",
    "optional": True,
    "label": {"type": "plain_text", "text": "Audiences"},
    "element": {"type": "multi_external_select", "action_id": "study_new_audiences", "min_query_length": 0},
}
DUE = {
    "type": "input",
    "block_id": "due",
    "label": {"type": "plain_text", "text": "Due"},
    "element": {"type": "datepicker", "action_id": "due_date", "initial_date": "2026-12-24"},
}


def test_a_ticked_checkbox_is_sent_as_selected_options_and_kept_in_the_message_state() -> None:
    [element] = OPT_IN["elements"]  # type: ignore[index]
    action = payloads.action(block=OPT_IN, element=element, selection=["advanced"], action_ts="1.0")
    assert action["selected_options"] == [{"value": "advanced", "text": {"type": "plain_text", "text": "I opt in"}}]
    ticked = payloads.message_state_values([OPT_IN], {("plan_opt_in_block", "plan_opt_in"): ["advanced"]})
    assert ticked["plan_opt_in_block"]["plan_opt_in"]["selected_options"][0]["value"] == "advanced"
    untouched = payloads.message_state_values([OPT_IN], {})
    assert untouched["plan_opt_in_block"]["plan_opt_in"] == {"type": "checkboxes", "selected_options": []}


def test_a_multi_external_select_sends_the_apps_options_whole() -> None:
    chosen = [{"value": "aud_1", "text": {"type": "plain_text", "text": "US IT leads (10 Minds)"}}]
    values = payloads.view_state_values([AUDIENCES], {"study_new_audiences": chosen})
    assert values["study_new_audiences"]["study_new_audiences"] == {
        "type": "multi_external_select",
        "selected_options": chosen,
    }
    empty = payloads.view_state_values([AUDIENCES], {})
    assert empty["study_new_audiences"]["study_new_audiences"]["selected_options"] == []


def test_a_datepicker_sends_the_chosen_date_or_its_initial_date() -> None:
    assert payloads.view_state_values([DUE], {"due_date": "2027-01-02"})["due"]["due_date"]["selected_date"] == (
        "2027-01-02"
    )
    assert payloads.view_state_values([DUE], {})["due"]["due_date"]["selected_date"] == "2026-12-24"
