"""Block Kit validation the way Slack's servers apply it, plus the id filling Slack does on store.

Pure functions over JSON-like data: no I/O, no state. Errors read like Slack's
(``must be less than 3001 characters [json-pointer:/blocks/0/text/text]``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

MAX_BLOCKS_PER_MESSAGE = 50
MAX_BLOCKS_PER_VIEW = 100
MAX_MESSAGE_TEXT = 40_000
MAX_SECTION_TEXT = 3000
MAX_SECTION_FIELDS = 10
MAX_FIELD_TEXT = 2000
MAX_HEADER_TEXT = 150
MAX_BUTTON_TEXT = 75
MAX_ACTION_ID = 255
MAX_BLOCK_ID = 255
MAX_BUTTON_VALUE = 2000
MAX_URL = 3000
MAX_ACTIONS_ELEMENTS = 25
MAX_CONTEXT_ELEMENTS = 10
MAX_SELECT_OPTIONS = 100
MAX_OPTION_TEXT = 75
MAX_OPTION_VALUE = 150
MAX_OVERFLOW_OPTIONS = 5
MIN_OVERFLOW_OPTIONS = 2
MAX_PLACEHOLDER = 150
MAX_LABEL = 2000
MAX_INPUT_LENGTH = 3000
MAX_CHOICE_OPTIONS = 10
MAX_VIEW_TITLE = 24
MAX_CALLBACK_ID = 255
MAX_PRIVATE_METADATA = 3000
MAX_MARKDOWN_BLOCK_TEXT = 12_000
MAX_CONFIRM_TITLE = 100
MAX_CONFIRM_TEXT = 300
MAX_CONFIRM_BUTTON = 30

Json = dict[str, Any]

INTERACTIVE_ELEMENTS = frozenset(
    {
        "button",
        "static_select",
        "external_select",
        "users_select",
        "conversations_select",
        "channels_select",
        "multi_static_select",
        "multi_external_select",
        "multi_users_select",
        "multi_conversations_select",
        "multi_channels_select",
        "overflow",
        "datepicker",
        "timepicker",
        "checkboxes",
        "radio_buttons",
        "plain_text_input",
        "number_input",
        "email_text_input",
        "url_text_input",
    }
)
_SELECTS_WITH_OPTIONS = frozenset({"static_select", "multi_static_select"})


class _Check:
    """Collects Slack-style error strings while walking one payload."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def fail(self, message: str, pointer: str) -> None:
        self.errors.append(f"{message} [json-pointer:{pointer}]")

    def require(self, obj: Json, key: str, pointer: str) -> bool:
        if obj.get(key) in (None, "", []):
            self.fail(f"missing required field: {key}", pointer)
            return False
        return True

    def max_len(self, value: Any, limit: int, pointer: str) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.fail(f"must be less than {limit + 1} characters", pointer)

    def max_items(self, value: Any, limit: int, pointer: str) -> None:
        if isinstance(value, list) and len(value) > limit:
            self.fail(f"no more than {limit} items allowed", pointer)

    def text(self, obj: Any, pointer: str, *, limit: int, plain_only: bool = False) -> None:
        if not isinstance(obj, dict):
            self.fail("must provide an object", pointer)
            return
        allowed = ("plain_text",) if plain_only else ("plain_text", "mrkdwn")
        if obj.get("type") not in allowed:
            self.fail(f"must be one of: {', '.join(allowed)}", f"{pointer}/type")
        if self.require(obj, "text", pointer):
            if not isinstance(obj["text"], str):
                self.fail("must be a string", f"{pointer}/text")
            self.max_len(obj["text"], limit, f"{pointer}/text")


