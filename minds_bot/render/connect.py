"""The ``/minds connect`` modal and its answers (the account name Minds returned is escaped). Pure.

The modal asks the Minds key (optional once the workspace is connected: leave it empty to keep the key and
change only the rest), whether results are also posted to the channel, and the workspace's language — what the
bot says in channels, and to people whose Slack language it does not speak."""

from __future__ import annotations

from slack_sdk.models.blocks import (
    CheckboxesElement,
    ContextBlock,
    InputBlock,
    MarkdownTextObject,
    Option,
    PlainTextInputElement,
    SectionBlock,
    StaticSelectElement,
)
from slack_sdk.models.views import View

from minds_bot.i18n import LANGUAGES, SOURCE_LANGUAGE, _
from minds_bot.render import MAX_NAME_SHOWN, escape

CONNECT_CALLBACK = "connect_minds"
KEY_BLOCK = "minds_key"
KEY_ACTION = "minds_key_input"
OUTCOME_BLOCK = "outcome_in_channel"
OUTCOME_ACTION = "outcome_in_channel_input"
OUTCOME_VALUE = "outcome"
LANGUAGE_BLOCK = "workspace_language"
LANGUAGE_ACTION = "workspace_language_input"


def render_connect_modal(
    *, channel_id: str, current_account: str | None, outcome: bool = True, language: str = SOURCE_LANGUAGE
) -> View:
    status = (
        _(
            "This workspace is connected to Minds as *{account}*. A new key replaces it; leave the key empty to "
            "keep it and change only the settings below.",
            account=escape(current_account, limit=MAX_NAME_SHOWN),
        )
        if current_account
        else _("This workspace is not connected to Minds yet.")
    )
    outcome_option = Option(value=OUTCOME_VALUE, text=_("Say in the channel how each run ended"))
    languages = [Option(value=code, text=name) for code, name in LANGUAGES.items()]  # each in its own words
    chosen = next((o for o in languages if o.value == language), languages[0])
    return View(
        type="modal",
        callback_id=CONNECT_CALLBACK,
        private_metadata=channel_id,
        title=_("Connect Minds"),
        submit=_("Connect"),
        close=_("Cancel"),
        blocks=[
            SectionBlock(text=MarkdownTextObject(text=status)),
            InputBlock(
                block_id=KEY_BLOCK,
                label=_("Minds API key"),
                optional=current_account is not None,
                element=PlainTextInputElement(action_id=KEY_ACTION, placeholder="minds_…", max_length=200),
                hint=_("Create one in Minds under Settings → API Keys. It is stored encrypted and never shown again."),
            ),
            InputBlock(
                block_id=OUTCOME_BLOCK,
                label=_("Results"),
                optional=True,
                element=CheckboxesElement(
                    action_id=OUTCOME_ACTION,
                    options=[outcome_option],
                    initial_options=[outcome_option] if outcome else None,
                ),
                hint=_(
                    "The plan message's last line says Completed, Partial, Cancelled by whom… Otherwise it only says "
                    "that the run ended. Results are always in the run's thread."
                ),
            ),
            InputBlock(
                block_id=LANGUAGE_BLOCK,
                label=_("Workspace language"),
                element=StaticSelectElement(action_id=LANGUAGE_ACTION, options=languages, initial_option=chosen),
                hint=_(
                    "What the bot says in channels, and to people whose Slack language it does not speak. "
                    "Everyone else hears their own Slack language."
                ),
            ),
            ContextBlock(
                elements=[MarkdownTextObject(text=_("Everyone in this workspace will use this Minds account's plan."))]
            ),
        ],
    )


def settings_saved_text() -> str:
    return _("Saved. The Minds key is unchanged.")


def connected_text(account: str | None) -> str:
    """``account`` is the name or email Minds gave; None when Minds named the account only by its id."""
    if account is None:
        return _("Minds is connected. Minds did not say the account's name or email. Try `/minds studies`.")
    return _("Minds is connected as *{account}*. Try `/minds studies`.", account=escape(account, limit=MAX_NAME_SHOWN))
