"""A refinement (the free text a requester sends with Revise…) applied to a plan revision's questions.

Owns: splitting a refinement into instructions ("Add an open question asking why, and ask which of three claims
they prefer" is two), and applying each one to the questions: **add** (an open "why" question about the plan's
topic, a preference question whose options come from the refinement when quoted or listed — else placeholders
and a confirmation question asking the requester for them —, a question given word for word, a question about
something named, an open question), **remove** ("remove question 3", "drop the screener"), **reword** ("reword Q2
to …", "change Q2 to …") and **keep only N questions**. Questions are named by the number the requester saw
(their position in the revision being revised); what is not named is kept, ids included (a new question gets a
fresh id, never one this plan used before, so a client comparing revisions by id sees it as added). A question
routed on a removed one is then asked of everyone, and the revision says so. Every instruction that could not be
applied is named in ``plannerNotes`` (English, like all sandbox notes) and changes nothing: the objective is
never rewritten from a refinement. Instructions are read in English, German, Spanish, Chinese and Korean; added
questions are written in the plan's ``studyLocale`` (``refinement_phrases``).
Pure functions over the revision's plain data; must not touch state, clocks, I/O or ``instruments``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from minds_sandbox import refinement_phrases as words
from minds_sandbox.planner import GATE_TYPES, PlanInputError, framing_issues, infer_response

NOTES_FIELD = "plannerNotes"  # sandbox-assumed field of a revision: what the planner could not apply, and why
OPTIONS_CONFIRMATION = "cq_{question_id}_options"
DEFAULT_OPTION_COUNT = 3
MAX_OPTIONS = 10
MAX_OPTION_CHARS = 120
_NUMBERED_ID = re.compile(r"^q(\d+)$")
_VERBATIM_PREFIX = re.compile(
    r"^(?:please\s+)?(?:also\s+)?(?:add|ask|include|insert)\s+(?:(?:a|an|this|the)\s+)?(?:new\s+)?"
    r"(?:question\s*)?(?:like\s+|asking\s+)?[:：]?\s*",
    re.I,
)


@dataclass(frozen=True)
class Subject:
    """What the plan is about, for the wording of questions a refinement adds (None when unknown)."""

    topic: str | None = None
    price: str | None = None


@dataclass
class _Draft:
    """The questions while a refinement is applied; ``numbered`` is the revision as the requester saw it."""

    questions: list[dict[str, Any]]
    numbered: list[str]
    language: str
    subject: Subject
    next_id: int
    added: list[str] = field(default_factory=list)
    limit: int | None = None
    pending_options: list[tuple[str, str, int]] = field(default_factory=list)  # question id, kind, count
    notes: list[str] = field(default_factory=list)

    def new_id(self) -> str:
        question_id, self.next_id = f"q{self.next_id}", self.next_id + 1
        return question_id

    def by_id(self, question_id: str) -> dict[str, Any] | None:
        return next((q for q in self.questions if q["id"] == question_id), None)


def apply(content: dict[str, Any], refinement: str, *, subject: Subject) -> None:
    """Apply every instruction of ``refinement`` to ``content`` (a revision body, changed in place); what could
    not be applied is listed in ``content["plannerNotes"]``."""
    draft = _Draft(
        questions=[dict(q) for q in content["questions"]],
        numbered=[q["id"] for q in content["questions"]],
        language=words.language_of(content.get("studyLocale")),
        subject=subject,
        next_id=_next_number(content["questions"]),
    )
    for instruction in split(refinement):
        if not _apply_one(draft, instruction):
            draft.notes.append(
                f'Not applied to the questions: "{instruction}". The sandbox planner applies instructions that add, '
                "remove or reword a question or keep a number of questions; this one changed nothing."
            )
    _limit(draft)
    if draft.questions:
        _unroute_orphans(draft)
        _finish(content, draft)
    else:
        draft.notes.append("Not applied: the plan would have no question left; the questions are unchanged.")
    if draft.notes:
        content[NOTES_FIELD] = draft.notes


def split(refinement: str) -> list[str]:
    """The instructions of a refinement, in order; quoted text is never split."""
    quoted: list[str] = []

    def hide(match: re.Match[str]) -> str:
        quoted.append(match[0])
        return f"\x00{len(quoted) - 1}\x00"

    masked = words.QUOTED.sub(hide, refinement.strip())
    parts = [masked]
    for pattern in (words.SENTENCE_BREAK, words.ZH_BREAK, words.KO_BREAK):
        parts = [piece for part in parts for piece in pattern.split(part)]
    parts = [piece for part in parts for piece in _split_conjunctions(part)]
    restored = [re.sub(r"\x00(\d+)\x00", lambda m: quoted[int(m[1])], p).strip(" ,.;") for p in parts]
    return [p for p in restored if p]


def _split_conjunctions(text: str) -> list[str]:
    """``text`` cut at "and"/"und"/"y"/a comma that begins a new instruction ("…, and ask which …")."""
    pieces, start = [], 0
    for match in re.finditer(words.CONJUNCTION.pattern + r"|\s*,\s*", text, re.I):
        if words.INSTRUCTION_START.match(text, match.end()):
            pieces.append(text[start : match.start()])
            start = match.end()
    pieces.append(text[start:])
    return pieces


# ---------------------------------------------------------------- one instruction

QUALITATIVE: dict[str, Any] = {"type": "qualitative"}


def _apply_one(draft: _Draft, instruction: str) -> bool:
    for kind in (_only_count, _reword, _remove, _add):
        handled = kind(draft, instruction)
        if handled is not None:
            return handled
    return bool(words.KEEP.match(instruction))


def _only_count(draft: _Draft, instruction: str) -> bool | None:
    match = words.ONLY_COUNT.search(instruction)
    if match is None:
        return None
    number = _number(next(v for v in match.groupdict().values() if v))
    if number is None or number < 1:
        return False
    draft.limit = number if draft.limit is None else min(draft.limit, number)
    return True


def _reword(draft: _Draft, instruction: str) -> bool | None:
    """ "Reword Q2 to …": the named question gets the new wording; its answer format is kept unless the new
    wording lists its own options (in brackets) or asks why."""
    ref = words.QUESTION_REF.search(instruction)
    if not words.REWORD.search(instruction) or ref is None:
        return None
    rest = instruction[ref.end() :]
    quoted = words.QUOTED.search(rest)
    connector = words.REWORD_TEXT.search(rest)
    if quoted:
        text = quoted["q"].strip()
    elif connector:
        text = (connector["text"] or connector["ko"]).strip().strip('"“”„«»「」『』').strip()
    else:
        return None
    question = draft.by_id(_at(draft.numbered, _position(ref)) or "")
    if question is None or not text:
        return False
    if not text.endswith(("?", "？")) and words.WHY.search(text):
        text = words.why_question(draft.language, topic=draft.subject.topic, price=draft.subject.price)
    question["text"] = text
    implied = infer_response(text)
    if implied["type"] != "qualitative":
        question["response"] = implied
    elif words.WHY.match(text.lstrip("¿ ")):
        question["response"] = dict(QUALITATIVE)
    return True


def _remove(draft: _Draft, instruction: str) -> bool | None:
    if not words.REMOVE.search(instruction):
        return None
    if words.SCREENER.search(instruction):
        targets = [s for s in [_screener(draft)] if s]
    else:
        targets = _positions(draft, instruction)
        if not targets:
            return None
    for question_id in targets:
        draft.questions = [q for q in draft.questions if q["id"] != question_id]
    return bool(targets)


def _add(draft: _Draft, instruction: str) -> bool | None:
    verb = bool(words.ADD.search(instruction))
    asking = instruction.endswith(("?", "？"))
    if asking and not verb:
        return _append(draft, instruction, infer_response(instruction))
    if not (verb or words.OPEN_QUESTION.search(instruction)):
        return None
    quoted = [m["q"].strip() for m in words.QUOTED.finditer(instruction)]
    if len(quoted) == 1 and quoted[0].endswith(("?", "？")):
        return _append(draft, quoted[0], infer_response(quoted[0]))
    head, asked = _colon_split(instruction)
    if asking and asked and not (words.PREFER.search(head) or words.WHY.search(head)):
        return _append(draft, asked, infer_response(asked))  # "Add a question: Why do you run?" as written
    subject = draft.subject
    if words.WHY.search(instruction):
        return _append(draft, words.why_question(draft.language, topic=subject.topic, price=subject.price))
    if words.PREFER.search(instruction):
        return _add_preference(draft, instruction)
    if asking:
        text = _VERBATIM_PREFIX.sub("", instruction, count=1) or instruction
        return _append(draft, text, infer_response(text))
    about = words.ABOUT.search(instruction)
    if about:
        named = next(v for v in (about["x"], about["zh"], about["ko"]) if v).strip(" .\"'“”")
        return _append(draft, words.about_question(draft.language, subject=named))
    if words.OPEN_QUESTION.search(instruction):
        return _append(draft, words.open_question(draft.language, topic=subject.topic))
    return False


def _colon_split(instruction: str) -> tuple[str, str]:
    """The words before the first colon and the text after it ("" when there is no colon)."""
    parts = re.split(r"[:：]", instruction, maxsplit=1)
    return (parts[0], parts[1].strip()) if len(parts) == 2 else (instruction, "")


def _append(draft: _Draft, text: str, response: dict[str, Any] | None = None) -> bool:
    same = next((n for n, q in enumerate(draft.questions, 1) if q["text"].strip().casefold() == text.casefold()), None)
    if same is not None:
        draft.notes.append(f'Not added: Q{same} already asks "{text}".')
        return True
    question_id = draft.new_id()
    draft.questions.append({"id": question_id, "text": text, "response": response or dict(QUALITATIVE)})
    draft.added.append(question_id)
    return True


def _add_preference(draft: _Draft, instruction: str) -> bool:
    """A preference question: the options the refinement names, else placeholders and a confirmation question
    that asks the requester for them (its answer becomes the options, see ``answered``)."""
    kind = _kind(instruction)
    text = words.preference_question(draft.language, kind=kind)
    options = _named_options(instruction)
    if options:
        choices = [*options, words.no_preference(draft.language)]
        return _append(draft, text, {"type": "categorical", "categoricalOptions": choices})
    count = _option_count(instruction)
    placeholders = words.placeholder_options(draft.language, kind=kind, count=count)
    _append(draft, text, {"type": "categorical", "categoricalOptions": placeholders})
    draft.pending_options.append((draft.added[-1], kind, count))
    return True


def _kind(instruction: str) -> str:
    found = [
        (match.start(), kind)
        for kind, pattern in words.KIND_WORDS.items()
        if (match := re.search(rf"(?<![A-Za-zÀ-ÿ])(?:{pattern})", instruction, re.I))
    ]
    return min(found)[1] if found else "option"


def _named_options(instruction: str) -> list[str]:
    quoted = [m["q"].strip() for m in words.QUOTED.finditer(instruction) if m["q"].strip()]
    if len(quoted) >= 2:
        return _distinct(quoted)
    _head, listed = _colon_split(instruction)
    parts = [p.strip(" .?？\"'") for p in words.LIST_SPLIT.split(listed) if p.strip(" .?？\"'")]
    if 2 <= len(parts) <= MAX_OPTIONS and all(len(p) <= MAX_OPTION_CHARS for p in parts):
        return _distinct(parts)
    return []


def _distinct(options: list[str]) -> list[str]:
    seen: dict[str, str] = {}
    for option in options[:MAX_OPTIONS]:
        seen.setdefault(option.casefold(), option)
    return list(seen.values()) if len(seen) >= 2 else []


def _option_count(instruction: str) -> int:
    """How many options the refinement asks for ("three claims", "drei Aussagen", "三个宣传语", "세 가지 문구")."""
    for match in words.COUNTED_THING.finditer(instruction):
        noun = match["noun"]
        named = noun.startswith("가지") or any(re.match(p, noun, re.I) for p in words.KIND_WORDS.values())
        number = _number(match["n"]) if named else None
        if number and 2 <= number <= MAX_OPTIONS:
            return number
    return DEFAULT_OPTION_COUNT


# ---------------------------------------------------------------- naming questions


def _positions(draft: _Draft, text: str) -> list[str]:
    """The ids of the questions ``text`` names by their number in the revision the requester saw ("Q3",
    "questions 2 and 4", "die letzte Frage", "第3题", "3번 질문")."""
    positions = []
    for match in words.QUESTION_REF.finditer(text):
        positions.append(_position(match))
        end = match.end()
        while more := words.MORE_REFS.match(text, end):
            positions.append(int(more["n"]))
            end = more.end()
    ids = [question_id for p in positions if (question_id := _at(draft.numbered, p))]
    return list(dict.fromkeys(ids))


def _position(match: re.Match[str]) -> int:
    groups = {k: v for k, v in match.groupdict().items() if v}
    if "last" in groups:
        return -1
    if "o1" in groups:
        return words.ORDINALS[groups["o1"].lower()]
    return _number(next(iter(groups.values()))) or 0


def _at(numbered: list[str], position: int) -> str | None:
    if position == -1:
        return numbered[-1] if numbered else None
    return numbered[position - 1] if 1 <= position <= len(numbered) else None


def _screener(draft: _Draft) -> str | None:
    """The question that routes others (the gate of an ``askIf``), else a first question answered by choice."""
    gates = [q["askIf"]["questionId"] for q in draft.questions if isinstance(q.get("askIf"), dict)]
    if gates:
        return gates[0]
    first = draft.questions[0] if draft.questions else None
    if first and first["id"] == draft.numbered[0] and first["response"]["type"] in ("categorical", "multiselect"):
        return first["id"]
    return None


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else words.NUMBER_WORDS.get(word.lower())


# ---------------------------------------------------------------- finishing


def _next_number(questions: list[dict[str, Any]]) -> int:
    numbers = [int(m[1]) for q in questions if (m := _NUMBERED_ID.match(q["id"]))]
    return max([len(questions), *numbers]) + 1


def _limit(draft: _Draft) -> None:
    """Keep the added questions and the first kept ones up to the limit, in plan order."""
    if draft.limit is None or len(draft.questions) <= draft.limit:
        if draft.limit is not None and len(draft.questions) < draft.limit:
            draft.notes.append(
                f"The plan has {len(draft.questions)} questions, fewer than {draft.limit}; name the questions to "
                "add and the sandbox planner adds them."
            )
        return
    room = max(draft.limit - len(draft.added), 0)
    kept = [q["id"] for q in draft.questions if q["id"] not in draft.added][:room]
    keep = set(kept) | set(draft.added[: draft.limit])
    draft.questions = [q for q in draft.questions if q["id"] in keep]


def _unroute_orphans(draft: _Draft) -> None:
    """A question routed on a removed question, or on one whose new wording no longer offers the answers it was
    routed on, is asked of everyone, and the revision says so."""
    numbers = {q["id"]: n for n, q in enumerate(draft.questions, 1)}
    for question in draft.questions:
        condition = question.get("askIf")
        if not isinstance(condition, dict):
            continue
        gate = draft.by_id(str(condition.get("questionId")))
        if gate is None:
            reason = "a question that was removed"
        elif not _still_offers(gate, condition):
            reason = f"Q{numbers[gate['id']]}, which no longer offers them"
        else:
            continue
        del question["askIf"]
        draft.notes.append(
            f"Q{numbers[question['id']]} was asked only after certain answers to {reason}; it is now asked of everyone."
        )


def _still_offers(gate: dict[str, Any], condition: dict[str, Any]) -> bool:
    offered = gate["response"].get("categoricalOptions") or []
    labels = condition.get("answerIn") or condition.get("answerNotIn") or []
    return gate["response"]["type"] in GATE_TYPES and all(label in offered for label in labels)


def _finish(content: dict[str, Any], draft: _Draft) -> None:
    _regroup(content, draft)
    numbers = {q["id"]: n for n, q in enumerate(draft.questions, 1)}
    asked = [
        {
            "id": OPTIONS_CONFIRMATION.format(question_id=question_id),
            "text": words.options_request(draft.language, kind=kind, count=count, number=numbers[question_id]),
        }
        for question_id, kind, count in draft.pending_options
        if question_id in numbers
    ]
    content["confirmationQuestions"] = [*content["confirmationQuestions"], *asked]
    content["framingWarnings"] = list(content["framingWarnings"]) + [
        f'Question {numbers[q["id"]]} leads the respondent ("{issue}")'
        for q in draft.questions
        if q["id"] in draft.added
        for issue in framing_issues(q["text"])[:1]
    ]


def _regroup(content: dict[str, Any], draft: _Draft) -> None:
    """Questions in their modules: kept ones where they were, added ones in the last module."""
    modules = [dict(m, questionIds=[]) for m in content["modules"]] or [
        {"id": "m1", "title": "Questions", "purpose": "", "questionIds": []}
    ]
    by_id = {m["id"]: m for m in modules}
    for question in draft.questions:
        module = by_id.get(question.get("moduleId", "")) or modules[-1]
        question["moduleId"] = module["id"]
        module["questionIds"].append(question["id"])
    content["questions"] = draft.questions
    content["modules"] = [m for m in modules if m["questionIds"]]


def answered(content: dict[str, Any], question_id: str, answer: str) -> None:
    """An answer to a confirmation question this module asked (the options of an added preference question)
    becomes that question's options; other answers are left alone."""
    match = re.fullmatch(OPTIONS_CONFIRMATION.format(question_id="(?P<q>.+)"), question_id)
    if match is None:
        return
    question = next((q for q in content["questions"] if q["id"] == match["q"]), None)
    if question is None:
        return
    separator = r"[;\n；]" if re.search(r"[;\n；]", answer) else r"[,，、]"
    options = _distinct([o.strip() for o in re.split(separator, answer) if o.strip()])
    if len(options) < 2:
        raise PlanInputError([f'answers: "{question_id}" needs at least two options, separated by semicolons'])
    language = words.language_of(content.get("studyLocale"))
    question["response"] = {"type": "categorical", "categoricalOptions": [*options, words.no_preference(language)]}
