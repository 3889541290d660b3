"""Spend with consent, as people read it: a channel's policy, a held action's approval line, a refusal, and
the channel's spend activity (list, totals and CSV rows from one model).

Owns: the words for each action and mode (``summary``: what a spend asks for — a question, a chat's start or one
of its turns, a heatmap, a build, a copy of a Study or of an Audience, a public link, an approved research run —
told apart by the saved commands ``AUDIENCE_COPY_COMMAND`` and ``CHAT_START_COMMAND``), ``render_policy`` (one
line per action with its mode; a select per action for people who may change it), ``render_hold`` /
``render_hold_decided`` (the channel's approval line, then how it was decided), the private notes (held, declined,
refused, not allowed), ``SpendReport`` (the spends of a period and their totals, which ``render_activity``
(paged) shows and ``flows/spend.csv_rows`` writes; the CSV's header, people's names first and their ids last).
Must not touch: I/O of any kind. Every person's words (a question, a Study name, a brief) are escaped here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    MarkdownTextObject,
    Option,
    SectionBlock,
    StaticSelectElement,
)

from minds_bot.i18n import N_, _, _n, format_number, sentences, separated
from minds_bot.render import MAX_WORD_SHOWN, Message, escape, mention
from minds_bot.render.common import button, context, encode_value, pager, section, sections, slack_date
from minds_bot.store import PolicyMode, Spend, SpendOutcome

POLICY_SET_ACTION = "spend_policy_set"  # one select per action; its value is the chosen mode
HOLD_APPROVE_ACTION = "spend_hold_approve"  # value: {"i": spend id}
HOLD_DECLINE_ACTION = "spend_hold_decline"
ACTIVITY_PREV_ACTION = "spend_activity_prev"  # value: {"d": days, "p": page}
ACTIVITY_NEXT_ACTION = "spend_activity_next"
ACTIVITY_CSV_ACTION = "spend_activity_csv"  # value: {"d": days}
ACTIVITY_PAGE = 15  # spends per page of /minds activity
MAX_SUBJECT_SHOWN = 300  # a question or brief said back in one line (a visible "…" past it)

# The actions a channel's policy governs, in the order they are shown.
ACTIONS: tuple[str, ...] = ("ask", "chat", "heatmap", "audience_build", "duplicate", "share_on")
ACTION_NAMES: Mapping[str, str] = {
    "ask": N_("Ask a question (`/minds ask`)"),
    "chat": N_("Chat with a Mind (`/minds chat`)"),
    "heatmap": N_("Start a Premium heatmap"),
    "audience_build": N_("Build an Audience (`/minds audience new`)"),
    "duplicate": N_("Duplicate a Study or an Audience (`/minds duplicate`)"),
    "share_on": N_("Turn a Study's public link on (`/minds share … on`)"),
    "research": N_("Run approved research (a plan's *Approve & run*)"),
}
MODE_NAMES: Mapping[PolicyMode, str] = {
    PolicyMode.NOW: N_("runs at once"),
    PolicyMode.APPROVE: N_("needs an approver"),
    PolicyMode.REFUSE: N_("refused"),
}
OUTCOME_NAMES: Mapping[SpendOutcome, str] = {
    SpendOutcome.HELD: N_("waiting for an approver"),
    SpendOutcome.APPROVED: N_("approved, being sent"),
    SpendOutcome.SENT: N_("sent to Minds"),
    SpendOutcome.STARTED: N_("started at Minds"),
    SpendOutcome.FAILED: N_("not started (Minds refused or did not answer)"),
    SpendOutcome.DECLINED: N_("declined"),
    SpendOutcome.REFUSED: N_("refused by the channel's policy"),
    SpendOutcome.WITHDRAWN: N_("not sent (nothing went to Minds)"),
}
# Outcomes where the request went to Minds: only these count towards what was spent.
SPENT = frozenset({SpendOutcome.APPROVED, SpendOutcome.SENT, SpendOutcome.STARTED})
NOT_SENT = frozenset({SpendOutcome.DECLINED, SpendOutcome.REFUSED, SpendOutcome.FAILED, SpendOutcome.WITHDRAWN})
CSV_HEADER = (
    N_("when (UTC)"),
    N_("user"),
    N_("action"),
    N_("about"),
    N_("Minds responses"),
    N_("kind"),
    N_("outcome"),
    N_("decided by"),
    N_("Minds said"),
    N_("user id"),
    N_("decided by id"),
)
# How an action's saved command tells two things of one policy line apart, for the words said about it: a copy of
# an Audience (not a Study), a chat's start (not one of its turns). The flows build the commands with these.
AUDIENCE_COPY_COMMAND = "duplicate audience {audience_id}"  # command syntax, verbatim
CHAT_START_COMMAND = "chat {mind_id}"  # command syntax, verbatim
CHAT_MIND_SEPARATOR = ", "  # between the Minds of a chat with several, in the command (syntax, not words)


def action_name(action: str) -> str:
    return _(ACTION_NAMES[action]) if action in ACTION_NAMES else escape(action, limit=MAX_WORD_SHOWN)


def summary(spend: Spend) -> str:
    """What the requester wants, in a few words with their own words escaped (mrkdwn)."""
    about = escape(spend.subject, limit=MAX_SUBJECT_SHOWN)
    if spend.action == "ask":
        if spend.responses is None:
            return _("ask Minds “{question}”", question=about)
        return _n("ask {count} Mind “{question}”", "ask {count} Minds “{question}”", spend.responses, question=about)
    words = {
        "heatmap": N_("start a Premium heatmap of {subject}"),
        "audience_build": N_("build an Audience from “{subject}”"),
        "duplicate": N_("duplicate the Study {subject}"),
        "share_on": N_("turn the public link of {subject} on"),
        "chat": N_("send “{subject}” to a Mind in a chat thread"),
        "research": N_("run the approved research plan of {subject}"),
    }
    if spend.action == "duplicate" and _is_command(spend, AUDIENCE_COPY_COMMAND):
        return _("duplicate the Audience {subject}", subject=about)
    if spend.action == "chat" and _is_command(spend, CHAT_START_COMMAND):
        return _("start a chat with {subject}", subject=about)
    if spend.action not in words:
        return about
    return _(words[spend.action], subject=about)


def _is_command(spend: Spend, template: str) -> bool:
    """Whether the spend's saved command is ``template``'s command (its words before the first placeholder)."""
    return spend.command.startswith(template.split("{", 1)[0])


def responses_text(spend: Spend) -> str:
    """How many Minds responses the spend counts (with its kind, e.g. "premium"), or the kind alone, or "not
    known"."""
    if spend.responses is not None and spend.cost:
        return _(
            "{count} ({cost})", count=format_number(spend.responses), cost=escape(spend.cost, limit=MAX_WORD_SHOWN)
        )
    if spend.responses is not None:
        return format_number(spend.responses)
    if spend.cost:
        return escape(spend.cost, limit=MAX_WORD_SHOWN)
    return _("not known")


