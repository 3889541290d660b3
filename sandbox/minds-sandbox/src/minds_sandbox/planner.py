"""The sandbox's deterministic research planner: request text or a fixed instrument becomes
a plan revision body, written in the Study language (``studyLocale``: en, de, es, zh, ko; others get English).

Owns: question extraction, response-type inference, the instrument a free-text request gets (its study type,
topic, questions, modules and confirmation question come from ``instruments``, ``banks`` and ``study_types``,
every word from ``wording``), how many questions it plans (the count the request names, 3–8, else 4–8 fixed per
request and at least what the study type needs to cover its objective), leading-framing detection, module
grouping for fixed questionnaires ("Questions 1–3"), the Audience confirmation question, what an answered
confirmation question changes (``apply_answer``: the concept's description the requester typed is what the first
question shows), the methods a request names in any of the five languages (a request that asks for Conjoint gets
the catalogue's non-executable Conjoint entry, so a client must offer its fallback for review) and ``askIf``
validation. ``plannerBrief`` on a revision holds the planner's notes (Study language, study type, topic in that
language, what each question asks: ``kinds``) for later wording and answers; ``plans`` never shows it. Pure
functions over plain data; must not touch state, clocks or I/O.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from minds_sandbox import banks, instruments, reading, study_types, wording
from minds_sandbox.views import RESEARCH_METHODS

RESPONSE_TYPES = ("categorical", "multiselect", "scale", "qualitative")
GATE_TYPES = ("categorical", "multiselect")
MIN_PLANNED_QUESTIONS = 3
MIN_COVERING_QUESTIONS = 4  # a plan the request gives no count for: the fewest that cover every objective
MAX_PLANNED_QUESTIONS = 8
BRIEF_KEY = "plannerBrief"  # the sandbox's notes on a revision (never shown): Study language, intent, topic
MAX_QUESTION_ID_LENGTH = 80  # askIf.questionId limit from the Studies API page
MAX_CONDITION_LABELS = 100

LEADING_PHRASES = (
    "don't you agree",
    "dont you agree",
    "do you agree that",
    "wouldn't you",
    "don't you think",
    "isn't it true",
    "how much do you love",
    "how much do you like",
    "how great",
    "how amazing",
    "how awesome",
    "everyone knows",
)
_LIST_ITEM = re.compile(r"^\s*(?:\d{1,3}[.)]|[-*\u2022])\s+(?P<text>\S.*)$")
_OPTIONS_IN_BRACKETS = re.compile(r"[\[(](?P<opts>[^\[\]()]*[/,|][^\[\]()]*)[\])]\s*\??\s*$")
_SCALE_RANGE = re.compile(r"(?P<lo>\d{1,2})\s*(?:-|to|\u2013)\s*(?P<hi>\d{1,2})")
DEFAULT_METHOD_ID = "survey"
METHOD_KEYWORDS = (  # a word in the request → the catalogue method the plan uses, in this order
    ("maxdiff", "maxdiff"),
    ("max-diff", "maxdiff"),
    ("conjoint", "conjoint"),
    ("nps", "nps"),
    ("net promoter", "nps"),
    ("van westendorp", "van-westendorp"),
    ("kano", "kano"),
    ("gabor-granger", "gabor-granger"),
    ("gabor granger", "gabor-granger"),
    ("turf", "turf"),
)
_FALLBACK_REFINEMENT = re.compile(r'use the research method "(?P<new>[^"]+)" instead of "(?P<old>[^"]+)"', re.I)
_YES_NO_OPENERS = ("do ", "did ", "does ", "have ", "has ", "are ", "is ", "was ", "would ", "will ", "can ")


class PlanInputError(ValueError):
    """A request the planner cannot turn into an executable plan; ``issues`` name each problem."""

    def __init__(self, issues: list[str]) -> None:
        super().__init__("; ".join(issues))
        self.issues = issues


@dataclass(frozen=True)
class AudienceRef:
    id: str
    name: str


# ---------------------------------------------------------------- response inference


def infer_response(text: str) -> dict[str, Any]:
    """The response contract a question's wording implies."""
    lowered = text.lower().strip()
    options = _bracketed_options(text)
    if options:
        multi = "select all" in lowered or "all that apply" in lowered
        return _choice("multiselect" if multi else "categorical", options)
    if "how likely" in lowered or "recommend" in lowered:
        return {"type": "scale", "scaleRange": [0, 10]}
    if any(word in lowered for word in ("rate ", "scale", "how appealing", "how satisfied", "how important")):
        match = _SCALE_RANGE.search(lowered)
        low, high = (int(match["lo"]), int(match["hi"])) if match else (1, 5)
        return {"type": "scale", "scaleRange": [low, high] if low < high else [1, 5]}
    if lowered.startswith(_YES_NO_OPENERS) and lowered.endswith("?"):
        return _choice("categorical", ["Yes", "No"])
    return {"type": "qualitative"}


