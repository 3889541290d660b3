"""One question's results read from a Study, wherever the question was asked (Slack or Minds' web app): the Study
card's Results button.

Owns: finding where the question's run belongs (its direct run, by the answer message Minds names on it, read from
the Study's run list; the channel the bot posted that run in, if it did) and asking the gate whether the person may
see it there (``Act.SEE``): a run of a channel they are not in is not shown. A question no run of the bot's names
belongs to the Study, which is the workspace's. Then the answers are read (``GET …/messages/{id}/answers``) and
shown as any result is: per Audience with n and the base, quotes, and every answer one click away.
Must not touch: Block Kit (``render/answers.py``), SQL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minds_bot.flows import access
from minds_bot.flows.run_links import run_channel
from minds_bot.minds.output import parse_output
from minds_bot.render import Message
from minds_bot.render.answers import render_result

if TYPE_CHECKING:
    from minds_bot.flows.invocation import Invocation


async def question_results(invocation: Invocation, *, study_id: str, message_id: str) -> Message:
    minds = await invocation.minds()
    walked = await minds.all_study_runs(study_id)
    run = next((r for r in walked.items if r.message_id == message_id), None)
    channel = None
    if run is not None:
        channel = await run_channel(invocation.services, team_id=invocation.team_id, run_id=run.run_id)
    decision = await access.check(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        act=access.Act.SEE,
        thing=access.run_thing(invocation.team_id, channel),
    )
    if decision.refused:
        return Message(text=decision.reason)
    read = await minds.get_message_answers(study_id, message_id)
    output = parse_output(read.output_data)
    return render_result(output, study_id=study_id, message_id=message_id, charted=False)
