"""A research run's method calculations (Van Westendorp, Gabor-Granger, MaxDiff, TURF, Kano, NPS, key drivers,
top/bottom box) in its result thread: each one's headline figures, with what they cover (n, the Audiences when
Minds names them).

Owns: the words for every ``Calculation`` kind in ``minds.models.calculations`` (numbers, percentages and signed scores
in the reader's language, through ``minds_bot.i18n``), including the two that have no figures to show: a kind the
bot does not know is named ("Minds returned a … calculation that the bot cannot show here"), and an entry the
bot could not read says so — neither is ever skipped or shown as empty. Numbers are printed with the precision Minds
sent (a score of 34.2 stays 34.2, a price of 105 stays 105); nothing is derived or rounded up
into false certainty. Text from Minds (items, features, currency, method ids) is escaped.
A calculation Minds could not compute from the answers (``reasonCode``: no numeric answers, too few, nobody would
buy, the questions not asked) keeps its heading with n and says why in the reader's language ("Not computed: none
of the 10 respondents answered its price questions with a number …"); no figure is shown for it. Gabor-Granger
names only tested prices: its demand at each one, the revenue-maximising price only when it is one of them, and a
warning when more would buy at a higher price than at a lower one (or Minds flags the curve).
Pure: no I/O. ``render/runs.py`` appends these blocks to the result and pages them with the rest.
Must not touch: Minds calls, the store, Slack calls.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from slack_sdk.models.blocks import Block

from minds_bot.i18n import N_, _, _n, format_number, format_percent, format_signed, separated
from minds_bot.minds.models import (
    Calculation,
    CalculationCoverage,
    GaborGrangerCalculation,
    KanoCalculation,
    KeyDriversCalculation,
    MaxDiffCalculation,
    NotComputedCalculation,
    NpsCalculation,
    TopBottomBoxCalculation,
    TurfCalculation,
    UnknownCalculation,
    UnreadableCalculation,
    VanWestendorpCalculation,
)
from minds_bot.render import MAX_NAME_SHOWN, MAX_REASON_SHOWN, MAX_WORD_SHOWN, escape
from minds_bot.render.common import listing, sections
from minds_bot.render.states import state_word

MAX_DECIMALS_SHOWN = 3  # babel's default pattern shows at most three; Minds' figures have fewer
MAX_CURRENCY_SHOWN = 12

METHOD_NAMES = {
    "van_westendorp": N_("Van Westendorp price sensitivity"),
    "gabor_granger": N_("Gabor-Granger pricing"),
    "maxdiff": N_("MaxDiff"),
    "turf": N_("TURF analysis"),
    "kano": N_("Kano"),
    "nps": N_("Net Promoter Score"),
    "key_drivers": N_("Key drivers"),
    "top_bottom_box": N_("Top/bottom box"),
}
KANO_CATEGORIES = {
    "mustbe": N_("must-be"),
    "basic": N_("must-be"),
    "onedimensional": N_("performance"),
    "performance": N_("performance"),
    "attractive": N_("attractive"),
    "indifferent": N_("indifferent"),
    "reverse": N_("reverse"),
    "questionable": N_("questionable"),
}


def calculation_blocks(calculations: Sequence[Calculation]) -> list[Block]:
    """A heading and one or more sections per calculation, in Minds' order; no blocks when there are none."""
    if not calculations:
        return []
    blocks = sections(_(":abacus: *Method calculations* (figures as Minds computed them)"))
    for calculation in calculations:
        blocks += sections(calculation_text(calculation))
    return blocks


def calculation_text(calculation: Calculation) -> str:
    """What a reader sees for one calculation: a heading with n and Audiences, then its headline figures."""
    if isinstance(calculation, UnreadableCalculation):
        return _unreadable(calculation)
    if isinstance(calculation, UnknownCalculation):
        # i18n: {kind} is Minds' own id of a method the bot does not know (e.g. conjoint_v2), shown as written.
        return _(
            ":grey_question: Minds returned a {kind} calculation that the bot cannot show here; it is in the report.",
            kind=escape(calculation.method_id, limit=MAX_WORD_SHOWN),
        )
    if isinstance(calculation, NotComputedCalculation):
        return _not_computed(calculation)
    return "\n".join([_heading(calculation.kind, calculation), *_figures(calculation)])