def _bracketed_options(text: str) -> list[str]:
    match = _OPTIONS_IN_BRACKETS.search(text.strip())
    if not match:
        return []
    parts = [p.strip() for p in re.split(r"[/,|]", match["opts"]) if p.strip()]
    return parts if len(parts) >= 2 else []


def _choice(kind: str, options: list[str]) -> dict[str, Any]:
    return {"type": kind, "categoricalOptions": options}


def framing_issues(text: str) -> list[str]:
    lowered = text.lower().replace("\u2019", "'")
    return [phrase for phrase in LEADING_PHRASES if phrase in lowered]


def listed_questions(request: str) -> list[str]:
    """Items of an explicit numbered or bulleted questionnaire, in order (empty when there is none)."""
    items = [m["text"].strip() for line in request.splitlines() if (m := _LIST_ITEM.match(line))]
    return items if len(items) >= 2 else []


def normalize_id(raw: str) -> str:
    slug = re.sub(r"[^a-z0-9_-]+", "_", raw.strip().lower()).strip("_")
    return slug[:MAX_QUESTION_ID_LENGTH]


# ---------------------------------------------------------------- plans


def plan_from_request(*, request: str, audiences: list[AudienceRef], locale: str) -> dict[str, Any]:
    """Plan body for free text, written in the Study language ``locale``; an explicit questionnaire inside it is
    kept as fixed questions, in order."""
    text = request.strip()
    if not text:
        raise PlanInputError(["request must not be empty"])
    listed = listed_questions(text)
    if listed:
        objective = _first_plain_line(text) or "Run the questionnaire as written"
        questions = [{"id": f"q{i}", "text": q, "response": infer_response(q)} for i, q in enumerate(listed, 1)]
        return _assemble(objective=objective, questions=questions, audiences=audiences, locale=locale)
    brief = instruments.read_brief(text)
    count = planned_count(text)
    if reading.count_asked(text) is None:
        count = max(count, banks.core_count(brief))  # enough to cover the study type (and NPS, when asked)
    elif brief.intent == "price" and brief.price_method:
        count = max(count, banks.PRICE_METHOD_QUESTIONS)  # the method's price points, the judgement and the why
    planned = instruments.instrument(brief, locale=locale, count=count)
    body = _assemble(
        objective=instruments.objective_for(brief, locale=locale),
        questions=planned.questions,
        audiences=audiences,
        locale=locale,
        modules=planned.modules,
    )
    if len(audiences) <= 1:
        body["confirmationQuestions"] = [instruments.confirmation_for(brief, locale=locale)]
    elif instruments.needs_description(brief):
        body["confirmationQuestions"].append(instruments.describe_question(brief, locale=locale))
    body[BRIEF_KEY] = {  # kept with the revision, never shown: what a later answer or refinement words from
        "locale": locale,
        "intent": brief.intent,
        "topic": instruments.topic_in(brief, locale),
        "shownQuestionId": planned.shown_id if instruments.needs_description(brief) else None,
        "kinds": planned.kinds,  # question id → what it asks, for answers worded to the question
    }
    body["methods"] = named_methods(text)
    if framing_issues(text):
        body["framingWarnings"].insert(
            0,
            "The request leads the respondent ("
            + ", ".join(f'"{p}"' for p in framing_issues(text))
            + "); the plan asks neutrally instead.",
        )
    return body


def apply_answer(content: dict[str, Any], question_id: str, answer: str) -> None:
    """What an answered confirmation question changes in the next revision: the concept's description, once the
    requester gave it, is what the plan's first question shows. (An answer naming an Audience narrows who answers;
    see ``plans``.)"""
    notes = content.get(BRIEF_KEY)
    if question_id != instruments.DESCRIBE_ID or not notes or not notes.get("shownQuestionId") or not answer.strip():
        return
    for question in content["questions"]:
        if question["id"] == notes["shownQuestionId"]:
            question["text"] = instruments.described(locale=notes["locale"], topic=notes["topic"], description=answer)


def fixed_plan(
    *, questions: list[dict[str, Any]], audiences: list[AudienceRef], locale: str, objective: str | None
) -> dict[str, Any]:
    """Plan body for a fixed instrument: text, order, ids and response contracts are kept as given."""
    if not questions:
        raise PlanInputError(["questions must list at least one question"])
    normalized = [_normalize_fixed(q, index) for index, q in enumerate(questions, 1)]
    issues = _duplicate_ids(normalized) + condition_issues(normalized)
    if issues:
        raise PlanInputError(issues)
    return _assemble(
        objective=objective or "Run the questionnaire as written",
        questions=normalized,
        audiences=audiences,
        locale=locale,
    )


