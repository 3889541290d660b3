"""``/minds share <study> on|off``: the public link, turned on only after an explicit, confirmed request.

Owns: the command and the confirm button. ``off`` acts at once. ``on`` passes the channel's spend policy first
(``flows/spend.py``, asked before the Study is looked up, so a refused request sends nothing to Minds: by default
it needs an approver's click, then the prompt goes to the requester), then shows an
ephemeral prompt whose button has a Block Kit confirm dialog naming what becomes public; nothing changes until it is
clicked.

Who may confirm (checked server-side when the click arrives): the prompt is ephemeral, so Slack shows it only to the
person who ran the command; in addition the click must come from an ephemeral container and the clicking user must
equal the requester recorded in the button's value. Button values are part of the message the bot sent and are
signed with every interaction Slack delivers, so a user cannot alter them; no store record is needed for a prompt
that lives only as long as the user's Slack client shows it. The link is shown exactly as Minds returns it, and only
while Minds reports the Study public or link-shared. Must not touch: Minds wire shapes or SQL.

"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minds_bot.flows.invocation import Invocation
from minds_bot.flows.spend import SpendRequest, consent, refused_early, their_work
from minds_bot.i18n import _
from minds_bot.render.common import decode_value
from minds_bot.render.share import SHARE_ON_ACTION, render_not_requester, render_share_prompt, render_sharing
from minds_bot.slack.grammar import Share
from minds_bot.slack.listeners import Click, pressed_with_click
from minds_bot.slack.reentry import is_ephemeral
from minds_bot.slack.resolve import resolve_study, study_detail

if TYPE_CHECKING:
    from minds_bot.services import Services
    from minds_bot.slack.surface import Surface


async def handle_share(command: Share, invocation: Invocation) -> None:
    if command.study is None:
        await invocation.say_text(_("Say `/minds share <study> on` or `/minds share <study> off`."))
        return
    word = "on" if command.enable else "off"
    typed = command.study.text
    said = f"share {typed} on"  # command syntax, verbatim
    early = SpendRequest(action="share_on", subject=typed, command=said, responses=0)
    if command.enable and await refused_early(invocation, early):
        return  # the channel refuses public links (recorded), or the person waits: nothing was looked up
    study = await resolve_study(invocation, command.study, rerun=lambda sid: f"share {sid} {word}", confirm_fuzzy=True)
    if study is None:
        return
    if command.enable:
        again = f"share {study.id} on"  # command syntax, verbatim
        request = SpendRequest(action="share_on", subject=study.name, command=again, responses=0)
        if await consent(invocation, request) is None:
            return  # held for an approver (who then brings the requester this prompt) or refused
        detail = await study_detail(invocation, study)
        await invocation.reply(render_share_prompt(study=detail, requester_id=invocation.user_id))
        return
    minds = await invocation.minds()
    state = await minds.set_sharing(study.id, enabled=False)
    await invocation.reply(render_sharing(study_name=study.name, state=state, asked_on=False))


COMMANDS = {Share: handle_share}


async def confirmed(invocation: Invocation, action: dict[str, Any], click: Click) -> None:
    state = decode_value(action.get("value"))
    study_id, requester, name = state.get("s"), state.get("u"), state.get("n")
    if not is_ephemeral(click.body) or not isinstance(study_id, str) or requester != invocation.user_id:
        await invocation.reply(render_not_requester())
        return
    minds = await invocation.minds()
    async with their_work(invocation.services, team_id=invocation.team_id, user_id=invocation.user_id):
        sharing = await minds.set_sharing(study_id, enabled=True)
    shown = name if isinstance(name, str) else _("this Study")
    await invocation.reply(render_sharing(study_name=shown, state=sharing, asked_on=True), replace=True)


def register(surface: Surface, services: Services) -> None:
    surface.router.add(COMMANDS)
    surface.action(SHARE_ON_ACTION)(pressed_with_click(confirmed))