def _unreadable(calculation: UnreadableCalculation) -> str:
    if calculation.method_id is None:
        return _(
            ":warning: Minds returned a calculation that the bot could not read, so none of its figures are shown."
        )
    # i18n: {kind} is Minds' own id of the method (e.g. van-westendorp), shown as written.
    return _(
        ":warning: Minds returned a {kind} calculation that the bot could not read, so none of its figures are shown.",
        kind=escape(calculation.method_id, limit=MAX_WORD_SHOWN),
    )


def _not_computed(calculation: NotComputedCalculation) -> str:
    """Why the answers could not support the method, in the reader's words, under the method's heading with its
    n; a reason the bot does not know is Minds' own, quoted."""
    why = _not_computable_reason(calculation)
    if why is not None:
        return "\n".join([_heading(calculation.kind, calculation), why])
    # i18n: {method} is a research method's name (e.g. MaxDiff); {status} is Minds' word for its state (failed…).
    text = _(
        ":warning: Minds did not compute the {method} calculation (status: {status}).",
        method=_(METHOD_NAMES[calculation.kind]),
        status=state_word(calculation.status),
    )
    if calculation.reason:
        # i18n: {text} is the sentence before; {reason} is Minds' explanation, shown as written.
        text = _("{text} Minds said: {reason}", text=text, reason=escape(calculation.reason, limit=MAX_REASON_SHOWN))
    return text


def _not_computable_reason(calc: NotComputedCalculation) -> str | None:
    answered = calc.answered
    if calc.reason_code == "no_method_questions":
        return _(":warning: Not computed: the run did not ask this method's questions, so there are no figures.")
    if answered is None:
        return None
    count = format_number(answered)
    if calc.reason_code == "no_numeric_answers":
        # i18n: {count} respondents answered the method's price questions, but none of them with an amount.
        return _n(
            ":warning: Not computed: the {count} respondent did not answer its price questions with a number, "
            "so there are no figures to show.",
            ":warning: Not computed: none of the {count} respondents answered its price questions with a number, "
            "so there are no figures to show.",
            answered,
            count=count,
        )
    if calc.reason_code == "too_few_numeric_answers" and calc.n is not None and calc.minimum_n is not None:
        # i18n: {n} usable answers of {count} respondents; {minimum} is the fewest the method needs.
        return _n(
            ":warning: Not computed: only {n} of the {count} respondent gave usable answers to all its price "
            "questions; the method needs at least {minimum}.",
            ":warning: Not computed: only {n} of the {count} respondents gave usable answers to all its price "
            "questions; the method needs at least {minimum}.",
            answered,
            n=format_number(calc.n),
            count=count,
            minimum=format_number(calc.minimum_n),
        )
    if calc.reason_code == "no_demand":
        return _n(
            ":warning: Not computed: the {count} respondent would not buy at any tested price.",
            ":warning: Not computed: none of the {count} respondents would buy at any tested price.",
            answered,
            count=count,
        )
    return None


def _heading(kind: str, calculation: CalculationCoverage) -> str:
    method = _(METHOD_NAMES[kind])
    if calculation.n is None:
        # i18n: {method} is a research method's name; Minds did not say how many answers the figures rest on.
        line = _("*{method}* · n not reported by Minds", method=method)
    else:
        # i18n: {method} is a research method's name; n is the number of respondents its figures rest on.
        line = _("*{method}* · n={n}", method=method, n=format_number(calculation.n))
    names = list(calculation.audience_names)
    if names:
        # i18n: {line} is the calculation's heading before this; {names} lists Audience names.
        line = _n(
            "{line} · Audience: {names}", "{line} · Audiences: {names}", len(names), line=line, names=listing(names)
        )
    return line


