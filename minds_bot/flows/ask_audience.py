"""Asking one Audience directly (``ask_audience``): a private one-Audience Study is created for the question,
then the question follows the ``/minds ask`` flow in a channel thread.

Owns: refusing text that is not one question before anything is created (a questionnaire is planned, never
asked piecewise), the channel's "ask" policy line for it (``ask_audience_with_consent``: ``/minds ask audience``,
the Audience card's Ask and an approver's click re-running a held one — refused, held for an approver or run,
recorded either way, counting the Audience's Minds as the responses asked for; ``ask_audience_by_id``: the card's
dialog, which asks the gate before it reads the Audience, so a refused or waiting person sends nothing to Minds),
creating the wrapper Study only once per Slack request (a redelivery finds the saved ask and reuses its Study —
``POST /studies`` has no idempotency key), telling the asker plainly that a private Study was created, and handing
over to ``flows/ask.py`` (same clientRequestId rules, same tracker).
Must not touch: Block Kit (``render/ask_audience.py``) or SQL.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from slack_sdk.web.async_client import AsyncWebClient

from minds_bot.flows import ask as ask_flow
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.keys import derived_key
from minds_bot.flows.questions import check_question
from minds_bot.flows.spend import SpendRequest, consent, refused_early, settle
from minds_bot.minds import Audience, AudienceDetail, MindsError, StudyDetail
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


@dataclass(frozen=True)
class HeldAudienceQuestion:
    audience_id: str
    question: str


def held_command(*, audience_id: str, question: str) -> str:
    """What an approver's click re-runs: the Audience and the question, as JSON."""
    return json.dumps({"audience_id": audience_id, "question": question})


def held_audience_question(command: str) -> HeldAudienceQuestion | None:
    """The Audience question a ``held_command`` saved; None for anything else (a Study's question, a command)."""
    try:
        saved = json.loads(command)
        return HeldAudienceQuestion(audience_id=str(saved["audience_id"]), question=str(saved["question"]))
    except (ValueError, KeyError, TypeError):
        return None


async def ask_audience_with_consent(
    invocation: Invocation,
    *,
    audience: Audience | AudienceDetail,
    question: str,
    notify: Callable[[Message], Awaitable[None]],
) -> ask_flow.AskOutcome:
    """One question to ``audience`` as a person asked it: through the channel's "ask" line first (refused: the
    policy's sentence; held: the approval line; either way recorded), counting the Audience's Minds as the
    responses it asks for; what Minds answered is recorded with the spend. More than one question is refused
    before anything is recorded or created."""
    services = invocation.services
    client_request_id = derived_key(purpose="ask", team_id=invocation.team_id, trigger_id=invocation.trigger_id)

    async def asking() -> ask_flow.AskOutcome:
        return await ask_audience(
            services,
            invocation.client,
            audience=audience,
            question=question,
            client_request_id=client_request_id,
            team_id=invocation.team_id,
            channel_id=invocation.channel_id,
            user_id=invocation.user_id,
            notify=notify,
        )

    if not check_question(question).single:  # said why; nothing is recorded, nothing created
        return await asking()
    request = SpendRequest(
        action="ask",
        subject=question,
        command=held_command(audience_id=audience.id, question=question),
        responses=audience.mind_count or None,
    )
    spend = await consent(invocation, request)
    if spend is None:
        return ask_flow.AskOutcome()
    try:
        outcome = await asking()
    except MindsError as exc:  # the private Study could not be made: the question was never asked
        await settle(services, spend, started=False, detail=type(exc).__name__)
        raise
    stored = await services.store.get_direct_ask(client_request_id)
    started = None if stored is None else (True if stored.run_id else (False if stored.settled else None))
    await settle(services, spend, started=started, detail=stored.run_id if stored else None)
    return outcome


def early_request(*, question: str, command: str) -> SpendRequest:
    """What asking an Audience would spend, said before the Audience is read (its Minds not known yet): for
    ``refused_early``, so a refused or waiting person sends nothing to Minds."""
    return SpendRequest(action="ask", subject=question, command=command)


async def ask_audience_by_id(invocation: Invocation, *, audience_id: str, question: str) -> ask_flow.AskOutcome | None:
    """The Audience card's Ask: the gate first (a refused or waiting person reads why, and nothing reaches
    Minds — not even a read of the Audience), then the Audience as Minds has it now, then
    ``ask_audience_with_consent``. None after a refusal."""
    command = held_command(audience_id=audience_id, question=question)
    if await refused_early(invocation, early_request(question=question, command=command)):
        return None
    minds = await invocation.minds()
    audience = await minds.get_audience(audience_id)
    return await ask_audience_with_consent(invocation, audience=audience, question=question, notify=invocation.reply)
