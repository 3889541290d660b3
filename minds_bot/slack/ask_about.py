"""The message shortcut "Ask Minds about this": a message's words as a question (or a plan request) to a Study.

Owns: the shortcut (its dialog holds the message's text, a Study to pick, and where the answer goes in its
metadata) and the dialog's submission: one question is asked with ``flows/ask.py`` in the message's thread (as
the person's work, like a command: ``flows/spend.their_work``); a
message holding several questions becomes ``/minds plan <study> <request>`` in that channel, as typed. A message
without text, a workspace without Minds, a question too long or no longer one question are said in the dialog or
privately; nothing is sent to Minds for them. A message's image or PDF is the question's stimulus
(``flows/stimulus.py``): the dialog names it (its metadata keeps the file's id and a shortened name); the
submission asks the gate through ``flows/ask.py`` (the person in the channel, its ask policy, their share of the
budget) and only a question that may go now downloads the file (by its id) and sends it with the question; a held
one downloads it when approved, a refused one never. A file that cannot go is said in the dialog (wrong type, too
large) or privately with the question's words (a failed download), and the question is then not sent.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from minds_bot.flows import ask as ask_flow
from minds_bot.flows.invocation import Invocation
from minds_bot.flows.keys import derived_key
from minds_bot.flows.questions import check_question
from minds_bot.flows.spend import their_work
from minds_bot.flows.stimulus import (
    MAX_STIMULUS_BYTES,
    Problem,
    SharedStimulus,
    StimulusRefused,
    stimulus_on,
)
from minds_bot.i18n import N_, _, sentences
from minds_bot.minds import MindsError
from minds_bot.render.common import decode_metadata
from minds_bot.render.errors import user_message
from minds_bot.render.modals import (
    ASK_ABOUT_VIEW,
    ERROR_OPTION_VALUE,
    MAX_PLAN_REQUEST,
    MAX_QUESTION,
    STUDY_BLOCK,
    STUDY_OPTIONS_ACTION,
    TEXT_ACTION,
    TEXT_BLOCK,
    render_ask_about,
)
from minds_bot.render.stimulus import refusal_text
from minds_bot.services import NotConnected
from minds_bot.slack.context import router_of, services_of
from minds_bot.slack.grammar import too_long
from minds_bot.slack.reentry import ephemeral_to
from minds_bot.slack.surface import Shortcut

if TYPE_CHECKING:
    from slack_bolt.context.ack.async_ack import AsyncAck
    from slack_bolt.context.async_context import AsyncBoltContext
    from slack_bolt.context.respond.async_respond import AsyncRespond
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.services import Services
    from minds_bot.services import StimulusShelf as Shelf
    from minds_bot.slack.surface import Surface

ASK_ABOUT_SHORTCUT = "minds_ask_about_message"
# The shortcut's name and description go into the app manifest, which Slack shows in one language to everyone.
ASK_ABOUT = Shortcut(
    callback_id=ASK_ABOUT_SHORTCUT,
    name="Ask Minds about this",  # verbatim
    description="Ask a Study's Minds this message's question (or draft a plan from its questions)",  # verbatim
    kind="message",
)
NO_TEXT = N_("That message has no text to ask about. Use the shortcut on a message that holds a question.")


def _metadata(*, channel_id: str, thread_ts: str, plan: bool, shared: SharedStimulus | None = None) -> str:
    """The dialog's ``private_metadata`` (at most 3,000 characters): where the answer goes and the file by its id,
    with a shortened name (a long file name or download address never travels in it)."""
    meta: dict[str, Any] = {"c": channel_id, "t": thread_ts, "p": plan}
    if shared is not None:
        meta["s"] = shared.ref()
    return json.dumps(meta, separators=(",", ":"))


def _file_of(message: dict[str, Any], shelf: Shelf) -> tuple[SharedStimulus | None, StimulusRefused | None]:
    """The message's file that goes with the question, or why it does not (None, None: no file)."""
    found = stimulus_on(message)
    if isinstance(found, StimulusRefused):
        return None, found
    if found is not None and shelf.base_url is None:
        return None, StimulusRefused(Problem.NO_PUBLIC_URL, name=found.name)
    return found, None


def _read(view: dict[str, Any]) -> tuple[str | None, str]:
    values = (view.get("state") or {}).get("values") or {}
    picked = ((values.get(STUDY_BLOCK) or {}).get(STUDY_OPTIONS_ACTION) or {}).get("selected_option") or {}
    text = ((values.get(TEXT_BLOCK) or {}).get(TEXT_ACTION) or {}).get("value") or ""
    return picked.get("value"), text.strip() if isinstance(text, str) else ""


