"""Saving a plan as a Study template (``POST /study-templates``).

Owns: reading the plan's latest saved revision from Minds (the same replay the plan flow uses; nothing is
re-planned) and turning it into a template configuration with the goal the person chose — the questions and
their answer formats exactly as planned, the plan's language and its research method. Nothing is guessed: a
plan whose language is not one templates accept, or that names no method, is refused with that reason.
Must not touch: Block Kit (``render/templates.py``), SQL.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from minds_bot.i18n import _, join_list
from minds_bot.minds import PlanPreviewRequest, ResearchPlan
from minds_bot.render import Message
from minds_bot.render.templates import render_template_not_saved, render_template_saved
from minds_bot.store import PlanPost

if TYPE_CHECKING:
    from minds_bot.services import Services

TEMPLATE_LOCALES = frozenset({"ar", "de", "en", "es", "fr", "ja", "ko", "tr", "zh"})
READ_WAIT_SECONDS = 20.0


def template_configuration(plan: ResearchPlan, *, goal: str) -> dict[str, Any] | str:
    """The configuration, or why this plan cannot become a template."""
    if plan.study_locale not in TEMPLATE_LOCALES:
        return _(
            "templates take the languages {languages}; this plan has none of them.",
            languages=join_list(sorted(TEMPLATE_LOCALES)),
        )
    if not plan.methods:
        return _("Minds named no research method for this plan.")
    questions = []
    for question in plan.questions:
        response = question.response.model_dump(
            by_alias=True, exclude_none=True, include={"type", "categorical_options", "scale_range", "max_selections"}
        )
        questions.append({"text": question.text, "response": response})
    return {
        "version": 1,
        "goal": goal,
        "studyLocale": plan.study_locale,
        "methodId": plan.methods[0].id,
        "questions": questions,
    }


async def save_template(services: Services, *, post: PlanPost | None, name: str, goal: str, request_id: str) -> Message:
    if post is None or not post.draft_plan_id:
        return render_template_not_saved(_("this plan is no longer tracked by the bot."))
    minds = await services.minds.client_for(post.team_id)
    latest = PlanPreviewRequest(draft_plan_id=post.draft_plan_id, load_latest=True)
    plan = await minds.preview_plan(
        post.study_id, latest, idempotency_key=str(uuid.uuid4()), wait_seconds=READ_WAIT_SECONDS
    )
    if not isinstance(plan, ResearchPlan):
        return render_template_not_saved(_("Minds is still preparing the plan; try again in a moment."))
    configuration = template_configuration(plan, goal=goal)
    if isinstance(configuration, str):
        return render_template_not_saved(configuration)
    template = await minds.save_study_template(name=name, configuration=configuration, request_id=request_id)
    return render_template_saved(name=template.name, questions=len(template.configuration.questions))
