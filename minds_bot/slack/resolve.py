"""Turning the Study or Audience a user named into one item, or a helpful private reply when that is not possible.

Owns: exact match → the item; several matches → candidate buttons that re-run the command with the exact id; nothing
→ Minds' "only the newest 1,000 were searched" explanation. For commands that spend or expose something (ask, share,
duplicate, invite, recalibrate) a loose (fuzzy) match is offered as a button instead of being used silently. Where
more words follow an unquoted name (``ask``, ``ask audience``, ``export``: ``exact_unquoted``), only an exact match
is used: otherwise nothing is sent and the reply says to quote the name, with the closest names as text and no
button — a did-you-mean never changes the question text or drops a word someone typed.
Must not touch: SQL or Block Kit (``render/common.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

from minds_bot.flows.invocation import Invocation, with_progress
from minds_bot.i18n import N_, _
from minds_bot.minds import Audience, AudienceDetail, LookupResult, MindSummary, Study, StudyDetail
from minds_bot.minds.lookup import FUZZY_THRESHOLD
from minds_bot.render.common import render_candidates, render_not_exact, render_not_found
from minds_bot.slack.grammar import StudyRef

LOOKING_UP = N_("Looking that up in Minds…")


async def show_progress(invocation: Invocation) -> None:
    await invocation.say_text(_(LOOKING_UP))


async def resolve_study(
    invocation: Invocation,
    ref: StudyRef,
    *,
    rerun: Callable[[str], str],
    confirm_fuzzy: bool = False,
    exact_unquoted: str | None = None,
) -> Study | StudyDetail | None:
    """The Study ``ref`` names, or None after telling the user why not. ``exact_unquoted``: the command's usage;
    an unquoted ``ref`` is then used only when it matches exactly (several Studies of exactly that name still get
    their buttons)."""
    minds = await invocation.minds()
    if exact_unquoted is None or ref.quoted:
        return await _resolve(invocation, "Study", minds.find_study(ref.text), rerun=rerun, confirm_fuzzy=confirm_fuzzy)
    return await _exact(invocation, "Study", minds.find_study(ref.text), rerun=rerun, usage=exact_unquoted)


async def _exact(
    invocation: Invocation,
    what: Literal["Study", "Audience"],
    lookup: Awaitable[LookupResult[Any]],
    *,
    rerun: Callable[[str], str],
    usage: str,
) -> Any:
    """An unquoted name followed by more words: only an exact match is used; a loose one is said, with no button."""
    result = await with_progress(lookup, show=lambda: show_progress(invocation))
    loose = result.kind == "fuzzy" or (result.kind == "ambiguous" and any(c.score < 1.0 for c in result.candidates))
    if not loose:
        return await _resolve(invocation, what, _done(result), rerun=rerun, confirm_fuzzy=True)
    close = [c for c in result.candidates if c.score >= FUZZY_THRESHOLD]
    await invocation.reply(render_not_exact(what=what, query=result.query, candidates=close, usage=usage))
    return None


async def _done(result: LookupResult[Any]) -> LookupResult[Any]:
    return result


async def _resolve(
    invocation: Invocation,
    what: str,
    lookup: Awaitable[LookupResult[Any]],
    *,
    rerun: Callable[[str], str],
    confirm_fuzzy: bool,
) -> Any:
    result = await with_progress(lookup, show=lambda: show_progress(invocation))
    if result.kind == "exact" or (result.kind == "fuzzy" and not confirm_fuzzy):
        return result.match
    if result.kind in ("ambiguous", "fuzzy"):
        candidates: list[Any] = result.candidates
        await invocation.reply(
            render_candidates(
                what=what, query=result.query, candidates=candidates, rerun=rerun, fuzzy=result.kind == "fuzzy"
            )
        )
        return None
    await invocation.reply(render_not_found(what=what, result=result))
    return None


async def resolve_mind(invocation: Invocation, text: str, *, rerun: Callable[[str], str]) -> MindSummary | None:
    """The Mind ``text`` names among the newest 1,000 (a loose match is offered as a button, never used), or None
    after saying why not."""
    minds = await invocation.minds()
    found: MindSummary | None = await _resolve(
        invocation, "Mind", minds.find_mind(text), rerun=rerun, confirm_fuzzy=True
    )
    return found


async def study_detail(invocation: Invocation, study: Study | StudyDetail) -> StudyDetail:
    """The full Study (messages, sharing flags) — fetched only when the lookup gave the list shape."""
    if isinstance(study, StudyDetail):
        return study
    minds = await invocation.minds()
    return await minds.get_study(study.id)


async def resolve_audience(
    invocation: Invocation,
    text: str,
    *,
    rerun: Callable[[str], str],
    confirm_fuzzy: bool = False,
    exact_unquoted: str | None = None,
) -> Audience | AudienceDetail | None:
    """The Audience ``text`` names (exact id, or a name among the newest 1,000), or None after saying why not.
    ``exact_unquoted`` (the command's usage, for an unquoted name followed by a question): only an exact match."""
    minds = await invocation.minds()
    if exact_unquoted is not None:
        return await _exact(invocation, "Audience", minds.find_audience(text), rerun=rerun, usage=exact_unquoted)
    return await _resolve(invocation, "Audience", minds.find_audience(text), rerun=rerun, confirm_fuzzy=confirm_fuzzy)
