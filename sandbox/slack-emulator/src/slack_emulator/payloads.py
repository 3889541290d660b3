"""Pure builders for what Slack sends the app: action objects, view state values, signatures.

Owns the JSON shapes of interaction payloads and the request signature. No I/O and no state: the
caller looks up messages and views and passes them in.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from typing import Any

from slack_emulator.blockkit import iter_elements
from slack_emulator.errors import EmulatorUsageError

Json = dict[str, Any]
_INPUT_TYPES_WITH_VALUE = frozenset({"plain_text_input", "number_input", "email_text_input", "url_text_input"})
_SINGLE_OPTION_TYPES = frozenset({"static_select", "external_select", "overflow", "radio_buttons"})
_MULTI_OPTION_TYPES = frozenset({"multi_static_select", "multi_external_select", "checkboxes"})
_SELECTED_KEY = {
    "users_select": "selected_user",
    "conversations_select": "selected_conversation",
    "channels_select": "selected_channel",
    "multi_users_select": "selected_users",
    "multi_conversations_select": "selected_conversations",
    "multi_channels_select": "selected_channels",
    "datepicker": "selected_date",
    "timepicker": "selected_time",
}


def signature(*, secret: str, timestamp: str, body: bytes) -> str:
    """Slack's v0 request signature: hex HMAC-SHA256 of ``v0:{timestamp}:{body}``."""
    base = b"v0:" + timestamp.encode() + b":" + body
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def find_element(blocks: list[Json], *, action_id: str, block_id: str | None = None) -> tuple[Json, Json]:
    """The (block, element) carrying ``action_id`` — what a user's click lands on."""
    for block, element in iter_elements(blocks):
        if element.get("action_id") == action_id and block_id in (None, block.get("block_id")):
            return block, element
    raise EmulatorUsageError(f"no element with action_id {action_id!r} (block_id {block_id!r}) on that surface")


def _all_options(element: Json) -> list[Json]:
    options = list(element.get("options") or [])
    for group in element.get("option_groups") or []:
        options.extend(group.get("options") or [])
    return options


def _option(element: Json, choice: Any) -> Json:
    if isinstance(choice, dict):  # an external option comes whole from the app's options response
        return choice
    for option in _all_options(element):
        if option.get("value") == choice:
            return option
    raise EmulatorUsageError(f"{element.get('action_id')!r} has no option with value {choice!r}")


def selection_fields(element: Json, selection: Any) -> Json:
    """The fields Slack adds for a chosen value: ``value``, ``selected_option(s)``, ``selected_user``…"""
    kind = element.get("type", "")
    if kind in _INPUT_TYPES_WITH_VALUE:
        return {"value": selection}
    if kind in _SINGLE_OPTION_TYPES:
        return {"selected_option": None if selection is None else _option(element, selection)}
    if kind in _MULTI_OPTION_TYPES:
        return {"selected_options": [_option(element, c) for c in selection or []]}
    if kind in _SELECTED_KEY:
        return {_SELECTED_KEY[kind]: selection}
    return {}


def action(*, block: Json, element: Json, selection: Any, action_ts: str) -> Json:
    """One entry of ``actions[]`` in a block_actions payload."""
    body: Json = {
        "type": element.get("type"),
        "action_id": element.get("action_id"),
        "block_id": block.get("block_id"),
        "action_ts": action_ts,
    }
    if element.get("type") == "button":
        body["text"] = element.get("text")
        for key in ("value", "style", "url"):
            if key in element:
                body[key] = element[key]
        return body
    if "placeholder" in element:
        body["placeholder"] = element["placeholder"]
    return body | selection_fields(element, selection)


