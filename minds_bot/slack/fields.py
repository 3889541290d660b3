"""What a person typed into a dialog, read from a submitted view and held to the limit the dialog gave Slack.

Owns: ``typed`` (a field's text, trimmed; whatever else a forged view sends there counts as nothing), ``ticked``
(whether a checkbox is ticked, read the same way) and
``over_limit`` (each field longer than its limit → the sentence Slack shows on that field, with the limit and the
length, never the text). Slack's ``max_length`` binds Slack's own client only: a forged or replayed submission
can carry any length, so every dialog that puts ``max_length`` on an input checks it here too before its ack.
Must not touch: the network, the store, Minds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minds_bot.slack.grammar import too_long


def typed(view: Mapping[str, Any], block: str) -> str | None:
    """The text in the input of ``block`` (whatever its action id), trimmed; None when empty or not text."""
    values = (view.get("state") or {}).get("values") or {}
    elements = values.get(block) if isinstance(values, Mapping) else None
    for element in (elements or {}).values():
        text = element.get("value") if isinstance(element, Mapping) else None
        if isinstance(text, str) and text.strip():
            return text.strip()
    return None


def ticked(view: Mapping[str, Any], block: str, value: str) -> bool:
    """Whether the checkbox ``value`` of ``block`` (whatever its action id) is ticked; a forged shape counts as not."""
    values = (view.get("state") or {}).get("values") or {}
    elements = values.get(block) if isinstance(values, Mapping) else None
    for element in (elements or {}).values():
        options = element.get("selected_options") if isinstance(element, Mapping) else None
        if isinstance(options, list) and any(isinstance(o, Mapping) and o.get("value") == value for o in options):
            return True
    return False


def over_limit(view: Mapping[str, Any], limits: Mapping[str, tuple[str, int]]) -> dict[str, str]:
    """``{block: message}`` for each field of ``limits`` (block → (what it is, as a sentence's subject marked
    with ``N_``; the most characters)) that is longer than its limit; empty when all fit."""
    errors = {}
    for block, (what, limit) in limits.items():
        text = typed(view, block)
        if text is not None and len(text) > limit:
            errors[block] = too_long(what, limit=limit, length=len(text))
    return errors


def texts(*values: object) -> tuple[str, ...] | None:
    """The values when every one is a non-empty string (a button's or a message's ids), else None."""
    if all(isinstance(value, str) and value for value in values):
        return tuple(str(value) for value in values)
    return None
