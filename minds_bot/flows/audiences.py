"""An Audience built from a brief, followed in a thread: the request line in the channel, a progress line in its
thread (queued → processing → ready) edited only when the state changes, then the Audience or Minds' reason.

Owns: starting the job after the account's limits were read (a per-Audience cap of 0 is a workspace lock:
nothing is created), the keyed request behind it (``flows/keyed.py``: the Idempotency-Key derived from the Slack
request and saved before the POST, so a redelivery reuses it and Minds builds and charges one Audience; **Try
again** after a timeout or network failure re-sends the same brief with the same key, CATALOGUE §2 H.72; the
same brief again within ``KEY_WINDOW`` asks "build another?" and sends nothing; imported source files, from
"Audience from files", are saved with the request and sent again with it; so are the options of the New Audience
dialog, ``BuildOptions``: name, size, creation mode, links, a reviewed dataset segmentation and a public link only
when the person ticked it), and the ``RunHandler`` for
``RunKind.AUDIENCE`` — the run tracker polls the job (never resubmitting) and survives restarts, so a long
build is never lost.
Must not touch: Minds wire shapes or SQL.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from minds_bot.flows.keyed import UNCERTAIN, Repeat, arguments_of, begin, saved_for
from minds_bot.flows.planning import Refused
from minds_bot.flows.spend import SpendRequest, again_command, consent, withdraw
from minds_bot.flows.tracking import Observation, say_in_thread
from minds_bot.i18n import in_channel
from minds_bot.minds import (
    AudienceJobFailed,
    Conflict,
    FromBriefJob,
    FromBriefResult,
    ImportedSource,
    MindsError,
)
from minds_bot.render.errors import user_message
from minds_bot.render.jobs import (
    AUDIENCE_AGAIN,
    AUDIENCE_TRY_AGAIN,
    render_audience_failed,
    render_audience_locked,
    render_audience_progress,
    render_audience_ready,
    render_audience_request,
    render_make_another,
    render_try_again,
)
from minds_bot.render.runs import lost_text
from minds_bot.store import KeyedRequest, RunKind, TrackedRun

if TYPE_CHECKING:
    from minds_bot.flows.invocation import Invocation
    from minds_bot.minds.resources.audiences import CreationMode
    from minds_bot.services import Services

FAILED = "failed"
AUDIENCE_FROM_BRIEF = "audience_from_brief"


@dataclass(frozen=True)
class BuildOptions:
    """What the New Audience dialog adds to a brief; None or empty: not sent (Minds decides)."""

    name: str | None = None
    member_count: int | None = None
    creation_mode: str | None = None
    links: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    web_search: bool = True  # False: grounded only on the brief, links, files and dataset (``includeWebSearch``)
    link_sharing: bool = False  # only when the person ticked "public link" (CATALOGUE §2 D.33)
    dataset: Mapping[str, Any] | None = field(default=None, hash=False)  # a reviewed segmentation, unchanged

    def saved(self) -> dict[str, Any]:
        """The options as saved with the request (JSON), only those set."""
        saved: dict[str, Any] = {
            "name": self.name,
            "memberCount": self.member_count,
            "mode": self.creation_mode,
            "links": list(self.links) or None,
            "keywords": list(self.keywords) or None,
            "noWeb": (not self.web_search) or None,
            "public": self.link_sharing or None,
            "dataset": dict(self.dataset) if self.dataset else None,
        }
        return {key: value for key, value in saved.items() if value is not None}

    @classmethod
    def from_saved(cls, saved: Any) -> BuildOptions:
        saved = saved if isinstance(saved, dict) else {}
        count = saved.get("memberCount")
        return cls(
            name=saved.get("name"),
            member_count=count if isinstance(count, int) else None,
            creation_mode=saved.get("mode"),
            links=tuple(saved.get("links") or ()),
            keywords=tuple(saved.get("keywords") or ()),
            web_search=saved.get("noWeb") is not True,
            link_sharing=saved.get("public") is True,
            dataset=saved.get("dataset"),
        )


NO_OPTIONS = BuildOptions()


async def start_audience(
    invocation: Invocation,
    *,
    brief: str,
    files: Sequence[ImportedSource] = (),
    options: BuildOptions = NO_OPTIONS,
) -> None:
    """Read the limits, then start the job — unless the same brief (files and options) was sent within the key's
    window. ``files``: imported sources (``flows/source_import.py``), saved with the request and passed to Minds
    exactly as it returned them, so **Try again** and **Build another Audience** send them too; ``options``: the
    New Audience dialog's, saved and re-sent the same way."""
    # The channel's spend policy first. Without a size Minds sizes the Audience from the brief, so the responses it
    # counts are not known. Imported files and options travel with a held build in its saved command (JSON).
    command = held_command(brief=brief, files=files, options=options)
    request = SpendRequest(action="audience_build", subject=brief, command=command)
    spend = await consent(invocation, request)
    if spend is None:
        return
    subject = _subject(brief=brief, files=files, options=options)
    arguments: dict[str, object] = {"brief": brief}
    if files:
        arguments["files"] = [f.model_dump(mode="json", by_alias=True) for f in files]
    if options.saved():
        arguments["options"] = options.saved()
    begun = await begin(invocation, purpose=AUDIENCE_FROM_BRIEF, subject=subject, arguments=arguments, again=False)
    if isinstance(begun, Repeat):
        await withdraw(invocation.services, spend)
        await invocation.reply(
            render_make_another(
                kind="audience",
                requester_id=begun.earlier.requester_id,
                asked_at=begun.earlier.created_at,
                action_id=AUDIENCE_AGAIN,
                key=begun.earlier.key,
            )
        )
        return
    await _send(invocation, begun)


