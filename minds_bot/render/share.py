"""Public links (``/minds share <study> on|off``): the confirm prompt and what Minds reports afterwards.

Owns: the ephemeral prompt whose button carries a Block Kit confirm dialog that says what becomes public (the
Study, its attached Audiences and their Minds), and the result — the link shown exactly as Minds returned it,
and only while Minds reports the Study public or link-shared (``SharingState.public_url``).
Must not touch: I/O.
"""

from __future__ import annotations

from slack_sdk.models.blocks import ActionsBlock, ConfirmObject

from minds_bot.i18n import _, format_number, join_list
from minds_bot.minds import SharingState, StudyDetail
from minds_bot.render import MAX_NAME_SHOWN, MAX_SECTION_TEXT, Message, escape
from minds_bot.render.common import button, context, encode_value, section, shorten

SHARE_ON_ACTION = "share_on_confirmed"
MAX_CONFIRM_TEXT = 300
MAX_NAMED_AUDIENCES = 5


def _audiences_sentence(study: StudyDetail) -> str:
    names = [shorten(a.name, MAX_NAME_SHOWN) for a in study.audiences]
    if not names:
        return _("This Study has no Audiences attached.")
    shown = join_list(names[:MAX_NAMED_AUDIENCES])
    if len(names) > MAX_NAMED_AUDIENCES:
        return _(
            "Its Audiences ({audiences} and {more} more) and their Minds also become publicly readable.",
            audiences=shown,
            more=format_number(len(names) - MAX_NAMED_AUDIENCES),
        )
    return _("Its Audiences ({audiences}) and their Minds also become publicly readable.", audiences=shown)


def render_share_prompt(*, study: StudyDetail, requester_id: str) -> Message:
    """Only the person who asked sees this (ephemeral); the click is checked against ``requester_id`` too."""
    warning = _(
        "Anyone with the link can read “{study}”. {audiences}", study=study.name, audiences=_audiences_sentence(study)
    )
    confirm = ConfirmObject(
        title=_("Turn on public link?"),
        text=escape(warning, limit=MAX_CONFIRM_TEXT),  # a confirm dialog's text is mrkdwn
        confirm=_("Turn on"),
        deny=_("Cancel"),
        style="danger",
    )
    value = encode_value({"s": study.id, "u": requester_id, "n": shorten(study.name, 80)})
    name = escape(study.name, limit=MAX_NAME_SHOWN)
    lead = _(
        "Turn on the public link for *{study}*? {audiences}", study=name, audiences=escape(_audiences_sentence(study))
    )
    return Message(
        text=_("Turn on the public link for {study}?", study=name),
        blocks=[
            section(lead),
            ActionsBlock(
                elements=[
                    button(
                        _("Turn on public link"),
                        action_id=SHARE_ON_ACTION,
                        value=value,
                        style="danger",
                        confirm=confirm,
                    )
                ]
            ),
            context(escape(_("Nothing changes until you confirm. `/minds share <study> off` turns it off again."))),
        ],
    )


def render_sharing(*, study_name: str, state: SharingState, asked_on: bool) -> Message:
    url = state.public_url
    name = escape(study_name, limit=MAX_NAME_SHOWN)
    if url:  # exactly as Minds returned it, visible: Slack links the address people can read
        text = _(
            "The public link for *{study}* is on: {url}", study=name, url=escape(url, limit=MAX_SECTION_TEXT - 300)
        )
    elif state.is_public or state.is_link_sharing_enabled:
        text = _(
            "Minds reports *{study}* as publicly shared but returned no link; open the Study in Minds to copy it.",
            study=name,
        )
    elif asked_on:
        text = _("Minds did not turn on public sharing for *{study}*; it reports the Study as private.", study=name)
    else:
        text = _("The public link for *{study}* is off; Minds reports the Study as private.", study=name)
    return Message(text=text, blocks=[section(text)])


def render_not_requester() -> Message:
    text = escape(
        _("Only the person who asked to share this Study can confirm it. Run `/minds share <study> on` yourself.")
    )
    return Message(text=text, blocks=[section(text)])
