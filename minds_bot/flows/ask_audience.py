"""Asking one Audience directly (``ask_audience``): a private one-Audience Study is created for the question,
then the question follows the ``/minds ask`` flow in a channel thread.

Owns: refusing text that is not one question before anything is created (a questionnaire is planned, never
asked piecewise), creating the wrapper Study only once per Slack request (a redelivery finds the saved ask
and reuses its Study — ``POST /studies`` has no idempotency key), telling the asker plainly that a private
Study was created, and handing over to ``flows/ask.py`` (same clientRequestId rules, same tracker).
Must not touch: Block Kit (``render/ask_audience.py``) or SQL.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.flows import ask as ask_flow
from minds_bot.flows.questions import check_question
from minds_bot.minds import Audience, AudienceDetail, StudyDetail
from minds_bot.render import Message
from minds_bot.render.ask_audience import render_not_one_question, render_wrapper_created, wrapper_study_name
from minds_bot.services import Services


async def ask_audience(
    services: Services,
    slack: AsyncWebClient,
    *,
    audience: Audience | AudienceDetail,
    question: str,
    client_request_id: str,
    team_id: str,
    channel_id: str,
    user_id: str,
    notify: Callable[[Message], Awaitable[None]],
) -> ask_flow.AskOutcome:
    """Create (or, for a redelivered request, reuse) the private Study, tell the asker so through ``notify``
    (before anything is posted in the channel), and ask ``question`` there."""
    check = check_question(question)
    if not check.single:
        return ask_flow.AskOutcome(render_not_one_question(reason=check.reason, audience_name=audience.name))
    study = await _wrapper_study(
        services, audience=audience, question=question, team_id=team_id, client_request_id=client_request_id
    )
    await notify(render_wrapper_created(study_name=study.name, audience_name=audience.name))
    return await ask_flow.ask(
        services,
        slack,
        study=study,
        question=question,
        client_request_id=client_request_id,
        team_id=team_id,
        channel_id=channel_id,
        user_id=user_id,
    )


async def _wrapper_study(
    services: Services,
    *,
    audience: Audience | AudienceDetail,
    question: str,
    team_id: str,
    client_request_id: str,
) -> StudyDetail:
    minds = await services.minds.client_for(team_id)
    saved = await services.store.get_direct_ask(client_request_id)
    if saved is not None and saved.team_id == team_id:
        return await minds.get_study(saved.study_id)
    created = await minds.create_study(
        name=wrapper_study_name(audience_name=audience.name, question=question), audience_ids=[audience.id]
    )
    return await minds.get_study(created.id)
