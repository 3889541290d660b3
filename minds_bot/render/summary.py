"""A Study's semantic summary (``/minds summary``): Markdown turned into mrkdwn, paged, never cut.

Owns: pages (Markdown converted by ``render.markdown``) of whole sections with Previous/Next buttons, and
honest states: still generating, none yet, superseded by a newer generation, and whether it predates the latest
finished run (from Minds' times when it gives both, else that it may; with a Refresh button running
``/minds summary <study> refresh``).
Must not touch: I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from slack_sdk.models.blocks import ActionsBlock, Block

from minds_bot.i18n import _
from minds_bot.minds import AgentRun, SemanticSummary
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


def freshness(*, generated: datetime | None, latest_run_ended: datetime | None) -> str:
    """Whether a summary includes the Study's newest finished run, said from Minds' times when Minds gives both
    (the summary's ``generatedAt``, the run's ``completedAt``), else that it may predate it. The one sentence the
    summary and the digest both use."""
    if generated is not None and latest_run_ended is not None:
        if generated < latest_run_ended:
            return _(
                ":warning: Generated {when}, before the latest run finished ({ended}): it does not include that "
                "run. Refresh to include every finished run.",
                when=slack_date(generated),
                ended=slack_date(latest_run_ended),
            )
        return _("Generated {when}, after the latest run finished.", when=slack_date(generated))
    if generated is not None:
        return _(
            "Generated {when}; it may predate the latest run. Refresh to include every finished run.",
            when=slack_date(generated),
        )
    return _("Minds did not say when this summary was generated; it may predate the latest run.")


def _freshness(study_id: str, summary: SemanticSummary, latest_run_ended: datetime | None) -> list[Block]:
    """``freshness`` and a Refresh button running exactly ``/minds summary <study> refresh``."""
    text = freshness(generated=summary.generated_at, latest_run_ended=latest_run_ended)
    value = rerun_value(f"summary {study_id} refresh")  # the command it runs # verbatim
    refresh = [button(_("Refresh"), action_id=f"{RERUN_ACTION}:summary", value=value)] if value else []
    return [context(text), *([ActionsBlock(elements=refresh)] if refresh else [])]


def latest_run_ended(runs: Sequence[AgentRun]) -> datetime | None:
    """When the newest finished run of ``runs`` ended, as Minds lists it; None when Minds does not say."""
    return max((run.completed_at for run in runs if run.is_terminal and run.completed_at), default=None)


def render_summary(
    *,
    study_id: str,
    study_name: str,
    summary: SemanticSummary,
    page: int = 0,
    latest_run_ended: datetime | None = None,
) -> Message:
    """``latest_run_ended``: when the Study's newest finished run ended, as Minds reports it (None: unknown)."""
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
    blocks += _freshness(study_id, summary, latest_run_ended)
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
