"""The base every Minds model shares, and the shapes more than one resource uses.

Owns: ``MindsModel`` (camelCase on the wire, snake_case in Python, unknown fields ignored, immutable, times read
as UTC), ``Pagination`` (an offset list's envelope), ``Me`` (``GET /auth/me``) and ``SharingFields`` (the public-link
fields of a Study or an Audience).
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel


class MindsModel(BaseModel):
    """Base: camelCase on the wire, snake_case in Python, unknown fields ignored, immutable."""

    model_config = ConfigDict(
        extra="ignore", populate_by_name=True, frozen=True, alias_generator=to_camel, defer_build=True
    )

    @field_validator("*", mode="after")
    @classmethod
    def _utc_times(cls, value: Any) -> Any:
        # Minds' times are UTC; one sent without a zone is read as UTC here, once, so that no caller ever
        # compares a naive time with an aware one.
        if isinstance(value, datetime) and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


# --- shared -------------------------------------------------------------------------------------------


class Pagination(MindsModel):
    total: int = Field(ge=0)
    limit: int = Field(ge=0)
    offset: int = Field(ge=0)


class Me(MindsModel):
    """``GET /auth/me``: the OpenAPI promises only ``id``; a name or email is used when Minds sends one."""

    id: str
    name: str | None = None
    email: str | None = None

    @property
    def label(self) -> str | None:
        """How a person recognises the account, or None when Minds named it only by its id."""
        return next((v.strip() for v in (self.name, self.email) if v and v.strip()), None)


class SharingFields(MindsModel):
    is_public: bool | None = None
    is_link_sharing_enabled: bool | None = None
    public_share_id: str | None = None
