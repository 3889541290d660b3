"""A research run's ``calculations``: the one shape here that is ours to assume (see the comment below).

Owns: reading each entry on its own into a typed ``Calculation`` (a known kind with its headline figures,
not computed, unknown, or ``UnreadableCalculation``), so one entry the bot cannot read never makes the rest of the
run unreadable. Numbers are kept exactly as Minds sent them.
Must not touch: HTTP, Slack, the store.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import AliasChoices, Field, ValidationError, model_validator

from minds_bot.minds.models.common import MindsModel

# --- calculations -------------------------------------------------------------------------------------------
#
# The OpenAPI declares ``calculations: object[]`` with additional properties only, so the shape below is OUR
# assumption, parsed tolerantly. One entry:
#
#     {"methodId": "van-westendorp",        # also "method", "kind", "type" or "id"; spelling is free
#      "status": "completed",               # absent means completed; "failed", "skipped", … are not-computed
#      "n": 24,                             # also "responseCount", "respondents" or "base"
#      "audiences": [{"id": "…", "name": "Gen Z sneaker buyers"}],   # or "audienceNames": ["…"]
#      "result": {…}}                       # also "results", "output" or "data"; absent: the entry itself
#
# and ``result`` per kind (percentages are ``…Pct`` on 0–100; a bare share such as ``reach`` is a fraction 0–1):
#   van-westendorp  {"currency", "acceptableRange": {"low", "high"} | [low, high]  (or pointOfMarginalCheapness /
#                   pointOfMarginalExpensiveness), "optimalPricePoint", "indifferencePricePoint"}
#   gabor-granger   {"currency", "revenueMaximisingPrice" (or "optimalPrice"), "demandPct" at that price,
#                   "curve": [{"price", "demandPct"}] (the tested prices), "monotone": false when demand rises}
#   maxdiff         {"items": [{"item" (or "label", "name"), "score", "rank"}]}
#   turf            {"bestCombination": {"items": […], "reachPct" | "reach", "frequency"}}
#   kano            {"features": [{"feature" (or "name"), "category"}]}
#   nps             {"score", "promotersPct", "passivesPct", "detractorsPct"}
#   key-drivers     {"outcome", "drivers": [{"driver" (or "name"), "importance"}]}
#   top-bottom-box  {"question", "boxSize", "topBoxPct", "bottomBoxPct"}
# A known kind whose headline figures are missing or of the wrong type is UNREADABLE (never shown as empty);
# a kind the bot does not know is kept as UNKNOWN with Minds' own word for it (never skipped). Numbers are kept
# exactly as Minds sent them: nothing is rounded or derived here.

CalculationKind = Literal[
    "van_westendorp", "gabor_granger", "maxdiff", "turf", "kano", "nps", "key_drivers", "top_bottom_box"
]
_CALCULATION_KINDS: dict[str, CalculationKind] = {
    "vanwestendorp": "van_westendorp",
    "vanwestendorppsm": "van_westendorp",
    "pricesensitivitymeter": "van_westendorp",
    "gaborgranger": "gabor_granger",
    "maxdiff": "maxdiff",
    "bestworstscaling": "maxdiff",
    "turf": "turf",
    "kano": "kano",
    "nps": "nps",
    "netpromoterscore": "nps",
    "keydrivers": "key_drivers",
    "keydriveranalysis": "key_drivers",
    "drivers": "key_drivers",
    "topbottombox": "top_bottom_box",
    "topbox": "top_bottom_box",
    "topbottom2box": "top_bottom_box",
}
_CALCULATION_DONE = frozenset({"completed", "complete", "succeeded", "success", "done", "ok", "ready"})
_METHOD_KEYS = ("methodId", "method", "kind", "type", "id")
_RESULT_KEYS = ("result", "results", "output", "data")
_N_KEYS = ("n", "responseCount", "respondents", "base")


def _first(data: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return next((data[key] for key in keys if data.get(key) is not None), None)


def _pct_from(data: dict[str, Any], pct_key: str, share_key: str) -> Any:
    """A percentage (0–100) as sent, or a fraction (0–1) turned into one; None when neither is there."""
    if data.get(pct_key) is not None:
        return data[pct_key]
    share = data.get(share_key)
    # round() only removes binary noise (0.29 * 100 = 28.999…); it never drops a digit Minds sent.
    return round(share * 100, 9) if isinstance(share, int | float) and not isinstance(share, bool) else share


def _lifted(data: dict[str, Any], **found: Any) -> dict[str, Any]:
    """``data`` with the figures found under other names added (found as None adds nothing)."""
    return {**data, **{key: value for key, value in found.items() if value is not None}}


class CalculationCoverage(MindsModel):
    """What a calculation covers, as Minds said it: n (None when not sent) and the Audiences it names."""

    method_id: str
    n: int | None = Field(default=None, ge=0)
    audience_names: tuple[str, ...] = ()


class VanWestendorpCalculation(CalculationCoverage):
    kind: Literal["van_westendorp"] = "van_westendorp"
    currency: str | None = None
    acceptable_low: float
    acceptable_high: float
    optimal_price: float | None = None
    indifference_price: float | None = None

    @model_validator(mode="before")
    @classmethod
    def _lift(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        span = data.get("acceptableRange") or data.get("acceptablePriceRange")
        low = data.get("pointOfMarginalCheapness")
        high = data.get("pointOfMarginalExpensiveness")
        if isinstance(span, dict):
            low, high = _first(span, ("low", "min", "from")), _first(span, ("high", "max", "to"))
        elif isinstance(span, list) and len(span) == 2:
            low, high = span
        return _lifted(
            data,
            acceptableLow=low,
            acceptableHigh=high,
            optimalPrice=data.get("optimalPricePoint"),
            indifferencePrice=data.get("indifferencePricePoint"),
        )


class DemandPoint(MindsModel):
    """One tested price of a Gabor-Granger ladder and the share (0–100) who would buy at it."""

    price: float
    demand_pct: float = Field(ge=0, le=100)


class GaborGrangerCalculation(CalculationCoverage):
    kind: Literal["gabor_granger"] = "gabor_granger"
    currency: str | None = None
    revenue_price: float
    demand_pct: float | None = Field(default=None, ge=0, le=100)
    curve: list[DemandPoint] = Field(default_factory=list)  # the tested prices, when Minds sends them
    monotone: bool | None = None  # Minds' own word on whether demand falls as the price rises

    @property
    def demand_rise(self) -> tuple[DemandPoint, DemandPoint] | None:
        """The first pair of tested prices where more would buy at the higher one; None when demand never rises."""
        ladder = sorted(self.curve, key=lambda point: point.price)
        return next(((a, b) for a, b in zip(ladder, ladder[1:], strict=False) if b.demand_pct > a.demand_pct), None)

    @property
    def tested(self) -> bool:
        """Whether the revenue-maximising price is one of the tested prices (True when Minds sent no curve)."""
        return not self.curve or any(point.price == self.revenue_price for point in self.curve)

    @model_validator(mode="before")
    @classmethod
    def _lift(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        price = _first(data, ("revenueMaximisingPrice", "revenueMaximizingPrice", "optimalPrice"))
        return _lifted(data, revenuePrice=price, demandPct=_pct_from(data, "demandPct", "demand"))


class MaxDiffItem(MindsModel):
    item: str = Field(validation_alias=AliasChoices("item", "label", "name"))
    score: float
    rank: int | None = None


class MaxDiffCalculation(CalculationCoverage):
    kind: Literal["maxdiff"] = "maxdiff"
    items: list[MaxDiffItem] = Field(min_length=1)

    @property
    def ranked(self) -> list[MaxDiffItem]:
        """Minds' ranks when every item has one, else highest score first (ties keep Minds' order)."""
        if all(item.rank is not None for item in self.items):
            return sorted(self.items, key=lambda item: item.rank or 0)
        return sorted(self.items, key=lambda item: -item.score)


class TurfCalculation(CalculationCoverage):
    kind: Literal["turf"] = "turf"
    items: list[str] = Field(min_length=1)
    reach_pct: float = Field(ge=0, le=100)
    frequency: float | None = None

    @model_validator(mode="before")
    @classmethod
    def _lift(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("bestCombination"), dict):
            return data
        best = data["bestCombination"]
        return _lifted(
            data,
            items=best.get("items"),
            reachPct=_pct_from(best, "reachPct", "reach"),
            frequency=best.get("frequency"),
        )


class KanoFeature(MindsModel):
    feature: str = Field(validation_alias=AliasChoices("feature", "name", "item"))
    category: str


class KanoCalculation(CalculationCoverage):
    kind: Literal["kano"] = "kano"
    features: list[KanoFeature] = Field(min_length=1)


class NpsCalculation(CalculationCoverage):
    kind: Literal["nps"] = "nps"
    score: float = Field(ge=-100, le=100)
    promoters_pct: float | None = Field(default=None, ge=0, le=100)
    passives_pct: float | None = Field(default=None, ge=0, le=100)
    detractors_pct: float | None = Field(default=None, ge=0, le=100)

    @model_validator(mode="before")
    @classmethod
    def _lift(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        groups = ("promoters", "passives", "detractors")
        shares = {f"{group}Pct": _pct_from(data, f"{group}Pct", group) for group in groups}
        return _lifted(data, score=_first(data, ("score", "nps")), **shares)


class KeyDriver(MindsModel):
    driver: str = Field(validation_alias=AliasChoices("driver", "name", "item"))
    importance: float


class KeyDriversCalculation(CalculationCoverage):
    kind: Literal["key_drivers"] = "key_drivers"
    outcome: str | None = None
    drivers: list[KeyDriver] = Field(min_length=1)


class TopBottomBoxCalculation(CalculationCoverage):
    kind: Literal["top_bottom_box"] = "top_bottom_box"
    question: str | None = None
    box_size: int | None = Field(default=None, ge=1)
    top_box_pct: float = Field(ge=0, le=100)
    bottom_box_pct: float | None = Field(default=None, ge=0, le=100)


class NotComputedCalculation(CalculationCoverage):
    """A known kind Minds reports as not computed (``failed``, ``skipped``, …), with its reason when given."""

    kind: CalculationKind
    status: str
    reason: str | None = None
    reason_code: str | None = None  # e.g. no_numeric_answers, too_few_numeric_answers, no_demand
    answered: int | None = Field(default=None, ge=0)  # respondents who answered the method's questions
    minimum_n: int | None = Field(default=None, ge=0)  # the fewest usable respondents the method needs


class UnknownCalculation(CalculationCoverage):
    """A kind the bot cannot show; ``method_id`` is Minds' own word for it."""

    kind: Literal["unknown"] = "unknown"


