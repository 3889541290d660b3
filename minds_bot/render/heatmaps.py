"""Question heatmaps on a result: **Heatmap** when its question carries an image or video, **Export heatmap** when
it carries a website (the export is of website heatmaps only, catalogue rule 91), the confirmation that names the
cost (Premium; one response per Mind), progress and the analysis as Minds reports it. Every Minds text is
escaped. Must not touch: I/O."""

from __future__ import annotations

from slack_sdk.models.blocks import ActionsBlock, Block, ButtonElement, ConfirmObject

from minds_bot.i18n import _, _n, format_number, format_percent
from minds_bot.minds import Heatmap, StudyOutput
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, MAX_REASON_SHOWN, MAX_WORD_SHOWN, Message, escape
from minds_bot.render.common import button, encode_value, section, sections, shorten
from minds_bot.render.states import state_word

HEATMAP_ACTION = "result_heatmap"
HEATMAP_EXPORT_ACTION = "result_heatmap_export"
HEATMAP_START_ACTION = "heatmap_start"
MAX_REGIONS = 8


def heatmap_value(
    *,
    study_id: str,
    message_id: str,
    asset_key: str | None,
    requester: str | None = None,
    thread_ts: str | None = None,
    respondents: int | None = None,
) -> str | None:
    """Button value: which heatmap; the prompt's also names who asked, the result's thread and the responses Minds
    said it uses (for the spend record). Grants nothing."""
    state: dict[str, object] = {"s": study_id, "m": message_id, "k": asset_key}
    if requester:
        state |= {"u": requester, "t": thread_ts}
    if respondents is not None:
        state["r"] = respondents
    return encode_value(state)


def heatmap_buttons(output: StudyOutput, *, study_id: str, message_id: str) -> list[ButtonElement]:
    """*Heatmap* when the question carries an image or video asset (what a question heatmap analyses); *Export
    heatmap* when it carries a website, because the export is of a website heatmap only (catalogue rule 91).
    Decided by the assets' ``kind`` as Minds reports it."""
    offers = [
        (output.visual_assets, _("Heatmap"), HEATMAP_ACTION),
        (output.website_assets, _("Export heatmap"), HEATMAP_EXPORT_ACTION),
    ]
    buttons: list[ButtonElement] = []
    for assets, label, action_id in offers:
        value = (
            heatmap_value(study_id=study_id, message_id=message_id, asset_key=assets[0].asset_key) if assets else None
        )
        if value is not None:
            buttons.append(button(label, action_id=action_id, value=value))
    return buttons


def render_heatmap_prompt(
    *, heatmap: Heatmap, study_id: str, message_id: str, requester: str, thread_ts: str
) -> Message:
    """Only the person who asked sees it; starting spends allowance, so the cost is named before the click."""
    if heatmap.respondents is not None:
        cost = _n(
            "It needs Premium and uses one response per Mind ({count} Mind) from your allowance.",
            "It needs Premium and uses one response per Mind ({count} Minds) from your allowance.",
            heatmap.respondents,
        )
    else:
        cost = _("It needs Premium and uses one response per Mind (every Mind that answered) from your allowance.")
    lead = _("No heatmap of this {kind} yet. {cost}", kind=_kind(heatmap), cost=cost)
    value = heatmap_value(
        study_id=study_id,
        message_id=message_id,
        asset_key=heatmap.asset_key,
        requester=requester,
        thread_ts=thread_ts,
        respondents=heatmap.respondents,
    )
    blocks: list[Block] = [section(lead)]
    if value is not None:
        confirm = ConfirmObject(
            title=_("Start a heatmap?"), text=shorten(cost, 300), confirm=_("Start"), deny=_("Cancel")
        )
        blocks.append(
            ActionsBlock(
                elements=[button(_("Start heatmap"), action_id=HEATMAP_START_ACTION, value=value, confirm=confirm)]
            )
        )
    return Message(text=_("No heatmap yet. {cost}", cost=cost), blocks=blocks)


def _kind(heatmap: Heatmap) -> str:
    """What the heatmap is of, as Minds names it (an image, a video), escaped; "asset" when Minds says nothing."""
    return escape(heatmap.kind or _("asset"), limit=MAX_WORD_SHOWN)


def render_heatmap(heatmap: Heatmap) -> Message:
    if heatmap.status == "failed":
        reason = escape(heatmap.error or _("no reason given"), limit=MAX_REASON_SHOWN)
        text = _("Minds could not make the heatmap: {reason}", reason=reason)
        return Message(text=text, blocks=[section(text)])
    regions = sorted(heatmap.regions or [], key=lambda r: -r.attention)[:MAX_REGIONS]
    lines = [
        "• "
        + _(
            "{region} — {share} of attention",
            region=escape(r.label, limit=MAX_NAME_SHOWN),
            share=format_percent(r.attention),
        )
        for r in regions
    ]
    if heatmap.respondents is not None:
        head = _n(
            "*Heatmap of the {kind}* across {count} Mind:",
            "*Heatmap of the {kind}* across {count} Minds:",
            heatmap.respondents,
            kind=_kind(heatmap),
        )
        text = _n("Heatmap across {count} Mind", "Heatmap across {count} Minds", heatmap.respondents)
    else:
        head, text = _("*Heatmap of the {kind}*:", kind=_kind(heatmap)), _("Heatmap")
    blocks: list[Block] = [section(head + "\n" + "\n".join(lines))]
    if heatmap.summary:  # Minds' words in full, split across sections
        blocks += sections(escape(heatmap.summary))[: MAX_BLOCKS_PER_MESSAGE - 1]
    return Message(text=text, blocks=blocks)


def render_heatmap_progress(heatmap: Heatmap) -> Message:
    if heatmap.queue_position:
        text = _(
            "Minds is analysing the {kind}: {status} (place {place} in the queue)…",
            kind=_kind(heatmap),
            status=state_word(heatmap.status),
            place=format_number(heatmap.queue_position),
        )
    else:
        text = _("Minds is analysing the {kind}: {status}…", kind=_kind(heatmap), status=state_word(heatmap.status))
    return Message(text=text, blocks=[section(text)])


def render_heatmap_not_requester() -> Message:
    text = _("Only the person who asked for this heatmap can start it. Press Heatmap on the result yourself.")
    return Message(text=text, blocks=[section(text)])


def render_heatmap_export_unfinished() -> Message:
    text = _("Minds is still preparing the heatmap archive. Press Export heatmap again in a while.")
    return Message(text=text, blocks=[section(text)])


def render_heatmap_export_failed(reason: str) -> Message:
    text = _("The heatmap could not be exported: {reason}", reason=escape(reason, limit=MAX_REASON_SHOWN))
    return Message(text=text, blocks=[section(text)])
