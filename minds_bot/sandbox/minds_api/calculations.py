"""The sandbox's method calculations: what ``calculations`` on a finished research run holds for each advanced
method of the confirmed plan (Van Westendorp, Gabor-Granger, MaxDiff, TURF, Kano, NPS).

How each is made — deterministic, never random between calls:
- ``nps`` is computed from the run's own answers when the plan has a 0–10 question ("How likely … recommend");
  it says ``"basis": "answers"``. The sandbox writes a 0–10 scale only for its recommend question, so a run that
  asked one and answered it gets this NPS entry even when the plan did not name the method (Minds' data is what
  marks a question NPS for the bot, in every language: never the question's words).
- Everything else is a SEEDED SIMULATION (``"basis": "simulated"``): the sandbox asks no price ladders or
  best/worst tasks, so each Mind that answered the run gets price thresholds and item preferences drawn from
  its persona traits with a random generator seeded by (sandbox seed, run id, Mind id, method). The standard
  formulas then run over those simulated answers (Van Westendorp's curve crossings, Gabor-Granger's revenue
  peak, MaxDiff best-minus-worst counts, TURF's best reach, Kano's majority category). A price comes from the
  first "<number> EUR|USD|GBP" in the run's questions, else 100 USD.
- Items (MaxDiff, TURF) and features (Kano) are the options of the run's first multiselect question with at
  least four options, else the sandbox's influence list (Quality, Brand reputation, Sustainability, …).
Every entry says ``n`` (the Minds that answered the run) and the Audiences they belong to. A run nobody
answered gets ``status: "failed"`` entries with a reason. ``Faults.extra_calculations`` entries are appended
as given, so a client can be shown a kind it does not know or an entry it cannot read.

The wire shape (ours to choose; the OpenAPI declares ``calculations: object[]`` only):
``{"methodId", "methodVersion", "status", "basis", "n", "audiences": [{"id", "name"}], "result": {…}}``.
Pure functions over plain data; must not touch state, clocks or I/O.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from minds_bot.sandbox.minds_api.instruments import INFLUENCES

Record = dict[str, Any]
DEFAULT_PRICE = 100.0
DEFAULT_CURRENCY = "USD"
MIN_ITEMS = 4
MAXDIFF_SET = 4  # items shown in one best/worst task
TURF_SIZE = 3  # items in the combination TURF looks for
PROMOTER, DETRACTOR = 9, 6  # 9–10 promote, 0–6 detract
_PRICE = re.compile(r"(?P<num>\d+(?:[.,]\d+)?)\s?(?P<cur>EUR|USD|GBP)\b")
_ITEM_TRAITS = {  # an item whose words match gets the Mind's trait as its base appeal
    "price": "priceSensitivity",
    "cheap": "priceSensitivity",
    "sustainab": "sustainabilityFocus",
    "brand": "brandLoyalty",
    "recommend": "skepticism",
    "quality": "noveltySeeking",
    "new": "noveltySeeking",
}


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def for_run(*, seed: int, run: Record, minds: dict[str, Record], audience_names: dict[str, str]) -> list[Record]:
    """The calculations of a finished run, in the plan's method order (methods without one are left out)."""
    answered = {a["mindId"] for item in run["items"] for a in item.get("answers", [])}
    respondents = [m for m in run["minds"] if m["mindId"] in answered]
    context = _Context(seed=seed, run=run, respondents=respondents, minds=minds)
    audiences = list(dict.fromkeys(m["audienceId"] for m in respondents))
    cover = {
        "n": len(respondents),
        "audiences": [{"id": a, "name": audience_names.get(a, a)} for a in audiences],
    }
    out = []
    for method in run.get("methods", []):
        method_id = method.get("id")
        compute = CALCULATORS.get(method_id)
        if compute is None or not method.get("executable"):
            continue
        entry: Record = {"methodId": method_id, "methodVersion": 1, **cover}
        if not respondents:
            out.append(entry | {"status": "failed", "reason": "No Mind answered, so there is nothing to calculate."})
            continue
        basis, result = compute(context)
        if "n" in result:  # a calculation over one question's answers covers those who answered it
            entry["n"] = result.pop("n")
        out.append(entry | {"status": "completed", "basis": basis, "result": result})
    named = {entry["methodId"] for entry in out}
    if "nps" not in named and respondents and _recommend_answers(run):
        basis, result = nps(context)
        entry = {"methodId": "nps", "methodVersion": 1, **cover, "n": result.pop("n")}
        out.append(entry | {"status": "completed", "basis": basis, "result": result})
    return out