class UnreadableCalculation(MindsModel):
    """An entry the bot could not read; ``method_id`` when Minds named one."""

    kind: Literal["unreadable"] = "unreadable"
    method_id: str | None = None


_CALCULATION_MODELS: dict[str, type[CalculationCoverage]] = {
    "van_westendorp": VanWestendorpCalculation,
    "gabor_granger": GaborGrangerCalculation,
    "maxdiff": MaxDiffCalculation,
    "turf": TurfCalculation,
    "kano": KanoCalculation,
    "nps": NpsCalculation,
    "key_drivers": KeyDriversCalculation,
    "top_bottom_box": TopBottomBoxCalculation,
}

Calculation = (
    VanWestendorpCalculation
    | GaborGrangerCalculation
    | MaxDiffCalculation
    | TurfCalculation
    | KanoCalculation
    | NpsCalculation
    | KeyDriversCalculation
    | TopBottomBoxCalculation
    | NotComputedCalculation
    | UnknownCalculation
    | UnreadableCalculation
)


def calculation_kind(method_id: str) -> CalculationKind | None:
    """The kind a method id names, whatever its spelling ("van_westendorp", "Van-Westendorp" …); None if unknown."""
    return _CALCULATION_KINDS.get(re.sub(r"[^a-z0-9]", "", method_id.lower()))