def validate_blocks(blocks: Any, *, limit: int = MAX_BLOCKS_PER_MESSAGE) -> list[str]:
    """Every problem Slack would report for ``blocks``; empty when they are acceptable."""
    check = _Check()
    if not isinstance(blocks, list):
        check.fail("must provide an array", "/blocks")
        return check.errors
    check.max_items(blocks, limit, "/blocks")
    seen_ids: set[str] = set()
    for index, block in enumerate(blocks):
        pointer = f"/blocks/{index}"
        if not isinstance(block, dict):
            check.fail("must provide an object", pointer)
            continue
        block_id = block.get("block_id")
        if block_id is not None:
            check.max_len(block_id, MAX_BLOCK_ID, f"{pointer}/block_id")
            if block_id in seen_ids:
                check.fail(f"duplicate block_id: {block_id}", f"{pointer}/block_id")
            seen_ids.add(block_id)
        _validate_block(check, block, pointer)
    return check.errors


def _validate_block(check: _Check, block: Json, pointer: str) -> None:
    validator = _BLOCK_VALIDATORS.get(block.get("type", ""))
    if validator is None:
        check.fail(f"unsupported block type: {block.get('type')!r}", f"{pointer}/type")
        return
    validator(check, block, pointer)


def _section(check: _Check, block: Json, pointer: str) -> None:
    if "text" not in block and "fields" not in block:
        check.fail("must provide text or fields", pointer)
    if "text" in block:
        check.text(block["text"], f"{pointer}/text", limit=MAX_SECTION_TEXT)
    fields = block.get("fields")
    if fields is not None:
        check.max_items(fields, MAX_SECTION_FIELDS, f"{pointer}/fields")
        for index, item in enumerate(fields if isinstance(fields, list) else []):
            check.text(item, f"{pointer}/fields/{index}", limit=MAX_FIELD_TEXT)
    if "accessory" in block:
        _validate_element(check, block["accessory"], f"{pointer}/accessory")


def _header(check: _Check, block: Json, pointer: str) -> None:
    if check.require(block, "text", pointer):
        check.text(block["text"], f"{pointer}/text", limit=MAX_HEADER_TEXT, plain_only=True)


def _context(check: _Check, block: Json, pointer: str) -> None:
    if not check.require(block, "elements", pointer):
        return
    check.max_items(block["elements"], MAX_CONTEXT_ELEMENTS, f"{pointer}/elements")
    for index, element in enumerate(_as_list(block["elements"])):
        where = f"{pointer}/elements/{index}"
        if isinstance(element, dict) and element.get("type") == "image":
            _image_fields(check, element, where)
        else:
            check.text(element, where, limit=MAX_SECTION_TEXT)


def _divider(check: _Check, block: Json, pointer: str) -> None:
    return None


def _image_block(check: _Check, block: Json, pointer: str) -> None:
    _image_fields(check, block, pointer)
    if "title" in block:
        check.text(block["title"], f"{pointer}/title", limit=MAX_LABEL, plain_only=True)


def _image_fields(check: _Check, obj: Json, pointer: str) -> None:
    if "slack_file" not in obj and check.require(obj, "image_url", pointer):
        check.max_len(obj["image_url"], MAX_URL, f"{pointer}/image_url")
    if check.require(obj, "alt_text", pointer):
        check.max_len(obj["alt_text"], MAX_LABEL, f"{pointer}/alt_text")


def _actions(check: _Check, block: Json, pointer: str) -> None:
    if not check.require(block, "elements", pointer):
        return
    check.max_items(block["elements"], MAX_ACTIONS_ELEMENTS, f"{pointer}/elements")
    for index, element in enumerate(_as_list(block["elements"])):
        _validate_element(check, element, f"{pointer}/elements/{index}")


def _input(check: _Check, block: Json, pointer: str) -> None:
    if check.require(block, "label", pointer):
        check.text(block["label"], f"{pointer}/label", limit=MAX_LABEL, plain_only=True)
    if "hint" in block:
        check.text(block["hint"], f"{pointer}/hint", limit=MAX_LABEL, plain_only=True)
    if check.require(block, "element", pointer):
        _validate_element(check, block["element"], f"{pointer}/element")


def _rich_text(check: _Check, block: Json, pointer: str) -> None:
    if check.require(block, "elements", pointer) and not isinstance(block["elements"], list):
        check.fail("must provide an array", f"{pointer}/elements")


