"""A Study's semantic summary (``/minds summary``): Markdown turned into mrkdwn, paged, never cut.

Owns: pages (Markdown converted by ``render.markdown``) of whole sections with Previous/Next buttons, and
honest states: still generating, none yet, superseded by a newer generation, and that it may predate the latest
run (when it was generated, with a Refresh button running ``/minds summary <study> refresh``).
Must not touch: I/O.
"""

from __future__ import annotations

from slack_sdk.models.blocks import ActionsBlock, Block

from minds_bot.i18n import _
from minds_bot.minds import SemanticSummary
from minds_bot.render import MAX_NAME_SHOWN, Message, escape
from minds_bot.render.common import (
    RERUN_ACTION,
    button,
    context,
    pager,
    rerun_value,
    section,
    shorten,
    slack_date,
    split_text,
)
from minds_bot.render.markdown import to_mrkdwn

SUMMARY_PREV_ACTION = "summary_prev"
SUMMARY_NEXT_ACTION = "summary_next"
SECTIONS_PER_PAGE = 4  # about 12,000 characters: a long read, still one screen of scrolling


def summary_pages(summary: str) -> list[list[str]]:
    chunks = split_text(to_mrkdwn(summary))
    return [chunks[i : i + SECTIONS_PER_PAGE] for i in range(0, len(chunks), SECTIONS_PER_PAGE)] or [[]]


def _status(summary: SemanticSummary) -> str | None:
    if summary.is_generating:
        if summary.revision is not None:
            return _(
                "Minds is generating a newer summary right now; this is the latest saved one (revision {revision}).",
                revision=summary.revision,
            )
        return _("Minds is generating a newer summary right now; this is the latest saved one.")
    return None


def _freshness(study_id: str, summary: SemanticSummary) -> list[Block]:
    """Minds gives no run completion times to compare with, so the summary says it may predate the latest run,
    and offers Refresh (exactly ``/minds summary <study> refresh``)."""
    if summary.generated_at is not None:
        text = _(
            "Generated {when}; it may predate the latest run. Refresh to include every finished run.",
            when=slack_date(summary.generated_at),
        )
    else:
        text = _("Minds did not say when this summary was generated; it may predate the latest run.")
    value = rerun_value(f"summary {study_id} refresh")  # the command it runs # verbatim
    refresh = [button(_("Refresh"), action_id=f"{RERUN_ACTION}:summary", value=value)] if value else []
    return [context(text), *([ActionsBlock(elements=refresh)] if refresh else [])]


def render_summary(*, study_id: str, study_name: str, summary: SemanticSummary, page: int = 0) -> Message:
    heading = _("*Summary of {study}*", study=escape(study_name, limit=MAX_NAME_SHOWN))
    if not summary.summary or not summary.summary.strip():
        text = (
            _("Minds is generating the first summary of this Study; try again in a minute.")
            if summary.is_generating
            else escape(_("This Study has no summary yet. Say `/minds summary <study> refresh` to generate one."))
        )
        return Message(text=text, blocks=[section(heading), section(text)])
    pages = summary_pages(summary.summary)
    index = min(max(page, 0), len(pages) - 1)
    blocks: list[Block] = [section(heading)]
    status = _status(summary)
    if status:
        blocks.append(context(status))
    blocks += _freshness(study_id, summary)
    blocks += [section(chunk) for chunk in pages[index]]
    if len(pages) > 1:
        blocks.append(context(_("Page {page} of {pages}", page=index + 1, pages=len(pages))))
    state = {"s": study_id, "n": shorten(study_name, 80)}
    blocks += pager(
        prev_id=SUMMARY_PREV_ACTION,
        next_id=SUMMARY_NEXT_ACTION,
        prev_state={**state, "p": index - 1} if index > 0 else None,
        next_state={**state, "p": index + 1} if index + 1 < len(pages) else None,
    )
    return Message(text=_("Summary of {study}", study=escape(study_name, limit=MAX_NAME_SHOWN)), blocks=blocks)


def render_superseded(*, study_name: str) -> Message:
    name = escape(study_name, limit=MAX_NAME_SHOWN)
    text = _(
        "A newer summary of {study} is being generated, so this refresh was not applied. Read it with "
        "`/minds summary` in a minute; nothing needs to be retried.",
        study=name,
    )
    return Message(text=text, blocks=[section(text)])


def render_refresh_started(*, study_name: str) -> Message:
    text = _("Refreshing the summary of {study}…", study=escape(study_name, limit=MAX_NAME_SHOWN))
    return Message(text=text, blocks=[section(text)])