def _coverage(raw: dict[str, Any]) -> dict[str, Any]:
    audiences = raw.get("audiences")
    names = raw.get("audienceNames")
    if isinstance(audiences, list):
        names = [a["name"] for a in audiences if isinstance(a, dict) and isinstance(a.get("name"), str)]
    return {"n": _first(raw, _N_KEYS), "audienceNames": names or ()}


def parse_calculation(raw: object) -> Calculation:
    """One entry of ``calculations`` as a typed model; never raises (what cannot be read is ``Unreadable``)."""
    if not isinstance(raw, dict):
        return UnreadableCalculation()
    method_id = _first(raw, _METHOD_KEYS)
    if not isinstance(method_id, str) or not method_id.strip():
        return UnreadableCalculation()
    kind = calculation_kind(method_id)
    try:
        common = {"methodId": method_id, **_coverage(raw)}
        if kind is None:
            return UnknownCalculation.model_validate(common)
        status = raw.get("status")
        if status is not None and str(status).lower() not in _CALCULATION_DONE:
            reason = _first(raw, ("reason", "error", "message"))
            code = raw.get("reasonCode")
            return NotComputedCalculation.model_validate(
                {
                    **common,
                    "kind": kind,
                    "status": str(status),
                    "reason": reason if isinstance(reason, str) else None,
                    "reasonCode": code if isinstance(code, str) else None,
                    "answered": raw.get("answered"),
                    "minimumN": raw.get("minimumN"),
                }
            )
        result = _first(raw, _RESULT_KEYS)
        result = raw if result is None else result
        if not isinstance(result, dict):
            return UnreadableCalculation(method_id=method_id)
        fields = {key: value for key, value in result.items() if key not in ("kind", "status")}
        fields.update({key: value for key, value in common.items() if value is not None})
        return _CALCULATION_MODELS[kind].model_validate(fields)  # type: ignore[return-value]
    except ValidationError:
        return UnreadableCalculation(method_id=method_id)


def parse_calculations(raw: object) -> list[Calculation]:
    """``calculations`` as sent: absent is none; anything but a list is one unreadable entry, never none."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        return [UnreadableCalculation()]
    return [parse_calculation(entry) for entry in raw]