def _figures(calculation: Calculation) -> list[str]:
    if isinstance(calculation, VanWestendorpCalculation):
        return _van_westendorp(calculation)
    if isinstance(calculation, GaborGrangerCalculation):
        return _gabor_granger(calculation)
    if isinstance(calculation, MaxDiffCalculation):
        return _maxdiff(calculation)
    if isinstance(calculation, TurfCalculation):
        return _turf(calculation)
    if isinstance(calculation, KanoCalculation):
        return [
            _("{feature}: {category}", feature=_item(f.feature), category=_kano(f.category))
            for f in calculation.features
        ]
    if isinstance(calculation, NpsCalculation):
        return [_nps(calculation)]
    if isinstance(calculation, KeyDriversCalculation):
        return _key_drivers(calculation)
    if isinstance(calculation, TopBottomBoxCalculation):
        return _top_bottom_box(calculation)
    raise TypeError(f"no figures for {type(calculation).__name__}")  # a new kind must get its words here


def _van_westendorp(calc: VanWestendorpCalculation) -> list[str]:
    lines = [
        _(
            "Acceptable price range: {low} to {high}",
            low=_money(calc.acceptable_low, calc.currency),
            high=_money(calc.acceptable_high, calc.currency),
        )
    ]
    if calc.optimal_price is not None:
        lines.append(_("Optimal price point: {price}", price=_money(calc.optimal_price, calc.currency)))
    if calc.indifference_price is not None:
        lines.append(_("Indifference price point: {price}", price=_money(calc.indifference_price, calc.currency)))
    return lines


def _gabor_granger(calc: GaborGrangerCalculation) -> list[str]:
    """The demand at each tested price, the revenue-maximising price only when it is one of them, and a warning
    when more would buy at a higher price than at a lower one (read from the curve, or Minds' own flag)."""
    lines = []
    if calc.curve:
        ladder = sorted(calc.curve, key=lambda point: point.price)
        # i18n: One tested price and the share who would buy at it: "76 EUR: 71%".
        points = [_("{price}: {share}", price=_money(p.price, calc.currency), share=_pct(p.demand_pct)) for p in ladder]
        # i18n: {points} lists each tested price with the share who would buy at it.
        lines.append(_("Would buy at each tested price: {points}", points=separated(points)))
    price = _money(calc.revenue_price, calc.currency)
    if not calc.tested:
        lines.append(
            _(":warning: Minds' revenue-maximising price is not one of the tested prices, so it is not shown.")
        )
    elif calc.demand_pct is None:
        lines.append(_("Revenue-maximising price: {price}", price=price))
    else:
        # i18n: {share} is the percentage of respondents who said they would buy at that price.
        lines.append(
            _(
                "Revenue-maximising price: {price} ({share} would buy at that price)",
                price=price,
                share=_pct(calc.demand_pct),
            )
        )
    rise = calc.demand_rise
    if rise is not None:
        lower, higher = rise
        # i18n: A Gabor-Granger warning: more respondents would buy at the higher price than at the lower one.
        lines.append(
            _(
                ":warning: Demand rises with price here: {higher_share} would buy at {higher} but only "
                "{lower_share} at {lower}. Demand should fall as the price rises, so the revenue-maximising price "
                "is not reliable.",
                higher_share=_pct(higher.demand_pct),
                higher=_money(higher.price, calc.currency),
                lower_share=_pct(lower.demand_pct),
                lower=_money(lower.price, calc.currency),
            )
        )
    elif calc.monotone is False:
        lines.append(
            _(
                ":warning: Minds flagged this demand curve: demand does not fall as the price rises, so the "
                "revenue-maximising price is not reliable."
            )
        )
    return lines


def _maxdiff(calc: MaxDiffCalculation) -> list[str]:
    lines = [_("Items by preference score, highest first:")]
    for position, item in enumerate(calc.ranked, 1):
        rank = item.rank if item.rank is not None else position
        # i18n: One MaxDiff item: "1. Comfort: score 34.2".
        lines.append(
            _("{rank}. {item}: score {score}", rank=format_number(rank), item=_item(item.item), score=_num(item.score))
        )
    return lines


