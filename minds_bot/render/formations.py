"""The Audience card's Formations: the list (each with Recompute and a Delete confirmed by name), and the New
Formation dialogs — what to split by, "proposing…", Minds' proposal to review and edit, or why there is none.

Owns: those blocks, views and ids. Counts are called provisional unless ``ready``; every Minds and person text is
escaped. The shared dialog helpers are ``render/audience_manage.py``'s.
Must not touch: I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from slack_sdk.models.blocks import ActionsBlock, Block, ConfirmObject, InputBlock, PlainTextInputElement
from slack_sdk.models.views import View

from minds_bot.i18n import _, _n, format_number, separated
from minds_bot.minds import AudienceDetail, Formation
from minds_bot.minds.models.audience_manage import FormationPreview
from minds_bot.render import MAX_NAME_SHOWN, Message, escape
from minds_bot.render.audience_manage import VALUE, audience_value, modal, text_input
from minds_bot.render.common import button, context, encode_value, section, shorten
from minds_bot.render.states import state_word

NAME_IN_METADATA = 75
FORMATION_NEW_ACTION = "formation_new"
FORMATION_RECOMPUTE_ACTION = "formation_recompute"
FORMATION_DELETE_ACTION = "formation_delete"
FORMATION_ASK_VIEW = "formation_ask_modal"
FORMATION_REVIEW_VIEW = "formation_review_modal"
SPLIT_BLOCK, SPLIT_ACTION = "formation_request", "value"
INTENT_BLOCK = "formation_intent"
FORMATION_NAME_BLOCK = "formation_name"
LABEL_BLOCK = "subgroup_label_{index}"
DEFINITION_BLOCK = "subgroup_definition_{index}"
MAX_SPLIT_REQUEST = 2000  # Minds trims the Formation request to 2,000 characters (the seeds)
MAX_LABEL = 100
MAX_DEFINITION = 500
MAX_FORMATIONS_SHOWN = 15
MAX_GROUPS = 15  # Minds' hypothesis holds 2–15 subgroups
MAX_SUBGROUPS_SHOWN = 8
NAME_IN_CONFIRM = 80  # a confirmation dialog's text holds 300 characters


# --- Formations ----------------------------------------------------------------------------------------------------


def _formation_value(audience_id: str, formation: Formation) -> str | None:
    return encode_value({"a": audience_id, "f": formation.id, "n": shorten(formation.name, NAME_IN_METADATA)})


def _formation_line(formation: Formation) -> str:
    groups = sorted(formation.subgroups, key=lambda s: s.position)
    parts = [
        _(
            "{subgroup} {count}",
            subgroup=escape(s.label, limit=MAX_NAME_SHOWN),
            count=format_number(s.count.memberships),
        )
        for s in groups[:MAX_SUBGROUPS_SHOWN]
    ]
    if len(groups) > MAX_SUBGROUPS_SHOWN:
        parts.append(_("and {more} more", more=format_number(len(groups) - MAX_SUBGROUPS_SHOWN)))
    name = escape(formation.name, limit=MAX_NAME_SHOWN)
    if formation.status == "ready":
        return _("*{formation}*: {subgroups}", formation=name, subgroups=separated(parts))
    return _(
        "*{formation}* ({status}: counts are provisional): {subgroups}",
        formation=name,
        status=state_word(formation.status),
        subgroups=separated(parts) or "—",
    )


def _formation_blocks(audience: AudienceDetail, formation: Formation) -> list[Block]:
    blocks: list[Block] = [section(_formation_line(formation))]
    value = _formation_value(audience.id, formation)
    if value is None or formation.can_mutate is False:
        return blocks
    confirm = ConfirmObject(
        title=_("Delete this Formation?"),
        text=_(
            "Delete the Formation *{formation}* of *{audience}*? Study messages that used it keep showing it.",
            formation=escape(formation.name, limit=NAME_IN_CONFIRM),
            audience=escape(audience.name, limit=NAME_IN_CONFIRM),
        ),
        confirm=_("Delete"),
        deny=_("Cancel"),
    )
    elements = [
        button(_("Recompute"), action_id=f"{FORMATION_RECOMPUTE_ACTION}:{formation.id}", value=value),
        button(
            _("Delete"),
            action_id=f"{FORMATION_DELETE_ACTION}:{formation.id}",
            value=value,
            style="danger",
            confirm=confirm,
        ),
    ]
    return [*blocks, ActionsBlock(elements=elements)]


def render_formations(*, audience: AudienceDetail, formations: Sequence[Formation]) -> Message:
    name = escape(audience.name, limit=MAX_NAME_SHOWN)
    heading = _n(
        "*{audience}*: {count} Formation.", "*{audience}*: {count} Formations.", len(formations), audience=name
    )
    blocks: list[Block] = [section(heading)]
    for formation in formations[:MAX_FORMATIONS_SHOWN]:
        blocks += _formation_blocks(audience, formation)
    if len(formations) > MAX_FORMATIONS_SHOWN:
        blocks.append(
            context(
                _(
                    "{shown} of {count} shown here; the rest are in Minds.",
                    shown=format_number(MAX_FORMATIONS_SHOWN),
                    count=format_number(len(formations)),
                )
            )
        )
    value = audience_value(audience.id, audience.name)
    if value is not None:
        blocks.append(ActionsBlock(elements=[button(_("New Formation…"), action_id=FORMATION_NEW_ACTION, value=value)]))
    return Message(text=heading, blocks=blocks)


def render_recomputing(formation_name: str) -> str:
    return _(
        "Minds is sorting the current members into *{formation}* again; its counts are provisional until it is ready.",
        formation=escape(formation_name, limit=MAX_NAME_SHOWN),
    )


def render_formation_deleted(formation_name: str) -> str:
    return _("Deleted the Formation *{formation}*.", formation=escape(formation_name, limit=MAX_NAME_SHOWN))


def render_formation_not_mutable(formation_name: str) -> str:
    return _(
        "Minds does not let this account change the Formation *{formation}*. Nothing was changed.",
        formation=escape(formation_name, limit=MAX_NAME_SHOWN),
    )


def formation_ask_view(*, audience_id: str, audience_name: str, channel_id: str) -> View:
    return modal(
        callback_id=FORMATION_ASK_VIEW,
        title=_("New Formation"),
        submit=_("Propose"),
        metadata={"a": audience_id, "n": shorten(audience_name, NAME_IN_METADATA), "c": channel_id},
        blocks=[
            InputBlock(
                block_id=SPLIT_BLOCK,
                label=_("What should the members be split by?"),
                optional=True,
                element=PlainTextInputElement(
                    action_id=VALUE,
                    multiline=True,
                    max_length=MAX_SPLIT_REQUEST,
                    placeholder=_("e.g. purchase frequency · age · attitude to sustainability"),
                ),
            ),
            context(_("Minds proposes subgroups for you to review; nothing is saved before you create it.")),
        ],
    )


def formation_working_view() -> View:
    return View(
        type="modal",
        title=_("New Formation"),
        close=_("Cancel"),
        blocks=[section(_("Minds is proposing subgroups…"))],
    )


def formation_failed_view(reason: str) -> View:
    return View(
        type="modal",
        title=_("New Formation"),
        close=_("Close"),
        blocks=[
            section(_("Minds could not propose subgroups: {reason}", reason=escape(reason, limit=MAX_NAME_SHOWN * 4)))
        ],
    )


def formation_refused_view(reason: str) -> View:
    """The gate refused (``reason``: its mrkdwn, already escaped)."""
    return View(type="modal", title=_("New Formation"), close=_("Close"), blocks=[section(reason)])


def formation_review_view(*, preview: FormationPreview, metadata: str) -> View:
    """The proposal to review and edit: what the split is, a name, and each subgroup's label and rule."""
    hypothesis = preview.hypothesis
    blocks: list[Block] = [
        context(
            _n(
                "Minds proposes {groups} subgroups for {count} member. Edit them, then create the Formation.",
                "Minds proposes {groups} subgroups for {count} members. Edit them, then create the Formation.",
                preview.member_count,
                groups=format_number(len(hypothesis.subgroups)),
            )
        )
    ]
    if preview.hard_cap_exceeded:
        blocks.append(
            context(_("Minds says this Audience has more than 1,000 members, so it will refuse the Formation."))
        )
    elif preview.soft_warn:
        blocks.append(context(_("With 50 members or more the build takes noticeably longer.")))
    blocks.append(text_input(INTENT_BLOCK, _("The split"), initial=hypothesis.intent, limit=MAX_DEFINITION))
    name_input = text_input(FORMATION_NAME_BLOCK, _("Name (optional)"), initial=None, limit=MAX_LABEL)
    name_input.optional = True
    blocks.append(name_input)
    for index, group in enumerate(hypothesis.subgroups):
        number = format_number(index + 1)
        blocks.append(
            text_input(
                LABEL_BLOCK.format(index=index),
                _("Subgroup {number}", number=number),
                initial=group.label,
                limit=MAX_LABEL,
            )
        )
        blocks.append(
            text_input(
                DEFINITION_BLOCK.format(index=index),
                _("Who belongs to subgroup {number}", number=number),
                initial=group.definition,
                limit=MAX_DEFINITION,
                multiline=True,
            )
        )
    return modal(
        callback_id=FORMATION_REVIEW_VIEW,
        title=_("New Formation"),
        submit=_("Create"),
        metadata=metadata,
        blocks=blocks,
    )


def review_incomplete() -> str:
    return _("Fill in the split, and each subgroup's label and rule.")


def labels_repeat() -> str:
    return _("Each subgroup needs its own label.")


def render_formation_created(*, name: str, groups: int) -> str:
    return _n(
        "Minds is building the Formation *{formation}* ({count} subgroup); its counts are provisional until it is "
        "ready. See it under Formations on the Audience card.",
        "Minds is building the Formation *{formation}* ({count} subgroups); its counts are provisional until it is "
        "ready. See it under Formations on the Audience card.",
        groups,
        formation=escape(name, limit=MAX_NAME_SHOWN),
    )
