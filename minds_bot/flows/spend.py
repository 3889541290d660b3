"""Spend with consent: a channel's policy decides, per action, whether what spends Minds allowance runs at once,
waits for an approver's click, or is refused — and every spend is recorded for ``/minds activity``.

Owns: ``set_policy`` (who may is the gate's to say: admins and the channel's approvers, in the channel),
``consent`` (every spending action passes it: it asks the gate — ``flows/access.py``: the person is in the
channel now, the channel's policy, their share of the Minds budget — then records the spend and lets it run,
holds it with an approval line in the channel, or refuses it privately), ``refused_early`` (the same answer asked
before an action prepares anything — downloads files, reads or imports them — so a refused action sends nothing
anywhere), ``their_work`` (a spend a button, dialog or event started runs as the person's work, like a command:
counted among their requests in flight, its Minds calls served round robin), ``record_research`` (an approved
plan's research run: its approval is its consent; ``count_research`` adds the responses Minds counted once it
ended), ``settle`` (what Minds answered, for the record),
``withdraw`` (nothing was sent after all), ``decide`` (an approver's Approve / Decline: exactly once, however often
Slack delivers the click or however many approvers click at once — a compare-and-set on the stored spend),
``spend_report`` and ``attach_csv`` (people named as Slack shows them, ``users.info`` asked once per person per
file; every cell neutralised). An approved action is run by the listener that owns it, as its requester, with
their words (``Spend.command``); ``consent`` lets it through once (approved → sent, again a compare-and-set). Must
not touch: Block Kit (``render/spend.py``), SQL, Minds wire shapes.
"""

from __future__ import annotations

import asyncio
import csv
import json
import logging
import tempfile
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from slack_sdk.errors import SlackApiError

from minds_bot.flows import access
from minds_bot.flows.csv_safety import NEUTRALISER, needs_neutralising
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.keys import derived_key
from minds_bot.flows.uploads import upload_file
from minds_bot.i18n import _, _n, in_channel
from minds_bot.render import mention
from minds_bot.render.errors import slack_error
from minds_bot.render.spend import (
    SpendReport,
    csv_header,
    render_held_note,
    render_hold,
    render_refused,
)
from minds_bot.services import Services
from minds_bot.store import Approval, ChannelPolicy, PlanPost, PolicyMode, Spend, SpendOutcome

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SpendRequest:
    """What an action would spend, said before it runs: ``command`` re-runs it as its requester once approved
    (a ``/minds`` command text, or the action's own saved arguments); ``responses`` None when not known."""

    action: str
    subject: str
    command: str
    responses: int | None = None
    cost: str | None = None


def again_command(key: str) -> str:
    """The held command of a "make another" button (a second Study copy, another Audience): its saved request."""
    return json.dumps({"again": key})


def again_key(command: str) -> str | None:
    """The saved request's key an ``again_command`` names; None for anything else."""
    try:
        key = json.loads(command).get("again")
    except (ValueError, AttributeError):
        return None
    return key if isinstance(key, str) else None


def spend_key(*, action: str, team_id: str, trigger_id: str | None) -> str:
    """The id ``consent`` records a request's spend under: the same request delivered twice is one spend."""
    return derived_key(purpose=f"spend:{action}", team_id=team_id, trigger_id=trigger_id)


async def may_manage_policy(services: Services, slack: Any, *, team_id: str, channel_id: str, user_id: str) -> bool:
    """Workspace admins and this channel's approvers, while in the channel (the gate)."""
    decision = await access.check(
        services, slack, team_id=team_id, user_id=user_id, act=access.Act.MANAGE_CHANNEL, channel_id=channel_id
    )
    return decision.allowed


