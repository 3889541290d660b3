"""The rest of a Mind's card: its ⋯ menu (Regenerate portrait…, Rebuild knowledge index, Patterns, Patterns by
framework, Enrich from keywords…), each knowledge source's ⋯ menu (Edit description…, Remove…), their dialogs, and
what the person reads after each.

Owns: those menus (an option's value is ``<verb>:<mind id>``; a source's menu carries the source's id in its
action id, ``mind_source:<item id>``), the portrait, enrichment and source-edit dialogs with their callback and
block ids and limits, and the messages: a portrait queued or skipped (Minds' reason), a rebuild queued (never
"done": Minds only accepted it, catalogue rule 63), the raw patterns newest first and the patterns by framework
(each long list says how many more there are). Every text from Minds or a person is escaped here.
Must not touch: I/O.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from slack_sdk.models.blocks import (
    Block,
    CheckboxesElement,
    InputBlock,
    Option,
    OverflowMenuElement,
    PlainTextInputElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import _, _n, format_number, join_list
from minds_bot.minds import KnowledgePatterns, MindPattern, RegeneratedImage
from minds_bot.render import MAX_NAME_SHOWN, MAX_REASON_SHOWN, Message, escape
from minds_bot.render.common import context, section, shorten, split_text

MIND_MORE_ACTION = "mind_more"  # the card's ⋯ menu; option value "<verb>:<mind id>"
SOURCE_MORE_ACTION = "mind_source"  # a source's ⋯ menu: action id "mind_source:<item id>", value "<verb>:<mind id>"
MORE_VERBS = ("portrait", "embeddings", "patterns", "frameworks", "enrich")
SOURCE_VERBS = ("edit", "remove")
PORTRAIT_VIEW = "mind_portrait_modal"
ENRICH_VIEW = "mind_enrich_modal"
SOURCE_EDIT_VIEW = "mind_source_edit_modal"
VALUE_ACTION = "value"
FORCE_BLOCK, CONTEXT_BLOCK = "force", "persona_context"
KEYWORDS_BLOCK, KEEP_PROMPT_BLOCK = "keywords", "keep_prompt"
DESCRIPTION_BLOCK = "description"
FORCE, KEEP_PROMPT = "force", "keep"
MAX_OPTION_VALUE = 75  # Slack's limit for an overflow option's value
MAX_PORTRAIT_CONTEXT = 3000  # a plain-text input holds at most 3,000 characters (Minds takes up to 16,000)
MAX_KEYWORD_TEXT = 1000
MAX_ENRICH_KEYWORDS = 15  # Minds keeps 15 and drops the rest silently: the dialog refuses more instead
MAX_SOURCE_DESCRIPTION = 500
NAME_IN_METADATA = 80
MAX_PATTERNS_SHOWN = 15
MAX_ASPECTS_SHOWN = 8
MAX_FRAMEWORKS_SHOWN = 40  # one section each, under Slack's 50 blocks
MAX_QUOTE_SHOWN = 300


def more_menu(mind_id: str) -> OverflowMenuElement | None:
    """The card's ⋯ menu (Slack allows five options); None when the Mind's id would not fit an option."""
    labels = {
        "portrait": _("Regenerate portrait…"),
        "embeddings": _("Rebuild knowledge index"),
        "patterns": _("Patterns"),
        "frameworks": _("Patterns by framework"),
        "enrich": _("Enrich from keywords…"),
    }
    options = [Option(value=f"{verb}:{mind_id}", text=labels[verb]) for verb in MORE_VERBS]
    if any(len(o.value or "") > MAX_OPTION_VALUE for o in options):
        return None
    return OverflowMenuElement(action_id=MIND_MORE_ACTION, options=options)


def source_menu(mind_id: str, item_id: str) -> OverflowMenuElement | None:
    labels = {"edit": _("Edit description…"), "remove": _("Remove…")}
    options = [Option(value=f"{verb}:{mind_id}", text=labels[verb]) for verb in SOURCE_VERBS]
    if any(len(o.value or "") > MAX_OPTION_VALUE for o in options):
        return None
    return OverflowMenuElement(action_id=f"{SOURCE_MORE_ACTION}:{item_id}", options=options)


def _metadata(*, mind_id: str, name: str, channel_id: str, **more: str) -> str:
    return json.dumps({"m": mind_id, "n": shorten(name, NAME_IN_METADATA), "c": channel_id, **more})


def _tick(block: str, value: str, label: str, words: str) -> InputBlock:
    element = CheckboxesElement(action_id=VALUE_ACTION, options=[Option(value=value, text=words)])
    return InputBlock(block_id=block, label=label, optional=True, element=element)


def _text(block: str, label: str, *, limit: int, optional: bool, initial: str | None = None) -> InputBlock:
    element = PlainTextInputElement(
        action_id=VALUE_ACTION, max_length=limit, multiline=limit > 500, initial_value=initial
    )
    return InputBlock(block_id=block, label=label, optional=optional, element=element)


def portrait_modal(*, mind_id: str, name: str, has_portrait: bool, channel_id: str) -> View:
    shown = escape(name, limit=MAX_NAME_SHOWN)
    has = (
        _("*{name}* has a portrait: Minds keeps it unless you tick “Replace the current portrait”.", name=shown)
        if has_portrait
        else _("*{name}* has no portrait yet: Minds makes one.", name=shown)
    )
    blocks: list[Block] = [
        section(has),
        _tick(FORCE_BLOCK, FORCE, _("Replace"), _("Replace the current portrait")),
        _text(CONTEXT_BLOCK, _("Who to picture (optional)"), limit=MAX_PORTRAIT_CONTEXT, optional=True),
        context(_("The description steers the picture only; the Mind's prompt stays as it is.")),
    ]
    return View(
        type="modal",
        callback_id=PORTRAIT_VIEW,
        title=_("Regenerate portrait"),
        submit=_("Regenerate"),
        close=_("Cancel"),
        private_metadata=_metadata(mind_id=mind_id, name=name, channel_id=channel_id),
        blocks=blocks,
    )


def enrich_modal(*, mind_id: str, name: str, channel_id: str) -> View:
    shown = escape(name, limit=MAX_NAME_SHOWN)
    blocks: list[Block] = [
        section(
            _("Minds searches the web for each keyword and adds what it finds to *{name}*'s knowledge.", name=shown)
        ),
        _text(
            KEYWORDS_BLOCK,
            _("Keywords (separated by commas, at most {count})", count=MAX_ENRICH_KEYWORDS),
            limit=MAX_KEYWORD_TEXT,
            optional=False,
        ),
        _tick(KEEP_PROMPT_BLOCK, KEEP_PROMPT, _("Prompt"), _("Keep the Mind's current prompt")),
    ]
    return View(
        type="modal",
        callback_id=ENRICH_VIEW,
        title=_("Enrich from keywords"),
        submit=_("Enrich"),
        close=_("Cancel"),
        private_metadata=_metadata(mind_id=mind_id, name=name, channel_id=channel_id),
        blocks=blocks,
    )


def source_edit_modal(*, mind_id: str, name: str, item_id: str, description: str, channel_id: str) -> View:
    text = _(
        "A new description for this source of *{name}*'s knowledge. Minds keeps its content as it is.",
        name=escape(name, limit=MAX_NAME_SHOWN),
    )
    field = _text(
        DESCRIPTION_BLOCK,
        _("Description"),
        limit=MAX_SOURCE_DESCRIPTION,
        optional=False,
        initial=shorten(description, MAX_SOURCE_DESCRIPTION),
    )
    return View(
        type="modal",
        callback_id=SOURCE_EDIT_VIEW,
        title=_("Edit knowledge"),
        submit=_("Save"),
        close=_("Cancel"),
        private_metadata=_metadata(mind_id=mind_id, name=name, channel_id=channel_id, i=item_id),
        blocks=[section(text), field],
    )


def _said(text: str) -> Message:
    return Message(text=text, blocks=[section(text)])


def render_portrait(result: RegeneratedImage, *, name: str) -> Message:
    shown = escape(name, limit=MAX_NAME_SHOWN)
    if result.enqueued:
        return _said(_("Minds queued a new portrait for *{name}*; the card shows it once it is made.", name=shown))
    reason = escape(result.skipped_reason or _("no reason given"), limit=MAX_REASON_SHOWN)
    return _said(
        _(
            "Minds kept *{name}*'s portrait ({reason}). To replace it, tick “Replace the current portrait”.",
            name=shown,
            reason=reason,
        )
    )


def render_index_queued(name: str) -> Message:
    return _said(
        _(
            "Minds queued a rebuild of *{name}*'s knowledge index; until it finishes, answers use the index as it was.",
            name=escape(name, limit=MAX_NAME_SHOWN),
        )
    )


def render_patterns(name: str, rows: Sequence[MindPattern]) -> Message:
    """The raw patterns, newest first: the first ``MAX_PATTERNS_SHOWN``, and how many more there are."""
    shown = escape(name, limit=MAX_NAME_SHOWN)
    if not rows:
        return _said(
            _("Minds has no patterns for *{name}* yet: they come from knowledge once it is ready.", name=shown)
        )
    head = _n(
        "*{name}*: {count} pattern, newest first", "*{name}*: {count} patterns, newest first", len(rows), name=shown
    )
    lines = [_pattern_line(row) for row in rows[:MAX_PATTERNS_SHOWN]]
    blocks: list[Block] = [section(head), *(section(chunk) for chunk in split_text("\n".join(lines)))]
    hidden = len(rows) - MAX_PATTERNS_SHOWN
    if hidden > 0:
        blocks.append(
            context(
                _n(
                    "{count} older pattern is not shown here; Minds shows every pattern on the Mind's page.",
                    "{count} older patterns are not shown here; Minds shows every pattern on the Mind's page.",
                    hidden,
                )
            )
        )
    return Message(text=head, blocks=blocks)


def _pattern_line(row: MindPattern) -> str:
    aspect, quote = escape(row.aspect, limit=MAX_NAME_SHOWN), escape(row.mind, limit=MAX_QUOTE_SHOWN)
    if row.sub_aspect:
        detail = escape(row.sub_aspect, limit=MAX_NAME_SHOWN)
        return _("• *{aspect} › {detail}*: “{quote}”", aspect=aspect, detail=detail, quote=quote)
    return _("• *{aspect}*: “{quote}”", aspect=aspect, quote=quote)


def render_frameworks(patterns: KnowledgePatterns) -> Message:
    """The patterns by framework, then aspect, with how often each occurs (Minds sorts them, most first)."""
    shown = escape(patterns.mind_name, limit=MAX_NAME_SHOWN)
    if not patterns.frameworks:
        return _said(
            _("Minds has no patterns for *{name}* yet: they come from knowledge once it is ready.", name=shown)
        )
    head = _n(
        "*{name}*: {count} pattern by framework",
        "*{name}*: {count} patterns by framework",
        patterns.total_patterns,
        name=shown,
    )
    blocks: list[Block] = [section(head)]
    for framework in patterns.frameworks[:MAX_FRAMEWORKS_SHOWN]:
        aspects = [
            _("{aspect} ({count})", aspect=escape(a.name, limit=MAX_NAME_SHOWN), count=format_number(a.occurrences))
            for a in framework.aspects[:MAX_ASPECTS_SHOWN]
        ]
        hidden = len(framework.aspects) - MAX_ASPECTS_SHOWN
        listed = join_list(aspects)
        if hidden > 0:
            listed = _n("{names} and {count} more", "{names} and {count} more", hidden, names=listed)
        title = escape(framework.name, limit=MAX_NAME_SHOWN)
        count = format_number(framework.total_occurrences)
        blocks.append(section(_("*{framework}* · {count}\n{aspects}", framework=title, count=count, aspects=listed)))
    hidden = len(patterns.frameworks) - MAX_FRAMEWORKS_SHOWN
    if hidden > 0:
        blocks.append(
            context(
                _n(
                    "{count} more framework is not shown here; Minds shows them all on the Mind's page.",
                    "{count} more frameworks are not shown here; Minds shows them all on the Mind's page.",
                    hidden,
                )
            )
        )
    return Message(text=head, blocks=blocks)
