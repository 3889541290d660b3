"""The New Audience dialogs: designing the sample of an Audience built from a brief (``/minds audience new``) and
an Audience made from chosen Minds (**New Audience from these Minds** on ``/minds minds``).

Owns: the views, their ids and words. The brief dialog asks for what ``create_audience_from_brief`` takes: the
brief, a name, a size within the account's limits (read from ``get_audience_limits`` after the dialog opened, the
automatic size told apart from an explicit one), the creation mode (only the modes Minds lists), links, a
respondent dataset (a Slack message with a CSV) whose segmentation Minds previews for review before anything is
built, and a public link — off unless the person ticks it. The review view shows every selected variable's
segments (counts and shares as Minds returned them), the variables held out, the rows used and the recommended
size; a count an older reply leaves out says "not reported". The Minds dialog asks for a name, the Minds
(preselected from the listing, searchable) and the public link, again off by default.
Must not touch: I/O.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import (
    Block,
    CheckboxesElement,
    ExternalDataMultiSelectElement,
    InputBlock,
    NumberInputElement,
    Option,
    PlainTextInputElement,
    StaticSelectElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import N_, _, _n, format_share, join_list, separated
from minds_bot.minds import AudienceCreated, AudienceLimits, DatasetVariable, MindSummary, SegmentationPreview
from minds_bot.render import MAX_SECTION_TEXT, Message, escape, mention
from minds_bot.render.browse import minds_label
from minds_bot.render.common import context, section, sections, shorten
from minds_bot.render.source_import import MAX_BRIEF

NEW_AUDIENCE_VIEW = "minds_audience_new"
REVIEW_VIEW = "minds_audience_review"
FROM_MINDS_VIEW = "minds_audience_from_minds"
MIND_OPTIONS_ACTION = "audience_new_minds"
BRIEF_BLOCK, BRIEF_ACTION = "audience_new_brief", "audience_new_brief_input"
NAME_BLOCK, NAME_ACTION = "audience_new_name", "audience_new_name_input"
SIZE_BLOCK, SIZE_ACTION = "audience_new_size", "audience_new_size_input"
MODE_BLOCK, MODE_ACTION = "audience_new_mode", "audience_new_mode_select"
LINKS_BLOCK, LINKS_ACTION = "audience_new_links", "audience_new_links_input"
DATASET_BLOCK, DATASET_ACTION = "audience_new_dataset", "audience_new_dataset_input"
PUBLIC_BLOCK, PUBLIC_ACTION = "audience_new_public", "audience_new_public_box"
KEYWORDS_BLOCK, KEYWORDS_ACTION = "audience_new_keywords", "audience_new_keywords_input"
GROUNDING_BLOCK, GROUNDING_ACTION = "audience_new_grounding", "audience_new_grounding_box"
NO_WEB_VALUE = "no_web"
MINDS_BLOCK = "audience_new_minds"
PUBLIC_VALUE = "public"
MAX_NAME = 200
MAX_OPTION_VALUE = 150  # Slack's limit for an option's value
MAX_LINKS = 20
MAX_LINKS_TEXT = 3000
MAX_KEYWORDS = 20
MAX_MINDS = 100  # Slack's most selected options
MAX_SEGMENTS_SHOWN = 12  # per variable; the rest are counted
MAX_VARIABLES_SHOWN = 30  # in the review; the rest are counted
MODE_WORDS = {
    "balanced": N_("Balanced"),
    "segment_coverage": N_("Segment coverage"),
    "benchmark_depth": N_("Benchmark depth"),
}
DATASET_MODE = "benchmark_depth"  # a reviewed dataset segmentation needs it (OpenAPI)


def _mode_label(mode: str) -> str:
    return _(MODE_WORDS[mode]) if mode in MODE_WORDS else mode


def _public_box() -> InputBlock:
    return InputBlock(
        block_id=PUBLIC_BLOCK,
        label=_("Public link"),
        optional=True,
        element=CheckboxesElement(
            action_id=PUBLIC_ACTION,
            options=[Option(value=PUBLIC_VALUE, text=_("Turn on a public link to this Audience"))],
        ),
        hint=_("Off unless you tick it: anyone with the link can then read the Audience."),
    )


def render_new_audience(*, channel_id: str, limits: AudienceLimits | None) -> View:
    """The brief dialog; ``limits`` None while they are being read (the size field and modes wait for them)."""
    blocks: list[Any] = [
        InputBlock(
            block_id=BRIEF_BLOCK,
            label=_("Who should the Audience be?"),
            element=PlainTextInputElement(action_id=BRIEF_ACTION, multiline=True, max_length=MAX_BRIEF),
        ),
        InputBlock(
            block_id=NAME_BLOCK,
            label=_("Name"),
            optional=True,
            hint=_("Leave empty and Minds names it from the brief."),
            element=PlainTextInputElement(action_id=NAME_ACTION, max_length=MAX_NAME),
        ),
    ]
    if limits is None:
        blocks.append(context(_("Reading your plan's Audience limits from Minds…")))
    else:
        blocks += _sizing(limits)
    blocks += [
        InputBlock(
            block_id=LINKS_BLOCK,
            label=_("Links for research"),
            optional=True,
            hint=_("One https:// link per line, at most {count}.", count=MAX_LINKS),
            element=PlainTextInputElement(action_id=LINKS_ACTION, multiline=True, max_length=MAX_LINKS_TEXT),
        ),
        InputBlock(
            block_id=KEYWORDS_BLOCK,
            label=_("Keywords"),
            optional=True,
            hint=_("Comma-separated search keywords and research seeds, at most {count}.", count=MAX_KEYWORDS),
            element=PlainTextInputElement(action_id=KEYWORDS_ACTION, max_length=MAX_LINKS_TEXT),
        ),
        InputBlock(
            block_id=GROUNDING_BLOCK,
            label=_("Grounding"),
            optional=True,
            element=CheckboxesElement(
                action_id=GROUNDING_ACTION,
                options=[
                    Option(value=NO_WEB_VALUE, text=_("No web search: only the brief, links, keywords and dataset"))
                ],
            ),
        ),
        InputBlock(
            block_id=DATASET_BLOCK,
            label=_("Respondent dataset"),
            optional=True,
            hint=_(
                "The link to a Slack message with a CSV of respondents (Copy link on the message). Minds shows how "
                "it would segment it for your review before anything is built."
            ),
            element=PlainTextInputElement(action_id=DATASET_ACTION, max_length=MAX_LINKS_TEXT),
        ),
        _public_box(),
    ]
    return View(
        type="modal",
        callback_id=NEW_AUDIENCE_VIEW,
        title=_("New Audience"),
        submit=_("Create"),
        close=_("Cancel"),
        private_metadata=json.dumps({"c": channel_id, **({"cap": _cap(limits)} if limits else {})}),
        blocks=blocks,
    )


def _cap(limits: AudienceLimits) -> int:
    """The largest explicit size: the plan's per-Audience cap, within the custom-size maximum when Minds gives one."""
    caps = [limits.per_audience_cap, *(c for c in (limits.custom_size_max,) if c)]
    return min(caps)


