"""Cancelling a run: the Cancel button on a progress message and the words around it.

Owns: the ``run_cancel`` action id, the button (with Slack's confirm dialog, so one click never cancels),
progress messages that carry it, and the private notes a click gets back (requested, refused, already over).
The value carries only the run id; who may cancel and whether the run is still live are decided on the server.
Pure: no I/O.
Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

from slack_sdk.models.blocks import ActionsBlock, ConfirmObject

from minds_bot.i18n import N_, _
from minds_bot.render import Message, mention
from minds_bot.render.common import button, section, sections
from minds_bot.render.states import state_word

CANCEL_RUN_ACTION = "run_cancel"
CONFIRM_TEXT = N_(
    "Minds stops the run. Questions that already finished keep their answers; nothing else is asked. This cannot be "
    "undone."
)


def cancel_button_block(run_id: str) -> ActionsBlock:
    """The Cancel button, behind a confirmation dialog."""
    confirm = ConfirmObject(
        title=_("Cancel this run?"),
        text=_(CONFIRM_TEXT),
        confirm=_("Cancel the run"),
        deny=_("Keep running"),
        style="danger",
    )
    return ActionsBlock(
        block_id="run_cancel",
        elements=[button(_("Cancel run"), action_id=CANCEL_RUN_ACTION, value=run_id, style="danger", confirm=confirm)],
    )


def with_cancel(message: Message, run_id: str) -> Message:
    """``message`` (a progress line, already mrkdwn) with the Cancel button below it."""
    blocks = list(message.blocks) or sections(message.text)
    return Message(text=message.text, blocks=[*blocks, cancel_button_block(run_id)])


def render_cancel_requested(*, user_id: str) -> Message:
    """What the progress message says once Minds accepted the cancellation (the result follows in the thread)."""
    text = _(
        ":heavy_multiplication_x: {user} asked Minds to cancel this run; the outcome follows below.",
        user=mention(user_id),
    )
    return Message(text=text, blocks=[section(text)])


def render_cancel_sent() -> Message:
    return Message(text=_("Minds accepted the cancellation. The thread will say what had finished."))


def render_cancel_refused(*, requester_id: str | None) -> Message:
    if requester_id:
        text = _(
            "Only {user}, this channel's approvers and workspace admins can cancel this run. Nothing changed.",
            user=mention(requester_id),
        )
    else:
        text = _("Only this channel's approvers and workspace admins can cancel this run. Nothing changed.")
    return Message(text=text)


def render_run_already_over(status: str | None) -> Message:
    """A second click, or a click after the run ended: nothing changes, and why."""
    if status is None:
        return Message(text=_("This run has already ended and its result is in the thread. Nothing changed."))
    return Message(
        text=_(
            "Minds reports this run as {status} already, so there is nothing to cancel.",
            status=state_word(status),
        )
    )


def render_run_not_live() -> Message:
    return Message(text=_("Minds says this run is no longer running, so there is nothing to cancel. Nothing changed."))


def render_run_unknown() -> Message:
    return Message(
        text=_("That run is no longer on record here, so it cannot be cancelled from Slack. Nothing changed.")
    )


def render_cancel_not_allowed() -> Message:
    return Message(
        text=_(
            "Minds does not offer cancelling this run (it does not know it as a cancellable run). It continues; its "
            "result will follow in the thread."
        )
    )