def _markdown(check: _Check, block: Json, pointer: str) -> None:
    if check.require(block, "text", pointer):
        check.max_len(block["text"], MAX_MARKDOWN_BLOCK_TEXT, f"{pointer}/text")


_BLOCK_VALIDATORS: dict[str, Callable[[_Check, Json, str], None]] = {
    "section": _section,
    "header": _header,
    "context": _context,
    "divider": _divider,
    "image": _image_block,
    "actions": _actions,
    "input": _input,
    "rich_text": _rich_text,
    "markdown": _markdown,
}


def _validate_element(check: _Check, element: Any, pointer: str) -> None:
    if not isinstance(element, dict):
        check.fail("must provide an object", pointer)
        return
    kind = element.get("type")
    if kind == "image":
        _image_fields(check, element, pointer)
        return
    if kind not in INTERACTIVE_ELEMENTS:
        check.fail(f"unsupported element type: {kind!r}", f"{pointer}/type")
        return
    check.max_len(element.get("action_id"), MAX_ACTION_ID, f"{pointer}/action_id")
    if "placeholder" in element:
        check.text(element["placeholder"], f"{pointer}/placeholder", limit=MAX_PLACEHOLDER, plain_only=True)
    if "confirm" in element:
        _confirm(check, element["confirm"], f"{pointer}/confirm")
    _ELEMENT_VALIDATORS.get(kind, _no_extra_rules)(check, element, pointer)


def _no_extra_rules(check: _Check, element: Json, pointer: str) -> None:
    return None


def _button(check: _Check, element: Json, pointer: str) -> None:
    if check.require(element, "text", pointer):
        check.text(element["text"], f"{pointer}/text", limit=MAX_BUTTON_TEXT, plain_only=True)
    check.max_len(element.get("value"), MAX_BUTTON_VALUE, f"{pointer}/value")
    check.max_len(element.get("url"), MAX_URL, f"{pointer}/url")
    if element.get("style") not in (None, "primary", "danger"):
        check.fail("must be one of: primary, danger", f"{pointer}/style")


def _static_select(check: _Check, element: Json, pointer: str) -> None:
    if "options" not in element and "option_groups" not in element:
        check.fail("must provide options or option_groups", pointer)
    _options(check, element.get("options"), f"{pointer}/options", limit=MAX_SELECT_OPTIONS)
    for index, group in enumerate(_as_list(element.get("option_groups"))):
        where = f"{pointer}/option_groups/{index}"
        if isinstance(group, dict):
            _options(check, group.get("options"), f"{where}/options", limit=MAX_SELECT_OPTIONS)


def _overflow(check: _Check, element: Json, pointer: str) -> None:
    options = element.get("options")
    if not isinstance(options, list) or len(options) < MIN_OVERFLOW_OPTIONS:
        check.fail(f"must provide at least {MIN_OVERFLOW_OPTIONS} items", f"{pointer}/options")
    _options(check, options, f"{pointer}/options", limit=MAX_OVERFLOW_OPTIONS)


def _choices(check: _Check, element: Json, pointer: str) -> None:
    if check.require(element, "options", pointer):
        _options(check, element["options"], f"{pointer}/options", limit=MAX_CHOICE_OPTIONS)


def _text_input(check: _Check, element: Json, pointer: str) -> None:
    for key in ("max_length", "min_length"):
        value = element.get(key)
        if value is not None and (not isinstance(value, int) or not 0 <= value <= MAX_INPUT_LENGTH):
            check.fail(f"must be between 0 and {MAX_INPUT_LENGTH}", f"{pointer}/{key}")


def _options(check: _Check, options: Any, pointer: str, *, limit: int) -> None:
    check.max_items(options, limit, pointer)
    for index, option in enumerate(_as_list(options)):
        where = f"{pointer}/{index}"
        if not isinstance(option, dict):
            check.fail("must provide an object", where)
            continue
        if check.require(option, "text", where):
            check.text(option["text"], f"{where}/text", limit=MAX_OPTION_TEXT)
        if check.require(option, "value", where):
            check.max_len(option["value"], MAX_OPTION_VALUE, f"{where}/value")