def _turf(calc: TurfCalculation) -> list[str]:
    # i18n: {items} lists the items of the best combination; {share} is the percentage of respondents reached.
    lines = [
        _(
            "Best combination: {items}, reaching {share} of respondents",
            items=listing(calc.items, most=len(calc.items)),
            share=_pct(calc.reach_pct),
        )
    ]
    if calc.frequency is not None:
        lines.append(_("Average items reached per respondent: {frequency}", frequency=_num(calc.frequency)))
    return lines


def _nps(calc: NpsCalculation) -> str:
    # as the results write an NPS ("−42", "+12"), with the decimals Minds sent
    parts = [_("NPS {score}", score=format_signed(round(calc.score, _decimals(calc.score))))]
    groups = (
        (calc.promoters_pct, N_("promoters {share}")),
        (calc.passives_pct, N_("passives {share}")),
        (calc.detractors_pct, N_("detractors {share}")),
    )
    parts += [_(message, share=_pct(share)) for share, message in groups if share is not None]
    return separated(parts)


def _key_drivers(calc: KeyDriversCalculation) -> list[str]:
    if calc.outcome:
        # i18n: {outcome} is what the drivers explain (e.g. purchase intent), as Minds wrote it.
        lines = [_("Drivers of {outcome}, strongest first:", outcome=_item(calc.outcome))]
    else:
        lines = [_("Drivers, strongest first:")]
    ordered = sorted(calc.drivers, key=lambda driver: -driver.importance)
    lines += [_("{driver}: importance {value}", driver=_item(d.driver), value=_num(d.importance)) for d in ordered]
    return lines


def _top_bottom_box(calc: TopBottomBoxCalculation) -> list[str]:
    lines = [_("Question: {question}", question=_item(calc.question))] if calc.question else []
    if calc.box_size is None:
        parts = [_("top box {share}", share=_pct(calc.top_box_pct))]
        if calc.bottom_box_pct is not None:
            parts.append(_("bottom box {share}", share=_pct(calc.bottom_box_pct)))
    else:
        size = format_number(calc.box_size)
        # i18n: "top-2-box 40%": the share on the {size} highest points of the scale.
        parts = [_("top-{size}-box {share}", size=size, share=_pct(calc.top_box_pct))]
        if calc.bottom_box_pct is not None:
            parts.append(_("bottom-{size}-box {share}", size=size, share=_pct(calc.bottom_box_pct)))
    return [*lines, separated(parts)]


# --- numbers as Minds sent them ----------------------------------------------------------------------------


def _decimals(value: float) -> int:
    """How many decimals Minds sent (105.0 → 0, 34.25 → 2), at most ``MAX_DECIMALS_SHOWN``."""
    text = repr(float(value))
    if "e" in text or "." not in text:
        return 0
    fraction = text.split(".")[1].rstrip("0")
    return min(len(fraction), MAX_DECIMALS_SHOWN)


def _num(value: float) -> str:
    return format_number(round(value, _decimals(value)))


def _pct(value: float) -> str:
    """A percentage on 0–100 with the decimals Minds sent: 78.5 → "78.5%", 17 → "17%"."""
    return format_percent(value / 100, digits=_decimals(value))


def _money(value: float, currency: str | None) -> str:
    if not currency:
        return _num(value)
    # i18n: A price: {amount} is the number, {currency} Minds' currency as it sent it (EUR, €, USD…).
    return _("{amount} {currency}", amount=_num(value), currency=escape(currency, limit=MAX_CURRENCY_SHOWN))


def _item(text: str) -> str:
    return escape(text, limit=MAX_NAME_SHOWN)


def _kano(category: str) -> str:
    known = KANO_CATEGORIES.get(re.sub(r"[^a-z]", "", category.lower()))
    return _(known) if known else escape(category, limit=MAX_WORD_SHOWN)
