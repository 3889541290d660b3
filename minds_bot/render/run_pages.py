"""``/minds runs <study>`` a page at a time: which runs of how many a page shows, and its **Older runs** button.

Owns: the page size (``RUNS_PER_PAGE``), the footer line ("Runs 11–17 of 17." — exact, read to the end of Minds'
list; at the read bound it says the bot reads only the newest ones), the **Older runs** button and its value
(the Study's id and how many newer runs to skip: paging state that grants nothing — the listener, which reads the
value back strictly, reads the runs again from Minds and asks the gate who may see which).
Must not touch: I/O, membership (``flows/access.py``), the run lines themselves (``render/runs.py``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from slack_sdk.models.blocks import ActionsBlock, Block

from minds_bot.i18n import _, format_number
from minds_bot.minds import AgentRun, Walked
from minds_bot.minds.models import StudyMessage
from minds_bot.render import MAX_NAME_SHOWN, Message, escape
from minds_bot.render.common import button, context, encode_value, note
from minds_bot.render.runs import render_runs

RUNS_PER_PAGE = 10
RUNS_OLDER_ACTION = "minds_runs_older"
MAX_SKIP = 1000  # the newest 1,000 runs are read (paging.MAX_CURSOR_PAGES pages of 100)
STUDY_ID = re.compile(r"^[A-Za-z0-9_-]{1,100}$")  # what a Study id looks like in a button value


def _older_value(study_id: str, skip: int) -> str | None:
    """The **Older runs** value (read back by ``slack/runs.py``); None for an id the bot would not send."""
    return encode_value({"s": study_id, "o": skip}) if STUDY_ID.match(study_id) else None


def page_line(*, first: int, last: int, read: int, complete: bool) -> str:
    """Which runs a page shows, of how many Minds lists (``complete``) or of the newest ``read`` (the bound)."""
    if complete:
        # i18n: {first}–{last} are run numbers (1 = newest); {total} how many runs the Study has in Minds.
        return _(
            "Runs {first}–{last} of {total}, newest first.",
            first=format_number(first),
            last=format_number(last),
            total=format_number(read),
        )
    return _(
        "Runs {first}–{last} of the newest {total}: Minds has more runs of this Study than the bot reads; open "
        "older ones in Minds.",
        first=format_number(first),
        last=format_number(last),
        total=format_number(read),
    )


def render_run_page(
    history: Walked[AgentRun],
    *,
    skip: int,
    study_id: str,
    study_name: str,
    messages: Sequence[StudyMessage] = (),
    thread_links: Mapping[str, str] | None = None,
    hidden: Collection[str] = (),
) -> Message:
    """The runs numbered ``skip + 1`` … ``skip + RUNS_PER_PAGE`` of ``history`` (the Study's runs, newest first),
    with the footer and, when older runs remain, **Older runs**. ``hidden``: as ``render_runs``."""
    runs = history.items
    page = runs[skip : skip + RUNS_PER_PAGE]
    if skip and not page:  # the list shrank since the button was drawn
        name = escape(study_name, limit=MAX_NAME_SHOWN)
        return note(
            _(
                "{study} has no runs older than number {number} now: Minds lists {total}.",
                study=name,
                number=format_number(skip),
                total=format_number(len(runs)),
            )
        )
    footer: list[Block] = []
    if page:
        footer.append(
            context(page_line(first=skip + 1, last=skip + len(page), read=len(runs), complete=history.complete))
        )
    value = _older_value(study_id, skip + RUNS_PER_PAGE) if len(runs) > skip + RUNS_PER_PAGE else None
    if value is not None:
        footer.append(ActionsBlock(elements=[button(_("Older runs"), action_id=RUNS_OLDER_ACTION, value=value)]))
    listed = render_runs(
        page, study_name=study_name, messages=messages, thread_links=thread_links, hidden=hidden, first=skip + 1
    )
    return Message(text=listed.text, blocks=[*listed.blocks, *footer])
