"""The sandbox's method calculations: what ``calculations`` on a finished research run holds for each advanced
method of the confirmed plan (Van Westendorp, Gabor-Granger, MaxDiff, TURF, Kano, NPS).

How each is made — deterministic, never random between calls:
- ``van-westendorp`` and ``gabor-granger`` are computed from the run's OWN answers (``"basis": "answers"``) to the
  questions that ask the method's inputs (``methodInput`` on a question: Van Westendorp's four price points, or
  one tested price of a Gabor-Granger ladder with the options that mean "would buy"). Van Westendorp counts only
  a respondent who named an amount for all four questions, in rising order; an answer that names no amount
  ("I would need to see it before I could name a price") gives no number. Gabor-Granger's demand at a tested
  price is the share of the respondents who answered every tested price that chose a buying option there; its
  revenue-maximising price is always one of the tested prices, and a curve where demand rises with price says so
  (``"monotone": false``, ``demandRises`` and an English ``note``).
- When the answers cannot support the method (no amounts at all, fewer than ``MIN_PRICE_RESPONDENTS`` usable
  respondents, nobody would buy at any tested price, the method's questions were not asked) the entry has
  ``"status": "insufficient_data"``, a ``reasonCode`` (``no_numeric_answers``, ``too_few_numeric_answers``,
  ``no_demand``, ``no_method_questions``), an English ``reason``, ``n`` (usable respondents), ``answered`` and,
  for too few, ``minimumN`` — never figures made up from elsewhere.
- ``nps`` is computed from the run's own answers when the plan has a 0–10 question; it says ``"basis":
  "answers"``. The sandbox writes a 0–10 scale only for its recommend question, so a run that asked one and
  answered it gets this NPS entry even when the plan did not name the method (Minds' data is what marks a
  question NPS for the bot, in every language: never the question's words).
- MaxDiff, TURF, Kano (and NPS without a 0–10 question) are a SEEDED SIMULATION (``"basis": "simulated"``): the
  sandbox asks no best/worst tasks, so each Mind that answered the run gets item preferences drawn from its
  persona traits with a random generator seeded by (sandbox seed, run id, Mind id, method), and the standard
  formulas run over those (MaxDiff best-minus-worst counts, TURF's best reach, Kano's majority category). Items
  (MaxDiff, TURF) and features (Kano) are the options of the run's first multiselect question with at least
  four options, else the sandbox's influence list (Quality, Brand reputation, Sustainability, …).
Every entry says ``n`` and the Audiences of the Minds that answered. A run nobody answered gets ``status:
"failed"`` entries with a reason. ``Faults.extra_calculations`` entries are appended as given, so a client can be
shown a kind it does not know or an entry it cannot read.

The wire shape (ours to choose; the OpenAPI declares ``calculations: object[]`` only):
``{"methodId", "methodVersion", "status", "basis", "n", "answered", "audiences": [{"id", "name"}], "result":
{…}}``. Pure functions over plain data; must not touch state, clocks or I/O.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from minds_sandbox import topics
from minds_sandbox.instruments import INFLUENCES, VAN_WESTENDORP_ROLES

Record = dict[str, Any]
DEFAULT_CURRENCY = "USD"
MIN_PRICE_RESPONDENTS = 5  # fewer respondents with usable price answers cannot support a pricing method
MIN_ITEMS = 4
MAXDIFF_SET = 4  # items shown in one best/worst task
TURF_SIZE = 3  # items in the combination TURF looks for
PROMOTER, DETRACTOR = 9, 6  # 9–10 promote, 0–6 detract
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
        try:
            basis, result = compute(context)
        except NotComputable as refusal:
            out.append(entry | refusal.entry())
            continue
        for key in ("n", "answered"):  # a calculation over some questions' answers covers those who answered them
            if key in result:
                entry[key] = result.pop(key)
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


# ---------------------------------------------------------------- pricing


class NotComputable(Exception):
    """The run's answers cannot support the method: the entry says why (``reasonCode`` and an English ``reason``),
    how many respondents answered its questions and how many of them the method could use (``n``)."""

    def __init__(self, code: str, reason: str, *, n: int, answered: int, minimum: int | None = None) -> None:
        super().__init__(reason)
        self.code, self.reason, self.n, self.answered, self.minimum = code, reason, n, answered, minimum

    def entry(self) -> Record:
        entry: Record = {
            "status": "insufficient_data",
            "reasonCode": self.code,
            "reason": self.reason,
            "n": self.n,
            "answered": self.answered,
        }
        if self.minimum is not None:
            entry["minimumN"] = self.minimum
        return entry


def _method_questions(run: Record, method_id: str) -> list[tuple[Record, Record]]:
    """(question, its answered item) for every question of the run that asks an input of ``method_id``."""
    items = {item["index"]: item for item in run["items"]}
    return [
        (question, items.get(index) or {"answers": []})
        for index, question in enumerate(run["questions"])
        if (question.get("methodInput") or {}).get("methodId") == method_id
    ]


def _amount(answer: Record, currency: str) -> float | None:
    """The amount an open answer names, in ``currency``; None when it names none ("I would need to see it …")."""
    value = answer.get("value")
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    named = topics.prices_in(str(answer.get("text") or value or ""))
    return topics.in_currency(named[0], currency) if named else None


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
    """The four curves over the amounts the Minds named for the four price questions; only a Mind that named an
    amount for all four, in rising order, counts (``n``)."""
    asked = _method_questions(context.run, "van-westendorp")
    roles = {q["methodInput"].get("role"): (q, item) for q, item in asked}
    if set(roles) != set(VAN_WESTENDORP_ROLES):
        raise NotComputable(
            "no_method_questions",
            "The run did not ask Van Westendorp's four price questions.",
            n=0,
            answered=len(context.respondents),
        )
    currency = str(asked[0][0]["methodInput"].get("currency") or DEFAULT_CURRENCY)
    amounts: dict[str, dict[str, float | None]] = {}
    for role in VAN_WESTENDORP_ROLES:
        for answer in roles[role][1].get("answers", []):
            amounts.setdefault(answer["mindId"], {})[role] = _amount(answer, currency)
    answered = len(amounts)
    numeric: list[tuple[float, ...]] = []
    for said in amounts.values():
        named = [said.get(role) for role in VAN_WESTENDORP_ROLES]
        if all(amount is not None for amount in named):
            numeric.append(tuple(float(amount or 0) for amount in named))
    points = [p for p in numeric if list(p) == sorted(p)]  # too cheap <= cheap <= expensive <= too expensive
    if not numeric:
        raise NotComputable(
            "no_numeric_answers",
            f"None of the {answered} respondents named a price in answer to the four price questions, so there is "
            "no price range.",
            n=0,
            answered=answered,
        )
    if len(points) < MIN_PRICE_RESPONDENTS:
        raise NotComputable(
            "too_few_numeric_answers",
            f"Only {len(points)} of the {answered} respondents named four prices in rising order; Van Westendorp "
            f"needs at least {MIN_PRICE_RESPONDENTS}.",
            n=len(points),
            answered=answered,
            minimum=MIN_PRICE_RESPONDENTS,
        )
    n = len(points)
    typical = sorted(p[2] for p in points)[n // 2]
    step = 1.0 if typical >= 20 else 0.01
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
        "n": n,
        "answered": answered,
        "currency": currency,
        "acceptableRange": {"low": _money(pmc, typical), "high": _money(pme, typical)},
        "optimalPricePoint": _money(opp, typical),
        "indifferencePricePoint": _money(ipp, typical),
    }
    return "answers", result


def gabor_granger(context: _Context) -> tuple[str, Record]:
    """Demand at each tested price: the share of the Minds who answered every price question that chose a buying
    option ("Definitely/Probably would buy", as ``methodInput.wouldBuy`` names them) for that price. Only tested
    prices are named; a curve where more would buy at a higher price than at a lower one says so."""
    asked = sorted(_method_questions(context.run, "gabor-granger"), key=lambda qi: qi[0]["methodInput"]["price"])
    if not asked:
        raise NotComputable(
            "no_method_questions", "The run did not ask Gabor-Granger's price questions.", n=0, answered=0
        )
    currency = str(asked[0][0]["methodInput"].get("currency") or DEFAULT_CURRENCY)
    by_price: list[dict[str, bool]] = []
    for question, item in asked:
        buying = set(question["methodInput"].get("wouldBuy") or [])
        by_price.append({a["mindId"]: a.get("value") in buying for a in item.get("answers", [])})
    answered = len(set().union(*by_price))
    everyone = set.intersection(*(set(p) for p in by_price))
    n = len(everyone)
    if n < MIN_PRICE_RESPONDENTS:
        raise NotComputable(
            "too_few_numeric_answers",
            f"Only {n} of the {answered} respondents answered every tested price; Gabor-Granger needs at least "
            f"{MIN_PRICE_RESPONDENTS}.",
            n=n,
            answered=answered,
            minimum=MIN_PRICE_RESPONDENTS,
        )
    curve = [
        {
            "price": question["methodInput"]["price"],
            "demandPct": round(100 * sum(buys[m] for m in everyone) / n),
        }
        for (question, _item), buys in zip(asked, by_price, strict=True)
    ]
    if not any(point["demandPct"] for point in curve):
        raise NotComputable(
            "no_demand",
            f"None of the {n} respondents would buy at any tested price, so there is no revenue-maximising price.",
            n=n,
            answered=answered,
        )
    best = max(curve, key=lambda point: (point["price"] * point["demandPct"], -point["price"]))
    rises = [
        {
            "lowerPrice": a["price"],
            "lowerDemandPct": a["demandPct"],
            "higherPrice": b["price"],
            "higherDemandPct": b["demandPct"],
        }
        for a, b in itertools.pairwise(curve)
        if b["demandPct"] > a["demandPct"]
    ]
    result: Record = {
        "n": n,
        "answered": answered,
        "currency": currency,
        "revenueMaximisingPrice": best["price"],
        "demandPct": best["demandPct"],
        "curve": curve,
        "monotone": not rises,
    }
    if rises:
        result["demandRises"] = rises
        result["note"] = (
            "More respondents would buy at a higher tested price than at a lower one, so this demand curve does not "
            "behave as price demand should and the revenue-maximising price is not reliable."
        )
    return "answers", result


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