# -- the policy --------------------------------------------------------------------------------------------------


def mode_name(mode: PolicyMode) -> str:
    return _(MODE_NAMES[mode]) if mode in MODE_NAMES else escape(str(mode), limit=MAX_WORD_SHOWN)


def outcome_name(outcome: SpendOutcome) -> str:
    return _(OUTCOME_NAMES[outcome]) if outcome in OUTCOME_NAMES else escape(str(outcome), limit=MAX_WORD_SHOWN)


def render_policy(modes: Sequence[PolicyMode], *, editable: bool) -> Message:
    """One line per action (``ACTIONS``, in order, each with its mode in ``modes``); with ``editable`` a select
    beside each line."""
    title = _("*Spend policy in this channel*")
    blocks: list[Block] = [section(title)]
    lines = []
    for action, mode in zip(ACTIONS, modes, strict=False):
        line = _("{action} — {mode}", action=action_name(action), mode=mode_name(mode))
        lines.append(line)
        accessory = _mode_select(action, mode) if editable else None
        blocks.append(SectionBlock(text=MarkdownTextObject(text=line), accessory=accessory))
    if not editable:
        blocks.append(context(_(WHO_CHANGES)))
    return Message(text="\n".join([title, *lines]), blocks=blocks)


WHO_CHANGES = N_("Workspace admins and this channel's approvers (`/minds approvers list`) can change it.")