async def set_policy(invocation: Invocation, *, action: str, mode: PolicyMode) -> bool:
    """Set one action's mode; False (nothing changes) when the person may not, or the action is unknown."""
    if action not in access.DEFAULT_POLICY:
        return False
    allowed = await may_manage_policy(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        channel_id=invocation.channel_id,
        user_id=invocation.user_id,
    )
    if not allowed:
        return False
    policy = ChannelPolicy(
        team_id=invocation.team_id,
        channel_id=invocation.channel_id,
        action=action,
        mode=mode,
        set_by=invocation.user_id,
    )
    await invocation.services.store.set_channel_policy(policy)
    return True


async def consent(invocation: Invocation, request: SpendRequest) -> Spend | None:
    """The recorded spend when the action may run now (call ``settle`` once Minds answered), or None after it was
    held (approval line posted, requester told) or refused (requester told why: the gate's words)."""
    decision = await access.check(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        act=access.Act(request.action),
        channel_id=invocation.channel_id,
        approved=invocation.approved_spend is not None,
    )
    if invocation.approved_spend is not None:
        if decision.refused:  # the requester left the channel meanwhile: nothing is sent for them there
            await invocation.say_mrkdwn(decision.reason)
            return None
        return await _approved(invocation, request)
    services = invocation.services
    spend_id = spend_key(action=request.action, team_id=invocation.team_id, trigger_id=invocation.trigger_id)
    again = await services.store.get_spend(team_id=invocation.team_id, spend_id=spend_id)
    if again is not None:  # Slack delivered the same request again: decided already, recorded once
        return again if again.outcome is SpendOutcome.SENT else None
    if decision.refused and decision.code != "policy":  # not the channel's decision: nothing to record
        await invocation.say_mrkdwn(decision.reason)
        return None
    outcome = SpendOutcome.REFUSED if decision.refused else SpendOutcome.HELD if decision.held else SpendOutcome.SENT
    spend = await services.store.add_spend(
        Spend(
            team_id=invocation.team_id,
            spend_id=spend_id,
            channel_id=invocation.channel_id,
            user_id=invocation.user_id,
            action=request.action,
            subject=request.subject,
            command=request.command,
            responses=request.responses,
            cost=request.cost,
            outcome=outcome,
        )
    )
    if outcome is SpendOutcome.SENT:
        return spend
    if outcome is SpendOutcome.REFUSED:
        await invocation.reply(render_refused(request.action))
        return None
    with in_channel():  # the approval line is read by the channel's approvers
        line = render_hold(spend)
    await invocation.client.chat_postMessage(channel=invocation.channel_id, **line.as_kwargs())
    await invocation.reply(render_held_note(spend))
    return None


async def refused_early(invocation: Invocation, request: SpendRequest) -> bool:
    """True after the person was told no (a refusal by the channel's policy recorded, as ``consent`` records it):
    asked before an action prepares anything for Minds (downloads or imports files, reads what it will spend on),
    so that a refused action sends nothing anywhere. False: go on, and pass ``consent`` when ready (it may still
    hold the action for an approver)."""
    if invocation.approved_spend is not None:
        return False  # approved already: ``consent`` lets it through once
    decision = await access.check(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        act=access.Act(request.action),
        channel_id=invocation.channel_id,
    )
    if decision.allowed:
        return False
    await consent(invocation, request)  # records the channel's refusal, and tells the person either way
    return True


@asynccontextmanager
async def their_work(services: Services, *, team_id: str, user_id: str) -> AsyncIterator[None]:
    """Run a spend a button, a dialog or an event started as the person's work, as the router runs a command:
    counted among their requests in flight (``services.fair``), its Minds calls made on their behalf so the key's
    limiter serves people round robin. Inside work already counted as theirs (a command) nothing changes."""
    fair = services.fair
    if fair.counts_current(team_id=team_id, user_id=user_id):
        yield
        return
    async with fair.running(team_id=team_id, user_id=user_id):
        yield