def _normalize_fixed(raw: object, index: int) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise PlanInputError([f"question {index} must be an object"])
    text = str(raw.get("text") or "").strip()
    if not text:
        raise PlanInputError([f"question {index} has no text"])
    question: dict[str, Any] = {
        "id": normalize_id(str(raw.get("id") or f"q{index}")) or f"q{index}",
        "text": text,
        "response": normalize_response(raw.get("response"), text=text, where=f"question {index}"),
    }
    if raw.get("moduleId"):
        question["moduleId"] = str(raw["moduleId"])
    if raw.get("askIf") is not None:
        question["askIf"] = raw["askIf"]
    return question


def normalize_response(raw: object, *, text: str, where: str) -> dict[str, Any]:
    if raw is None:
        return infer_response(text)
    if not isinstance(raw, dict) or raw.get("type") not in RESPONSE_TYPES:
        raise PlanInputError([f"{where}: response.type must be one of {', '.join(RESPONSE_TYPES)}"])
    kind = raw["type"]
    if kind in GATE_TYPES:
        options = raw.get("categoricalOptions")
        if not isinstance(options, list) or len(options) < 2 or not all(isinstance(o, str) and o for o in options):
            raise PlanInputError([f"{where}: a {kind} question needs at least two categoricalOptions"])
        response: dict[str, Any] = {"type": kind, "categoricalOptions": list(options)}
        if kind == "multiselect" and isinstance(raw.get("maxSelections"), int) and raw["maxSelections"] >= 1:
            response["maxSelections"] = raw["maxSelections"]
        return response
    if kind == "scale":
        bounds = raw.get("scaleRange", [1, 5])
        if not (
            isinstance(bounds, list)
            and len(bounds) == 2
            and all(isinstance(b, int | float) for b in bounds)
            and bounds[0] < bounds[1]
        ):
            raise PlanInputError([f"{where}: scaleRange must be two increasing numbers"])
        return {"type": "scale", "scaleRange": list(bounds)}
    return {"type": "qualitative"}


def _duplicate_ids(questions: list[dict[str, Any]]) -> list[str]:
    seen: set[str] = set()
    duplicates = []
    for question in questions:
        if question["id"] in seen:
            duplicates.append(f'question id "{question["id"]}" is used more than once')
        seen.add(question["id"])
    return duplicates


def condition_issues(questions: list[dict[str, Any]]) -> list[str]:
    """Every reason an ``askIf`` in this ordered list cannot run, naming the question."""
    issues: list[str] = []
    earlier: dict[str, dict[str, Any]] = {}
    all_ids = {q["id"] for q in questions}
    for question in questions:
        if question.get("askIf") is not None:
            issues += _issues_for(question, earlier=earlier, all_ids=all_ids)
        earlier[question["id"]] = question
    return issues


def _issues_for(question: dict[str, Any], *, earlier: dict[str, dict[str, Any]], all_ids: set[str]) -> list[str]:
    name = f'question "{question["id"]}"'
    condition = question["askIf"]
    if not isinstance(condition, dict):
        return [f"{name}: askIf must be an object"]
    gate_id = normalize_id(str(condition.get("questionId") or ""))
    has_in, has_not_in = condition.get("answerIn") is not None, condition.get("answerNotIn") is not None
    if has_in == has_not_in:
        return [f"{name}: askIf needs exactly one of answerIn or answerNotIn"]
    if gate_id not in all_ids:
        return [f'{name}: askIf.questionId "{gate_id}" is not a question in this plan']
    if gate_id not in earlier:
        return [f'{name}: askIf.questionId "{gate_id}" is not an earlier question']
    gate = earlier[gate_id]
    if gate["response"]["type"] not in GATE_TYPES:
        return [f'{name}: askIf.questionId "{gate_id}" is not a categorical or multiselect question']
    labels = condition.get("answerIn") if has_in else condition.get("answerNotIn")
    if not isinstance(labels, list) or not 1 <= len(labels) <= MAX_CONDITION_LABELS:
        return [f"{name}: askIf needs 1 to {MAX_CONDITION_LABELS} option labels"]
    unknown = [label for label in labels if label not in gate["response"]["categoricalOptions"]]
    if unknown:
        return [f'{name}: askIf option "{unknown[0]}" is not offered by question "{gate_id}"']
    condition["questionId"] = gate_id
    return []


