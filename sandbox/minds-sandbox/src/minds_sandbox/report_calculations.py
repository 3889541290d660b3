"""The "Method calculations" section of the sandbox's reports (full report and executive brief, so their Markdown,
PDF and DOCX): every entry of every research run's ``calculations``, as ``calculations.py`` computed it.

Owns: the report's words for a calculation — per run (labelled by when it ran, as the question labels are) and
method: what it covers (``n``, of how many who answered, its Audiences, whether it rests on the run's answers or a
simulation), its headline figures (Van Westendorp's range and price points; Gabor-Granger's demand at each tested
price as a table, its revenue-maximising tested price and the note when demand rises with price; NPS; MaxDiff,
TURF, Kano), or why it was not computed (Minds' reason and n). A kind this module has no words for (or a fault's
extra entry) is still listed with its figures as sent, never left out — so a thread that says a calculation "is in
the report" is true. Figures are printed as computed; nothing is derived or rounded here.
Pure: plain data in, Markdown lines out; must not touch state, clocks or I/O.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from minds_sandbox import documents

Record = dict[str, Any]

METHOD_NAMES = {
    "van-westendorp": "Van Westendorp price sensitivity",
    "gabor-granger": "Gabor-Granger pricing",
    "maxdiff": "MaxDiff",
    "turf": "TURF analysis",
    "kano": "Kano",
    "nps": "Net Promoter Score",
}
MAX_RAW_SHOWN = 400  # characters of an unknown entry's figures


def section(runs: Sequence[Record]) -> list[str]:
    """``## Method calculations`` for runs ``[{"label", "calculations"}]``; no lines when no run has any."""
    if not any(run.get("calculations") for run in runs):
        return []
    lines = ["## Method calculations", "", "_Figures as Minds computed them, with what each rests on._", ""]
    for run in runs:
        for entry in run.get("calculations") or []:
            lines += _entry(entry if isinstance(entry, dict) else {"raw": entry}, run["label"])
    return lines


def _entry(entry: Record, label: str) -> list[str]:
    method_id = str(entry.get("methodId") or entry.get("method") or "unnamed")
    name = METHOD_NAMES.get(method_id, method_id)
    lines = [f"### {documents.escape(name)} (run of {documents.escape(label)})", "", f"- {_coverage(entry)}"]
    status = entry.get("status", "completed")
    result = entry.get("result")
    if status != "completed":
        reason = entry.get("reason") or "Minds gave no reason."
        lines.append(f"- Not computed: {documents.escape(str(reason))}")
        return [*lines, ""]
    if not isinstance(result, dict):
        return [*lines, f"- Figures as sent: {_raw(entry)}", ""]
    words = _FIGURES.get(method_id)
    try:
        figures = words(result) if words else [f"Figures as sent: {_raw(result)}"]
    except (KeyError, TypeError, ValueError):
        figures = [f"Figures as sent: {_raw(result)}"]
    table = [line for line in figures if line.startswith("|")]
    lines += [f"- {line}" for line in figures if not line.startswith("|")]
    return [*lines, "", *([*table, ""] if table else [])]


def _coverage(entry: Record) -> str:
    n, answered = entry.get("n"), entry.get("answered")
    parts = ["n not reported" if n is None else f"n={n}"]
    if answered is not None and answered != n:
        parts[0] += f" of {answered} who answered"
    names = [a.get("name") for a in entry.get("audiences") or [] if isinstance(a, dict) and a.get("name")]
    if names:
        parts.append(("Audience: " if len(names) == 1 else "Audiences: ") + ", ".join(map(str, names)))
    basis = entry.get("basis")
    if basis == "answers":
        parts.append("computed from the run's answers")
    elif basis == "simulated":
        parts.append("a simulation from the Minds' traits, not asked of them")
    return documents.escape(" · ".join(parts))


def _money(value: Any, currency: Any) -> str:
    return f"{value} {currency}" if currency else str(value)


def _van_westendorp(result: Record) -> list[str]:
    cur, span = result.get("currency"), result["acceptableRange"]
    return [
        f"Acceptable price range: {_money(span['low'], cur)} to {_money(span['high'], cur)}",
        f"Optimal price point: {_money(result['optimalPricePoint'], cur)}",
        f"Indifference price point: {_money(result['indifferencePricePoint'], cur)}",
    ]


def _gabor_granger(result: Record) -> list[str]:
    cur = result.get("currency")
    lines = [
        f"Revenue-maximising tested price: {_money(result['revenueMaximisingPrice'], cur)} "
        f"({result['demandPct']}% would buy at that price)"
    ]
    if result.get("note"):
        lines.append(f"Warning: {documents.escape(str(result['note']))}")
    curve = result.get("curve") or []
    if curve:
        lines += ["| Tested price | Would buy |", "| --- | --- |"]
        lines += [f"| {_money(p['price'], cur)} | {p['demandPct']}% |" for p in curve]
    return lines


def _nps(result: Record) -> list[str]:
    return [
        f"NPS {result['score']:+}: promoters {result['promotersPct']}%, passives {result['passivesPct']}%, "
        f"detractors {result['detractorsPct']}%"
    ]


def _maxdiff(result: Record) -> list[str]:
    lines = [f"Scores: {documents.escape(str(result.get('scoreType', 'preference score')))}"]
    lines += ["| Rank | Item | Score |", "| --- | --- | --- |"]
    lines += [f"| {i['rank']} | {documents.escape(str(i['item']))} | {i['score']} |" for i in result["items"]]
    return lines


def _turf(result: Record) -> list[str]:
    best = result["bestCombination"]
    items = ", ".join(documents.escape(str(i)) for i in best["items"])
    return [f"Best combination: {items}, reaching {best['reachPct']}% (average {best['frequency']} items reached)"]


def _kano(result: Record) -> list[str]:
    lines = ["| Feature | Category | Share |", "| --- | --- | --- |"]
    return lines + [
        f"| {documents.escape(str(f['feature']))} | {f['category']} | {f.get('sharePct', '')}% |"
        for f in result["features"]
    ]


def _raw(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return documents.escape(text if len(text) <= MAX_RAW_SHOWN else text[: MAX_RAW_SHOWN - 1] + "…")


_FIGURES = {
    "van-westendorp": _van_westendorp,
    "gabor-granger": _gabor_granger,
    "nps": _nps,
    "maxdiff": _maxdiff,
    "turf": _turf,
    "kano": _kano,
}