def held_command(*, brief: str, files: Sequence[ImportedSource], options: BuildOptions = NO_OPTIONS) -> str:
    """What an approver's click re-runs: the command as typed, or with imported files or the dialog's options
    the brief, files and options."""
    if not files and not options.saved():
        return f"audience new {brief}"  # command syntax, verbatim
    saved = {"brief": brief, "files": [f.model_dump(mode="json", by_alias=True) for f in files]}
    return json.dumps(saved | ({"options": options.saved()} if options.saved() else {}))


def build_from_command(command: str) -> tuple[str, list[ImportedSource], BuildOptions] | None:
    """The brief, files and options a ``held_command`` JSON saved; None for anything else."""
    try:
        saved = json.loads(command)
        files = [ImportedSource.model_validate(f) for f in saved["files"]]
        return str(saved["brief"]), files, BuildOptions.from_saved(saved.get("options"))
    except (ValueError, KeyError, TypeError):
        return None


def _subject(*, brief: str, files: Sequence[ImportedSource], options: BuildOptions = NO_OPTIONS) -> str:
    """What makes two requests "the same": the brief (whitespace and case aside), the files' checksums and the
    dialog's options."""
    words = " ".join(brief.split()).lower()
    if not files and not options.saved():
        return hashlib.sha256(words.encode()).hexdigest()
    checksums = ",".join(sorted(f.sha256 for f in files))
    chosen = json.dumps(options.saved(), sort_keys=True) if options.saved() else ""
    return hashlib.sha256(f"{words}|{checksums}{'|' + chosen if chosen else ''}".encode()).hexdigest()


async def audience_button(invocation: Invocation, *, key: str, again: bool) -> Refused | None:
    """**Try again** (the saved brief, same key) or **Build another Audience** (a new request, a new key)."""
    saved = await saved_for(invocation, key=key, purpose=AUDIENCE_FROM_BRIEF)
    if isinstance(saved, Refused):
        return saved
    if again:
        brief = str(arguments_of(saved)["brief"])
        request = SpendRequest(action="audience_build", subject=brief, command=again_command(key))
        if await consent(invocation, request) is None:  # another Audience passes the channel's policy too
            return None
        fresh = await begin(
            invocation, purpose=AUDIENCE_FROM_BRIEF, subject=saved.subject, arguments=arguments_of(saved), again=True
        )
        assert isinstance(fresh, KeyedRequest)
        saved = fresh
    await _send(invocation, saved)
    return None


