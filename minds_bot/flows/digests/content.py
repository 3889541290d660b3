"""What a digest says: the research news since the last digest, read from Minds, and the watermark.

Owns: the watermark (which runs of which Study the last posted digest saw, and in which state — Minds' run
lists carry no timestamps, so "since" means "not seen in that state before"; it keeps the newest
``RUNS_KEPT`` runs and every unfinished one, so it stays small however long the history), the pure diff of a run
list against it (a run older than the newest run the watermark knows is not new: it was there before), and
``gather``, which reads Minds (GETs only) into ``DigestContent``. A Study's runs are read to the end (catalogue
rule 16; at most the newest 1,000, said as "at least" beyond), so "…and N more runs" and "its latest 5 of 17
runs" are exact counts. A Study that cannot be read
becomes an error entry ("Could not read …"), never an empty Study; its watermark entry is kept so its news
comes in the next digest.
The records it fills (``DigestContent``, ``Watermark`` …) live in ``minds_bot.render.digest_news`` so the
renderer can take them without importing this flow.
Must not touch: Slack, the store, Block Kit (``minds_bot.render.digest`` renders ``DigestContent``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from minds_bot.flows.digests.shared import DigestReads
from minds_bot.i18n import _
from minds_bot.minds import AgentRun, MindsError, NotFound, ResearchRun
from minds_bot.render.digest_news import (
    TERMINAL,
    DigestContent,
    ReadError,
    RunNews,
    StudyNews,
    Watermark,
)
from minds_bot.render.errors import user_message
from minds_bot.render.summary import latest_run_ended
from minds_bot.store import Digest

RUNS_KEPT = 20  # the newest runs of a Study the watermark keeps (with every unfinished one)
FIRST_DIGEST_RUNS = 5  # a Study seen for the first time shows only its latest runs, not its whole history
MAX_RUN_DETAILS = 8  # run details read per Study; the rest are counted ("and N more")
MAX_ALL_STUDIES = 15  # Studies checked when a digest follows every Study
STUDY_SCAN = 1000  # Studies listed (to the end, at most the newest 1,000) to pick the most recently updated ones
MAX_QUESTION_TITLES = 3
EXCERPT_CHARS = 280


# --- pure diff ---------------------------------------------------------------------------------------------


def news_runs(runs: Sequence[AgentRun], seen: Mapping[str, str] | None) -> list[AgentRun]:
    """The runs to tell about, newest first: new ones, and ones that reached a new state that is terminal.

    ``seen`` None means the Study was never in a digest: its latest runs (at most FIRST_DIGEST_RUNS).
    """
    if seen is None:
        return list(runs[:FIRST_DIGEST_RUNS])
    known = _newest_known(runs, seen)
    return [
        r
        for i, r in enumerate(runs)
        if (r.run_id not in seen and i < known)
        or (r.run_id in seen and seen[r.run_id] != r.status and r.status in TERMINAL)
    ]


def _newest_known(runs: Sequence[AgentRun], seen: Mapping[str, str]) -> int:
    """The position of the newest run the watermark knows (``len(runs)`` when it knows none): runs older than it
    were there at the last digest (the list is newest first), so they are not new."""
    return next((i for i, r in enumerate(runs) if r.run_id in seen), len(runs))


def snapshot(runs: Sequence[AgentRun]) -> dict[str, str]:
    """What the watermark keeps of a run list: the newest ``RUNS_KEPT`` runs and every unfinished one (its end is
    news later)."""
    return {r.run_id: r.status for i, r in enumerate(runs) if i < RUNS_KEPT or r.status not in TERMINAL}


def research_news(run: AgentRun, detail: ResearchRun, *, new: bool) -> RunNews:
    """The honest reading of a research run: its own status, coverage gap, completed count and flags."""
    received = expected = None
    covered = [a.response_coverage for a in detail.artifacts if a.response_coverage is not None]
    if covered:
        received = sum(c.received for c in covered)
        expected = sum(c.expected for c in covered)
    titles = tuple(
        str(a.output_data["title"])
        for a in detail.artifacts
        if a.kind == "response" and a.output_data and a.output_data.get("title")
    )
    consistency = detail.answer_consistency
    return RunNews(
        run_id=run.run_id,
        status=detail.status,
        new=new,
        kind="research",
        questions_total=detail.progress.total if detail.progress else None,
        questions_completed=detail.questions_completed,
        partial_questions=detail.progress.partial if detail.progress else None,
        coverage_received=received,
        coverage_expected=expected,
        question_titles=titles[:MAX_QUESTION_TITLES],
        flag_count=consistency.flag_count if consistency else None,
        flagged_minds=consistency.flagged_minds if consistency else None,
        consistency=consistency.status if consistency else None,
    )


def excerpt(markdown: str, *, limit: int = EXCERPT_CHARS) -> tuple[str, bool]:
    """The summary's opening as Markdown, its lines kept (never flattened: headings and lists stay headings and
    lists), cut at a line or word boundary; True when there is more to read."""
    lines = [line.rstrip() for line in markdown.strip().splitlines()]
    text = "\n".join(line for i, line in enumerate(lines) if line or (i and lines[i - 1]))
    if len(text) <= limit:
        return text, False
    cut = text[:limit]
    cut = cut.rsplit("\n", 1)[0] if "\n" in cut[limit // 2 :] else cut.rsplit(" ", 1)[0]
    return cut.rstrip() + " …", True


def unreadable(previous: Watermark, error: ReadError) -> DigestContent:
    """Nothing could be read at all (e.g. no Minds key): the digest says so and the watermark stays."""
    return DigestContent(studies=(), errors=(error,), watermark=previous, since=previous.posted_at)


# --- reading Minds -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scope:
    studies: list[tuple[str, str]]  # (id, name)
    errors: list[ReadError]
    unchecked: int = 0
    unchecked_at_least: bool = False  # the list was read to its bound: Minds may have more Studies
    listed: frozenset[str] | None = None  # with "all": every Study id seen; others leave the watermark


async def gather(client: DigestReads, digest: Digest, previous: Watermark) -> DigestContent:
    """Read what changed in the digest's Studies since ``previous``. Never raises ``MindsError``."""
    scope = await _scope(client, digest)
    runs: dict[str, dict[str, str]] = {s: dict(v) for s, v in previous.runs.items()}
    followed = frozenset(digest.study_ids) if digest.study_ids else scope.listed
    if followed is not None:  # Studies no longer followed (or gone) drop out of the watermark
        runs = {s: v for s, v in runs.items() if s in followed}
    studies, errors = [], list(scope.errors)
    for study_id, name in scope.studies:
        try:
            news, current = await _study_news(client, study_id, name, previous.runs.get(study_id))
        except MindsError as exc:
            errors.append(ReadError(what=name, message=_say(exc)))
            continue
        runs[study_id] = current
        studies.append(news)
    return DigestContent(
        studies=tuple(studies),
        errors=tuple(errors),
        watermark=Watermark(runs=runs),
        since=previous.posted_at,
        unchecked_studies=scope.unchecked,
        unchecked_at_least=scope.unchecked_at_least,
    )


