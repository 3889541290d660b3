"""Minds' state words (``queued``, ``running``, ``completed``, ``partial``, ``plan_limited`` …) as a person reads
them, in the language being spoken.

Owns: ``state_word`` — the one place a status value Minds sent (a run's, a job's, an export's, a heatmap's, a
Mind's training, a Formation's, a summary's or an answer-consistency check's) becomes words. Every state the
contract declares has a message of the catalogs; a state Minds adds later is shown as Minds wrote it (escaped), so
it is never hidden. Partial and plan-limited are never called complete.
Must not touch: deciding anything from a state (flows and the renderers that choose a sentence do that).
"""

from __future__ import annotations

from minds_bot.i18n import N_, _
from minds_bot.render import MAX_WORD_SHOWN, escape

# i18n: each is the state of a run, job, export or analysis at Minds, shown after a colon or in brackets
# ("Preparing the PDF report: queued."); short, lower case where the language has case, no article.
STATES: dict[str, str] = {
    "queued": N_("queued"),
    "pending": N_("pending"),
    "idle": N_("not started"),
    "starting": N_("starting"),
    "running": N_("running"),
    "processing": N_("processing"),
    "building": N_("building"),
    "training": N_("training"),
    "completed": N_("completed"),
    "ready": N_("ready"),
    "partial": N_("partial"),
    "plan_limited": N_("plan limit reached"),
    "failed": N_("failed"),
    "cancelled": N_("cancelled"),
    "verified": N_("verified"),
    "incomplete": N_("incomplete"),
    "not_applicable": N_("not applicable"),
}


def state_word(status: str | None) -> str:
    """``status`` in the words of the language being spoken; a state the bot does not know, as Minds wrote it."""
    if not status:
        return ""
    known = STATES.get(status.strip().lower())
    return _(known) if known is not None else escape(status, limit=MAX_WORD_SHOWN)