def _assemble(
    *,
    objective: str,
    questions: list[dict[str, Any]],
    audiences: list[AudienceRef],
    locale: str,
    modules: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    modules = modules or _modules(questions, locale=locale)
    warnings = [
        f'Question {i} leads the respondent ("{issue}")'
        for i, q in enumerate(questions, 1)
        for issue in framing_issues(q["text"])[:1]
    ]
    return {
        "objective": objective,
        "studyLocale": locale,
        "modules": modules,
        "questions": questions,
        "methods": [plan_method(DEFAULT_METHOD_ID)],
        "confirmationQuestions": [audience_confirmation(audiences, locale=locale)],
        "framingWarnings": warnings,
    }


def plan_method(method_id: str) -> dict[str, Any]:
    """A plan's method entry as the catalogue describes it (unknown ids are not executable)."""
    facts = next((m for m in RESEARCH_METHODS if m["id"] == method_id), None)
    if facts is None:
        return {"id": method_id, "name": method_id, "executable": False, "advanced": True}
    return {key: facts[key] for key in ("id", "name", "executable", "advanced")}


def named_methods(request: str) -> list[dict[str, Any]]:
    """The default method plus every catalogue method the request names (pricing methods and NPS in any wording
    of the five languages: "Van-Westendorp-Methode", "반 웨스텐도르프", "NPS도")."""
    lowered = request.lower()
    ids = [DEFAULT_METHOD_ID]
    named = [m for word, m in METHOD_KEYWORDS if re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", lowered)]
    if study_types.names_nps(request):
        named.append("nps")
    if study_types.price_method(request):
        named.append(study_types.price_method(request) or "")
    for method_id in named:
        if method_id not in ids:
            ids.append(method_id)
    return [plan_method(method_id) for method_id in ids]


def swap_method(methods: list[dict[str, Any]], refinement: str) -> list[dict[str, Any]] | None:
    """A refinement asking for a method's fallback, applied; None when the refinement is not such a request."""
    match = _FALLBACK_REFINEMENT.search(refinement)
    if match is None or not any(m["id"] == match["old"] for m in methods):
        return None
    swapped = [plan_method(match["new"]) if m["id"] == match["old"] else m for m in methods]
    unique: dict[str, dict[str, Any]] = {m["id"]: m for m in swapped}
    return list(unique.values())


def audience_confirmation(audiences: list[AudienceRef], *, locale: str = "en") -> dict[str, Any]:
    """Several Audiences: which of them answer (in the Study language; their names as Minds has them). One: the
    fixed instrument's yes/no question whether every Mind answers every question."""
    if len(audiences) > 1:
        options = wording.choices(locale, "all_audiences") + [a.name for a in audiences]
        return {"id": "cq1", "text": wording.phrase(locale, "confirm_audiences"), "options": options}
    text = "Should every Mind in the attached Audience answer every question?"
    return {"id": "cq1", "text": text, "options": ["Yes", "No"]}


def _modules(questions: list[dict[str, Any]], *, locale: str) -> list[dict[str, Any]]:
    """Group a fixed questionnaire into 1-3 modules, honouring any moduleId the questions already carry; each is
    titled by the questions it holds ("Questions 1–3"), since the planner did not choose what they ask."""
    if not all(q.get("moduleId") for q in questions):
        size = len(questions)
        groups = 1 if size <= 3 else 2 if size <= 5 else 3
        per_group = -(-size // groups)
        for index, question in enumerate(questions):
            question["moduleId"] = f"m{index // per_group + 1}"
    modules: dict[str, dict[str, Any]] = {}
    positions: dict[str, list[int]] = {}
    for position, question in enumerate(questions, 1):
        module = modules.setdefault(
            question["moduleId"], {"id": question["moduleId"], "title": "", "purpose": "", "questionIds": []}
        )
        module["questionIds"].append(question["id"])
        positions.setdefault(question["moduleId"], []).append(position)
    for module_id, module in modules.items():
        first, last = positions[module_id][0], positions[module_id][-1]
        count = len(module["questionIds"])
        if count == 1:
            module["title"] = wording.phrase(locale, "module_question", number=first)
            module["purpose"] = wording.phrase(locale, "purpose_one")
        else:
            module["title"] = wording.phrase(locale, "module_questions", first=first, last=last)
            module["purpose"] = wording.phrase(locale, "purpose_many", count=count)
    return list(modules.values())


def planned_count(text: str) -> int:
    """The question count a request names ("in 5 questions", 3–8); otherwise 4–8, fixed per request, so even the
    shortest plan covers its objective."""
    asked = reading.count_asked(text)
    if asked is not None:
        return max(MIN_PLANNED_QUESTIONS, min(MAX_PLANNED_QUESTIONS, asked))
    digest = int(hashlib.sha256(text.encode()).hexdigest(), 16)
    return MIN_COVERING_QUESTIONS + digest % (MAX_PLANNED_QUESTIONS - MIN_COVERING_QUESTIONS + 1)


def _first_plain_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip() and not _LIST_ITEM.match(line):
            return line.strip().rstrip(":")
    return ""
