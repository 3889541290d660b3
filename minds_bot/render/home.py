"""The App Home tab: a person's own corner of Minds in Slack.

Owns: ``HomeState`` (what one person's Home shows, gathered by ``flows/home.py``) and ``render_home``: whether
the workspace is connected; buttons to start research (plan, add a digest); plans waiting for this person's
approval; live runs of their plans with the latest progress the channel saw; Recent results and the switch for
DMs when a run ends (``render/run_notice.py``); their recent Studies, each with *Plan research*; digests posted
to channels they are in — each list only what belongs to the person's channels (``flows/home.py`` filters), and
when those could not be read every list says so instead. Every list is bounded (a Home tab holds 100 blocks):
what does not fit is counted, never dropped silently. Names from Minds and people are escaped.
Must not touch: I/O of any kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ContextBlock,
    DividerBlock,
    HeaderBlock,
    MarkdownTextObject,
    SectionBlock,
)
from slack_sdk.models.views import View

from minds_bot.i18n import _, _n, sentences
from minds_bot.render import (
    MAX_NAME_SHOWN,
    MAX_WORD_SHOWN,
    channel_mention,
    escape,
    mention,
    unescape,
)
from minds_bot.render.common import sections, shorten
from minds_bot.render.digest import add_digest_button
from minds_bot.render.help import CAVEAT, INTRO
from minds_bot.render.run_notice import EndedRun, recent_results_blocks, run_dms_blocks

HOME_PLAN_ACTION = "minds_home_plan"  # value: a Study id, or "" to choose one in the dialog
HOME_REFRESH_ACTION = "minds_home_refresh"
MAX_LISTED = 8  # items per list; the rest are counted
MAX_PROGRESS_SHOWN = 300


@dataclass(frozen=True)
class HomePlan:
    study_name: str
    channel_id: str
    revision: int | None
    requester_id: str


@dataclass(frozen=True)
class HomeRun:
    study_name: str
    channel_id: str
    progress: str | None  # the latest progress line the channel saw (the bot's mrkdwn), None before any


@dataclass(frozen=True)
class HomeStudy:
    study_id: str
    name: str


@dataclass(frozen=True)
class HomeDigest:
    digest_id: str
    channel_id: str
    schedule: str  # described in words already
    studies: int  # 0: all Studies


@dataclass(frozen=True)
class HomeState:
    connected: bool
    awaiting: Sequence[HomePlan] = field(default_factory=tuple)
    live: Sequence[HomeRun] = field(default_factory=tuple)
    studies: Sequence[HomeStudy] = field(default_factory=tuple)
    digests: Sequence[HomeDigest] = field(default_factory=tuple)
    channels_read: bool = True  # False: the person's channels could not be read; nothing channel-bound is listed
    results: Sequence[EndedRun] = field(default_factory=tuple)  # Recent results, newest first
    run_dms_on: bool = True  # the person's "DMs when a run ends" switch


def render_home(state: HomeState) -> View:
    status = (
        _("This workspace is connected to Minds.")
        if state.connected
        else _("This workspace is not connected to Minds yet: an admin can run `/minds connect`.")
    )
    start = [ButtonElement(text=_("Plan research"), action_id=HOME_PLAN_ACTION, value="", style="primary")]
    start += [add_digest_button(), ButtonElement(text=_("Refresh"), action_id=HOME_REFRESH_ACTION, value="1")]
    blocks: list[Block] = [
        HeaderBlock(text=_("Minds for Slack")),
        SectionBlock(text=MarkdownTextObject(text=f"{_(INTRO)}\n{status}")),
        ActionsBlock(block_id="home_start", elements=start),
        DividerBlock(),
    ]
    if state.channels_read:
        blocks += _channel_lists(state)
    else:
        blocks += _unread_lists(state)
    tip = _("Type `/minds help` in any channel for every command.")
    blocks.append(ContextBlock(elements=[MarkdownTextObject(text=sentences(tip, _(CAVEAT)))]))
    return View(type="home", blocks=blocks)


def _channel_lists(state: HomeState) -> list[Block]:
    """Every list of what belongs to the person's channels."""
    return [
        *_section(_("Waiting for your approval"), [_plan_line(p) for p in state.awaiting], _("No plans wait for you.")),
        *_section(_("Live runs"), [_run_line(r) for r in state.live], _("None of your plans is running.")),
        *recent_results_blocks(state.results),
        *run_dms_blocks(on=state.run_dms_on),
        *_studies(state.studies),
        *_section(_("Digests in your channels"), [_digest_line(d) for d in state.digests], _("No digests yet.")),
    ]


