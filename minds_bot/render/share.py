"""Public links (``/minds share <study> on|off``): the confirm prompt and what Minds reports afterwards.

Owns: the ephemeral prompt whose button carries a Block Kit confirm dialog that says what becomes public (the
Study, its attached Audiences and their Minds), and the result — the link shown exactly as Minds returned it,
and only while Minds reports the Study public or link-shared (``SharingState.public_url``).
Must not touch: I/O.
"""

from __future__ import annotations

from slack_sdk.models.blocks import ActionsBlock, ConfirmObject

from minds_bot.minds import SharingState, StudyDetail
from minds_bot.render import MAX_NAME_SHOWN, MAX_SECTION_TEXT, Message, escape
from minds_bot.render.common import button, context, encode_value, section, shorten

SHARE_ON_ACTION = "share_on_confirmed"
MAX_CONFIRM_TEXT = 300
MAX_NAMED_AUDIENCES = 5


def _audiences_sentence(study: StudyDetail) -> str:
    names = [shorten(a.name, MAX_NAME_SHOWN) for a in study.audiences]
    if not names:
        return "This Study has no Audiences attached."
    shown = ", ".join(names[:MAX_NAMED_AUDIENCES])
    more = f" and {len(names) - MAX_NAMED_AUDIENCES} more" if len(names) > MAX_NAMED_AUDIENCES else ""
    return f"Its Audiences ({shown}{more}) and their Minds also become publicly readable."


def render_share_prompt(*, study: StudyDetail, requester_id: str) -> Message:
    """Only the person who asked sees this (ephemeral); the click is checked against ``requester_id`` too."""
    warning = f"Anyone with the link can read “{study.name}”. {_audiences_sentence(study)}"
    confirm = ConfirmObject(
        title="Turn on public link?",
        text=escape(warning, limit=MAX_CONFIRM_TEXT),  # a confirm dialog's text is mrkdwn
        confirm="Turn on",
        deny="Cancel",
        style="danger",
    )
    value = encode_value({"s": study.id, "u": requester_id, "n": shorten(study.name, 80)})
    name = escape(study.name, limit=MAX_NAME_SHOWN)
    lead = f"Turn on the public link for *{name}*? {escape(_audiences_sentence(study))}"
    return Message(
        text=f"Turn on the public link for {name}?",
        blocks=[
            section(lead),
            ActionsBlock(
                elements=[
                    button(
                        "Turn on public link", action_id=SHARE_ON_ACTION, value=value, style="danger", confirm=confirm
                    )
                ]
            ),
            context(escape("Nothing changes until you confirm. `/minds share <study> off` turns it off again.")),
        ],
    )


def render_sharing(*, study_name: str, state: SharingState, asked_on: bool) -> Message:
    url = state.public_url
    name = escape(study_name, limit=MAX_NAME_SHOWN)
    if url:  # exactly as Minds returned it, visible: Slack links the address people can read
        text = f"The public link for *{name}* is on: {escape(url, limit=MAX_SECTION_TEXT - 300)}"
    elif state.is_public or state.is_link_sharing_enabled:
        text = f"Minds reports *{name}* as publicly shared but returned no link; open the Study in Minds to copy it."
    elif asked_on:
        text = f"Minds did not turn on public sharing for *{name}*; it reports the Study as private."
    else:
        text = f"The public link for *{name}* is off; Minds reports the Study as private."
    return Message(text=text, blocks=[section(text)])


def render_not_requester() -> Message:
    text = escape(
        "Only the person who asked to share this Study can confirm it. Run `/minds share <study> on` yourself."
    )
    return Message(text=text, blocks=[section(text)])