def _sizing(limits: AudienceLimits) -> list[Block]:
    cap = _cap(limits)
    automatic = max((m.automatic_sizing_ceiling for m in limits.modes if m.automatic_sizing_ceiling), default=None)
    hint = (
        _(
            "Leave empty and Minds sizes it from the brief (up to {automatic}). You may ask for up to {cap}.",
            automatic=minds_label(automatic),
            cap=minds_label(cap),
        )
        if automatic
        else _("Leave empty and Minds sizes it from the brief. You may ask for up to {cap}.", cap=minds_label(cap))
    )
    blocks: list[Block] = [
        InputBlock(
            block_id=SIZE_BLOCK,
            label=_("Size (Minds)"),
            optional=True,
            hint=hint,
            element=NumberInputElement(
                action_id=SIZE_ACTION, is_decimal_allowed=False, min_value="1", max_value=str(cap)
            ),
        )
    ]
    modes = [m.mode for m in limits.modes if len(m.mode) <= MAX_OPTION_VALUE]  # Minds' mode ids are short
    if modes:
        options = [Option(value=mode, text=shorten(_mode_label(mode), 75)) for mode in modes]
        initial = next((o for o in options if o.value == "balanced"), None)
        blocks.append(
            InputBlock(
                block_id=MODE_BLOCK,
                label=_("Creation mode"),
                optional=True,
                hint=_("Deeper modes are Team-plan workflows; Minds says which mode it applied."),
                element=StaticSelectElement(action_id=MODE_ACTION, options=options, initial_option=initial),
            )
        )
    return blocks


def render_locked_dialog() -> View:
    text = _(
        "This workspace cannot create Audiences: Minds reports a per-Audience limit of 0 (a workspace lock). "
        "Nothing was created; an admin can check the plan in Minds."
    )
    return View(type="modal", title=_("New Audience"), close=_("Close"), blocks=[section(text)])


def render_previewing() -> View:
    text = _("Minds is previewing how it would segment the dataset…")
    return View(type="modal", title=_("Review the dataset"), close=_("Cancel"), blocks=[section(text)])


def render_preview_refused(reason: str) -> View:
    """``reason``: plain words (escaped here)."""
    text = escape(_("The dataset was not previewed: {reason}", reason=reason), limit=MAX_SECTION_TEXT)
    hint = _(
        "Nothing was built. A screener or questionnaire grid is no respondent data: use “Audience from files” on "
        "its message to build from it instead."
    )
    return View(type="modal", title=_("Review the dataset"), close=_("Close"), blocks=[section(text), context(hint)])