def _unread_lists(state: HomeState) -> list[Block]:
    """The person's channels could not be read: each list says so instead of guessing what they may see."""
    unread = _("Your channels could not be read just now, so this is not listed. Press *Refresh* to try again.")
    titles = (_("Waiting for your approval"), _("Live runs"), _("Recent results"))
    blocks: list[Block] = [*(b for title in titles for b in _section(title, [], unread))]
    blocks += run_dms_blocks(on=state.run_dms_on)
    for title in (_("Your recent Studies"), _("Digests in your channels")):
        blocks += _section(title, [], unread)
    return blocks


def _section(title: str, lines: Sequence[str], empty: str) -> list[Block]:
    shown = list(lines[:MAX_LISTED])
    if len(lines) > MAX_LISTED:
        shown.append(_n("…and {count} more", "…and {count} more", len(lines) - MAX_LISTED))
    body = "\n".join(shown) if shown else f"_{empty}_"
    return sections(f"*{escape(title)}*\n{body}")  # long lists continue in the next section, nothing cut


def _plan_line(plan: HomePlan) -> str:
    name = escape(plan.study_name, limit=MAX_NAME_SHOWN)
    where = channel_mention(plan.channel_id)
    if plan.revision is None:
        return _(
            "*{study}* in {channel}, asked by {person}", study=name, channel=where, person=mention(plan.requester_id)
        )
    return _(
        "*{study}* in {channel}, revision {revision}, asked by {person}",
        study=name,
        channel=where,
        revision=plan.revision,
        person=mention(plan.requester_id),
    )


def _run_line(run: HomeRun) -> str:
    name = escape(run.study_name, limit=MAX_NAME_SHOWN)
    where = channel_mention(run.channel_id)
    if not run.progress:
        return _("*{study}* in {channel}: started", study=name, channel=where)
    progress = escape(shorten(unescape(run.progress), MAX_PROGRESS_SHOWN))  # shown as words: no link or mention
    return _("*{study}* in {channel}: {progress}", study=name, channel=where, progress=progress)


def _digest_line(digest: HomeDigest) -> str:
    studies = _n("{count} Study", "{count} Studies", digest.studies) if digest.studies else _("all Studies")
    return _(
        "{channel} {schedule}, {studies} · `{digest_id}`",
        channel=channel_mention(digest.channel_id),
        schedule=escape(digest.schedule, limit=MAX_NAME_SHOWN),
        studies=studies,
        digest_id=escape(digest.digest_id, limit=MAX_WORD_SHOWN),
    )


def _studies(studies: Sequence[HomeStudy]) -> list[Block]:
    heading = escape(_("Your recent Studies"))
    title = f"*{heading}*"
    if not studies:
        empty = _("Studies you plan research for appear here.")
        return [SectionBlock(text=MarkdownTextObject(text=f"{title}\n_{empty}_"))]
    blocks: list[Block] = [SectionBlock(text=MarkdownTextObject(text=title))]
    for study in studies[:MAX_LISTED]:
        button = ButtonElement(text=_("Plan research"), action_id=HOME_PLAN_ACTION, value=study.study_id)
        name = escape(study.name, limit=MAX_NAME_SHOWN)
        blocks.append(SectionBlock(text=MarkdownTextObject(text=name), accessory=button))
    return blocks