async def _send(invocation: Invocation, request: KeyedRequest) -> None:
    """Read the limits, start (or replay) the job, post the request and its progress, and follow it."""
    services = invocation.services
    arguments = arguments_of(request)
    brief = str(arguments["brief"])
    files = [ImportedSource.model_validate(f) for f in arguments.get("files") or []]
    options = BuildOptions.from_saved(arguments.get("options"))
    minds = await invocation.minds()
    limits = await minds.audience_limits()
    if limits.locked:
        await invocation.reply(render_audience_locked())
        return
    key = request.key
    try:
        created = await minds.create_audience_from_brief(
            text=brief,
            idempotency_key=key,
            files=files or None,
            name=options.name,
            member_count=options.member_count,
            creation_mode=cast("CreationMode | None", options.creation_mode),
            links=options.links or None,
            keywords=options.keywords or None,
            include_web_search=None if options.web_search else False,
            dataset_segmentation=options.dataset,
            link_sharing=True if options.link_sharing else None,
        )
    except UNCERTAIN as exc:
        message = render_try_again(kind="audience", reason=user_message(exc), action_id=AUDIENCE_TRY_AGAIN, key=key)
        await invocation.reply(message)
        return
    except Conflict as exc:
        created = _pending_operation(exc)  # this key's build is still running: follow it, never start another
    slack = invocation.client
    with in_channel():  # the request and its thread are the channel's
        shown = render_audience_request(user_id=invocation.user_id, brief=brief)
        done = render_audience_ready(created, limits=limits) if isinstance(created, FromBriefResult) else None
        progress = None if isinstance(created, FromBriefResult) else render_audience_progress(created, limits=limits)
    parent = await slack.chat_postMessage(channel=invocation.channel_id, **shown.as_kwargs())
    thread_ts = parent["ts"]
    if done is not None:  # a replay of a finished build
        await slack.chat_postMessage(channel=invocation.channel_id, thread_ts=thread_ts, **done.as_kwargs())
        return
    assert progress is not None and not isinstance(created, FromBriefResult)
    posted = await slack.chat_postMessage(channel=invocation.channel_id, thread_ts=thread_ts, **progress.as_kwargs())
    await services.tracker.track(
        TrackedRun(
            team_id=invocation.team_id,
            run_id=created.job_id,
            study_id="",
            kind=RunKind.AUDIENCE,
            client_request_id=key,
            channel_id=invocation.channel_id,
            thread_ts=thread_ts,
            progress_ts=posted["ts"],
            last_state=created.status,
            next_poll_at=services.clock(),
        )
    )


def _pending_operation(exc: Conflict) -> FromBriefJob:
    """The build a retried key is still running (409 ``IN_PROGRESS`` with its ``jobId``): the REST form of
    continuing with ``operationId`` (CATALOGUE §2 H.72) — it creates and charges no second Audience. Any other
    conflict is Minds' to say."""
    job_id = exc.data.get("jobId") if exc.code == "IN_PROGRESS" else None
    if not isinstance(job_id, str) or not job_id:
        raise exc
    return FromBriefJob(job_id=job_id, status="processing")


class AudienceJobHandler:
    """How the run tracker reads an Audience build and shows it in its thread."""

    def __init__(self, services: Services) -> None:
        self._services = services

    async def observe(self, run: TrackedRun) -> Observation:
        minds = await self._services.minds.client_for(run.team_id)
        try:
            job = await minds.get_audience_job(run.run_id)
        except AudienceJobFailed as exc:
            return Observation(visible=FAILED, terminal=True, detail=exc)
        return Observation(visible=job.status, terminal=job.status == "completed", detail=job)

    async def show_progress(self, run: TrackedRun, observation: Observation) -> str | None:
        job: FromBriefJob = observation.detail
        slack = await self._services.slack.client_for(run.team_id)
        message = render_audience_progress(job)
        if run.progress_ts:
            await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, **message.as_kwargs())
            return run.progress_ts
        posted = await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, **message.as_kwargs())
        return str(posted["ts"])

    async def post_terminal(self, run: TrackedRun, observation: Observation) -> None:
        slack = await self._services.slack.client_for(run.team_id)
        detail = observation.detail
        if isinstance(detail, MindsError):
            message = render_audience_failed(user_message(detail))
        else:
            job: FromBriefJob = detail
            assert job.result is not None  # the model refuses a completed job without its Audience
            message = render_audience_ready(job.result)
        if run.progress_ts:
            await slack.edit_progress(channel=run.channel_id, ts=run.progress_ts, **message.as_kwargs())
        else:
            await slack.chat_postMessage(channel=run.channel_id, thread_ts=run.thread_ts, **message.as_kwargs())

    async def post_lost(self, run: TrackedRun, reads: int) -> None:
        slack = await self._services.slack.client_for(run.team_id)
        await say_in_thread(slack, run, lost_text("audience", reads=reads))