def message_state_values(blocks: list[Json], chosen: Mapping[tuple[str, str], Any]) -> dict[str, dict[str, Json]]:
    """``state.values`` of a message: every select and checkbox group in its actions blocks, with what this
    user chose on it (``chosen``, keyed by (block_id, action_id)) or else its initial value, as Slack sends it
    with every click on the message."""
    values: dict[str, dict[str, Json]] = {}
    for block, element in iter_elements(blocks):
        if block.get("type") != "actions" or element.get("type") not in _SINGLE_OPTION_TYPES | _MULTI_OPTION_TYPES:
            continue
        if element.get("type") == "overflow":
            continue  # a menu of commands, not a value the message keeps
        key = _input_key(block, element)
        entry = {"type": element.get("type")} | selection_fields(element, _default(element, chosen.get(key)))
        values.setdefault(key[0], {})[key[1]] = entry
    return values


def _input_key(block: Json, element: Json) -> tuple[str, str]:
    return str(block.get("block_id")), str(element.get("action_id"))


def view_state_values(blocks: list[Json], inputs: Mapping[str, Any]) -> dict[str, dict[str, Json]]:
    """``view.state.values`` for the input blocks of a view.

    ``inputs`` is keyed by ``action_id`` or ``"block_id/action_id"``; inputs the user left alone appear
    with empty values, as Slack sends them.
    """
    values: dict[str, dict[str, Json]] = {}
    for block, element in iter_elements(blocks):
        if block.get("type") != "input":
            continue
        block_id, action_id = _input_key(block, element)
        chosen = inputs.get(f"{block_id}/{action_id}", inputs.get(action_id))
        entry = {"type": element.get("type")} | selection_fields(element, _default(element, chosen))
        values.setdefault(block_id, {})[action_id] = entry
    unknown = set(inputs) - {k for b, e in iter_elements(blocks) for k in _keys(b, e)}
    if unknown:
        raise EmulatorUsageError(f"the view has no inputs named {sorted(unknown)}")
    return values


def _keys(block: Json, element: Json) -> tuple[str, str]:
    block_id, action_id = _input_key(block, element)
    return action_id, f"{block_id}/{action_id}"


_INITIAL_KEY = {
    **dict.fromkeys(_INPUT_TYPES_WITH_VALUE, "initial_value"),
    **dict.fromkeys(_SINGLE_OPTION_TYPES, "initial_option"),
    **dict.fromkeys(_MULTI_OPTION_TYPES, "initial_options"),
    "users_select": "initial_user",
    "conversations_select": "initial_conversation",
    "channels_select": "initial_channel",
    "datepicker": "initial_date",
    "timepicker": "initial_time",
}


def _default(element: Json, chosen: Any) -> Any:
    """What the user left alone is submitted as the element's initial value, as Slack's client does."""
    if chosen is None and element.get("type") in _INITIAL_KEY:
        return element.get(_INITIAL_KEY[element["type"]])
    return chosen


def response_url_inputs(blocks: list[Json], values: Mapping[str, Mapping[str, Json]]) -> list[tuple[Json, str]]:
    """``(block, channel id)`` for each input with ``response_url_enabled`` and a chosen conversation: Slack
    sends the app one ``response_urls`` entry for each."""
    found = []
    for block, element in iter_elements(blocks):
        if block.get("type") != "input" or not element.get("response_url_enabled"):
            continue
        block_id, action_id = _input_key(block, element)
        entry = values.get(block_id, {}).get(action_id, {})
        channel = entry.get("selected_conversation") or entry.get("selected_channel")
        if isinstance(channel, str) and channel:
            found.append((block, channel))
    return found


def missing_required(blocks: list[Json], values: Mapping[str, Mapping[str, Json]]) -> list[str]:
    """Block ids of required inputs still empty; Slack's client refuses to submit until they are filled."""
    missing = []
    for block in blocks:
        if block.get("type") != "input" or block.get("optional"):
            continue
        entry = next(iter(values.get(str(block.get("block_id")), {}).values()), {})
        filled = [v for k, v in entry.items() if k != "type" and v not in (None, "", [])]
        if not filled:
            missing.append(str(block.get("block_id")))
    return missing