def _segments(variable: DatasetVariable) -> str:
    shares = variable.distribution or []
    shown = [
        _(
            "{label} {share} ({count})",
            label=escape(s.label, limit=60),
            share=format_share(s.pct, digits=1),
            count=s.count,
        )
        for s in shares[:MAX_SEGMENTS_SHOWN]
    ]
    line = separated(shown)
    if len(shares) > MAX_SEGMENTS_SHOWN:
        rest = len(shares) - MAX_SEGMENTS_SHOWN
        line = _n("{segments} and {count} more segment", "{segments} and {count} more segments", rest, segments=line)
    return _("*{variable}*: {segments}", variable=escape(variable.label or variable.key, limit=100), segments=line)


def _not_reported(count: int | None) -> str:
    return _("not reported") if count is None else str(count)


def render_review(preview: SegmentationPreview, *, request_id: str) -> View:
    """The segmentation Minds proposes, for review; Create builds with exactly this (``request_id``: the saved
    request's key)."""
    rows = preview.rows
    summary = _(
        "*{file}*: {used} of {total} rows used (every completed respondent row). Minds recommends {minds}.",
        file=escape(preview.file.name, limit=200),
        used=rows.used,
        total=rows.total,
        minds=minds_label(preview.recommended_mind_count),
    )
    selected = preview.selected
    lines = [_segments(v) for v in selected[:MAX_VARIABLES_SHOWN]]
    if len(selected) > MAX_VARIABLES_SHOWN:
        rest = len(selected) - MAX_VARIABLES_SHOWN
        lines.append(_n("…and {count} more variable", "…and {count} more variables", rest))
    blocks: list[Block] = [section(summary), section(_("*Segments that shape the Audience*"))]
    blocks += sections("\n".join(lines))
    held = preview.held_out
    if held:
        names = join_list(escape(v.label or v.key, limit=60) for v in held[:MAX_VARIABLES_SHOWN])
        blocks.append(context(_("Held out (outcomes and drivers, not used to shape it): {names}", names=names)))
    counts = _(
        "Relationships between variables: {relationships}. Dependencies: {dependencies}.",
        relationships=_not_reported(preview.relationship_count),
        dependencies=_not_reported(preview.dependency_count),
    )
    blocks.append(context(counts))
    mode = _mode_label(DATASET_MODE)
    blocks.append(context(_("Built in the {mode} mode, which a reviewed dataset needs.", mode=mode)))
    return View(
        type="modal",
        callback_id=REVIEW_VIEW,
        title=_("Review the dataset"),
        submit=_("Create"),
        close=_("Cancel"),
        private_metadata=json.dumps({"k": request_id}),
        blocks=blocks,
    )


def render_from_minds(*, channel_id: str, minds: Sequence[tuple[str, str]]) -> View:
    """The dialog for an Audience of chosen Minds; ``minds`` (id, name) are preselected."""
    chosen = [(mind_id, name) for mind_id, name in minds if len(mind_id) <= MAX_OPTION_VALUE][:MAX_MINDS]
    initial = [Option(value=mind_id, text=shorten(name or mind_id, 75)) for mind_id, name in chosen]
    blocks = [
        InputBlock(
            block_id=NAME_BLOCK,
            label=_("Name"),
            element=PlainTextInputElement(action_id=NAME_ACTION, max_length=MAX_NAME),
        ),
        InputBlock(
            block_id=MINDS_BLOCK,
            label=_("Minds"),
            hint=_("Type to search your Minds."),
            element=ExternalDataMultiSelectElement(
                action_id=MIND_OPTIONS_ACTION,
                placeholder=_("Type to search your Minds"),
                min_query_length=0,
                max_selected_items=MAX_MINDS,
                initial_options=initial or None,
            ),
        ),
        _public_box(),
    ]
    return View(
        type="modal",
        callback_id=FROM_MINDS_VIEW,
        title=_("New Audience"),
        submit=_("Create"),
        close=_("Cancel"),
        private_metadata=json.dumps({"c": channel_id}),
        blocks=blocks,
    )


def render_mind_options(minds: Sequence[MindSummary]) -> list[dict[str, Any]]:
    usable = [m for m in minds if len(m.id) <= MAX_OPTION_VALUE]
    return [Option(value=m.id, text=shorten(m.name, 75)).to_dict() for m in usable[:MAX_MINDS]]


def render_audience_made(created: AudienceCreated, *, user_id: str) -> Message:
    """The channel line for an Audience made from chosen Minds."""
    text = _(
        "{user} made the Audience *{name}* from {minds}.",
        user=mention(user_id),
        name=escape(created.name, limit=200),
        minds=minds_label(created.mind_count),
    )
    if created.replayed:
        text = _(
            "The Audience *{name}* was already made from these Minds; nothing new was created.",
            name=escape(created.name, limit=200),
        )
    blocks: list[Block] = [section(text)]
    if created.is_link_sharing_enabled and created.public_share_id:
        blocks.append(context(_("Its public link is on, as you asked. Turn it off in Minds.")))
    blocks.append(context(_("Attach it to a Study in Minds, then `/minds ask` or `/minds plan`.")))
    return Message(text=text, blocks=blocks)
