"""Planning research in a channel: draft a plan, revise it with answers or refinements, publish each revision
in place, discard it.

Owns: finding the Study a user named, the plan message's lifecycle in the store (``PlanPost``: preparing →
open → approved/discarded), refusing answers and revisions from people who may not approve the plan
(the gate: ``flows/access.py``), choosing and saving each preview's ``Idempotency-Key`` and exact body *before* the
first attempt (the tracker's ``PlanPreparation`` replays it and ``publish_plan`` shows each revision in place:
``flows/plan_preparation.py``, whose names are importable from here). Reading the open revision back from Minds
(``load_revision``) for decisions that must not trust a Slack payload: answering every confirmation question in
one dialog, and asking for a revision that uses a method's fallback (named by Minds' catalogue, reviewed before
any run — never substituted silently, CATALOGUE §2 E.43). Who answers each revision and what the post remembers
between revisions live in ``flows/plan_memory.py``.
Must not touch: Block Kit (``render/plan*.py``), SQL, approval (``flows/research.py``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from minds_bot.flows import access
from minds_bot.flows.methods import method_catalogue
from minds_bot.flows.plan_memory import with_answerer
from minds_bot.flows.plan_preparation import RELOAD_WAIT_SECONDS, PlanEnd, PlanPreparation, _track, publish_plan
from minds_bot.i18n import N_, _, in_channel, join_list
from minds_bot.minds import (
    MindsClient,
    MindsError,
    PlanPending,
    PlanPreviewRequest,
    ResearchPlan,
    Study,
    StudyDetail,
)
from minds_bot.render.access import plan_change_refused
from minds_bot.render.common import lookup_explanation
from minds_bot.render.plan import (
    discarded_note,
    freeze,
    render_preparing,
)
from minds_bot.store import (
    PlanPost,
    PlanState,
    PreviewReceipt,
)

if TYPE_CHECKING:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services

# Preparing and publishing moved to plan_preparation.py, still importable from here.
__all__ = ["RELOAD_WAIT_SECONDS", "PlanEnd", "PlanPreparation", "publish_plan"]


MAX_CANDIDATES_NAMED = 5
NOT_DISCARDABLE = {
    PlanState.PREPARING: N_("This plan is preparing; it cannot be discarded now."),
    PlanState.OPEN: N_("This plan is open; it cannot be discarded now."),
    PlanState.APPROVED: N_("This plan is approved; it cannot be discarded now."),
    PlanState.DISCARDED: N_("This plan is discarded; it cannot be discarded now."),
    PlanState.RUNNING: N_("This plan is running; it cannot be discarded now."),
}


class StudyNotFound(MindsError):
    """The Study a user named could not be told apart (not found, or several close matches)."""


@dataclass(frozen=True)
class Refused:
    """The action was not done; ``reason`` is what to tell the person who asked, as mrkdwn (input escaped)."""

    reason: str


# --- Studies and context -------------------------------------------------------------------------------------


async def resolve_study(minds: MindsClient, text: str) -> Study | StudyDetail:
    """An exact id, an exact or single fuzzy name among the newest 1,000; otherwise ``StudyNotFound``."""
    result = await minds.find_study(text)
    if result.match is not None:
        return result.match
    if result.kind == "ambiguous":
        names = join_list(_("“{name}”", name=c.item.name) for c in result.candidates[:MAX_CANDIDATES_NAMED])
        raise StudyNotFound(
            _("Several Studies match “{text}”: {names}. Use the exact name or the Study id.", text=text, names=names)
        )
    raise StudyNotFound(lookup_explanation(result) or _("No Study matches “{text}”.", text=text))


# --- starting and revising -----------------------------------------------------------------------------------


async def start_plan(
    services: Services,
    *,
    slack: AsyncWebClient,
    team_id: str,
    channel_id: str,
    user_id: str,
    study: Study | StudyDetail,
    request: str,
    language: str | None,
    preview_key: str | None = None,
    attachments: list[dict[str, str]] | None = None,
) -> PlanPost:
    """Post "Preparing the plan…", save the post with the preview key (``preview_key``, else a new one) and body,
    and hand it to the tracker. ``attachments``: the concept to test (``flows/stimulus.py``), sent with the
    request; Minds assigns it to the questions that show it."""
    with in_channel():  # the plan message is the channel's
        preparing = render_preparing(study.name)
    posted = await slack.chat_postMessage(channel=channel_id, **preparing.as_kwargs())
    body = PlanPreviewRequest(request=request, study_locale=language, attachments=attachments or None)
    post = PlanPost(
        team_id=team_id,
        channel_id=channel_id,
        message_ts=str(posted["ts"]),
        study_id=study.id,
        study_name=study.name,
        requester_id=user_id,
        state=PlanState.PREPARING,
        preview_idempotency_key=preview_key or str(uuid.uuid4()),
        pending_receipt=PreviewReceipt(body=body.to_body().decode()),
    )
    post = await services.store.save_plan_post(post)
    services.home_changed(post)
    await _track(services, post, progress_ts=post.message_ts)
    return post


async def revise_plan(
    services: Services,
    *,
    slack: AsyncWebClient,
    post: PlanPost | None,
    user_id: str,
    revision: int,
    answers: dict[str, str] | None = None,
    refinement: str | None = None,
) -> Refused | None:
    """Ask Minds for the next revision (answers or a refinement) of the revision the person saw; only people who
    may approve the plan may change it."""
    if post is None:
        return Refused(_("This plan is no longer tracked by the bot."))
    refused = await refusal_for_changes(services, slack, post=post, user_id=user_id)
    if refused is not None:
        return refused
    refused = _check_open(post, revision)
    if refused is not None:
        return refused
    moved = await services.store.transition_plan_post(
        team_id=post.team_id,
        channel_id=post.channel_id,
        message_ts=post.message_ts,
        expected={PlanState.OPEN},
        new=PlanState.PREPARING,
    )
    if moved is None:
        return Refused(_("Someone else changed this plan a moment ago; wait for the new revision to appear."))
    body = PlanPreviewRequest(
        draft_plan_id=post.draft_plan_id, revision=revision, answers=answers, refinement=refinement
    )
    saved = await services.store.save_plan_post(
        moved.model_copy(
            update={
                "preview_idempotency_key": str(uuid.uuid4()),
                "pending_receipt": PreviewReceipt(body=body.to_body().decode()),
                "memory": with_answerer(moved, answers, user_id),
            }
        )
    )
    services.home_changed(saved)
    await _track(services, saved, progress_ts=None)
    return None


async def refusal_for_changes(
    services: Services, slack: AsyncWebClient, *, post: PlanPost, user_id: str
) -> Refused | None:
    """None when the person may answer the plan's questions or revise it (the gate: its requester, the channel's
    approvers, an admin, while in its channel); otherwise what to tell them."""
    decision = await access.check(
        services, slack, team_id=post.team_id, user_id=user_id, act=access.Act.DECIDE, thing=access.plan_thing(post)
    )
    if decision.allowed:
        return None
    if decision.code == "not_allowed":
        return Refused(plan_change_refused(requester_id=post.requester_id))
    return Refused(decision.reason)


NOT_OPEN = {  # why a plan in this state takes no answers or revisions
    PlanState.PREPARING: N_("A new revision of this plan is being prepared; use the buttons once it appears."),
    PlanState.APPROVED: N_("This plan was already approved; it can no longer be changed."),
    PlanState.RUNNING: N_("This plan was already approved; it can no longer be changed."),
    PlanState.DISCARDED: N_("This plan was discarded."),
}


def _check_open(post: PlanPost, revision: int) -> Refused | None:
    if post.state in NOT_OPEN:
        return Refused(_(NOT_OPEN[post.state]))
    if post.revision != revision:
        return Refused(
            _(
                "That button belongs to revision {revision}, but the plan is now at revision {current}. "
                "Nothing was changed: review the latest revision in the channel and use its buttons.",
                revision=revision,
                current=post.revision,
            )
        )
    return None


# Sent to Minds as the refinement (Minds' planner reads it), never shown by the bot: not translated.
FALLBACK_REFINEMENT = 'Use the research method "{fallback}" instead of "{method}".'  # verbatim
LOAD_WAIT_SECONDS = 10.0


async def load_revision(services: Services, post: PlanPost) -> ResearchPlan | Refused:
    """The open revision as Minds returns it now (``loadLatest``); refused when Minds moved past it."""
    assert post.draft_plan_id is not None
    minds = await services.minds.client_for(post.team_id)
    request = PlanPreviewRequest(draft_plan_id=post.draft_plan_id, load_latest=True)
    latest = await minds.preview_plan(
        post.study_id, request, idempotency_key=str(uuid.uuid4()), wait_seconds=LOAD_WAIT_SECONDS
    )
    if isinstance(latest, PlanPending):
        return Refused(_("Minds is still preparing this plan; try again in a moment."))
    if latest.revision != post.revision:
        return Refused(
            _(
                "The plan changed in Minds (it is now at revision {revision}); nothing was done. "
                "Revise it here to show the latest revision.",
                revision=latest.revision,
            )
        )
    return latest


async def request_fallback(
    services: Services,
    *,
    slack: AsyncWebClient,
    post: PlanPost | None,
    user_id: str,
    revision: int,
    method_id: str,
) -> Refused | None:
    """Ask Minds for a revision that uses the catalogue's fallback for ``method_id``; it is reviewed like any
    other revision. The fallback comes from Minds' catalogue, never from the button; only people who may change
    the plan may ask."""
    if post is None:
        return Refused(_("This plan is no longer tracked by the bot."))
    refused = await refusal_for_changes(services, slack, post=post, user_id=user_id)
    if refused is not None:
        return refused
    facts = (await method_catalogue(services, post.team_id)).get(method_id)
    fallback_id = facts.fallback_method_id if facts is not None and not facts.executable else None
    if fallback_id is None:
        return Refused(_("Minds' method catalogue offers no fallback for that method; use Revise… instead."))
    refinement = FALLBACK_REFINEMENT.format(fallback=fallback_id, method=method_id)
    return await revise_plan(
        services, slack=slack, post=post, user_id=user_id, revision=revision, refinement=refinement
    )


async def plan_to_answer(
    services: Services, *, slack: AsyncWebClient, post: PlanPost | None, user_id: str, revision: int
) -> ResearchPlan | Refused:
    """The open revision's questions for the answer dialog, as Minds returns them now; refused to people who may
    not change the plan."""
    if post is None:
        return Refused(_("This plan is no longer tracked by the bot."))
    refused = await refusal_for_changes(services, slack, post=post, user_id=user_id)
    return refused or _check_open(post, revision) or await load_revision(services, post)


async def answer_all(
    services: Services,
    *,
    slack: AsyncWebClient,
    post: PlanPost | None,
    user_id: str,
    revision: int,
    picks: dict[int, str],
) -> Refused | None:
    """Answers from the one dialog with every confirmation question: ``picks`` maps a question's position to
    the chosen option's position (as text) or the typed answer, matched against the plan Minds returns now."""
    if post is None:
        return Refused(_("This plan is no longer tracked by the bot."))
    refused = await refusal_for_changes(services, slack, post=post, user_id=user_id) or _check_open(post, revision)
    if refused is not None:
        return refused
    plan = await load_revision(services, post)
    if isinstance(plan, Refused):
        return plan
    answers = _answers_from(plan, picks)
    if answers is None:
        return Refused(_("Some answers did not match Minds' questions; open the dialog again and answer every one."))
    return await revise_plan(services, slack=slack, post=post, user_id=user_id, revision=revision, answers=answers)


