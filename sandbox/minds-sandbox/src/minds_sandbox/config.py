"""Configuration of the sandbox Minds server: where it listens, what it stores and which faults it injects.

Owns: ``SandboxConfig`` (fixed at start) and ``Faults`` (changeable at runtime through ``/_sandbox/faults``).
Must not touch state, routing or I/O.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from minds_sandbox.ids import is_well_formed_key

MalformedListMode = Literal["missing_pagination", "data_not_list", "empty_page"]
DEFAULT_RATE_LIMIT_PER_MINUTE = 300  # Minds' documented default per account


class Faults(BaseModel):
    """Knobs for tests and benchmarks. Every field has a harmless default."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    latency_ms: float = Field(default=0.0, ge=0, le=60_000)
    # Fraction of API requests answered 500, keyed by a glob over "METHOD /api/v1/path" (e.g. "GET */runs/*").
    error_rates: dict[str, float] = Field(default_factory=dict)
    error_status: Literal[500, 502, 503] = 500
    # Fraction of API requests carried out whose answer is then replaced by a 504 (the outcome is unknown to the
    # client), keyed like ``error_rates``: what a person's Try again with the same key must survive.
    lost_reply_rates: dict[str, float] = Field(default_factory=dict)
    # Fraction of API requests answered 429 with Retry-After, independent of the real per-key limit.
    throttle_rate: float = Field(default=0.0, ge=0, le=1)
    retry_after_seconds: int = Field(default=2, ge=0, le=3600)
    malformed_lists: MalformedListMode | None = None
    # How many 202 receipts a plan preparation answers before its 200.
    plan_receipts: int = Field(default=0, ge=0, le=50)
    # Multiplies how fast runs, exports, summaries and Audience builds progress.
    run_speed: float = Field(default=1.0, gt=0, le=10_000)
    # Fraction of Mind answers that never arrive (the run then ends ``partial``).
    drop_answer_rate: float = Field(default=0.0, ge=0, le=1)
    # Ids of Minds still training: their detail says ``readyToChat: false`` and chat messages answer 409.
    training_minds: list[str] = Field(default_factory=list)
    # Audience and Mind profile export jobs end ``failed``.
    profile_export_failure: bool = False
    # Whether this server has model connections (off: ``GET /model-connections`` answers 404).
    model_connections: bool = True
    # The model-connection cursor repeats itself instead of advancing (clients must call that an error).
    cursor_stall: bool = False
    # Minds asked for an amount of a category the sandbox does not know, before any price, name none ("I would
    # need to see it first"), so a price method has no numbers: how a method Minds could not compute reads.
    unpriced_categories: bool = False
    # Raw entries appended, as given, to the ``calculations`` of every research run that finishes from now on:
    # e.g. ``{"methodId": "conjoint-hb", "n": 12, "result": {}}`` for a kind a client does not know, or an
    # entry it cannot read.
    extra_calculations: list[dict[str, Any]] = Field(default_factory=list)
    # Research runs are read without ``progress`` (Minds did not report how far a run got), e.g. one cancelled
    # before it reported any: a client must then not say how many questions settled.
    omit_progress: bool = False

    @field_validator("error_rates", "lost_reply_rates")
    @classmethod
    def _rates_are_fractions(cls, value: dict[str, float]) -> dict[str, float]:
        for pattern, rate in value.items():
            if not 0 <= rate <= 1:
                raise ValueError(f"error rate for {pattern!r} must be between 0 and 1")
        return value

    def error_rate_for(self, method: str, path: str) -> float:
        return _rate_for(self.error_rates, method, path)

    def lost_reply_rate_for(self, method: str, path: str) -> float:
        return _rate_for(self.lost_reply_rates, method, path)


def _rate_for(rates: dict[str, float], method: str, path: str) -> float:
    target = f"{method} {path}"
    return max((rate for pattern, rate in rates.items() if fnmatch.fnmatchcase(target, pattern)), default=0.0)


class SandboxConfig(BaseModel):
    """Everything fixed when the sandbox starts."""

    model_config = ConfigDict(extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(default=8787, ge=0, le=65535)
    db_path: Path | None = None  # None keeps state in memory only
    allowed_keys: frozenset[str] | None = None  # None accepts any well-formed minds_ key
    seed: int = 7
    response_allowance: int | None = Field(default=None, ge=0)  # per key and period; None = unlimited
    rate_limit_per_minute: int | None = Field(default=DEFAULT_RATE_LIMIT_PER_MINUTE, ge=1)
    # The "minute" of the rate limit and of the traffic count (``/_sandbox/traffic``); shorter in tests.
    rate_window_seconds: float = Field(default=60.0, gt=0)
    seconds_per_step: float = Field(default=2.0, gt=0)  # one run item, export or build stage at speed 1
    faults: Faults = Field(default_factory=Faults)

    @field_validator("allowed_keys")
    @classmethod
    def _keys_are_well_formed(cls, value: frozenset[str] | None) -> frozenset[str] | None:
        if value is not None and not all(is_well_formed_key(k) for k in value):
            raise ValueError("allowed keys must look like minds_ followed by 48 lowercase hex digits")
        return value