def _mode_select(action: str, mode: PolicyMode) -> StaticSelectElement:
    options = [Option(value=m.value, text=_(MODE_NAMES[m])) for m in PolicyMode]
    initial = next((o for o in options if o.value == str(mode)), None)
    return StaticSelectElement(
        action_id=f"{POLICY_SET_ACTION}:{action}", options=options, initial_option=initial, placeholder=_("Mode")
    )


def render_policy_not_allowed() -> Message:
    return Message(text=_("Only workspace admins and this channel's approvers can change its spend policy."))


def render_policy_changed(*, action: str, mode: PolicyMode, user_id: str) -> str:
    """The line said in the channel when someone changes a mode (mrkdwn)."""
    return _(
        "{user} set the spend policy here: {action} — {mode}.",
        user=mention(user_id),
        action=action_name(action),
        mode=mode_name(mode),
    )


# -- held actions ------------------------------------------------------------------------------------------------


def render_hold(spend: Spend) -> Message:
    """The channel's approval line: who wants what, and Approve / Decline for an approver or admin."""
    line = _("{user} wants to {summary} — needs an approver", user=mention(spend.user_id), summary=summary(spend))
    value = encode_value({"i": spend.spend_id})
    blocks: list[Block] = [section(line), context(_("Minds responses: {count}", count=responses_text(spend)))]
    if value is not None:
        blocks.append(
            ActionsBlock(
                elements=[
                    button(_("Approve"), action_id=HOLD_APPROVE_ACTION, value=value, style="primary"),
                    button(_("Decline"), action_id=HOLD_DECLINE_ACTION, value=value, style="danger"),
                ]
            )
        )
    return Message(text=line, blocks=blocks)


def render_hold_decided(spend: Spend) -> Message:
    """The approval line once decided: no buttons, who decided."""
    if spend.outcome is SpendOutcome.DECLINED:
        words = N_("{user} wanted to {summary} — declined by {approver}.")
    else:
        words = N_("{user} wanted to {summary} — approved by {approver}.")
    line = _(words, user=mention(spend.user_id), summary=summary(spend), approver=mention(spend.decided_by or ""))
    return Message(text=line, blocks=[section(line)])


def render_held_note(spend: Spend) -> Message:
    text = _(
        "Your request to {summary} waits for an approver of this channel; you will hear here when someone decides.",
        summary=summary(spend),
    )
    return Message(text=text, blocks=[section(text)])


def render_declined_note(spend: Spend) -> str:
    return _(
        "{approver} declined your request to {summary}. Nothing was sent to Minds.",
        approver=mention(spend.decided_by or ""),
        summary=summary(spend),
    )


def render_already_decided(spend: Spend) -> Message:
    if spend.outcome is SpendOutcome.DECLINED:
        text = _("{approver} already declined this request.", approver=mention(spend.decided_by or ""))
    else:
        text = _("{approver} already approved this request.", approver=mention(spend.decided_by or ""))
    return Message(text=text)


def render_not_approver() -> Message:
    return Message(
        text=_(
            "Only this channel's approvers (`/minds approvers list`) or a workspace admin can approve or decline "
            "this request."
        )
    )


def render_refused(action: str) -> Message:
    text = sentences(
        _("This channel's spend policy refuses this: {action}.", action=action_name(action)),
        _("See `/minds policy`."),
        _(WHO_CHANGES),
    )
    return Message(text=text, blocks=[section(text)])


# -- activity ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpendTotals:
    sent: int  # requests that went to Minds
    responses: int  # the Minds responses those counted, where known
    not_known: int  # sent requests whose count is not known
    premium: int  # sent requests Minds charges as premium (no count)
    held: int
    not_sent: int  # declined, refused, or not started


