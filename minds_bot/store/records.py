"""The durable records the bot keeps, as frozen pydantic models.

Owns the shapes and their invariants (aware UTC datetimes, secret fields as `SecretStr` so no repr shows
them). Must not know how they are stored: `codec.py` maps them to rows, the stores persist them.
Fields named `created_at` / `updated_at` are bookkeeping stamped by the store from its injected clock; callers
leave them None. Every other time is the caller's data.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, SecretStr

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The production clock; tests inject their own."""
    return datetime.now(UTC)


def _as_utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


# Naive datetimes are rejected (AwareDatetime); aware ones are normalised to UTC so comparisons are plain.
UtcDatetime = Annotated[AwareDatetime, AfterValidator(_as_utc)]


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class PlanState(StrEnum):
    PREPARING = "preparing"
    OPEN = "open"
    APPROVED = "approved"
    DISCARDED = "discarded"
    RUNNING = "running"


class ApprovalState(StrEnum):
    PENDING = "pending"  # claimed; the confirm call may or may not have reached Minds
    SUBMITTED = "submitted"  # Minds returned a run id
    FAILED = "failed"  # Minds definitively refused (nothing started); a new approval may claim again


class RunKind(StrEnum):
    RESEARCH = "research"
    DIRECT = "direct"
    PLAN = "plan"  # a plan preview being prepared: the same POST replayed until the 200 arrives
    EXPORT = "export"  # a Study export being built, then attached in Slack
    CONSISTENCY = "consistency"  # answerConsistency arriving after a research run's result was posted
    AUDIENCE = "audience"  # an Audience being built from a brief (run_id is the job id)
    RECALIBRATION = "recalibration"  # an Audience recalibrating, then retraining (study_id holds the Audience id)
    HEATMAP = "heatmap"  # a question heatmap being analysed (client_request_id holds the asset key)


class ExportState(StrEnum):
    QUEUED = "queued"
    PROCESSING = "processing"
    COMPLETED = "completed"  # ready at Minds, not yet in Slack
    FAILED = "failed"
    DELIVERED = "delivered"  # uploaded to Slack


FINISHED_EXPORT_STATES = frozenset({ExportState.FAILED, ExportState.DELIVERED})


class PolicyMode(StrEnum):
    """What a channel's spend policy does with one action (``/minds policy``)."""

    NOW = "now"  # runs at once
    APPROVE = "approve"  # held until an approver or admin of the channel clicks Approve
    REFUSE = "refuse"  # refused, with who can change the policy


class SpendOutcome(StrEnum):
    """Where one recorded spend stands (``/minds activity``)."""

    HELD = "held"  # waiting for an approver's click
    APPROVED = "approved"  # an approver clicked; the action is about to be sent (claimed exactly once)
    SENT = "sent"  # the request went to Minds; what Minds answered is said where the action answers
    STARTED = "started"  # Minds accepted it (a run or job id came back)
    FAILED = "failed"  # Minds refused it or gave no answer
    DECLINED = "declined"  # an approver declined: nothing was sent
    REFUSED = "refused"  # the channel's policy refuses it: nothing was sent
    WITHDRAWN = "withdrawn"  # nothing was sent after all: the bot asked first ("a second copy?"), or an approved
    # action could not start (its Study gone, its requester busy)


class ScheduleKind(StrEnum):
    DAILY = "daily"
    WEEKLY = "weekly"
    CRON = "cron"


class BotRecord(Record):
    """The bot side of one Slack installation (one per workspace or org)."""

    enterprise_id: str | None = None
    enterprise_name: str | None = None
    team_id: str | None = None
    team_name: str | None = None
    is_enterprise_install: bool = False
    app_id: str | None = None
    bot_token: SecretStr
    bot_refresh_token: SecretStr | None = None
    bot_token_expires_at: UtcDatetime | None = None
    bot_id: str
    bot_user_id: str
    bot_scopes: tuple[str, ...] = ()
    installed_at: UtcDatetime


