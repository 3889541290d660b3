"""Guided research routes: plan preparation (with 202 receipts, idempotent replays and revisions),
confirming a revision into a research run, and reading that run.

Owns: those handlers. Planning rules live in ``planner``, revision storage in ``plans``, progression in
``engine``.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from minds_sandbox import instruments, planner, plans, refinements, views
from minds_sandbox.attachments import Attachment, assign, fetch_all, plan_attachments
from minds_sandbox.clock import iso
from minds_sandbox.errors import ApiError, bad_request, conflict, not_found
from minds_sandbox.http_support import (
    body_hash,
    idempotency_key,
    lookup,
    ok,
    parse,
    read_json,
    runtime,
    study_of,
)
from minds_sandbox.middleware import KEY_FP
from minds_sandbox.routes_tools import CONNECTIONS
from minds_sandbox.runtime import Runtime
from minds_sandbox.state import Record

Locale = Literal["en", "es", "fr", "de", "zh", "tr", "ar", "ja", "ko"]
FIXED_INSTRUMENT_PREFIX = "Fixed instrument is not executable as given: "
RUN_CONDITIONS_PREFIX = "Invalid question conditions: "
PLAN_STAGES = ("drafting", "verifying")


class PreviewBody(BaseModel):
    request: str | None = None
    questions: list[dict[str, Any]] | None = None
    edits: dict[str, Any] | None = None
    objective: str | None = None
    draftPlanId: str | None = None
    revision: int | None = Field(default=None, ge=1)
    refinement: str | None = None
    answers: dict[str, str] | None = None
    questionResponses: dict[str, Any] | None = None
    studyLocale: Locale = "en"
    idempotencyKey: str | None = None
    loadLatest: bool = False
    attachments: list[Attachment] | None = None
    suggestQuestionStimuli: bool = True


async def preview_plan(request: web.Request) -> web.Response:
    rt = runtime(request)
    study = study_of(request)
    raw = await read_json(request)
    body = parse(PreviewBody, raw)
    if body.loadLatest:
        return ok(plans.revision_view(rt.state, plans.latest(_plan_of(rt, study, body.draftPlanId)), replayed=False))
    key = idempotency_key(request, body.idempotencyKey)
    scope = f"{study['id']}:{key}"
    if key and scope in rt.state.plan_ops:
        return _observe(request, rt.state.plan_ops[scope], digest=body_hash(raw))
    received = plan_attachments(await fetch_all(body.attachments)) if body.attachments else []
    revision = _prepare(rt, study=study, body=body, attachments=received)
    if not key:
        return ok(plans.revision_view(rt.state, revision, replayed=False))
    rt.state.plan_ops[scope] = {
        "bodyHash": body_hash(raw),
        "receiptsLeft": rt.faults.plan_receipts,
        "delivered": False,
        "operationId": rt.state.new_id("plan-operation"),
        "requestId": f"plan-{rt.state.new_id('plan-request')}",
        "draftPlanId": revision["draftPlanId"],
        "revision": revision["revision"],
    }
    return _observe(request, rt.state.plan_ops[scope], digest=body_hash(raw))


def _observe(request: web.Request, op: Record, *, digest: str) -> web.Response:
    """Answer a preparation: a 202 receipt while receipts remain, then the saved revision."""
    state = runtime(request).state
    if op["bodyHash"] != digest:
        raise conflict("This Idempotency-Key was used with a different request body", code="IDEMPOTENCY_KEY_REUSED")
    sent_request_id = request.headers.get("x-minds-study-plan-request-id")
    if sent_request_id is not None and sent_request_id != op["requestId"]:
        raise conflict("x-minds-study-plan-request-id does not match this preparation", code="OPERATION_MISMATCH")
    state.touch()
    if op["receiptsLeft"] > 0:
        op["receiptsLeft"] -= 1
        stage = PLAN_STAGES[1] if op["receiptsLeft"] == 0 else PLAN_STAGES[0]
        return ok(
            {
                "status": "pending",
                "accepted": True,
                "operationId": op["operationId"],
                "requestId": op["requestId"],
                "stage": stage,
            },
            status=202,
        )
    plan = state.plans[op["draftPlanId"]]
    revision = plan["revisions"][op["revision"] - 1]
    replayed, op["delivered"] = op["delivered"], True
    return ok(plans.revision_view(state, revision, replayed=replayed))


def _plan_of(rt: Runtime, study: Record, draft_plan_id: str | None) -> Record:
    if not draft_plan_id:
        raise bad_request("draftPlanId is required here")
    plan = rt.state.plans.get(draft_plan_id)
    if plan is None or plan["studyId"] != study["id"]:
        raise not_found("Draft plan")
    return plan


def _prepare(rt: Runtime, *, study: Record, body: PreviewBody, attachments: list[Record]) -> Record:
    if body.draftPlanId:
        return _revise(rt, study=study, body=body, attachments=attachments)
    audiences = plans.study_audiences(rt.state, study)
    if body.edits is not None:
        raise bad_request("edits need draftPlanId and revision")
    if (body.request is None) == (body.questions is None):
        raise bad_request("Send exactly one of request (planner text) or questions (a fixed instrument)")
    try:
        if body.questions is not None:
            content = planner.fixed_plan(
                questions=copy.deepcopy(body.questions),
                audiences=audiences,
                locale=body.studyLocale,
                objective=body.objective,
            )
        else:
            content = planner.plan_from_request(
                request=body.request or "", audiences=audiences, locale=body.studyLocale
            )
    except planner.PlanInputError as exc:
        prefix = FIXED_INSTRUMENT_PREFIX if body.questions is not None else ""
        raise bad_request(prefix + "; ".join(exc.issues), code="INVALID_PLAN") from exc
    if attachments:
        content["attachments"] = attachments
    assign(content, suggest=body.suggestQuestionStimuli)
    revision = plans.new_plan(rt.state, study=study, body=content, now=rt.clock.now())
    if body.request is not None:
        rt.state.plans[revision["draftPlanId"]]["request"] = body.request  # what added questions are about
    return revision


def _revise(rt: Runtime, *, study: Record, body: PreviewBody, attachments: list[Record]) -> Record:
    plan = _plan_of(rt, study, body.draftPlanId)
    current = plans.latest(plan)
    if body.revision is None:
        raise bad_request("revision is required with draftPlanId")
    if body.revision != current["revision"]:
        raise conflict(
            f"Revision {body.revision} is not the latest; reload revision {current['revision']}",
            code="REVISION_CONFLICT",
            data={"latestRevision": current["revision"]},
        )
    if body.edits is not None and (body.request or body.questions):
        raise bad_request("edits cannot be combined with planner inputs")
    content = {k: copy.deepcopy(v) for k, v in current.items() if k not in ("draftPlanId", "revision", "createdAt")}
    content.pop(refinements.NOTES_FIELD, None)  # notes say what this revision could not apply, not an earlier one
    changed = False
    try:
        changed |= _apply_request(rt, study=study, content=content, body=body)
        if body.request is not None:
            plan["request"] = body.request
        changed |= _apply_edits(content, body.edits)
        changed |= _apply_responses(content, body.questionResponses)
        changed |= _apply_answers(content, body.answers)
        changed |= _apply_refinement(content, body.refinement, plan=plan)
    except planner.PlanInputError as exc:
        raise bad_request("; ".join(exc.issues), code="INVALID_PLAN") from exc
    if not changed and not attachments:
        raise bad_request("Nothing to revise: send answers, refinement, edits, questionResponses or request")
    if attachments:
        content["attachments"] = attachments
    assign(content, suggest=body.suggestQuestionStimuli)
    return plans.add_revision(rt.state, plan=plan, body=content, now=rt.clock.now())


def _apply_request(rt: Runtime, *, study: Record, content: Record, body: PreviewBody) -> bool:
    if body.request is None:
        return False
    fresh = planner.plan_from_request(
        request=body.request, audiences=plans.study_audiences(rt.state, study), locale=body.studyLocale
    )
    content.update(fresh, confirmationAnswers={})
    return True


def _apply_edits(content: Record, edits: dict[str, Any] | None) -> bool:
    """Edits are authoritative: the edited list replaces the questions, and an item without askIf has none."""
    if edits is None:
        return False
    if "objective" in edits:
        content["objective"] = str(edits["objective"])
    if "questions" in edits:
        if not isinstance(edits["questions"], list) or not edits["questions"]:
            raise planner.PlanInputError(["edits.questions must be a non-empty list"])
        questions = [_edited_question(q, i) for i, q in enumerate(edits["questions"], 1)]
        issues = planner.condition_issues(questions)
        if issues:
            raise planner.PlanInputError(issues)
        modules = {m["id"]: m["title"] for m in content["modules"]}
        content["questions"] = questions
        content["modules"] = _rebuild_modules(questions, titles=modules)
    return True


def _edited_question(raw: object, index: int) -> Record:
    if not isinstance(raw, dict) or not raw.get("id") or not raw.get("moduleId") or not raw.get("text"):
        raise planner.PlanInputError([f"edits.questions[{index - 1}] needs id, moduleId, text and response"])
    question = {
        "id": planner.normalize_id(str(raw["id"])),
        "moduleId": str(raw["moduleId"]),
        "text": str(raw["text"]),
        "response": planner.normalize_response(
            raw.get("response"), text=str(raw["text"]), where=f"edits.questions[{index - 1}]"
        ),
    }
    if raw.get("askIf") is not None:
        question["askIf"] = raw["askIf"]
    return question


def _rebuild_modules(questions: list[Record], *, titles: dict[str, str]) -> list[Record]:
    modules: dict[str, Record] = {}
    for question in questions:
        module = modules.setdefault(
            question["moduleId"],
            {
                "id": question["moduleId"],
                "title": titles.get(question["moduleId"], question["moduleId"]),
                "purpose": "Edited module",
                "questionIds": [],
            },
        )
        module["questionIds"].append(question["id"])
    return list(modules.values())


def _apply_responses(content: Record, responses: dict[str, Any] | None) -> bool:
    """Response-format edits change contracts only; conditions that depend on them are checked when
    confirming."""
    if not responses:
        return False
    by_id = {q["id"]: q for q in content["questions"]}
    for question_id, response in responses.items():
        if question_id not in by_id:
            raise planner.PlanInputError([f'questionResponses: unknown question "{question_id}"'])
        by_id[question_id]["response"] = planner.normalize_response(
            response, text=by_id[question_id]["text"], where=f'question "{question_id}"'
        )
    return True


def _apply_answers(content: Record, answers: dict[str, str] | None) -> bool:
    if not answers:
        return False
    open_ids = {c["id"]: c for c in content["confirmationQuestions"]}
    for question_id, answer in answers.items():
        if question_id not in open_ids:
            raise planner.PlanInputError([f'answers: "{question_id}" is not an open confirmation question'])
        options = open_ids[question_id].get("options")
        if options and answer not in options:
            raise planner.PlanInputError([f'answers: "{answer}" is not an option of "{question_id}"'])
        content["confirmationAnswers"][question_id] = answer
        planner.apply_answer(content, question_id, answer)
    content["confirmationQuestions"] = [c for c in content["confirmationQuestions"] if c["id"] not in answers]
    for question_id, answer in answers.items():
        refinements.answered(content, question_id, answer)  # the options a refinement asked the requester for
    return True


def _apply_refinement(content: Record, refinement: str | None, *, plan: Record) -> bool:
    """A request for a method's fallback swaps the method; any other refinement is applied to the questions
    (``refinements``), and what could not be applied is said in the revision's ``plannerNotes``."""
    if not refinement or not refinement.strip():
        return False
    text = refinement.strip()
    swapped = planner.swap_method(content["methods"], text)
    if swapped is not None:
        content["methods"] = swapped
        return True
    brief = instruments.read_brief(plan["request"]) if plan.get("request") else None
    locale = content.get("studyLocale") or "en"
    subject = (
        refinements.Subject(topic=instruments.topic_in(brief, locale), price=brief.price)
        if brief
        else refinements.Subject()
    )
    refinements.apply(content, text, subject=subject)
    return True


