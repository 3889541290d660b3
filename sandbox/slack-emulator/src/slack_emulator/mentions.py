"""What Slack does to a typed ``@name`` and ``#channel``: pure text rewriting, no state of its own.

Owns: in a message, Slack's client sends a person's ``@chloe`` as ``<@U…>``, ``@here``/``@channel``/``@everyone``
as ``<!here>`` …, and ``#research`` as ``<#C…>``; in a slash command's text, with the command's
"Escape channels, users, and links" on (``should_escape``), Slack sends ``<@U…|chloe>`` and ``<#C…|research>``.
A name matches a member's name or display name (case-insensitive), as Slack's autocomplete does; a name nobody
has, an e-mail address, and anything already inside ``<…>`` stay as typed. Must not touch: workspace state.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

SPECIAL = {"here": "<!here>", "channel": "<!channel>", "everyone": "<!everyone>"}
# "@name" at the start or after a character that cannot end an e-mail address's local part; names run to the
# first character Slack does not allow in one (trailing dots and dashes are punctuation, not name).
_TOKEN = re.compile(r"(?<![\w.@<|])([@#])([\w][\w.\-']*[\w]|[\w])", re.UNICODE)
_ESCAPED = re.compile(r"<[^<>]*>")


@dataclass(frozen=True)
class Named:
    """Someone or something a typed word can name: its id and the names that match it."""

    id: str
    names: tuple[str, ...]


def encode(text: str, *, people: Iterable[Named], channels: Iterable[Named], bar_names: bool = False) -> str:
    """``text`` with the ``@``/``#`` words that name someone or a channel turned into Slack's markup.

    ``bar_names`` adds the name after a bar (``<@U…|chloe>``), as escaped slash command text has it."""
    by_person = {name.lower(): named for named in people for name in named.names if name}
    by_channel = {name.lower(): named for named in channels for name in named.names if name}

    def replace(match: re.Match[str]) -> str:
        sigil, word = match.group(1), match.group(2)
        if sigil == "@":
            if word.lower() in SPECIAL:
                return SPECIAL[word.lower()]
            person = by_person.get(word.lower())
            if person is None:
                return match.group(0)
            return f"<@{person.id}|{word}>" if bar_names else f"<@{person.id}>"
        channel = by_channel.get(word.lower())
        if channel is None:
            return match.group(0)
        return f"<#{channel.id}|{channel.names[0]}>" if bar_names else f"<#{channel.id}>"

    pieces, last = [], 0
    for escaped in _ESCAPED.finditer(text):  # what is already markup stays exactly as it was sent
        pieces.append(_TOKEN.sub(replace, text[last : escaped.start()]))
        pieces.append(escaped.group(0))
        last = escaped.end()
    pieces.append(_TOKEN.sub(replace, text[last:]))
    return "".join(pieces)