def _answers_from(plan: ResearchPlan, picks: dict[int, str]) -> dict[str, str] | None:
    answers: dict[str, str] = {}
    for index, question in enumerate(plan.confirmation_questions):
        pick = picks.get(index, "").strip()
        if question.options:
            position = int(pick) if pick.isdigit() else -1
            if not 0 <= position < len(question.options):
                return None
            pick = question.options[position]
        if not pick:
            return None
        answers[question.id] = pick
    return answers


async def discard_plan(
    services: Services, *, slack: AsyncWebClient, post: PlanPost, user_id: str, blocks: list[dict[str, Any]]
) -> Refused | None:
    """Close an open plan (it stays a draft in Minds); the message keeps the plan without buttons."""
    moved = await services.store.transition_plan_post(
        team_id=post.team_id,
        channel_id=post.channel_id,
        message_ts=post.message_ts,
        expected={PlanState.OPEN},
        new=PlanState.DISCARDED,
    )
    if moved is None:
        return Refused(_(NOT_DISCARDABLE[post.state]))
    services.home_changed(moved)
    with in_channel():  # the plan message is the channel's
        frozen = freeze(blocks, discarded_note(user_id=user_id, revision=post.revision))
    await slack.chat_update(channel=post.channel_id, ts=post.message_ts, **frozen.as_kwargs())
    return None