# ---------------------------------------------------------------- confirm and run


class Confirmation(BaseModel):
    accepted: Literal[True]
    advancedMethodOptIn: bool = False


class ConnectionPin(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    revision: int = Field(ge=1)


class RunBody(BaseModel):
    draftPlanId: str
    revision: int = Field(ge=1)
    confirmation: Confirmation
    audienceIds: list[str] | None = None
    idempotencyKey: str | None = Field(default=None, max_length=200)
    modelConnection: ConnectionPin | None = None


def _check_connection(rt: Runtime, pin: ConnectionPin | None) -> None:
    """A pinned connection must be this team's, verified, and at the revision that was picked."""
    if pin is None:
        return
    if not rt.faults.model_connections:
        raise bad_request("Model connections are disabled on this server", code="MODEL_CONNECTIONS_DISABLED")
    found = next((c for c in CONNECTIONS if c["id"] == pin.id), None)
    if found is None or found["verifiedAt"] is None or not all(found["capabilities"].values()):
        raise bad_request("The model connection is unknown or not verified", code="MODEL_CONNECTION_INVALID")
    if found["revision"] != pin.revision:
        raise bad_request(
            f"The model connection is at revision {found['revision']}, not {pin.revision}; pick it again",
            code="MODEL_CONNECTION_STALE",
        )


async def start_research_run(request: web.Request) -> web.Response:
    rt = runtime(request)
    study = study_of(request)
    raw = await read_json(request)
    body = parse(RunBody, raw)
    plan = _plan_of(rt, study, body.draftPlanId)
    scope = f"research:{study['id']}:{body.idempotencyKey}" if body.idempotencyKey else None
    if scope and scope in rt.state.run_requests:
        seen = rt.state.run_requests[scope]
        if seen["bodyHash"] != body_hash(raw):
            raise conflict("This idempotencyKey was used with a different request", code="IDEMPOTENCY_KEY_REUSED")
        return ok(_run_receipt(rt.state.runs[seen["runId"]]))
    revision = _confirmable(plan, body.revision)
    _check_connection(rt, body.modelConnection)
    issues = planner.condition_issues(copy.deepcopy(revision["questions"]))
    if issues:
        raise bad_request(RUN_CONDITIONS_PREFIX + "; ".join(issues), code="INVALID_CONDITIONS")
    _require_allowance(rt, request[KEY_FP])
    audience_ids = _run_audiences(rt, study=study, revision=revision, requested=body.audienceIds)
    present = [a for a in audience_ids if a in rt.state.audiences]  # a deleted Audience has no Minds to ask
    minds = [{**rt.state.minds[m], "audienceId": a} for a in present for m in rt.state.audiences[a]["mindIds"]]
    run = rt.engine.create_run(
        study=study,
        kind="research",
        questions=copy.deepcopy(revision["questions"]),
        minds=minds,
        key_fp=request[KEY_FP],
        extra={
            "draftPlanId": plan["id"],
            "revision": revision["revision"],
            "studyLocale": revision.get("studyLocale"),  # the language the Minds answer in
            "methods": copy.deepcopy(revision.get("methods", [])),  # what ``calculations`` computes at the end
            "modelConnection": body.modelConnection.model_dump() if body.modelConnection else None,
        },
    )
    plan["confirmed"][str(revision["revision"])] = run["id"]
    if scope:
        rt.state.run_requests[scope] = {"runId": run["id"], "bodyHash": body_hash(raw)}
    return ok(_run_receipt(run))


def _confirmable(plan: Record, revision_number: int) -> Record:
    latest = plans.latest(plan)
    if revision_number > latest["revision"]:
        raise not_found(f"Revision {revision_number}")
    if revision_number < latest["revision"]:
        raise conflict(
            f"Revision {revision_number} is stale; the latest is {latest['revision']}",
            code="REVISION_CONFLICT",
            data={"latestRevision": latest["revision"]},
        )
    if str(revision_number) in plan["confirmed"]:
        raise conflict(
            "This revision was already confirmed for another run",
            code="REVISION_ALREADY_CONFIRMED",
            data={"runId": plan["confirmed"][str(revision_number)]},
        )
    return latest


def _require_allowance(rt: Runtime, key_fp: str) -> None:
    remaining = rt.engine.remaining_allowance(key_fp)
    if remaining is None or remaining > 0:
        return
    raise plan_limit_error(rt, key_fp)


def plan_limit_error(rt: Runtime, key_fp: str) -> ApiError:
    allowance = rt.state.allowance or 0
    return ApiError(
        403,
        "Your plan's monthly response allowance is used up; upgrade to run more research",
        code="PLAN_LIMIT",
        data={
            "limitType": "responses",
            "currentPlan": "premium",
            "limit": allowance,
            "current": rt.state.usage.get(key_fp, 0),
            "periodEnd": iso(_period_end(rt)),
        },
    )


def _period_end(rt: Runtime) -> float:
    month = 30 * 86_400  # the sandbox's allowance period: rolling 30-day months from the epoch
    return (rt.clock.now() // month + 1) * month


def _run_audiences(rt: Runtime, *, study: Record, revision: Record, requested: list[str] | None) -> list[str]:
    if requested:
        unknown = [a for a in requested if a not in study["audienceIds"]]
        if unknown:
            raise bad_request(f"Audience {unknown[0]} is not attached to this Study")
        return requested
    chosen = plans.run_audience_ids(rt.state, study=study, revision=revision)
    if not chosen:
        raise bad_request("This Study has no Audiences to ask")
    return chosen


def _run_receipt(run: Record) -> Record:
    return {
        "runId": run["id"],
        "id": run["id"],
        "status": run["status"],
        "studyId": run["studyId"],
        "draftPlanId": run["draftPlanId"],
        "revision": run["revision"],
        "questionCount": len(run["questions"]),
    }


async def get_research_run(request: web.Request) -> web.Response:
    rt = runtime(request)
    study = study_of(request)
    run = lookup(rt.state.runs, request.match_info["run_id"], "Research run")
    if run["studyId"] != study["id"] or run["kind"] != "research":
        raise not_found("Research run")
    body = views.research_run(run)
    if rt.faults.omit_progress:
        del body["progress"]
    return ok(body)