async def record_research(services: Services, *, post: PlanPost, approval: Approval) -> Spend:
    """An approved plan's research run, recorded as sent before Minds is asked (``settle`` says what Minds
    answered): the plan's requester's, decided by its approver, about its Study. One record per approval (its
    idempotency key), however often it is sent. How many Minds responses it counts is not known here: none is
    guessed."""
    spend_id = derived_key(purpose="spend:research", team_id=post.team_id, trigger_id=approval.idempotency_key)
    command = json.dumps({"draft_plan_id": approval.draft_plan_id, "revision": approval.revision})
    return await services.store.add_spend(
        Spend(
            team_id=post.team_id,
            spend_id=spend_id,
            channel_id=post.channel_id,
            user_id=post.requester_id,
            action=str(access.Act.RESEARCH),
            subject=post.study_name,
            command=command,
            outcome=SpendOutcome.SENT,
            decided_by=approval.approver_id,
        )
    )


async def count_research(services: Services, *, team_id: str, idempotency_key: str, responses: int | None) -> None:
    """A research run ended: its spend counts the responses Minds says it received (the sum of each question's
    ``responseCoverage.received``), so ``/minds activity`` totals include research runs. Minds saying nothing
    leaves the count not known, never guessed."""
    if responses is None:
        return
    spend_id = derived_key(purpose="spend:research", team_id=team_id, trigger_id=idempotency_key)
    await services.store.transition_spend(
        team_id=team_id,
        spend_id=spend_id,
        expected=(SpendOutcome.STARTED, SpendOutcome.SENT),
        new=SpendOutcome.STARTED,
        responses=responses,
    )


async def _approved(invocation: Invocation, request: SpendRequest) -> Spend | None:
    """An approved action comes back once: approved → sent. Anything else (already sent, another action, another
    person's spend) runs nothing."""
    store = invocation.services.store
    spend_id = invocation.approved_spend or ""
    held = await store.get_spend(team_id=invocation.team_id, spend_id=spend_id)
    if held is None or (held.action, held.user_id, held.channel_id) != (
        request.action,
        invocation.user_id,
        invocation.channel_id,
    ):
        return None
    return await store.transition_spend(
        team_id=invocation.team_id, spend_id=spend_id, expected=(SpendOutcome.APPROVED,), new=SpendOutcome.SENT
    )


async def settle(services: Services, spend: Spend, *, started: bool | None, detail: str | None = None) -> None:
    """Record what Minds answered a sent spend: ``started`` True (a run or job id came back), False (refused, or
    no answer), None (not known here: it stays "sent")."""
    if started is None:
        return
    await services.store.transition_spend(
        team_id=spend.team_id,
        spend_id=spend.spend_id,
        expected=(SpendOutcome.SENT,),
        new=SpendOutcome.STARTED if started else SpendOutcome.FAILED,
        detail=detail,
    )


async def withdraw(services: Services, spend: Spend, *, approved: bool = False) -> None:
    """The action stopped before anything was sent: it asked its requester first (a sent spend), or with
    ``approved`` an approved action ended without reaching ``consent`` (its Study gone, its requester busy)."""
    await services.store.transition_spend(
        team_id=spend.team_id,
        spend_id=spend.spend_id,
        expected=(SpendOutcome.APPROVED,) if approved else (SpendOutcome.SENT,),
        new=SpendOutcome.WITHDRAWN,
    )


@dataclass(frozen=True)
class Decision:
    """How a click on Approve / Decline ended: ``spend`` as stored now; ``won`` when this click decided it;
    ``allowed`` False when the clicker may not decide (nothing changed)."""

    spend: Spend | None
    won: bool = False
    allowed: bool = True


async def decide(
    services: Services, slack: Any, *, team_id: str, spend_id: str, user_id: str, approve: bool
) -> Decision:
    """An approver's click: only the channel's approvers and workspace admins (checked here, from the stored
    spend's channel); exactly one click decides."""
    store = services.store
    spend = await store.get_spend(team_id=team_id, spend_id=spend_id)
    if spend is None:
        return Decision(spend=None)
    if not await may_manage_policy(services, slack, team_id=team_id, channel_id=spend.channel_id, user_id=user_id):
        return Decision(spend=spend, allowed=False)
    decided = await store.transition_spend(
        team_id=team_id,
        spend_id=spend_id,
        expected=(SpendOutcome.HELD,),
        new=SpendOutcome.APPROVED if approve else SpendOutcome.DECLINED,
        decided_by=user_id,
    )
    if decided is None:
        return Decision(spend=await store.get_spend(team_id=team_id, spend_id=spend_id))
    return Decision(spend=decided, won=True)