class InstallationRecord(Record):
    """One user's OAuth installation (the latest per enterprise, team and installer)."""

    enterprise_id: str | None = None
    enterprise_name: str | None = None
    enterprise_url: str | None = None
    team_id: str | None = None
    team_name: str | None = None
    is_enterprise_install: bool = False
    app_id: str | None = None
    user_id: str  # the installer
    bot_token: SecretStr | None = None
    bot_refresh_token: SecretStr | None = None
    bot_token_expires_at: UtcDatetime | None = None
    bot_id: str | None = None
    bot_user_id: str | None = None
    bot_scopes: tuple[str, ...] = ()
    user_token: SecretStr | None = None
    user_refresh_token: SecretStr | None = None
    user_token_expires_at: UtcDatetime | None = None
    user_scopes: tuple[str, ...] = ()
    incoming_webhook_url: SecretStr | None = None  # a webhook URL is a credential
    incoming_webhook_channel: str | None = None
    incoming_webhook_channel_id: str | None = None
    incoming_webhook_configuration_url: str | None = None
    token_type: str | None = None
    installed_at: UtcDatetime

    def to_bot(self) -> BotRecord | None:
        """The bot half, when this installation carries a bot token."""
        if self.bot_token is None or self.bot_id is None or self.bot_user_id is None:
            return None
        return BotRecord.model_validate(
            {name: getattr(self, name) for name in BotRecord.model_fields if name in type(self).model_fields}
        )


class WorkspaceSettings(Record):
    """A workspace connected to Minds with /minds connect."""

    team_id: str
    minds_key: SecretStr
    account_label: str | None = None  # from GET /auth/me, shown instead of the key
    default_language: str = "en"
    outcome_in_channel: bool = True  # the plan message's closing line says how a run ended (else only that it did)
    connected_by: str
    connected_at: UtcDatetime
    updated_at: UtcDatetime | None = None


class PreviewReceipt(Record):
    """A plan preview in preparation: the exact body, saved with the key before the first attempt, and what
    a 202 returned (replayed as headers until the 200 arrives)."""

    request_id: str | None = None
    operation_id: str | None = None
    body: str | None = None


class ShownQuestion(Record):
    """A question as a plan message showed it: id, exact text and ``response``, how it was answered (Minds'
    response contract as JSON; None in memories kept before it was recorded)."""

    id: str
    text: str
    response: str | None = None


class ConfirmationAnswer(Record):
    """Who answered one of Minds' confirmation questions through the bot, and the question as it was shown."""

    question: str
    user_id: str


class PlanMemory(Record):
    """What the plan message remembers of what it showed and who answered: the shown revision's questions
    (to say what the next revision changed), its open confirmation questions (id → text) and, per answered
    confirmation question id, who answered it (the answer itself is read from Minds)."""

    questions: list[ShownQuestion] = []
    confirmations: dict[str, str] = {}
    answered: dict[str, ConfirmationAnswer] = {}


class PlanPost(Record):
    """A plan message in Slack and the draft it shows; ``memory``: see ``PlanMemory``."""

    team_id: str
    channel_id: str
    message_ts: str
    study_id: str
    study_name: str
    draft_plan_id: str | None = None  # None while the first preview is still preparing
    revision: int | None = None
    requester_id: str
    state: PlanState = PlanState.PREPARING
    preview_idempotency_key: str
    pending_receipt: PreviewReceipt | None = None
    memory: PlanMemory | None = None
    frozen_blocks: str | None = None  # the plan's blocks (JSON) without buttons, as frozen when it was approved
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None


class Approval(Record):
    """The one approval of a plan revision; `idempotency_key` is reused by every confirm attempt."""

    team_id: str
    draft_plan_id: str
    revision: int
    idempotency_key: str
    approver_id: str
    approved_at: UtcDatetime
    advanced_opt_in: bool = False  # the approver's explicit opt-in to the plan's advanced methods
    model_connection_id: str | None = None  # a verified model connection pinned at approval (None: Minds' own)
    model_connection_revision: int | None = None
    state: ApprovalState = ApprovalState.PENDING
    run_id: str | None = None
    failure: str | None = None
    updated_at: UtcDatetime | None = None

    @property
    def model_connection(self) -> tuple[str, int] | None:
        if self.model_connection_id is None or self.model_connection_revision is None:
            return None
        return self.model_connection_id, self.model_connection_revision


class TrackedRun(Record):
    """A Minds run the bot polls until its terminal result is posted once."""

    team_id: str
    run_id: str
    study_id: str
    kind: RunKind
    client_request_id: str | None = None  # the idempotency key / clientRequestId that started it
    channel_id: str
    thread_ts: str | None = None
    progress_ts: str | None = None  # the message edited with progress
    last_state: str | None = None  # what Slack last showed (caller's text or JSON), to skip no-op edits
    next_poll_at: UtcDatetime
    attempts: int = 0
    terminal_posted: bool = False
    terminal_claimed_at: UtcDatetime | None = None
    finished_at: UtcDatetime | None = None
    cancelled_by: str | None = None  # the Slack user whose cancel Minds accepted
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None


