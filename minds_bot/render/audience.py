"""The Audience card (``/minds audience <name>``). Its Export and Duplicate buttons re-enter
``/minds export audience`` and ``/minds duplicate audience``, whose replies are ``render/profiles.py``.

Owns: the card's blocks — members (the first few by name, the count Minds reports), coverage of the standard
dimensions (``sourced``, ``proxy``, ``assumed``, ``missing``), background research, "Calibrating…" while a
recalibration runs, team sharing and the public link (only while Minds reports it active), Formations (counts
called provisional unless ``ready``) and builds in progress — and the buttons Ask · Export, plus Recalibrate… when
Minds says the account owns the Audience, then the managing row (``render/audience_manage.py``: Members ·
Formations · Edit · Duplicate… · Delete). ``AUDIENCE_DUPLICATE_ACTION`` stays for cards posted before the named
copy. Every Minds text is escaped.
Must not touch: I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from slack_sdk.models.blocks import ActionsBlock, Block, DividerBlock, HeaderBlock

from minds_bot.i18n import N_, _, _n, format_number, join_list, separated
from minds_bot.minds import AudienceDetail, AudienceProgress, Formation
from minds_bot.render import MAX_NAME_SHOWN, MAX_REASON_SHOWN, MAX_WORD_SHOWN, Message, escape
from minds_bot.render.audience_manage import manage_buttons
from minds_bot.render.browse import minds_label
from minds_bot.render.common import button, context, encode_value, listing, sections, shorten
from minds_bot.render.states import state_word

AUDIENCE_ASK_ACTION = "audience_ask"
AUDIENCE_EXPORT_ACTION = "audience_export"
AUDIENCE_DUPLICATE_ACTION = "audience_duplicate"
AUDIENCE_RECALIBRATE_ACTION = "audience_recalibrate"
MEMBER_NAMES = 8
MAX_FORMATIONS = 6
MAX_SUBGROUPS = 8
MAX_HEADER = 150
MAX_DIMENSIONS_LISTED = 20  # per coverage status; the rest are counted
NAME_IN_VALUE = 75
COVERAGE_ORDER = ("sourced", "proxy", "assumed", "missing")
# One line per coverage status: how many standard dimensions have it, then their names.
COVERAGE_LINES = {
    "sourced": N_("• {count} sourced: {dimensions}"),
    "proxy": N_("• {count} proxy (a wider area or population): {dimensions}"),
    "assumed": N_("• {count} assumed (model-proposed, never used for sizing): {dimensions}"),
    "missing": N_("• {count} missing: {dimensions}"),
}


def audience_value(audience_id: str, name: str) -> str | None:
    """Button value: the Audience id and (shortened) name to show; it grants nothing. None when it cannot fit
    (then the card has no buttons)."""
    return encode_value({"a": audience_id, "n": shorten(name, NAME_IN_VALUE)})


def _members(audience: AudienceDetail) -> str:
    names = [escape(m.name, limit=MAX_NAME_SHOWN) for m in audience.minds if m.name][:MEMBER_NAMES]
    minds = minds_label(audience.mind_count)
    if not names:
        return _("*Members:* {minds}", minds=minds)
    more = audience.mind_count - len(names)
    if more > 0:
        return _(
            "*Members:* {minds} — {names} and {more} more",
            minds=minds,
            names=join_list(names),
            more=format_number(more),
        )
    return _("*Members:* {minds} — {names}", minds=minds, names=join_list(names))


def _coverage(audience: AudienceDetail) -> str:
    research = audience.research
    if research is None or research.dimensions is None:
        return _("*Coverage:* not reported by Minds.")
    if not research.dimensions:
        return _("*Coverage:* Minds lists no researched dimensions.")
    lines = []
    for status in COVERAGE_ORDER:
        names = [d.name for d in research.dimensions if d.status == status]
        if names:
            lines.append(
                _(
                    COVERAGE_LINES[status],
                    count=format_number(len(names)),
                    dimensions=listing(names, most=MAX_DIMENSIONS_LISTED),
                )
            )
    return _("*Coverage of the standard dimensions:*") + "\n" + "\n".join(lines)


def _research(audience: AudienceDetail) -> str:
    research = audience.research
    phase = research.phase or research.status if research else None
    if phase == "researching":
        line = _(
            "*Background research:* {phase} — the Audience is usable now; sourced evidence replaces assumptions as "
            "it arrives.",
            phase=escape(phase, limit=MAX_WORD_SHOWN),
        )
    elif phase:
        line = _("*Background research:* {phase}", phase=escape(phase, limit=MAX_WORD_SHOWN))
    else:
        line = _("*Background research:* not reported.")
    calibration = audience.calibration
    if calibration is None:
        return line + "\n" + _("*Calibration:* not reported.")
    if calibration.active:
        return line + "\n" + _("*Calibrating…* a recalibration is running; members change when it finishes.")
    return line


def _sharing(audience: AudienceDetail) -> str:
    team = {
        True: _("shared with the team"),
        False: _("not shared with the team"),
        None: _("team sharing not reported"),
    }
    public = audience.is_public or audience.is_link_sharing_enabled
    link = _("public link on") if public else _("public link off")
    return _("Sharing: {team} · {link}.", team=team[audience.is_shared_with_team], link=link)


def _formation(formation: Formation) -> str:
    groups = sorted(formation.subgroups, key=lambda s: s.position)
    parts = [
        # i18n: A subgroup of an Audience's formation and how many Minds are in it: "Women 12".
        _(
            "{subgroup} {count}",
            subgroup=escape(s.label, limit=MAX_NAME_SHOWN),
            count=format_number(s.count.memberships),
        )
        for s in groups[:MAX_SUBGROUPS]
    ]
    if len(groups) > MAX_SUBGROUPS:
        parts.append(_("and {more} more", more=format_number(len(groups) - MAX_SUBGROUPS)))
    name, subgroups = escape(formation.name, limit=MAX_NAME_SHOWN), separated(parts)
    if formation.status == "ready":
        bold = f"*{name}*"
        return "• " + _("{label}: {text}", label=bold, text=subgroups)
    return _(
        "• *{formation}* ({status}: counts are provisional): {subgroups}",
        formation=name,
        status=state_word(formation.status),
        subgroups=subgroups,
    )


def _formations(formations: Sequence[Formation] | None, error: str | None) -> str:
    if formations is None:
        return _(
            "*Formations:* could not be read — {reason}",
            reason=escape(error or _("no reason given"), limit=MAX_REASON_SHOWN),
        )
    if not formations:
        return _("*Formations:* none visible to this account.")
    lines = [_formation(f) for f in formations[:MAX_FORMATIONS]]
    if len(formations) > MAX_FORMATIONS:
        lines.append(_("• and {more} more", more=format_number(len(formations) - MAX_FORMATIONS)))
    return _("*Formations:*") + "\n" + "\n".join(lines)


def _builds(progress: AudienceProgress | None, error: str | None) -> str:
    if progress is None:
        return _(
            "Builds: could not be read — {reason}", reason=escape(error or _("no reason given"), limit=MAX_REASON_SHOWN)
        )
    if not progress.in_progress:
        return _("Builds: none in progress.")
    building = (
        progress.building
        if progress.building is not None
        else sum(1 for m in progress.members if m.status in ("queued", "training", "building"))
    )
    if progress.total is None:
        return _n(
            "Builds in progress: {count} member is still being built or retrained.",
            "Builds in progress: {count} members are still being built or retrained.",
            building,
        )
    return _n(
        "Builds in progress: {building} of {count} member is still being built or retrained.",
        "Builds in progress: {building} of {count} members are still being built or retrained.",
        progress.total,
        building=format_number(building),
    )


def _buttons(audience: AudienceDetail) -> list[Block]:
    value = audience_value(audience.id, audience.name)
    if value is None:  # an id too long for a button: the commands still work
        return [context(_("Ask, export or duplicate it with `/minds ask`, `/minds export` or `/minds duplicate`."))]
    elements = [
        button(_("Ask"), action_id=AUDIENCE_ASK_ACTION, value=value, style="primary"),
        button(_("Export"), action_id=AUDIENCE_EXPORT_ACTION, value=value),
    ]
    if audience.is_owner:
        elements.append(button(_("Recalibrate…"), action_id=AUDIENCE_RECALIBRATE_ACTION, value=value))
    return [ActionsBlock(elements=elements), *manage_buttons(audience)]


def render_audience_card(
    *,
    audience: AudienceDetail,
    formations: Sequence[Formation] | None,
    progress: AudienceProgress | None,
    formations_error: str | None = None,
    progress_error: str | None = None,
) -> Message:
    blocks: list[Block] = [
        HeaderBlock(text=shorten(audience.name, MAX_HEADER)),
        *sections(_members(audience)),
        *sections(_coverage(audience)),
        *sections(_research(audience)),
        *sections(_formations(formations, formations_error)),
        context(_builds(progress, progress_error)),
        context(_sharing(audience)),
        DividerBlock(),
        *_buttons(audience),
    ]
    return Message(text=_("Audience {audience}", audience=escape(audience.name, limit=MAX_NAME_SHOWN)), blocks=blocks)