def _confirm(check: _Check, confirm: Any, pointer: str) -> None:
    if not isinstance(confirm, dict):
        check.fail("must provide an object", pointer)
        return
    limits = {"title": MAX_CONFIRM_TITLE, "text": MAX_CONFIRM_TEXT}
    for key, limit in limits.items():
        if check.require(confirm, key, pointer):
            check.text(confirm[key], f"{pointer}/{key}", limit=limit, plain_only=key == "title")
    for key in ("confirm", "deny"):
        if check.require(confirm, key, pointer):
            check.text(confirm[key], f"{pointer}/{key}", limit=MAX_CONFIRM_BUTTON, plain_only=True)


_ELEMENT_VALIDATORS: dict[str, Callable[[_Check, Json, str], None]] = {
    "button": _button,
    "static_select": _static_select,
    "multi_static_select": _static_select,
    "overflow": _overflow,
    "checkboxes": _choices,
    "radio_buttons": _choices,
    "plain_text_input": _text_input,
}


def validate_view(view: Any) -> tuple[list[str], list[str]]:
    """(argument errors, block errors) for a modal or home view, as views.* would report them."""
    check = _Check()
    if not isinstance(view, dict):
        check.fail("must provide an object", "/view")
        return check.errors, []
    kind = view.get("type")
    if kind not in ("modal", "home"):
        check.fail("must be one of: modal, home", "/view/type")
    if kind == "modal":
        _modal_fields(check, view)
    check.max_len(view.get("callback_id"), MAX_CALLBACK_ID, "/view/callback_id")
    check.max_len(view.get("private_metadata"), MAX_PRIVATE_METADATA, "/view/private_metadata")
    return check.errors, validate_blocks(view.get("blocks", []), limit=MAX_BLOCKS_PER_VIEW)


def _modal_fields(check: _Check, view: Json) -> None:
    if check.require(view, "title", "/view"):
        check.text(view["title"], "/view/title", limit=MAX_VIEW_TITLE, plain_only=True)
    for key in ("submit", "close"):
        if key in view:
            check.text(view[key], f"/view/{key}", limit=MAX_VIEW_TITLE, plain_only=True)
    has_input = any(isinstance(b, dict) and b.get("type") == "input" for b in _as_list(view.get("blocks")))
    if has_input and "submit" not in view:
        check.fail("must provide submit when the view has input blocks", "/view/submit")


def fill_ids(blocks: list[Json], new_id: Callable[[], str]) -> list[Json]:
    """Copy of ``blocks`` with the block_id/action_id Slack assigns when the app left them out."""
    filled = []
    for block in blocks:
        block = {**block, "block_id": block.get("block_id") or new_id()}
        for key, element in _element_slots(block):
            if isinstance(element, dict) and element.get("type") in INTERACTIVE_ELEMENTS:
                element = {**element, "action_id": element.get("action_id") or new_id()}
            _put(block, key, element)
        filled.append(block)
    return filled


def _element_slots(block: Json) -> Iterator[tuple[str | int, Any]]:
    if "accessory" in block:
        yield "accessory", block["accessory"]
    if "element" in block:
        yield "element", block["element"]
    if block.get("type") == "actions":
        yield from enumerate(_as_list(block.get("elements")))


def _put(block: Json, key: str | int, element: Any) -> None:
    if isinstance(key, int):
        block["elements"] = [*block["elements"][:key], element, *block["elements"][key + 1 :]]
    else:
        block[key] = element


def iter_elements(blocks: list[Json]) -> Iterator[tuple[Json, Json]]:
    """(block, element) for every element a user can act on."""
    for block in blocks:
        for _key, element in _element_slots(block):
            if isinstance(element, dict):
                yield block, element


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