class _Context:
    def __init__(self, *, seed: int, run: Record, respondents: list[Record], minds: dict[str, Record]) -> None:
        self.seed, self.run, self.respondents = seed, run, respondents
        self.traits = {
            m["mindId"]: minds.get(m["mindId"], {}).get("persona", {}).get("traits", {}) for m in respondents
        }
        self.price, self.currency = _reference_price(run["questions"])

    def rng(self, mind_id: str, method: str) -> random.Random:
        return _rng(self.seed, self.run["id"], mind_id, method)

    def trait(self, mind_id: str, name: str) -> float:
        return float(self.traits[mind_id].get(name, 0.5))

    def items(self) -> list[str]:
        for question in self.run["questions"]:
            options = question["response"].get("categoricalOptions") or []
            if question["response"]["type"] == "multiselect" and len(options) >= MIN_ITEMS:
                return list(options)
        return list(INFLUENCES)

    def appeal(self, mind_id: str, item: str, rng: random.Random) -> float:
        lowered = item.lower()
        trait = next((t for word, t in _ITEM_TRAITS.items() if word in lowered), None)
        base = self.trait(mind_id, trait) if trait else 0.5
        return base + rng.gauss(0, 0.2)


def _reference_price(questions: Sequence[Record]) -> tuple[float, str]:
    for question in questions:
        match = _PRICE.search(question["text"])
        if match:
            return float(match["num"].replace(",", ".")), match["cur"]
    return DEFAULT_PRICE, DEFAULT_CURRENCY


# ---------------------------------------------------------------- pricing


def _thresholds(context: _Context, mind_id: str) -> tuple[float, float, float, float]:
    """One Mind's simulated (too cheap, cheap, expensive, too expensive) prices."""
    rng = context.rng(mind_id, "price")
    sensitivity = context.trait(mind_id, "priceSensitivity")
    expensive = context.price * max(0.3, 1.3 - 0.5 * sensitivity + rng.gauss(0, 0.15))
    cheap = expensive * (0.6 + 0.2 * rng.random())
    return cheap * (0.55 + 0.25 * rng.random()), cheap, expensive, expensive * (1.15 + 0.25 * rng.random())


def _money(value: float, price: float) -> float | int:
    return round(value) if price >= 20 else round(value, 2)


def _crossing(grid: Sequence[float], falling: Callable[[float], float], rising: Callable[[float], float]) -> float:
    """Where a falling share curve meets a rising one: midway between the last price still below and the first
    above, so two curves that touch only at zero (few respondents) cross in the gap, not at its edge."""
    below = [p for p in grid if falling(p) > rising(p)]
    above = [p for p in grid if rising(p) > falling(p)]
    last_below = below[-1] if below else grid[0]
    first_above = next((p for p in above if p >= last_below), grid[-1])
    return (last_below + first_above) / 2


def van_westendorp(context: _Context) -> tuple[str, Record]:
    points = [_thresholds(context, m["mindId"]) for m in context.respondents]
    n = len(points)
    step = 1.0 if context.price >= 20 else 0.01
    low, high = min(p[0] for p in points), max(p[3] for p in points)
    grid = [low + i * step for i in range(int((high - low) / step) + 2)]

    def share(index: int, *, at_least: bool) -> Callable[[float], float]:
        return lambda price: sum((p[index] >= price) if at_least else (p[index] <= price) for p in points) / n

    too_cheap, cheap = share(0, at_least=True), share(1, at_least=True)
    expensive, too_expensive = share(2, at_least=False), share(3, at_least=False)
    pmc = _crossing(grid, too_cheap, lambda p: 1 - cheap(p))
    pme = _crossing(grid, lambda p: 1 - expensive(p), too_expensive)
    opp = _crossing(grid, too_cheap, too_expensive)
    ipp = _crossing(grid, cheap, expensive)
    result = {
        "currency": context.currency,
        "acceptableRange": {"low": _money(pmc, context.price), "high": _money(pme, context.price)},
        "optimalPricePoint": _money(opp, context.price),
        "indifferencePricePoint": _money(ipp, context.price),
    }
    return "simulated", result


def gabor_granger(context: _Context) -> tuple[str, Record]:
    willing = [_thresholds(context, m["mindId"])[2] for m in context.respondents]
    prices = [_money(context.price * f, context.price) for f in (0.7, 0.85, 1.0, 1.15, 1.3)]
    curve = [{"price": p, "demandPct": round(100 * sum(w >= p for w in willing) / len(willing))} for p in prices]
    best = max(curve, key=lambda point: point["price"] * point["demandPct"])
    result = {
        "currency": context.currency,
        "revenueMaximisingPrice": best["price"],
        "demandPct": best["demandPct"],
        "curve": curve,
    }
    return "simulated", result


# ---------------------------------------------------------------- items


