"""Recalibrating an Audience: the instruction modal, the confirmation that says which members may change, and
the thread messages (the request, "Calibrating…", retraining progress, the result or Minds' reason).

Owns: those views and messages and their callback ids. What may change follows Minds' rules: composition or
evidence edits touch only members whose allocation changes; trait changes evolve members in place; a new
population rebuilds every member in place; "add N …" adds members within the plan's limits; no Mind is
deleted. Every Minds and person text is escaped. Must not touch: I/O.
"""

from __future__ import annotations

import json

from slack_sdk.models.blocks import InputBlock, PlainTextInputElement
from slack_sdk.models.views import View

from minds_bot.minds import Recalibration
from minds_bot.render import MAX_NAME_SHOWN, MAX_REASON_SHOWN, Message, escape, mention
from minds_bot.render.browse import minds_label
from minds_bot.render.common import context, section, sections, shorten

RECALIBRATE_VIEW = "audience_recalibrate_modal"
RECALIBRATE_CONFIRM_VIEW = "audience_recalibrate_confirm"
INSTRUCTION_BLOCK = "instruction"
INSTRUCTION_ACTION = "value"
# Minds takes 4,000 characters; the instruction travels to the confirmation in private_metadata (3,000 at most).
MAX_INSTRUCTION = 2000
NAME_IN_METADATA = 75


def recalibrate_modal(*, audience_id: str, audience_name: str, members: int, channel_id: str) -> View:
    metadata = json.dumps(
        {"a": audience_id, "n": shorten(audience_name, NAME_IN_METADATA), "m": members, "c": channel_id}
    )
    return View(
        type="modal",
        callback_id=RECALIBRATE_VIEW,
        title="Recalibrate Audience",
        submit="Review",
        close="Cancel",
        private_metadata=metadata,
        blocks=[
            section(f"Audience: *{escape(audience_name, limit=MAX_NAME_SHOWN)}* ({minds_label(members)})"),
            InputBlock(
                block_id=INSTRUCTION_BLOCK,
                label=f"What should change? (at most {MAX_INSTRUCTION:,} characters)",
                optional=True,
                element=PlainTextInputElement(
                    action_id=INSTRUCTION_ACTION,
                    multiline=True,
                    max_length=MAX_INSTRUCTION,
                    placeholder="e.g. make women 60% · skew younger · and now add 10 students",
                ),
            ),
            context(
                "Minds refreshes the Audience's grounding from web research on top of its original brief, then "
                "re-allocates the members. Leave it empty to refresh the research only."
            ),
        ],
    )


def members_that_may_change(*, members: int, instruction: str | None) -> str:
    """What the confirmation says may happen to the members (mrkdwn, the instruction in full: split it with
    ``sections``)."""
    everyone = minds_label(members)
    lines = [
        f"• A composition or evidence change (“make women 60%”) touches only the members whose allocation "
        f"changes — at most all {everyone}.",
        "• A trait change (“now they are all vegan”) evolves members in place: same Mind, name and portrait, "
        "new role and description, knowledge retrained.",
        f"• A new population (“now consumers in Kenya”) rebuilds all {everyone} in place: new persona and "
        "portrait, knowledge wiped and retrained.",
        "• “and now add 10 …” keeps every member and adds new ones within your plan's limits.",
        "No Mind is deleted: Studies, shares and chat history keep working. Minds decides which case applies.",
    ]
    lead = f"Instruction: “{escape(instruction)}”" if instruction else "No instruction: the research is refreshed."
    return lead + "\n" + "\n".join(lines)


def recalibrate_confirm_view(*, metadata: str, audience_name: str, members: int, instruction: str | None) -> View:
    """The second step: shown by updating the instruction modal; its submission starts the recalibration."""
    return View(
        type="modal",
        callback_id=RECALIBRATE_CONFIRM_VIEW,
        title="Confirm recalibration",
        submit="Recalibrate",
        close="Cancel",
        private_metadata=metadata,
        blocks=[
            section(f"Recalibrate *{escape(audience_name, limit=MAX_NAME_SHOWN)}*? Which members may change:"),
            *sections(members_that_may_change(members=members, instruction=instruction)),
            context("Progress (“Calibrating…”) and the result follow in a thread in the channel."),
        ],
    )


def render_recalibration_request(*, user_id: str, audience_name: str, instruction: str | None) -> Message:
    what = f": “{escape(instruction)}”" if instruction else " (research refresh, no instruction)"
    name = escape(audience_name, limit=MAX_NAME_SHOWN)
    text = f"{mention(user_id)} asked Minds to recalibrate *{name}*{what}"
    return Message(text=text, blocks=sections(text))


def render_calibrating() -> Message:
    text = "Calibrating… Minds is refreshing the research and re-allocating the members."
    return Message(text=text, blocks=[section(text)])


def render_recalibration_progress(*, calibrating: bool, retraining: int | None, total: int | None) -> Message:
    if calibrating:
        return render_calibrating()
    of = f" of {total}" if total is not None else ""
    count = f"{retraining}{of} members" if retraining is not None else "Members"
    text = f"Recalibrated. {count} still retraining in the background…"
    return Message(text=text, blocks=[section(text)])


def render_recalibrated(result: Recalibration) -> str:
    parts = [
        f"{result.refreshed_members} rebuilt in place",
        f"{result.evolved_members} evolved in place",
        f"{result.added_members} added",
    ]
    return "Minds recalibrated the Audience: " + ", ".join(parts) + f"; {result.retraining_members} retraining."


def render_recalibration_done() -> Message:
    text = "Recalibration finished: every member is ready."
    return Message(text=text, blocks=[section(text)])


def render_recalibration_failed(reason: str) -> Message:
    text = f"Minds did not recalibrate the Audience: {escape(reason, limit=MAX_REASON_SHOWN)} Nothing changed."
    return Message(text=text, blocks=[section(text)])


def render_recalibration_unconfirmed(reason: str, *, audience_name: str) -> Message:
    text = (
        f"Minds did not confirm the recalibration: {escape(reason, limit=MAX_REASON_SHOWN)} It may still have "
        f"started — check `/minds audience {escape(audience_name, limit=MAX_NAME_SHOWN)}` before trying again."
    )
    return Message(text=text, blocks=[section(text)])


def render_recalibrate_refused(*, audience_name: str | None = None, owner: bool = True) -> Message:
    if not owner:
        text = (
            f"Only the Audience's owner can recalibrate it, and Minds says this workspace's account does not own "
            f"{escape(audience_name, limit=MAX_NAME_SHOWN) if audience_name else 'it'}."
        )
    else:
        text = (
            "Recalibrating an Audience is for its owner: in Slack, workspace admins and the person who installed "
            "the app may do it."
        )
    return Message(text=text, blocks=[section(text)])