class DirectAsk(Record):
    """A standalone question, saved before POST /runs so a retry reuses its clientRequestId."""

    client_request_id: str
    team_id: str
    study_id: str
    channel_id: str
    thread_ts: str | None = None
    question: str
    requester_id: str
    run_id: str | None = None
    settled: bool = False  # Minds answered the POST for good (a run, a refusal, planning_required)
    # The question's stimulus as sent to Minds (``[{url, name, type}]``, flows/stimulus.py): a retry sends the same.
    attachments: list[dict[str, str]] | None = None
    # The Audiences asked (``audienceIds``), when only some of the Study's: a retry asks the same. None: all.
    audience_ids: list[str] | None = None
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None


class KeyedRequest(Record):
    """A keyed Minds request a person asked for (a Study duplicate, an Audience build), saved with its
    idempotency key before it is sent: **Try again** re-sends ``arguments`` with the same key, and the same
    command typed again for the same ``subject`` is asked about before a second one is made."""

    team_id: str
    key: str  # the Idempotency-Key Minds sees
    purpose: str  # what kind of request, e.g. "duplicate_study"
    subject: str  # what a repeat of the command matches on: a Study id, a digest of a brief
    arguments: str  # the exact arguments (JSON), re-sent unchanged
    requester_id: str
    channel_id: str
    created_at: UtcDatetime | None = None


class ExportJob(Record):
    team_id: str
    job_id: str
    study_id: str
    kind: str
    format: str
    requested_by: str
    channel_id: str
    thread_ts: str | None = None
    state: ExportState = ExportState.QUEUED
    file_name: str | None = None
    sha256: str | None = None
    for_run: str | None = None  # the research run this report follows (its thread says what it covers)
    after_run_at: UtcDatetime | None = None  # that run's end as Minds reported it
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None


class Digest(Record):
    """A scheduled channel digest; `study_ids` empty means every Study the workspace key can see."""

    digest_id: str
    team_id: str
    channel_id: str
    schedule_kind: ScheduleKind
    spec: str  # "09:00", "mon 09:00" or a cron expression, interpreted by the scheduler
    tz: str
    study_ids: tuple[str, ...] = ()
    created_by: str
    skip_quiet: bool = False  # True: a period without news posts nothing (else it is said once)
    watermark: str | None = None  # what the last posted digest covered, opaque to the store
    last_posted_at: UtcDatetime | None = None
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None


class ChatThread(Record):
    """A Slack thread talking to one Mind: every person's reply in it goes to the same stateful Minds chat.
    ``last_activity_at`` is the caller's time of the last turn; an idle thread is closed once (``closed_at``)."""

    team_id: str
    channel_id: str
    thread_ts: str
    chat_id: str
    mind_id: str
    mind_name: str
    started_by: str
    last_activity_at: UtcDatetime
    closed_at: UtcDatetime | None = None
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None


class ChannelPolicy(Record):
    """One action's mode in one channel, as an admin or approver set it; an action without one keeps the
    default (``flows/spend.py``)."""

    team_id: str
    channel_id: str
    action: str  # ask | heatmap | audience_build | duplicate | share_on
    mode: PolicyMode
    set_by: str
    updated_at: UtcDatetime | None = None


class Spend(Record):
    """One action that spends (or may spend) Minds allowance, recorded when it was asked for: who, what, where,
    how many Minds responses it counts when known (``responses`` None: not known; ``cost`` a word Minds or the
    action gives instead, e.g. "premium"), and its outcome. A held action keeps ``command``: what runs, exactly
    as the requester asked, once an approver approves."""

    team_id: str
    spend_id: str
    channel_id: str
    user_id: str
    action: str
    subject: str  # what it is about, in the requester's words (a Study name, a question, a brief)
    command: str  # what runs when approved (a /minds command text, or the action's saved arguments as JSON)
    responses: int | None = None
    cost: str | None = None
    outcome: SpendOutcome
    decided_by: str | None = None  # who approved or declined a held action
    detail: str | None = None  # what Minds said: a run id, or why it failed
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None
