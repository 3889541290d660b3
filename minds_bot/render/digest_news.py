"""What a digest tells, as plain records: the news the digest flow gathers and ``render.digest`` renders.

Owns: ``RunNews``, ``StudyNews``, ``ReadError``, ``DigestContent``, the terminal run states, and ``Watermark``
(which runs of which Study the last posted digest saw, and in which state) with its stored form.
Pure data: no I/O, no Minds calls, no Block Kit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

TERMINAL = frozenset({"completed", "partial", "failed", "cancelled", "plan_limited"})
WATERMARK_VERSION = 1


class WatermarkError(ValueError):
    """A stored watermark the bot cannot read."""


# --- watermark ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Watermark:
    """Per Study, the run states the last digest saw; ``quiet_said`` when it already said "no news"."""

    runs: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    quiet_said: bool = False
    posted_at: datetime | None = None  # when the digest holding this news was posted ("since" in the next one)

    def dumps(self) -> str:
        runs = {study: dict(seen) for study, seen in sorted(self.runs.items())}
        posted = self.posted_at.isoformat() if self.posted_at else None
        data = {"v": WATERMARK_VERSION, "runs": runs, "quiet": self.quiet_said, "posted": posted}
        return json.dumps(data, sort_keys=True)

    @classmethod
    def loads(cls, text: str | None) -> Watermark:
        if not text:
            return cls()
        try:
            data = json.loads(text)
            runs = {str(s): {str(r): str(v) for r, v in seen.items()} for s, seen in data["runs"].items()}
            posted = datetime.fromisoformat(data["posted"]) if data.get("posted") else None
            return cls(runs=runs, quiet_said=bool(data.get("quiet", False)), posted_at=posted)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise WatermarkError(f"unreadable digest watermark: {exc}") from None  # verbatim


@dataclass(frozen=True)
class RunNews:
    """One run worth telling: new since the last digest, or finished since then."""

    run_id: str
    status: str  # Minds' word: queued, running, completed, partial, failed, cancelled, plan_limited
    new: bool
    kind: str  # "research" (a planned run), "question" (a direct question) or "unknown" (details unread)
    questions_total: int | None = None
    questions_completed: int | None = None
    partial_questions: int | None = None
    coverage_received: int | None = None  # summed over the run's artifacts that report coverage
    coverage_expected: int | None = None
    question_titles: tuple[str, ...] = ()
    flag_count: int | None = None
    flagged_minds: int | None = None
    consistency: str | None = None  # checked | incomplete | failed; None = not reported (yet)
    detail_error: str | None = None  # the details could not be read; status is from the run list


@dataclass(frozen=True)
class StudyNews:
    study_id: str
    name: str
    runs: tuple[RunNews, ...] = ()
    more_runs: int = 0  # news beyond MAX_RUN_DETAILS, counted not shown (exact: the run list is read to the end)
    first: bool = False  # first digest that follows this Study: latest runs only
    runs_total: int | None = None  # the runs Minds lists for the Study (None: not read)
    runs_complete: bool = True  # False: the read stopped at its bound (the newest 1,000): ``runs_total`` is a floor
    more_at_least: bool = False  # news may go on beyond what was read: ``more_runs`` is a floor
    summary_excerpt: str | None = None
    summary_more: bool = False  # the excerpt is shorter than the summary
    summary_note: str | None = None  # e.g. regenerating, or why the summary could not be read
    # Whether the summary includes the newest finished run (``render.summary.freshness``); None: Minds did not say.
    summary_generated_at: datetime | None = None
    latest_run_ended: datetime | None = None


@dataclass(frozen=True)
class ReadError:
    """Something the digest could not read, said in the digest instead of pretending nothing happened."""

    what: str
    message: str


@dataclass(frozen=True)
class DigestContent:
    studies: tuple[StudyNews, ...]
    errors: tuple[ReadError, ...]
    watermark: Watermark  # what to store once this content is posted (posted_at and quiet_said set then)
    since: datetime | None  # when the previous digest was posted
    unchecked_studies: int = 0  # with "all": Studies beyond MAX_ALL_STUDIES, not checked this time
    unchecked_at_least: bool = False  # the Studies were read to the bound (1,000): ``unchecked_studies`` is a floor

    @property
    def quiet(self) -> bool:
        return not self.errors and not any(s.runs or s.more_runs for s in self.studies)