async def _scope(client: DigestReads, digest: Digest) -> _Scope:
    if digest.study_ids:
        return await _named_studies(client, digest.study_ids)
    try:
        listed = [s async for s in client.iter_studies(max_items=STUDY_SCAN)]
    except MindsError as exc:
        return _Scope(studies=[], errors=[ReadError(what=_("your Studies"), message=_say(exc))])
    listed.sort(key=lambda s: s.updated_at, reverse=True)
    chosen = [(s.id, s.name) for s in listed[:MAX_ALL_STUDIES]]
    unchecked = max(0, len(listed) - MAX_ALL_STUDIES)
    return _Scope(
        studies=chosen,
        errors=[],
        unchecked=unchecked,
        unchecked_at_least=len(listed) >= STUDY_SCAN,
        listed=frozenset(s.id for s in listed),
    )


async def _named_studies(client: DigestReads, study_ids: Sequence[str]) -> _Scope:
    studies, errors = [], []
    for study_id in study_ids:
        try:
            detail = await client.get_study(study_id)
        except MindsError as exc:
            errors.append(ReadError(what=_("Study {study_id}", study_id=study_id), message=_say(exc)))
            continue
        studies.append((detail.id, detail.name))
    return _Scope(studies=studies, errors=errors)


async def _study_news(
    client: DigestReads, study_id: str, name: str, seen: Mapping[str, str] | None
) -> tuple[StudyNews, dict[str, str]]:
    history = await client.all_study_runs(study_id)
    listed = history.items
    chosen = news_runs(listed, seen)
    shown = [
        await _run_news(client, study_id, run, new=seen is None or run.run_id not in seen)
        for run in chosen[:MAX_RUN_DETAILS]
    ]
    summary: dict[str, Any] = {}
    if any(r.status in TERMINAL for r in shown):
        summary = await _summary(client, study_id)
        summary["latest_run_ended"] = latest_run_ended(listed)
    news = StudyNews(
        study_id=study_id,
        name=name,
        runs=tuple(shown),
        more_runs=max(0, len(chosen) - MAX_RUN_DETAILS),
        first=seen is None,
        runs_total=len(listed),
        runs_complete=history.complete,
        # Beyond the newest 1,000 nothing was read: news that could reach there is counted "at least".
        more_at_least=not history.complete and seen is not None and _newest_known(listed, seen) == len(listed),
        **summary,
    )
    return news, snapshot(listed)


async def _run_news(client: DigestReads, study_id: str, run: AgentRun, *, new: bool) -> RunNews:
    try:
        detail = await client.get_research_run(study_id, run.run_id)
    except NotFound:
        titles = (run.question,) if run.question else ()  # a standalone question: Minds lists it with the run
        return RunNews(run_id=run.run_id, status=run.status, new=new, kind="question", question_titles=titles)
    except MindsError as exc:
        return RunNews(run_id=run.run_id, status=run.status, new=new, kind="unknown", detail_error=_say(exc))
    return research_news(run, detail, new=new)


async def _summary(client: DigestReads, study_id: str) -> dict[str, Any]:
    try:
        summary = await client.get_summary(study_id)
    except MindsError as exc:
        return {"summary_note": _("The summary could not be read: {reason}", reason=_say(exc))}
    note = _("Minds is regenerating the summary.") if summary.is_generating else None
    if not summary.summary:
        return {"summary_note": note}
    text, more = excerpt(summary.summary)
    return {
        "summary_excerpt": text,
        "summary_more": more,
        "summary_note": note,
        "summary_generated_at": summary.generated_at,
    }


def _say(exc: MindsError) -> str:
    return user_message(exc)  # the one place errors become words
