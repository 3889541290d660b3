"""One question's result as Minds reports it (``outputData``): per-Audience aggregate and individual answers.

Owns: parsing ``outputData`` (declared as ``StudyOutputData`` in the OpenAPI document: ``title``, ``type``,
``audiences[{audience, value, answers[{value, persona, message}]}]``, optional ``categoryCodebook``) tolerantly —
unknown fields ignored — but a missing required piece is ``MalformedResponse``, never "no answers". The
embedded sandbox marks what it simulates with ``simulated: true`` (``StudyOutput.simulated``), so every result
the bot shows from it says so.
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, Field, ValidationError, field_validator

from minds_bot.minds.errors import MalformedResponse, RequestInfo
from minds_bot.minds.models import MindsModel, ResponseType


class OutputAnswer(MindsModel):
    """One Mind's answer: ``value`` is the coded answer (option, scale point), ``message`` what it said."""

    value: str
    persona: str
    message: str
    discipline: str | None = None

    @field_validator("value", mode="before")
    @classmethod
    def _value_text(cls, value: Any) -> Any:
        # Scale answers sometimes arrive as numbers; the declared type is a string.
        return str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


class OutputAudience(MindsModel):
    name: str = Field(validation_alias=AliasChoices("audience", "name", "audienceName"))
    value: str
    answers: list[OutputAnswer]

    @field_validator("value", mode="before")
    @classmethod
    def _value_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


class CodebookEntry(MindsModel):
    label: str = Field(validation_alias=AliasChoices("label", "name", "value"))


class OutputAsset(MindsModel):
    """An image, video or website assigned to the question (the stimulus a heatmap analyses)."""

    asset_key: str = Field(validation_alias=AliasChoices("assetKey", "key", "path", "url"))
    kind: str
    url: str | None = None
    name: str | None = None


class StudyOutput(MindsModel):
    title: str
    # True only when the embedded minds-bot sandbox produced it (its ``simulated: true`` mark); Minds never sends it.
    simulated: bool = False
    type: ResponseType
    audiences: list[OutputAudience]
    category_codebook: list[CodebookEntry] = Field(default_factory=list)
    assets: list[OutputAsset] = Field(default_factory=list)

    @property
    def visual_assets(self) -> list[OutputAsset]:
        """The image and video assets a question heatmap can analyse."""
        return [a for a in self.assets if a.kind in ("image", "video")]

    @property
    def website_assets(self) -> list[OutputAsset]:
        """The websites the question showed: only their heatmap has an archive to export (catalogue rule 91)."""
        return [a for a in self.assets if a.kind == "website"]

    classification: dict[str, Any] | None = None  # ``scaleRange`` names a scale's ends (for top-2-box)

    @property
    def scale_range(self) -> list[float] | None:
        bounds = (self.classification or {}).get("scaleRange")
        if isinstance(bounds, list) and len(bounds) == 2 and all(isinstance(b, int | float) for b in bounds):
            return [float(b) for b in bounds]
        return None

    @property
    def answer_count(self) -> int:
        return sum(len(a.answers) for a in self.audiences)


def parse_output(output_data: Any, *, request: RequestInfo | None = None) -> StudyOutput:
    """``outputData`` → ``StudyOutput``; raises ``MalformedResponse`` when a required piece is missing."""
    try:
        return StudyOutput.model_validate(output_data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "outputData"
        raise MalformedResponse(f"outputData.{where}: {first['msg']}", request=request) from None
