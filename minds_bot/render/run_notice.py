"""Hearing when a research run ends: the DM, the "Notify me" button on the approval line, and its private answers.

Owns: the DM a person gets when a run they requested (or asked to hear about) ends — the run's outcome in the
same words as the plan message's closing line (``render/outcome.py``: one model of how a run ended), the Study,
channel and revision it belongs to, a link to its thread, why the person gets it and where to turn it off; the
"Notify me when it ends" button added under the approval line while the run is running (the closing line
replaces the whole message, button included, once it ends); the private answers to pressing it; and the line a
finished run gets under *Recent results* on the App Home, and the Home's "DMs when a run ends: On/Off" switch.
Pure: no I/O. Must not touch: the plan's own blocks (``render/plan.py``), Slack or Minds calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from slack_sdk.models.blocks import ActionsBlock, Block, ButtonElement, ContextBlock, MarkdownTextObject, SectionBlock

from minds_bot.i18n import _, sentences
from minds_bot.render import MAX_BLOCKS_PER_MESSAGE, MAX_NAME_SHOWN, Message, channel_mention, escape
from minds_bot.render.common import sections
from minds_bot.render.outcome import outcome_line

NOTIFY_ME_ACTION = "run_notify_me"  # value: the run id
NOTIFY_BLOCK = "run_notify"
RECENT_RESULTS = 10  # ended runs listed under Recent results on the App Home
HOME_RUN_DMS_ACTION = "minds_home_run_dms"  # value: "on" or "off", what pressing it turns the DMs to


@dataclass(frozen=True)
class EndedRun:
    """What a person is told about a run that ended (Minds' final status word, where its thread is)."""

    study_name: str
    channel_id: str
    status: str
    revision: int | None = None
    cancelled_by: str | None = None
    permalink: str | None = None  # Slack's link to the thread; None when Slack did not give one


def thread_link(permalink: str | None) -> str:
    """A link to the run's thread, or nothing when Slack gave no permalink."""
    if not permalink or any(c in permalink for c in "<>| \n"):
        return ""
    label = escape(_("Open the thread"))
    return f"<{permalink}|{label}>"


def ended_run_line(run: EndedRun) -> str:
    """One run in a list: which Study, where, and how it ended (the closing line's words), with its link."""
    where = _(
        "*{study}* in {channel}",
        study=escape(run.study_name, limit=MAX_NAME_SHOWN),
        channel=channel_mention(run.channel_id),
    )
    if run.revision is not None:
        # i18n: {where} is "*Study* in #channel"; then the plan's revision that ran.
        where = _("{where}, revision {revision}", where=where, revision=run.revision)
    outcome = outcome_line(status=run.status, cancelled_by=run.cancelled_by)
    link = thread_link(run.permalink)
    # i18n: {where} is "*Study* in #channel" (maybe with its revision); {outcome} the sentence saying how it ended.
    return sentences(_("{where}: {outcome}", where=where, outcome=outcome), link)


def render_run_ended_dm(run: EndedRun, *, requested: bool) -> Message:
    """The DM when a run ends. ``requested``: the person requested the plan (else they pressed Notify me)."""
    headline = _("A research run has ended.")
    body = f"{headline}\n{ended_run_line(run)}"
    why = (
        _("You get this because you requested this research.")
        if requested
        else _("You get this because you pressed “Notify me when it ends” on its plan.")
    )
    off = _("Turn these messages off in the Minds App Home.")
    blocks: list[Block] = [
        SectionBlock(text=MarkdownTextObject(text=body)),
        ContextBlock(elements=[MarkdownTextObject(text=sentences(why, off))]),
    ]
    return Message(text=body, blocks=blocks)


def with_notify_button(message: Message, run_id: str) -> Message:
    """The approval line's message with "Notify me when it ends" under it (while the run is running)."""
    if len(message.blocks) >= MAX_BLOCKS_PER_MESSAGE:
        return message  # a plan that fills a message keeps its words; the requester is told anyway
    button = ButtonElement(text=_("Notify me when it ends"), action_id=NOTIFY_ME_ACTION, value=run_id)
    return Message(text=message.text, blocks=[*message.blocks, ActionsBlock(block_id=NOTIFY_BLOCK, elements=[button])])


def render_notify_added(*, dms_on: bool) -> Message:
    if dms_on:
        return Message(text=_(":bell: You will get a DM when this run ends."))
    return Message(
        text=_(
            ":bell: Noted — but you turned DMs about run ends off in the Minds App Home: turn them on there to get "
            "this one."
        )
    )


def render_notify_requester(*, dms_on: bool) -> Message:
    if dms_on:
        return Message(text=_(":bell: You requested this research: you get a DM when it ends already."))
    return Message(
        text=_(
            ":bell: You requested this research, but you turned DMs about run ends off in the Minds App Home: turn "
            "them on there to get one."
        )
    )


def render_notify_already(*, dms_on: bool) -> Message:
    if dms_on:
        return Message(text=_(":bell: You already get a DM when this run ends."))
    return render_notify_added(dms_on=False)


def render_notify_ended() -> Message:
    return Message(text=_("This run has already ended: its outcome is on the plan message and in the thread."))


def render_notify_unknown() -> Message:
    return Message(text=_("This run is not one the bot follows in this channel, so it cannot tell you when it ends."))


def recent_results_blocks(results: Sequence[EndedRun]) -> list[Block]:
    """The App Home's *Recent results*: what it covers, then one line per run (newest first), or plainly none."""
    title = escape(_("Recent results"))
    covers = _(
        "The last {count} runs that ended in channels you are in where you requested or approved research, or are "
        "an approver.",
        count=RECENT_RESULTS,
    )
    if not results:
        empty = _("No research run has ended yet in those channels.")
        return sections(f"*{title}*\n{covers}\n_{empty}_")
    lines = "\n".join(f"• {ended_run_line(r)}" for r in results)
    return sections(f"*{title}*\n{covers}\n{lines}")  # long lists continue in the next section, nothing cut


def run_dms_blocks(*, on: bool) -> list[Block]:
    """The switch: "DMs when a run ends: On" with a button that turns them off (and back)."""
    line = _("*DMs when a run ends:* On") if on else _("*DMs when a run ends:* Off")
    explain = _(
        "A direct message with the outcome and a link to the thread, for runs of plans you requested or "
        "asked to hear about with “Notify me when it ends”."
    )
    button = ButtonElement(
        text=_("Turn off") if on else _("Turn on"), action_id=HOME_RUN_DMS_ACTION, value="off" if on else "on"
    )
    return [SectionBlock(block_id="home_run_dms", text=MarkdownTextObject(text=f"{line}\n{explain}"), accessory=button)]