async def spend_report(invocation: Invocation, *, days: int) -> SpendReport:
    now = invocation.services.clock()
    spends = await invocation.services.store.list_spends(
        team_id=invocation.team_id, channel_id=invocation.channel_id, since=now - timedelta(days=days)
    )
    return SpendReport(days=days, until=now, spends=spends)


def csv_rows(report: SpendReport, names: Mapping[str, str] | None = None) -> list[tuple[str, ...]]:
    """The report's spends as CSV rows (newest first), plain text, not escaped: the file is not mrkdwn. People are
    named by ``names`` (Slack id → name; an id not named stays the id), their ids kept in the last two columns."""
    known = names or {}
    rows: list[tuple[str, ...]] = []
    for spend in report.spends:
        when = spend.created_at.strftime("%Y-%m-%d %H:%M:%S") if spend.created_at else _("not known")
        count = str(spend.responses) if spend.responses is not None else spend.cost or _("not known")
        kind = spend.cost or ""
        decider = spend.decided_by or ""
        rows.append(
            (
                when,
                known.get(spend.user_id, spend.user_id),
                spend.action,
                spend.subject,
                count,
                kind,
                str(spend.outcome),
                known.get(decider, decider),
                spend.detail or "",
                spend.user_id,
                decider,
            )
        )
    return rows


async def person_names(slack: Any, user_ids: Iterable[str]) -> dict[str, str]:
    """Each person's name as Slack shows it (``users.info``: real name, else display name, else user name), asked
    once per person; someone Slack does not show (or a failed lookup) keeps their id."""
    names: dict[str, str] = {}
    for user_id in dict.fromkeys(u for u in user_ids if u):
        try:
            reply = await slack.users_info(user=user_id)
        except SlackApiError as exc:
            log.info("users.info failed for the activity CSV: %s", slack_error(exc))
            continue
        user = reply.get("user") or {}
        profile = user.get("profile") or {}
        for name in (profile.get("real_name"), user.get("real_name"), profile.get("display_name"), user.get("name")):
            if isinstance(name, str) and name.strip():
                names[user_id] = name.strip()
                break
    return names


def _safe(value: str) -> str:
    return NEUTRALISER + value if needs_neutralising(value) else value


def _write(path: Path, header: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([_safe(cell) for cell in header])
        writer.writerows([_safe(cell) for cell in row] for row in rows)


async def attach_csv(invocation: Invocation, *, days: int) -> None:
    """The period's spends as a CSV file in the channel (formula-like cells neutralised), with who asked for it."""
    report = await spend_report(invocation, days=days)
    with in_channel():  # the file and its comment are read by the channel
        header = csv_header()
        comment = _n(
            "{user} downloaded this channel's Minds spending of the last {count} day as CSV.",
            "{user} downloaded this channel's Minds spending of the last {count} days as CSV.",
            days,
            user=mention(invocation.user_id),
        )
        title = _("Minds spending")
    people = [s.user_id for s in report.spends] + [s.decided_by or "" for s in report.spends]
    rows = csv_rows(report, await person_names(invocation.client, people))
    directory = Path(await asyncio.to_thread(tempfile.mkdtemp, prefix="minds-activity-"))
    path = directory / "minds-activity.csv"
    try:
        await asyncio.to_thread(_write, path, header, rows)
        await upload_file(
            invocation.client,
            path=path,
            filename="minds-activity.csv",
            title=title,
            channel=invocation.channel_id,
            thread_ts=None,
            initial_comment=comment,
        )
    finally:
        await asyncio.to_thread(path.unlink, missing_ok=True)
        await asyncio.to_thread(directory.rmdir)
