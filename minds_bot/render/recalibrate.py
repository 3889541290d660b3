"""Recalibrating an Audience: the instruction modal, the confirmation that says which members may change, and
the thread messages (the request, "Calibrating…", retraining progress, the result or Minds' reason).

The modal offers the OpenAPI's two modes. Research mode: an instruction on top of the brief, or a research query
that replaces it; one distribution to add; extra links and keywords. Selection mode: which of the Audience's
grounded distributions (its review universe) drive the members, without new research; an option's value is a
digest of the distribution's name (``distribution_value``), matched against the universe Minds reports when the
recalibration is confirmed.

Owns: those views and messages and their callback ids. What may change follows Minds' rules: composition or
evidence edits touch only members whose allocation changes; trait changes evolve members in place; a new
population rebuilds every member in place; "add N …" adds members within the plan's limits; no Mind is
deleted. Every Minds and person text is escaped. Must not touch: I/O.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import (
    CheckboxesElement,
    InputBlock,
    Option,
    PlainTextInputElement,
    RadioButtonsElement,
    StaticMultiSelectElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import _, _n, format_number
from minds_bot.minds import Recalibration
from minds_bot.render import MAX_NAME_SHOWN, MAX_REASON_SHOWN, Message, escape, mention
from minds_bot.render.browse import minds_label
from minds_bot.render.common import context, listing, section, sections, shorten

RECALIBRATE_VIEW = "audience_recalibrate_modal"
RECALIBRATE_CONFIRM_VIEW = "audience_recalibrate_confirm"
INSTRUCTION_BLOCK = "instruction"
INSTRUCTION_ACTION = "value"
DISTRIBUTION_BLOCK = "requested_distribution"
SHARED_BLOCK = "allow_shared_minds"
SHARED_VALUE = "allow"
MAX_DISTRIBUTION = 120  # the OpenAPI: requestedDistribution is 1–120 characters
# Minds takes 4,000 characters for an instruction or a query; Slack's text input takes 3,000 at most. What was
# typed is kept on the server between the two steps (never in private_metadata, which holds 3,000 in all).
MAX_INSTRUCTION = 3000
QUERY_BLOCK = "query"
LINKS_BLOCK = "sources_links"
KEYWORDS_BLOCK = "sources_keywords"
MODE_BLOCK = "mode"
MODE_RESEARCH = "research"
MODE_SELECTION = "selection"
SELECTION_BLOCK = "selection"
MAX_SOURCES = 20  # the OpenAPI: each of sources.links and sources.keywords holds at most 20 entries
MAX_LINK = 2000
MAX_KEYWORD = 200
MAX_SELECTABLE = 100  # Slack's multi-select holds 100 options
NAME_IN_METADATA = 75


def _step(*, callback_id: str, title: str, submit: str, metadata: str, heading: str, blocks: list[Any]) -> View:
    """One step of the recalibration dialog: ``heading`` (mrkdwn, names escaped) names the Audience, then
    ``blocks``; Cancel closes it."""
    return View(
        type="modal",
        callback_id=callback_id,
        title=title,
        submit=submit,
        close=_("Cancel"),
        private_metadata=metadata,
        blocks=[section(heading), *blocks],
    )


def distribution_value(name: str) -> str:
    """A selection option's value: a digest of the distribution's name (names may be longer than a value)."""
    return hashlib.sha256(name.encode()).hexdigest()[:24]


def recalibrate_modal(
    *,
    audience_id: str,
    audience_name: str,
    members: int,
    channel_id: str,
    universe: Sequence[str] = (),
    active: Sequence[str] = (),
) -> View:
    """``universe``: the names of the Audience's review distributions, ``active`` those that drive the members
    now (both from Minds); without a universe there is no selection mode."""
    metadata = json.dumps(
        {"a": audience_id, "n": shorten(audience_name, NAME_IN_METADATA), "m": members, "c": channel_id}
    )
    name = escape(audience_name, limit=MAX_NAME_SHOWN)
    return _step(
        callback_id=RECALIBRATE_VIEW,
        title=_("Recalibrate Audience"),
        submit=_("Review"),
        metadata=metadata,
        heading=_("Audience: *{audience}* ({minds})", audience=name, minds=minds_label(members)),
        blocks=[
            InputBlock(
                block_id=INSTRUCTION_BLOCK,
                label=_("What should change? (at most {limit} characters)", limit=format_number(MAX_INSTRUCTION)),
                optional=True,
                element=PlainTextInputElement(
                    action_id=INSTRUCTION_ACTION,
                    multiline=True,
                    max_length=MAX_INSTRUCTION,
                    placeholder=_("e.g. make women 60% · skew younger · and now add 10 students"),
                ),
            ),
            context(
                _(
                    "Minds refreshes the Audience's grounding from web research on top of its original brief, then "
                    "re-allocates the members. Leave it empty to refresh the research only."
                )
            ),
            *_options(),
            *_selection(universe, active),
        ],
    )


def _selection(universe: Sequence[str], active: Sequence[str]) -> list[Any]:
    """Selection mode: pick the mode, then the distributions that should drive the members."""
    if not universe:
        return []
    if len(universe) > MAX_SELECTABLE:
        return [
            context(
                _(
                    "Selection mode is not offered here: this Audience has {count} grounded distributions and a "
                    "Slack list holds {most}.",
                    count=format_number(len(universe)),
                    most=format_number(MAX_SELECTABLE),
                )
            )
        ]
    research = Option(value=MODE_RESEARCH, text=_("Research: refresh from web research (the fields above)"))
    selection = Option(value=MODE_SELECTION, text=_("Selection: only the distributions picked below drive the members"))
    options = [Option(value=distribution_value(name), text=shorten(name, 75)) for name in universe]
    chosen = [o for o, name in zip(options, universe, strict=True) if name in active]
    return [
        InputBlock(
            block_id=MODE_BLOCK,
            label=_("Mode"),
            element=RadioButtonsElement(
                action_id=INSTRUCTION_ACTION, options=[research, selection], initial_option=research
            ),
        ),
        InputBlock(
            block_id=SELECTION_BLOCK,
            label=_("Grounded distributions (selection mode)"),
            optional=True,
            element=StaticMultiSelectElement(
                action_id=INSTRUCTION_ACTION,
                options=options,
                initial_options=chosen or None,
                placeholder=_("Pick distributions"),
            ),
        ),
        context(
            _(
                "Selection mode sends only the picked distributions (none picked: no quotas); leave the research "
                "fields empty for it."
            )
        ),
    ]


def _options() -> list[Any]:
    """The OpenAPI's research-mode options: one distribution to add, and consent to rewrite members that other
    Audiences share (Minds refuses without it, 409 ``AUDIENCE_MINDS_SHARED``)."""
    shared = Option(
        value=SHARED_VALUE, text=_("Also change members that other Audiences share (they change there too)")
    )
    return [
        InputBlock(
            block_id=QUERY_BLOCK,
            label=_(
                "Or a research query that replaces the brief (at most {limit} characters)",
                limit=format_number(MAX_INSTRUCTION),
            ),
            optional=True,
            element=PlainTextInputElement(
                action_id=INSTRUCTION_ACTION,
                multiline=True,
                max_length=MAX_INSTRUCTION,
                placeholder=_("e.g. sneaker collectors in Austria"),
            ),
        ),
        InputBlock(
            block_id=LINKS_BLOCK,
            label=_("Extra links for the research (one per line, at most {count})", count=MAX_SOURCES),
            optional=True,
            element=PlainTextInputElement(action_id=INSTRUCTION_ACTION, multiline=True),
        ),
        InputBlock(
            block_id=KEYWORDS_BLOCK,
            label=_("Extra keywords (separated by commas, at most {count})", count=MAX_SOURCES),
            optional=True,
            element=PlainTextInputElement(action_id=INSTRUCTION_ACTION),
        ),
        InputBlock(
            block_id=DISTRIBUTION_BLOCK,
            label=_("A distribution to add (optional)"),
            optional=True,
            element=PlainTextInputElement(
                action_id=INSTRUCTION_ACTION,
                max_length=MAX_DISTRIBUTION,
                placeholder=_("e.g. household income"),
            ),
        ),
        InputBlock(
            block_id=SHARED_BLOCK,
            label=_("Shared members"),
            optional=True,
            element=CheckboxesElement(action_id=INSTRUCTION_ACTION, options=[shared]),
        ),
    ]


def options_line(
    *,
    distribution: str | None,
    allow_shared: bool,
    links: Sequence[str] = (),
    keywords: Sequence[str] = (),
    selection: Sequence[str] | None = None,
) -> str | None:
    """What the confirmation adds about the options, or None when none was chosen (mrkdwn, escaped)."""
    lines = []
    if selection is not None:
        lines.append(
            _(
                "Selection mode, no new research: only these distributions drive the members: {names}",
                names=listing(list(selection), most=len(selection)),
            )
            if selection
            else _("Selection mode, no new research: no distribution drives the members (no quotas).")
        )
    if distribution:
        lines.append(_("Distribution to add: “{topic}”", topic=escape(distribution)))
    if links:
        lines.append(_("Extra links: {links}", links=listing(list(links), most=MAX_SOURCES, limit=MAX_LINK)))
    if keywords:
        lines.append(
            _("Extra keywords: {keywords}", keywords=listing(list(keywords), most=MAX_SOURCES, limit=MAX_KEYWORD))
        )
    if allow_shared:
        lines.append(_("Members that other Audiences share may change there too."))
    return "\n".join(lines) or None


def members_that_may_change(
    *, members: int, instruction: str | None, query: str | None = None, selection: bool = False
) -> str:
    """What the confirmation says may happen to the members (mrkdwn, the instruction in full: split it with
    ``sections``)."""
    everyone = minds_label(members)
    lines = [
        _(
            "• A composition or evidence change (“make women 60%”) touches only the members whose allocation "
            "changes — at most all {minds}.",
            minds=everyone,
        ),
        _(
            "• A trait change (“now they are all vegan”) evolves members in place: same Mind, name and portrait, "
            "new role and description, knowledge retrained."
        ),
        _(
            "• A new population (“now consumers in Kenya”) rebuilds all {minds} in place: new persona and "
            "portrait, knowledge wiped and retrained.",
            minds=everyone,
        ),
        _("• “and now add 10 …” keeps every member and adds new ones within your plan's limits."),
        _("No Mind is deleted: Studies, shares and chat history keep working. Minds decides which case applies."),
    ]
    if instruction:
        lead = _("Instruction: “{instruction}”", instruction=escape(instruction))
    elif query:
        lead = _("Research query, replacing the brief: “{query}”", query=escape(query))
    elif selection:
        lead = _("No new research: Minds re-allocates the members to the distributions you picked.")
    else:
        lead = _("No instruction: the research is refreshed.")
    return lead + "\n" + "\n".join(lines)


def recalibrate_confirm_view(
    *,
    metadata: str,
    audience_name: str,
    members: int,
    instruction: str | None,
    distribution: str | None = None,
    allow_shared: bool = False,
    query: str | None = None,
    links: Sequence[str] = (),
    keywords: Sequence[str] = (),
    selection: Sequence[str] | None = None,
) -> View:
    """The second step: shown by updating the instruction modal; its submission starts the recalibration.
    ``selection`` (names, possibly none) is selection mode; None is research mode."""
    name = escape(audience_name, limit=MAX_NAME_SHOWN)
    return _step(
        callback_id=RECALIBRATE_CONFIRM_VIEW,
        title=_("Confirm recalibration"),
        submit=_("Recalibrate"),
        metadata=metadata,
        heading=_("Recalibrate *{audience}*? Which members may change:", audience=name),
        blocks=[
            *sections(
                members_that_may_change(
                    members=members, instruction=instruction, query=query, selection=selection is not None
                )
            ),
            *sections(
                options_line(
                    distribution=distribution,
                    allow_shared=allow_shared,
                    links=links,
                    keywords=keywords,
                    selection=selection,
                )
                or ""
            ),
            context(_("Progress (“Calibrating…”) and the result follow in a thread in the channel.")),
        ],
    )


def render_recalibration_request(
    *, user_id: str, audience_name: str, instruction: str | None, query: str | None = None, selection: bool = False
) -> Message:
    name = escape(audience_name, limit=MAX_NAME_SHOWN)
    if query and not instruction:
        text = _(
            "{user} asked Minds to recalibrate *{audience}* from a new research query: “{query}”",
            user=mention(user_id),
            audience=name,
            query=escape(query),
        )
        return Message(text=text, blocks=sections(text))
    if selection:
        text = _(
            "{user} asked Minds to recalibrate *{audience}* on a selection of its grounded distributions",
            user=mention(user_id),
            audience=name,
        )
        return Message(text=text, blocks=sections(text))
    text = (
        _(
            "{user} asked Minds to recalibrate *{audience}*: “{instruction}”",
            user=mention(user_id),
            audience=name,
            instruction=escape(instruction),
        )
        if instruction
        else _(
            "{user} asked Minds to recalibrate *{audience}* (research refresh, no instruction)",
            user=mention(user_id),
            audience=name,
        )
    )
    return Message(text=text, blocks=sections(text))


def render_calibrating() -> Message:
    text = _("Calibrating… Minds is refreshing the research and re-allocating the members.")
    return Message(text=text, blocks=[section(text)])


def render_recalibration_progress(*, calibrating: bool, retraining: int | None, total: int | None) -> Message:
    if calibrating:
        return render_calibrating()
    if retraining is None:
        text = _("Recalibrated. Members still retraining in the background…")
    elif total is None:
        text = _n(
            "Recalibrated. {count} member still retraining in the background…",
            "Recalibrated. {count} members still retraining in the background…",
            retraining,
        )
    else:
        text = _n(
            "Recalibrated. {retraining} of {count} member still retraining in the background…",
            "Recalibrated. {retraining} of {count} members still retraining in the background…",
            total,
            retraining=format_number(retraining),
        )
    return Message(text=text, blocks=[section(text)])


def render_recalibrated(result: Recalibration) -> str:
    return _(
        "Minds recalibrated the Audience: {rebuilt} rebuilt in place, {evolved} evolved in place, {added} added; "
        "{retraining} retraining.",
        rebuilt=format_number(result.refreshed_members),
        evolved=format_number(result.evolved_members),
        added=format_number(result.added_members),
        retraining=format_number(result.retraining_members),
    )


def render_recalibration_done() -> Message:
    text = _("Recalibration finished: every member is ready.")
    return Message(text=text, blocks=[section(text)])


def render_recalibration_failed(reason: str) -> Message:
    text = _(
        "Minds did not recalibrate the Audience: {reason} Nothing changed.",
        reason=escape(reason, limit=MAX_REASON_SHOWN),
    )
    return Message(text=text, blocks=[section(text)])


def render_shared_members_refused(names: list[str]) -> Message:
    """409 ``AUDIENCE_MINDS_SHARED``: which members other Audiences share, and how to go ahead."""
    text = _n(
        "Minds did not recalibrate the Audience: {names} also belongs to another Audience, and recalibrating would "
        "change it there too. To go ahead, tick “Also change members that other Audiences share”. Nothing changed.",
        "Minds did not recalibrate the Audience: {names} also belong to other Audiences, and recalibrating would "
        "change them there too. To go ahead, tick “Also change members that other Audiences share”. Nothing changed.",
        len(names) or 2,  # "some members" reads as plural
        names=listing(names, most=10) if names else _("some members"),
    )
    return Message(text=text, blocks=[section(text)])


def render_recalibration_unconfirmed(reason: str, *, audience_name: str) -> Message:
    text = _(
        "Minds did not confirm the recalibration: {reason} It may still have started — check "
        "`/minds audience {audience}` before trying again.",
        reason=escape(reason, limit=MAX_REASON_SHOWN),
        audience=escape(audience_name, limit=MAX_NAME_SHOWN),
    )
    return Message(text=text, blocks=[section(text)])


def render_recalibrate_refused(*, audience_name: str | None = None, owner: bool = True) -> Message:
    if not owner and audience_name:
        text = _(
            "Only the Audience's owner can recalibrate it, and Minds says this workspace's account does not own "
            "{audience}.",
            audience=escape(audience_name, limit=MAX_NAME_SHOWN),
        )
    elif not owner:
        text = _(
            "Only the Audience's owner can recalibrate it, and Minds says this workspace's account does not own it."
        )
    else:
        text = _(
            "Recalibrating an Audience is for its owner: in Slack, workspace admins and the person who installed "
            "the app may do it."
        )
    return Message(text=text, blocks=[section(text)])


def render_grounding_changed(*, audience_name: str) -> Message:
    """Selection mode named a distribution Minds no longer lists for the Audience: nothing was sent."""
    text = _(
        "Minds' grounded distributions of *{audience}* changed since the dialog opened, so nothing was sent. "
        "Open Recalibrate… again to pick from the current ones.",
        audience=escape(audience_name, limit=MAX_NAME_SHOWN),
    )
    return Message(text=text, blocks=[section(text)])