@dataclass(frozen=True)
class SpendReport:
    """A channel's spends over ``days`` days up to ``until``, newest first: the list, its totals and its CSV
    all read this one model."""

    days: int
    until: datetime
    spends: Sequence[Spend]

    @property
    def totals(self) -> SpendTotals:
        sent = [s for s in self.spends if s.outcome in SPENT]
        return SpendTotals(
            sent=len(sent),
            responses=sum(s.responses or 0 for s in sent),
            not_known=sum(1 for s in sent if s.responses is None and not s.cost),
            premium=sum(1 for s in sent if s.cost),
            held=sum(1 for s in self.spends if s.outcome is SpendOutcome.HELD),
            not_sent=sum(1 for s in self.spends if s.outcome in NOT_SENT),
        )


def totals_text(totals: SpendTotals) -> str:
    parts = [
        _n(
            "{count} request sent to Minds, counting {responses} Minds responses",
            "{count} requests sent to Minds, counting {responses} Minds responses",
            totals.sent,
            responses=format_number(totals.responses),
        )
    ]
    if totals.premium:
        parts.append(_n("{count} premium", "{count} premium", totals.premium))
    if totals.not_known:
        parts.append(_n("{count} with a count not known", "{count} with a count not known", totals.not_known))
    if totals.held:
        parts.append(_n("{count} waiting for an approver", "{count} waiting for an approver", totals.held))
    if totals.not_sent:
        parts.append(_n("{count} not sent", "{count} not sent", totals.not_sent))
    return _("*Totals:* {totals}", totals=separated(parts))


def _line(spend: Spend) -> str:
    when = slack_date(spend.created_at) if spend.created_at else _("not known")
    line = _(
        "{when} · {user} · {action}: {summary} · Minds responses: {count} · {outcome}",
        when=when,
        user=mention(spend.user_id),
        action=action_name(spend.action),
        summary=summary(spend),
        count=responses_text(spend),
        outcome=outcome_name(spend.outcome),
    )
    if spend.decided_by and spend.outcome is not SpendOutcome.REFUSED:
        line += " " + _("(decided by {approver})", approver=mention(spend.decided_by))
    return "• " + line


def render_activity(report: SpendReport, *, page: int = 0) -> Message:
    """The channel's spends, newest first, ``ACTIVITY_PAGE`` per page, with the totals of the whole period and
    Download CSV."""
    heading = _n(
        "*Minds spending in this channel, last {count} day*",
        "*Minds spending in this channel, last {count} days*",
        report.days,
    )
    if not report.spends:
        text = sentences(heading, _("Nothing was asked for in this period."))
        return Message(text=text, blocks=[section(text)])
    pages = max(1, -(-len(report.spends) // ACTIVITY_PAGE))
    index = min(max(page, 0), pages - 1)
    shown = report.spends[index * ACTIVITY_PAGE : (index + 1) * ACTIVITY_PAGE]
    where = _n(
        "Page {page} of {pages} · {count} entry, newest first.",
        "Page {page} of {pages} · {count} entries, newest first.",
        len(report.spends),
        page=format_number(index + 1),
        pages=format_number(pages),
    )
    totals = totals_text(report.totals)
    lines = "\n".join(_line(s) for s in shown)
    blocks: list[Block] = [section(heading), *sections(lines), section(totals), context(where)]
    blocks += pager(
        prev_id=ACTIVITY_PREV_ACTION,
        next_id=ACTIVITY_NEXT_ACTION,
        prev_state={"d": report.days, "p": index - 1} if index > 0 else None,
        next_state={"d": report.days, "p": index + 1} if index + 1 < pages else None,
    )
    csv_value = encode_value({"d": report.days})
    if csv_value is not None:
        blocks.append(
            ActionsBlock(elements=[button(_("Download CSV"), action_id=ACTIVITY_CSV_ACTION, value=csv_value)])
        )
    return Message(text="\n".join([heading, lines, totals]), blocks=blocks)


def csv_header() -> tuple[str, ...]:
    return tuple(_(title) for title in CSV_HEADER)