def _refusal(text: str, *, plan: bool) -> str | None:
    """Why the dialog cannot be sent as it stands, said beside the text; None when it can."""
    if not text:
        return _("Write what to ask.") if not plan else _("Write what to plan.")
    limit = MAX_PLAN_REQUEST if plan else MAX_QUESTION
    if len(text) > limit:
        return too_long(_("A plan request") if plan else _("A question"), limit=limit, length=len(text))
    if not plan and not (check := check_question(text)).single:
        return _("{reason} Ask exactly one question here, or plan several with /minds plan.", reason=check.reason)
    return None


async def about(
    ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient, respond: AsyncRespond, context: AsyncBoltContext
) -> None:
    await ack()
    services = services_of(context)
    message = body.get("message") or {}
    text = message["text"] if isinstance(message.get("text"), str) else ""
    channel_id = (body.get("channel") or {}).get("id", "")
    ts = message.get("thread_ts") or message.get("ts") or ""
    shared, problem = _file_of(message, services.stimuli)
    if not text.strip() and shared is None:
        note = refusal_text(problem.problem.value, name=problem.name, limit=MAX_STIMULUS_BYTES) if problem else None
        await respond(response_type="ephemeral", text=sentences(note, _(NO_TEXT)))
        return
    team = (body.get("team") or {}).get("id") or (body.get("user") or {}).get("team_id") or ""
    if not await services.minds.is_connected(team):
        await respond(response_type="ephemeral", text=user_message(NotConnected()))
        return
    plan = bool(text.strip()) and not check_question(text).single
    if plan and shared is not None:
        problem, shared = StimulusRefused(Problem.PLAN_ONLY, name=shared.name), None
    file = (shared.name, shared.kind, shared.size) if shared else (problem.name, "", None) if problem else None
    view = render_ask_about(
        metadata=_metadata(channel_id=channel_id, thread_ts=ts, plan=plan, shared=shared),
        text=text.strip(),
        plan=plan,
        author=message.get("user") if isinstance(message.get("user"), str) else None,
        channel_id=channel_id,
        file=file,
        file_problem=problem.problem.value if problem else None,
        file_limit=MAX_STIMULUS_BYTES,
    )
    await client.views_open(trigger_id=body.get("trigger_id"), view=view.to_dict())


async def submitted(
    ack: AsyncAck, body: dict[str, Any], view: dict[str, Any], client: AsyncWebClient, context: AsyncBoltContext
) -> None:
    services = services_of(context)
    meta = decode_metadata(view.get("private_metadata"))
    plan = meta.get("p") is True
    study_id, text = _read(view)
    if not study_id or study_id == ERROR_OPTION_VALUE:
        await ack(response_action="errors", errors={STUDY_BLOCK: _("Pick a Study from the list.")})
        return
    if (refusal := _refusal(text, plan=plan)) is not None:
        await ack(response_action="errors", errors={TEXT_BLOCK: refusal})
        return
    await ack()
    channel_id, thread_ts = str(meta.get("c") or ""), str(meta.get("t") or "")
    user = body.get("user") or {}
    invocation = Invocation(
        services=services,
        client=client,
        respond=ephemeral_to(client, channel_id=channel_id, user_id=user.get("id", "")),
        team_id=(body.get("team") or {}).get("id") or user.get("team_id") or "",
        channel_id=channel_id,
        user_id=user.get("id", ""),
        trigger_id=body.get("trigger_id"),
    )
    if plan:
        await router_of(context).dispatch(f"plan {study_id} {text}", invocation)
        return
    try:
        minds = await invocation.minds()
        study = await minds.get_study(study_id)
        async with their_work(services, team_id=invocation.team_id, user_id=invocation.user_id):  # like a command
            outcome = await ask_flow.ask_with_consent(  # the gate first; the file is downloaded only if it may go
                invocation,
                study=study,
                question=text,
                thread_ts=thread_ts or None,
                stimulus=SharedStimulus.from_ref(meta.get("s")),
                client_request_id=derived_key(purpose="ask-about", team_id=invocation.team_id, trigger_id=view["id"]),
            )
    except MindsError as exc:
        await invocation.say_text(user_message(exc))
        return
    if outcome.message is not None:
        await invocation.reply(outcome.message)


def register(surface: Surface, services: Services) -> None:
    surface.shortcut(ASK_ABOUT)(about)
    surface.view(ASK_ABOUT_VIEW)(submitted)