def maxdiff(context: _Context) -> tuple[str, Record]:
    items = context.items()
    best: Counter[str] = Counter()
    worst: Counter[str] = Counter()
    shown: Counter[str] = Counter()
    for mind in context.respondents:
        rng = context.rng(mind["mindId"], "maxdiff")
        appeal = {item: context.appeal(mind["mindId"], item, rng) for item in items}
        for _task in range(len(items)):
            subset = rng.sample(items, min(MAXDIFF_SET, len(items)))
            picks = sorted(subset, key=lambda item: appeal[item] + rng.gauss(0, 0.1))
            worst[picks[0]] += 1
            best[picks[-1]] += 1
            shown.update(subset)
    scores = {item: round(100 * (best[item] - worst[item]) / shown[item], 1) if shown[item] else 0.0 for item in items}
    ranked = sorted(items, key=lambda item: -scores[item])
    result = {
        "scoreType": "best-minus-worst share of appearances (-100 to 100)",
        "items": [{"item": item, "score": scores[item], "rank": rank} for rank, item in enumerate(ranked, 1)],
    }
    return "simulated", result


def turf(context: _Context) -> tuple[str, Record]:
    items = context.items()
    chosen: list[set[str]] = []
    for mind in context.respondents:
        rng = context.rng(mind["mindId"], "turf")
        appeal = {item: context.appeal(mind["mindId"], item, rng) for item in items}
        chosen.append({item for item in items if appeal[item] >= 0.55})
    size = min(TURF_SIZE, len(items) - 1)

    def reach(combo: tuple[str, ...]) -> int:
        return sum(1 for picks in chosen if picks & set(combo))

    best = max(itertools.combinations(items, size), key=reach)
    reached = [picks for picks in chosen if picks & set(best)]
    frequency = sum(len(picks & set(best)) for picks in reached) / len(reached) if reached else 0.0
    result = {
        "combinationSize": size,
        "bestCombination": {
            "items": list(best),
            "reachPct": round(100 * len(reached) / len(chosen)),
            "frequency": round(frequency, 1),
        },
    }
    return "simulated", result


def kano(context: _Context) -> tuple[str, Record]:
    features = []
    for feature in context.items():
        votes: Counter[str] = Counter()
        for mind in context.respondents:
            appeal = context.appeal(mind["mindId"], feature, context.rng(mind["mindId"], f"kano|{feature}"))
            votes[_kano_category(appeal)] += 1
        category, count = votes.most_common(1)[0]
        features.append(
            {"feature": feature, "category": category, "sharePct": round(100 * count / sum(votes.values()))}
        )
    return "simulated", {"features": features}


def _kano_category(appeal: float) -> str:
    if appeal >= 0.7:
        return "attractive"
    if appeal >= 0.55:
        return "one-dimensional"
    if appeal >= 0.4:
        return "must-be"
    return "indifferent"


# ---------------------------------------------------------------- NPS


def nps(context: _Context) -> tuple[str, Record]:
    scores = _recommend_answers(context.run)
    basis = "answers"
    if not scores:
        basis = "simulated"
        scores = [_simulated_likelihood(context, m["mindId"]) for m in context.respondents]
    n = len(scores)
    promoters = sum(s >= PROMOTER for s in scores)
    detractors = sum(s <= DETRACTOR for s in scores)
    result = {
        "score": round(100 * (promoters - detractors) / n),
        "promotersPct": round(100 * promoters / n),
        "passivesPct": round(100 * (n - promoters - detractors) / n),
        "detractorsPct": round(100 * detractors / n),
    }
    if basis == "answers":
        result["n"] = n  # who answered the 0–10 question, which may be fewer than answered the run
    return basis, result


def _recommend_answers(run: Record) -> list[float]:
    items = {item["index"]: item for item in run["items"]}
    for index, question in enumerate(run["questions"]):
        item = items.get(index)
        if item is not None and question["response"].get("scaleRange") == [0, 10]:
            values = [a.get("value") for a in item.get("answers", [])]
            return [float(v) for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    return []


def _simulated_likelihood(context: _Context, mind_id: str) -> float:
    rng = context.rng(mind_id, "nps")
    score = (
        0.72
        + 0.4 * (context.trait(mind_id, "noveltySeeking") - 0.5)
        - 0.4 * (context.trait(mind_id, "skepticism") - 0.5)
    )
    return float(round(10 * min(1.0, max(0.0, score + rng.gauss(0, 0.2)))))


CALCULATORS: dict[str, Callable[[_Context], tuple[str, Record]]] = {
    "van-westendorp": van_westendorp,
    "gabor-granger": gabor_granger,
    "maxdiff": maxdiff,
    "turf": turf,
    "kano": kano,
    "nps": nps,
}
