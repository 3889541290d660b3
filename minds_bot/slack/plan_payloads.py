"""Reading the plan surface's Slack payloads: which plan message a button sits on, which revision it showed, the
advanced-method opt-in box and the model picked on the message, a dialog's answers and ``private_metadata``.

Owns: the pure readers ``slack/plan.py`` and ``slack/plan_message.py`` share — button values and
``private_metadata`` only within Slack's own limits, modal fields within ``MODAL_LIMITS`` (refused on the field
before anything else), and the metadata that ties a plan dialog to the person it was opened for (their user id,
which only the bot writes).
Must not touch: the network, the store, Minds, Block Kit (``render/plan.py``).
"""

from __future__ import annotations

import json
from typing import Any

from minds_bot.i18n import N_, _
from minds_bot.render import unescape
from minds_bot.render.common import decode_metadata, decode_value, plain_value
from minds_bot.render.plan import ACTION_OPT_IN, BLOCK_OPT_IN, OPT_IN_VALUE
from minds_bot.render.plan_dialogs import MAX_PLAN_ANSWER, MAX_PLAN_REQUEST, MAX_STIMULUS_LINK, MAX_STUDY_INPUT
from minds_bot.render.plan_models import ACTION_MODEL, BLOCK_MODEL, MAX_OPTION_VALUE
from minds_bot.slack.fields import over_limit
from minds_bot.slack.grammar import too_long

MODAL_LIMITS = {
    "study": (N_("A Study name or id"), MAX_STUDY_INPUT),
    "request": (N_("A plan request"), MAX_PLAN_REQUEST),
    "answer": (N_("An answer"), MAX_PLAN_ANSWER),
    "refinement": (N_("A refinement"), MAX_PLAN_REQUEST),
    "stimulus": (N_("A message link"), MAX_STIMULUS_LINK),
}


def field_value(view: dict[str, Any], block: str) -> str | None:
    """A dialog field's value: the option or conversation picked, else the text typed (stripped; None when empty)."""
    values = (view.get("state") or {}).get("values") or {}
    element = (values.get(block) or {}).get("value") or {}
    if element.get("type") == "static_select":
        return ((element.get("selected_option") or {}).get("value")) or None
    if element.get("type") == "conversations_select":
        picked = element.get("selected_conversation")
        return picked if isinstance(picked, str) and picked else None
    text = element.get("value")
    return text.strip() if isinstance(text, str) and text.strip() else None


def plan_channel(view: dict[str, Any]) -> str:
    """Where the plan dialog posts: the channel it was opened in, else the one picked (the App Home's)."""
    return decode_metadata(view.get("private_metadata")).get("c") or field_value(view, "channel") or ""


def home_study_name(body: dict[str, Any], action: dict[str, Any]) -> str | None:
    """The Study's name from the Home section whose button was pressed (plain words: escaped when shown)."""
    for block in (body.get("view") or {}).get("blocks") or []:
        if isinstance(block, dict) and block.get("block_id") == action.get("block_id"):
            text = (block.get("text") or {}).get("text")
            return unescape(text) if isinstance(text, str) else None
    return None


def team_of(body: dict[str, Any]) -> str:
    return (body.get("team") or {}).get("id") or (body.get("user") or {}).get("team_id") or ""


def where(body: dict[str, Any]) -> tuple[str, str, str]:
    """(team, channel, message ts) of the plan message a button sits on."""
    container = body.get("container") or {}
    channel = (body.get("channel") or {}).get("id") or container.get("channel_id") or ""
    ts = container.get("message_ts") or (body.get("message") or {}).get("ts") or ""
    return team_of(body), channel, ts


def button_value(action: dict[str, Any]) -> dict[str, Any]:
    return decode_value(action.get("value"))


def fields_over_limit(view: dict[str, Any]) -> dict[str, str]:
    """A modal field longer than its limit (Slack's max_length binds Slack's own client, not a forged view)."""
    return over_limit(view, MODAL_LIMITS)


def revision_of(value: dict[str, Any]) -> int:
    revision = value.get("r")
    return revision if isinstance(revision, int) else -1


def opted_in(body: dict[str, Any]) -> bool:
    values = (body.get("state") or {}).get("values") or {}
    chosen = ((values.get(BLOCK_OPT_IN) or {}).get(ACTION_OPT_IN) or {}).get("selected_options") or []
    return any(option.get("value") == OPT_IN_VALUE for option in chosen)


def model_choice(body: dict[str, Any]) -> str | None:
    """The model picker's value on the plan message (an id Minds listed, checked again on approval)."""
    values = (body.get("state") or {}).get("values") or {}
    chosen = ((values.get(BLOCK_MODEL) or {}).get(ACTION_MODEL) or {}).get("selected_option") or {}
    return plain_value(chosen.get("value"), limit=MAX_OPTION_VALUE)


def picks(view: dict[str, Any]) -> dict[int, str]:
    """The answer dialog's inputs (``cq_<index>``): a chosen option's position, or the typed text (what a
    forged view sends in place of text counts as no answer)."""
    found: dict[int, str] = {}
    for block_id, element in ((view.get("state") or {}).get("values") or {}).items():
        if block_id.startswith("cq_") and block_id[3:].isdigit():
            value = element.get("value") or {}
            option = value.get("selected_option")
            chosen = option.get("value") if isinstance(option, dict) else value.get("value")
            found[int(block_id[3:])] = chosen if isinstance(chosen, str) else ""
    return found


def answers_over_limit(view: dict[str, Any]) -> dict[str, str]:
    """Typed answers in the Answer-all dialog longer than an answer may be, on their fields."""
    errors = {}
    for index, text in picks(view).items():
        if len(text) > MAX_PLAN_ANSWER:
            errors[f"cq_{index}"] = too_long(_("An answer"), limit=MAX_PLAN_ANSWER, length=len(text))
    return errors


def confirmation_text(body: dict[str, Any], action: dict[str, Any]) -> str:
    """The question shown above the pressed "Answer…" button (the section right before its actions block)."""
    blocks = (body.get("message") or {}).get("blocks") or []
    ids = [block.get("block_id") for block in blocks]
    index = ids.index(action.get("block_id")) if action.get("block_id") in ids else -1
    if index > 0:
        text = (blocks[index - 1].get("text") or {}).get("text")
        if isinstance(text, str):
            return unescape(text)  # mrkdwn the bot posted; the modal escapes it again
    return _("Minds asks a question about this plan.")


def first_block(view: dict[str, Any]) -> str:
    """Where a modal-wide error shows: the first input block of the submitted view."""
    values = ((view.get("state") or {}).get("values")) or {}
    return next(iter(values), "")


def modal_metadata(body: dict[str, Any], *, channel: str, ts: str, **extra: Any) -> str:
    """A plan modal's ``private_metadata``: the plan message, and ``u``, the person the modal is opened for."""
    return json.dumps({"c": channel, "ts": ts, **extra, "u": body["user"]["id"]})
