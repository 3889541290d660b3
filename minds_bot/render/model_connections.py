"""``/minds models``: the team's model connections as Minds lists them. A connection is called verified only
with a ``verifiedAt`` and no capability reported false; unverified ones are shown as such and are never a
default choice. Only declared metadata is shown (never credentials or probe results). Must not touch: I/O."""

from __future__ import annotations

from collections.abc import Sequence

from minds_bot.i18n import N_, _, annotate, join_list, separated
from minds_bot.minds import ModelConnection
from minds_bot.render import Message, escape
from minds_bot.render.common import context, section, sections

DISABLED = N_("Model connections are not enabled on this Minds server: runs use Minds' own models.")
NOTE = N_("Runs use Minds' own models unless a verified connection is chosen; an unverified one is never used.")


def connection_line(connection: ModelConnection) -> str:
    name = escape(connection.name or connection.id)
    model = separated(escape(str(p)) for p in (connection.provider, connection.model) if p)
    parts = [annotate(f"*{name}*", model)]
    if connection.verified:
        parts.append(_("verified {date}", date=escape(connection.verified_at or "")))
    else:
        failing = [escape(k) for k, ok in connection.capabilities.items() if not ok]
        if failing:
            why = _(
                "*not verified*: {capabilities} not available — never picked by default",
                capabilities=join_list(failing),
            )
        else:
            why = _("*not verified* — never picked by default")
        parts.append(why)
    if connection.revision is not None:
        parts.append(_("revision {revision}", revision=escape(str(connection.revision))))
    return "• " + " — ".join(parts)


def render_model_connections(connections: Sequence[ModelConnection] | None) -> Message:
    if connections is None:
        disabled = _(DISABLED)
        return Message(text=disabled, blocks=[section(disabled)])
    if not connections:
        text = _("This team has no model connections in Minds; runs use Minds' own models.")
        return Message(text=text, blocks=[section(text)])
    verified = sum(1 for c in connections if c.verified)
    title = _("Model connections: {verified} of {total} verified", verified=verified, total=len(connections))
    body = "\n".join(connection_line(c) for c in connections)
    return Message(text=title, blocks=[section(f"*{title}*"), *sections(body), context(_(NOTE))])
