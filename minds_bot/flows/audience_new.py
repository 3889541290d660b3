"""Designing an Audience's sample from Slack: the New Audience dialog's dataset review and an Audience made from
chosen Minds (``create_audience``). The build from a brief with the dialog's options is ``flows/audiences.py``'s
(``start_audience`` with ``BuildOptions``).

Owns: the respondent dataset behind a message link — the link read as the plan dialog reads its concept
(``flows/stimulus_link.py``: this workspace's message links only), the gate asked before anything is read from the
linked channel (``access.check``: act SHOW on ``Thing(team, linked channel, kind="file")`` — the person must be in
it now, and a private channel's file is used only there), then the first CSV on that message downloaded with the
bot token from Slack's own file host within Minds' limits (``flows/source_import.py``), imported into Minds (the
import verified: count, order, checksums) and previewed (``preview_dataset_segmentation``, reconciled by the
client); the reviewed preview is saved with the whole request under a key (``flows/keyed.py``) so **Create** builds
with exactly what was shown, in ``benchmark_depth`` (a reviewed dataset needs it), even after a restart. And the
Audience from chosen Minds: the person must be in the channel it is announced in (``access.check`` act POST — it
generates no Minds and counts against no allowance, so it is no spend line), an idempotency key derived from the
Slack submission (a redelivery or retry makes no second Audience), no public link unless ticked.
Must not touch: Block Kit (``render/audience_new.py``), SQL.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from slack_sdk.errors import SlackApiError

from minds_bot.flows import access
from minds_bot.flows.audiences import BuildOptions, start_audience
from minds_bot.flows.keyed import arguments_of, begin, saved_for
from minds_bot.flows.keys import derived_key
from minds_bot.flows.planning import Refused
from minds_bot.flows.source_import import SharedFile, SourceRefused, download_texts, shared_files
from minds_bot.flows.stimulus import Problem
from minds_bot.flows.stimulus_link import MessageLink, read_link, workspace_origin
from minds_bot.i18n import _
from minds_bot.minds import AudienceCreated, MindsError, SegmentationPreview
from minds_bot.render import escape, unescape
from minds_bot.render.audience_new import DATASET_MODE
from minds_bot.render.errors import user_message
from minds_bot.render.stimulus import refusal_text
from minds_bot.store import KeyedRequest

if TYPE_CHECKING:
    from minds_bot.flows.invocation import Invocation

AUDIENCE_REVIEW = "audience_dataset_review"
AUDIENCE_FROM_MINDS = "audience_from_minds"
DATASET_EXTENSION = ".csv"


async def _linked_message(invocation: Invocation, text: str) -> MessageLink | str:
    slack, services, team = invocation.client, invocation.services, invocation.team_id
    link = read_link(text, workspace=await workspace_origin(services, slack, team_id=team))
    if link is Problem.OTHER_WORKSPACE:  # the workspace's address may have changed since it was asked
        link = read_link(text, workspace=await workspace_origin(services, slack, team_id=team, fresh=True))
    if isinstance(link, Problem):
        return unescape(refusal_text(link.value, name="", limit=0))
    decision = await access.check(
        services,
        slack,
        team_id=team,
        user_id=invocation.user_id,
        act=access.Act.SHOW,
        channel_id=invocation.channel_id,
        thing=access.Thing(team, link.channel_id, kind="file"),
    )
    return link if decision.allowed else unescape(decision.reason)


async def _dataset_on(invocation: Invocation, link: MessageLink) -> SharedFile | str:
    try:
        reply = await invocation.client.conversations_replies(
            channel=link.channel_id, ts=link.thread_ts or link.ts, oldest=link.ts, latest=link.ts, inclusive=True
        )
    except SlackApiError:
        return unescape(refusal_text(Problem.NO_MESSAGE.value, name="", limit=0))
    message = next((m for m in reply.get("messages") or [] if m.get("ts") == link.ts), None)
    if message is None:
        return unescape(refusal_text(Problem.NO_MESSAGE.value, name="", limit=0))
    usable, _skipped = shared_files(message)
    dataset = next((f for f in usable if f.name.lower().endswith(DATASET_EXTENSION)), None)
    if dataset is None:
        return _("That message has no CSV file of respondents.")
    return dataset


async def preview_dataset(invocation: Invocation, link_text: str) -> SegmentationPreview | str:
    """The dataset on the linked message, previewed by Minds; or why not, in the person's words (plain text). The
    channel's Build an Audience line is asked again first (it may have changed since the dialog opened): refused,
    nothing is read, downloaded or sent."""
    decision = await access.check(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        act=access.Act.AUDIENCE_BUILD,
        channel_id=invocation.channel_id,
    )
    if not decision.allowed:
        return unescape(decision.reason)
    link = await _linked_message(invocation, link_text)
    if isinstance(link, str):
        return link
    dataset = await _dataset_on(invocation, link)
    if isinstance(dataset, str):
        return dataset
    try:
        token = getattr(invocation.client, "token", None)
        api_url = invocation.services.settings.slack_api_url
        texts = await download_texts([dataset], token=token, slack_api_url=api_url)
        minds = await invocation.minds()
        imported = await minds.import_audience_sources(texts)
        upload = imported.files[0]
        return await minds.preview_dataset_segmentation(name=upload.name, url=upload.url)
    except SourceRefused as exc:
        return str(exc)
    except MindsError as exc:
        return user_message(exc)


async def save_review(
    invocation: Invocation, *, brief: str, options: BuildOptions, preview: SegmentationPreview
) -> str:
    """Save the request with the reviewed segmentation; the key the review view carries."""
    reviewed = BuildOptions(
        name=options.name,
        member_count=options.member_count,
        creation_mode=DATASET_MODE,
        links=options.links,
        keywords=options.keywords,
        web_search=options.web_search,
        link_sharing=options.link_sharing,
        dataset=preview.reviewed(),
    )
    arguments = {"brief": brief, "options": reviewed.saved()}
    subject = hashlib.sha256(json.dumps(arguments, sort_keys=True).encode()).hexdigest()
    saved = await begin(invocation, purpose=AUDIENCE_REVIEW, subject=subject, arguments=arguments, again=True)
    assert isinstance(saved, KeyedRequest)  # ``again``: never "asked before"
    return saved.key


async def create_reviewed(invocation: Invocation, *, key: str) -> Refused | None:
    """**Create** on the review: the saved brief and options, exactly as reviewed, through ``start_audience``."""
    saved = await saved_for(invocation, key=key, purpose=AUDIENCE_REVIEW)
    if isinstance(saved, Refused):
        return saved
    arguments = arguments_of(saved)
    options = BuildOptions.from_saved(arguments.get("options"))
    await start_audience(invocation, brief=str(arguments["brief"]), options=options)
    return None


async def may_post(invocation: Invocation) -> str | None:
    """None when the person may have an Audience from Minds announced in the channel; else the gate's words."""
    decision = await access.check(
        invocation.services,
        invocation.client,
        team_id=invocation.team_id,
        user_id=invocation.user_id,
        act=access.Act.POST,
        channel_id=invocation.channel_id,
    )
    return None if decision.allowed else decision.reason


async def create_from_minds(
    invocation: Invocation, *, name: str, mind_ids: Sequence[str], public: bool
) -> AudienceCreated | str:
    """``POST /audiences`` with the chosen Minds (gate first), keyed by the Slack submission."""
    refused = await may_post(invocation)
    if refused is not None:
        return refused
    key = derived_key(purpose=AUDIENCE_FROM_MINDS, team_id=invocation.team_id, trigger_id=invocation.trigger_id)
    minds = await invocation.minds()
    try:
        return await minds.create_audience(
            name=name, mind_ids=mind_ids, idempotency_key=key, link_sharing=True if public else None
        )
    except MindsError as exc:
        return escape(_("Minds did not make the Audience: {reason}", reason=user_message(exc)))


async def mind_options(invocation_minds: Any, *, query: str) -> list[Any]:
    """Minds for the dialog's search: Minds' own search, newest first, one page."""
    page = await invocation_minds.minds_page(offset=0, limit=100, search=query.strip() or None)
    return list(page.items)
