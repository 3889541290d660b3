"""``/minds policy`` and ``/minds activity [days]``: spend with consent, and the approval line of a held action.

Owns: the two commands, the policy selects (who may change them is checked in ``flows/spend.py`` from stored
state when a choice arrives, never from the message), **Approve** / **Decline** on a held action (decided
exactly once by the flow; the winning Approve re-runs the action as its requester, with their words and as their
work, through the router — or, for what saved its arguments (a heatmap, a question about a message or to an
Audience, a chat turn, a build with files, a "make another"), through its flow), and the activity's pages and
**Download CSV**.
Must not touch: Minds wire shapes, SQL, Block Kit beyond rendered messages.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from minds_bot.flows import access
from minds_bot.flows import spend as spend_flow
from minds_bot.flows.ask import ask_with_consent, held_question
from minds_bot.flows.ask_audience import ask_audience_with_consent, held_audience_question
from minds_bot.flows.audiences import audience_button, build_from_command, start_audience
from minds_bot.flows.chat import ThreadReply, answer_reply, held_turn
from minds_bot.flows.duplicates import button_pressed
from minds_bot.flows.heatmaps import held_heatmap, start_heatmap
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.planning import Refused
from minds_bot.i18n import in_channel, speak
from minds_bot.render.common import decode_value, render_stale_button
from minds_bot.render.spend import (
    ACTIONS,
    ACTIVITY_CSV_ACTION,
    ACTIVITY_NEXT_ACTION,
    ACTIVITY_PREV_ACTION,
    HOLD_APPROVE_ACTION,
    HOLD_DECLINE_ACTION,
    POLICY_SET_ACTION,
    render_activity,
    render_already_decided,
    render_declined_note,
    render_hold_decided,
    render_not_approver,
    render_policy,
    render_policy_changed,
    render_policy_not_allowed,
)
from minds_bot.slack.grammar import ACTIVITY_DAYS, Activity, Policy
from minds_bot.slack.listeners import Click, pressed, pressed_with_click
from minds_bot.slack.reentry import ephemeral_to
from minds_bot.slack.resolve import show_progress
from minds_bot.store import PolicyMode, Spend, SpendOutcome

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.router import CommandRouter, Handler
    from minds_bot.slack.surface import Surface


async def handle_policy(command: Policy, invocation: Invocation) -> None:
    await invocation.reply(await _policy_message(invocation))


async def _policy_message(invocation: Invocation) -> Any:
    services, team, channel = invocation.services, invocation.team_id, invocation.channel_id
    policy = await access.channel_policy(services, team_id=team, channel_id=channel)
    modes = [policy[action] for action in ACTIONS]
    editable = await spend_flow.may_manage_policy(
        services, invocation.client, team_id=team, channel_id=channel, user_id=invocation.user_id
    )
    return render_policy(modes, editable=editable)


async def handle_activity(command: Activity, invocation: Invocation) -> None:
    report = await spend_flow.spend_report(invocation, days=command.days)
    await invocation.reply(render_activity(report))


COMMANDS: dict[type, Handler] = {Policy: handle_policy, Activity: handle_activity}


def _days(state: dict[str, Any]) -> int | None:
    days = state.get("d")
    low, high = ACTIVITY_DAYS
    return days if isinstance(days, int) and low <= days <= high else None


async def set_mode(invocation: Invocation, action: dict[str, Any]) -> None:
    name = str(action.get("action_id", "")).partition(":")[2]
    chosen = (action.get("selected_option") or {}).get("value")
    if chosen not in {m.value for m in PolicyMode}:
        await invocation.reply(render_stale_button())
        return
    mode = PolicyMode(chosen)
    if not await spend_flow.set_policy(invocation, action=name, mode=mode):
        await invocation.reply(render_policy_not_allowed())
        return
    await invocation.reply(await _policy_message(invocation), replace=True)
    with in_channel():  # everyone in the channel learns what now needs an approver
        line = render_policy_changed(action=name, mode=mode, user_id=invocation.user_id)
    await invocation.client.chat_postMessage(channel=invocation.channel_id, text=line)


async def _decided(clicker: Invocation, action: dict[str, Any], click: Click, *, approve: bool) -> None:
    services = clicker.services
    spend_id = decode_value(action.get("value")).get("i")
    if not isinstance(spend_id, str):
        await clicker.reply(render_stale_button())
        return
    decision = await spend_flow.decide(
        services, clicker.client, team_id=clicker.team_id, spend_id=spend_id, user_id=clicker.user_id, approve=approve
    )
    if decision.spend is None:
        await clicker.reply(render_stale_button())
    elif not decision.allowed:
        await clicker.reply(render_not_approver())
    elif not decision.won:
        await clicker.reply(render_already_decided(decision.spend))
    else:
        await _after_decision(click.router, services, clicker, decision.spend, body=click.body)


async def approve(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    await _decided(invocation, action, click, approve=True)


async def decline(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    await _decided(invocation, action, click, approve=False)


async def page(invocation: Invocation, action: dict[str, Any]) -> None:
    state = decode_value(action.get("value"))
    days, index = _days(state), state.get("p")
    if days is None or not isinstance(index, int):
        await invocation.reply(render_stale_button())
        return
    report = await spend_flow.spend_report(invocation, days=days)
    await invocation.reply(render_activity(report, page=index), replace=True)


async def download(invocation: Invocation, action: dict[str, Any]) -> None:
    days = _days(decode_value(action.get("value")))
    if days is None:
        await invocation.reply(render_stale_button())
        return
    await spend_flow.attach_csv(invocation, days=days)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(re.compile(rf"^{POLICY_SET_ACTION}:[a-z_]+$"))(pressed(set_mode))
    surface.action(HOLD_APPROVE_ACTION)(pressed_with_click(approve))
    surface.action(HOLD_DECLINE_ACTION)(pressed_with_click(decline))
    surface.action(re.compile(rf"^({ACTIVITY_PREV_ACTION}|{ACTIVITY_NEXT_ACTION})$"))(pressed(page))
    surface.action(ACTIVITY_CSV_ACTION)(pressed(download))


async def _after_decision(
    router: CommandRouter, services: Services, clicker: Invocation, spend: Spend, *, body: dict[str, Any]
) -> None:
    """The one winning click: the approval line says who decided; a decline is told to the requester privately;
    an approval runs the action as its requester."""
    client = clicker.client
    ts = (body.get("container") or {}).get("message_ts") or (body.get("message") or {}).get("ts")
    with in_channel():
        line = render_hold_decided(spend)
    if isinstance(ts, str):
        await client.chat_update(channel=spend.channel_id, ts=ts, **line.as_kwargs())
    # From here on the requester is spoken to (the decline, or the action run as them): in their language.
    languages = services.languages
    person = await languages.of_person(client, team_id=spend.team_id, user_id=spend.user_id)
    speak(person, channel=await languages.of_workspace(spend.team_id))
    if spend.outcome is SpendOutcome.DECLINED:
        await client.chat_postEphemeral(channel=spend.channel_id, user=spend.user_id, text=render_declined_note(spend))
        return
    try:
        await _run_as_requester(router, services, client, spend)
    finally:  # an approved action that never reached the policy's gate (its Study gone, …) sent nothing
        await spend_flow.withdraw(services, spend, approved=True)


async def _run_as_requester(router: CommandRouter, services: Services, client: Any, spend: Spend) -> None:
    """The approved action, run once as its requester (their share of the Minds budget, their words): a command
    through the router; a heatmap, a question about a message, an Audience question, a chat turn, a build with
    files or a "make another" from what the spend saved."""
    requester = Invocation(
        services=services,
        client=client,
        respond=ephemeral_to(client, channel_id=spend.channel_id, user_id=spend.user_id),
        team_id=spend.team_id,
        channel_id=spend.channel_id,
        user_id=spend.user_id,
        approved_spend=spend.spend_id,
    )
    async with spend_flow.their_work(services, team_id=spend.team_id, user_id=spend.user_id):
        ran = await _run_saved(requester, spend)
    if not ran:  # a command: the router runs it as the requester's work
        await router.dispatch(spend.command, requester)


async def _run_saved(requester: Invocation, spend: Spend) -> bool:
    """Run an action whose spend saved its arguments (not a command text); False when it saved a command."""
    if spend.action == "heatmap":
        held = held_heatmap(spend.command)
        if held is not None:
            await start_heatmap(requester, held[0], respondents=held[1])
        return True
    again = spend_flow.again_key(spend.command)
    if again is not None:  # "Make a second copy" / "Build another Audience": the saved request, a new key
        refused = await _again(requester, spend.action, again)
        if refused is not None:
            await requester.say_mrkdwn(refused.reason)
        return True
    if spend.action == "ask":
        return await _ask_again(requester, spend.command)
    turn = held_turn(spend.command) if spend.action == "chat" else None
    if turn is not None:  # a reply in a chat thread: sent to the Mind as its writer
        reply = ThreadReply(spend.team_id, spend.channel_id, thread_ts=turn[0], user_id=spend.user_id, text=turn[1])
        await answer_reply(requester.services, requester.client, reply, approved_spend=spend.spend_id)
        return True
    build = build_from_command(spend.command) if spend.action == "audience_build" else None
    if build is not None:  # a build with imported files: the brief and files as saved
        await start_audience(requester, brief=build[0], files=build[1], options=build[2])
        return True
    return False


async def _ask_again(requester: Invocation, command: str) -> bool:
    """A held question to an Audience, or about a message (answered in its thread) or with a stimulus."""
    to_audience = held_audience_question(command)
    if to_audience is not None:
        audience = await (await requester.minds()).get_audience(to_audience.audience_id)
        outcome = await ask_audience_with_consent(
            requester, audience=audience, question=to_audience.question, notify=requester.reply
        )
    else:
        about = held_question(command)
        if about is None:
            return False  # typed as `/minds ask <study> <question>`: the router runs it
        study = await (await requester.minds()).get_study(about.study_id)
        outcome = await ask_with_consent(  # its stimulus is downloaded now, once approved
            requester,
            study=study,
            question=about.question,
            thread_ts=about.thread_ts,
            attachments=about.attachments,
            stimulus=about.stimulus,
            audience_ids=about.audience_ids,
        )
    if outcome.message is not None:
        await requester.reply(outcome.message)
    return True


async def _again(requester: Invocation, action: str, key: str) -> Refused | None:
    if action == "duplicate":
        return await button_pressed(requester, key=key, again=True, show=lambda: show_progress(requester))
    return await audience_button(requester, key=key, again=True)
