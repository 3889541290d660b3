"""The sandbox's moving parts: research and direct runs, exports, summaries and Audience builds
progress as the injected clock passes their due times.

Owns: creating and advancing runs (routing, allowance, dropped answers, consistency, the method calculations of
a finished research run from ``calculations``), export jobs, summary generations and from-brief jobs, and
``with_audience`` (the Mind as it answers: its record plus what its Audience is about, for the topic fit).
``tick`` is synchronous and idempotent, so any request or the background loop may call it. Must not touch HTTP;
file rendering happens in the handlers, off the event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Callable
from typing import Any

from minds_sandbox import answer_language, calculations, respondents
from minds_sandbox.assets import question_assets
from minds_sandbox.clock import Clock, iso
from minds_sandbox.config import Faults, SandboxConfig
from minds_sandbox.state import Record, SandboxState

LIVE_RUN_STATUSES = ("queued", "running")
TERMINAL_RUN_STATUSES = ("completed", "partial", "failed", "cancelled", "plan_limited")
BRIEF_BUILD_STEPS = 3
MAX_TICK_TRANSITIONS = 10_000  # bounds one tick even after a very long clock jump

AudienceBuilder = Callable[[SandboxState, Record, float], Record]


class Engine:
    def __init__(
        self,
        *,
        state: SandboxState,
        clock: Clock,
        config: SandboxConfig,
        faults: Faults,
        build_audience: AudienceBuilder,
    ) -> None:
        self.state = state
        self.clock = clock
        self.config = config
        self.faults = faults
        self._build_audience = build_audience
        self._summary_waiters: dict[tuple[str, int], asyncio.Future[bool]] = {}

    @property
    def step(self) -> float:
        return self.config.seconds_per_step / self.faults.run_speed

    def tick(self) -> None:
        now = self.clock.now()
        for run in list(self.state.runs.values()):
            self._advance_run(run, now)
        for job in list(self.state.exports.values()):
            self._advance_export(job, now)
        for job in list(self.state.brief_jobs.values()):
            self._advance_brief_job(job, now)
        for study in list(self.state.studies.values()):
            self._advance_summary(study, now)

    # ------------------------------------------------------------ allowance

    def remaining_allowance(self, key_fp: str) -> int | None:
        if self.state.allowance is None:
            return None
        return max(0, self.state.allowance - self.state.usage.get(key_fp, 0))

    # ------------------------------------------------------------ runs

    def create_run(
        self,
        *,
        study: Record,
        kind: str,
        questions: list[Record],
        minds: list[Record],
        key_fp: str | None,
        extra: Record,
    ) -> Record:
        now = self.clock.now()
        run: Record = {
            "id": self.state.new_id("run"),
            "studyId": study["id"],
            "kind": kind,
            "status": "queued",
            "questions": questions,
            "minds": [{"mindId": m["id"], "audienceId": m["audienceId"]} for m in minds],
            "keyFp": key_fp,
            "createdAt": now,
            "startedAt": None,
            "completedAt": None,
            "nextDueAt": now + self.step / 2,
            "items": [],
            "answerConsistency": None,
            "consistencyDueAt": None,
            **extra,
        }
        self.state.runs[run["id"]] = run
        listing = "\n".join(f"{i}. {q['text']}" for i, q in enumerate(questions, 1))
        add_message(
            self.state,
            study=study,
            role="user",
            content=listing,
            now=now,
            metadata={"runId": run["id"], "kind": kind},
        )
        self.state.touch()
        return run

    def live_run_for_study(self, study_id: str) -> Record | None:
        return next(
            (r for r in self.state.runs.values() if r["studyId"] == study_id and r["status"] in LIVE_RUN_STATUSES),
            None,
        )

    def cancel(self, run: Record) -> None:
        run["status"] = "cancelled"
        run["completedAt"] = self.clock.now()
        self.state.touch()

    def _advance_run(self, run: Record, now: float) -> None:
        for _ in range(MAX_TICK_TRANSITIONS):
            if run["status"] in LIVE_RUN_STATUSES and now >= run["nextDueAt"]:
                self._run_transition(run, now=run["nextDueAt"])
                run["nextDueAt"] += self.step
                self.state.touch()
            else:
                break
        due = run.get("consistencyDueAt")
        if due is not None and run["answerConsistency"] is None and now >= due:
            self._check_consistency(run)
            self.state.touch()

    def _run_transition(self, run: Record, *, now: float) -> None:
        if run["status"] == "queued":
            run["status"], run["startedAt"] = "running", now
            return
        if len(run["items"]) < len(run["questions"]):
            self._settle_item(run, now=now)
        if run["status"] == "running" and len(run["items"]) == len(run["questions"]):
            self._finish(run, now=now)

    def _settle_item(self, run: Record, *, now: float) -> None:
        index = len(run["items"])
        question = run["questions"][index]
        asked, routing = self._route(run, question)
        if routing is not None and not asked:
            run["items"].append(
                {
                    "index": index,
                    "questionId": question["id"],
                    "kind": "not_asked",
                    "routing": routing,
                    "answers": [],
                }
            )
            return
        delivered = [m for m in asked if not self._dropped(run, index=index, mind_id=m["mindId"])]
        if not self._charge(run, len(delivered), now=now):
            return
        answers = [self._answer(run, question=question, mind_ref=m) for m in delivered]
        missing = [{"audienceId": m["audienceId"], "mindId": m["mindId"]} for m in asked if m not in delivered]
        names = {audience_id: audience["name"] for audience_id, audience in self.state.audiences.items()}
        output = respondents.output_data(
            question=question, answers=answers, missing=missing, audience_names=names, locale=run.get("studyLocale")
        )
        if assets := question_assets(question["text"]):
            output["assets"] = assets
        study = self.state.studies[run["studyId"]]
        message_id = add_message(
            self.state,
            study=study,
            role="assistant",
            content=question["text"],
            now=now,
            metadata={"runId": run["id"], "questionId": question["id"], "outputData": output},
        )
        item = {
            "index": index,
            "questionId": question["id"],
            "kind": "response",
            "messageId": message_id,
            "outputData": output,
            "answers": answers,
            "partial": bool(missing),
        }
        if routing is not None:
            item["routing"] = routing
        run["items"].append(item)
        if run["kind"] == "direct":
            run["messageId"] = message_id

    def _route(self, run: Record, question: Record) -> tuple[list[Record], Record | None]:
        condition = question.get("askIf")
        if not condition:
            return run["minds"], None
        gate = next(i for i in run["items"] if i["questionId"] == condition["questionId"])
        gate_answers = {a["mindId"]: a["value"] for a in gate["answers"]}
        unavailable = not gate_answers
        asked = [
            m
            for m in run["minds"]
            if unavailable or (m["mindId"] in gate_answers and _matches(condition, gate_answers[m["mindId"]]))
        ]
        not_asked = [m["mindId"] for m in run["minds"] if m not in asked]
        routing = {
            "questionId": question["id"],
            "gateQuestionId": condition["questionId"],
            "askedCount": len(asked),
            "notAskedCount": len(not_asked),
            "notAskedMindIds": not_asked,
            "gateUnavailable": unavailable,
        }
        for key in ("answerIn", "answerNotIn"):
            if key in condition:
                routing[key] = condition[key]
        return asked, routing

    def _dropped(self, run: Record, *, index: int, mind_id: str) -> bool:
        rate = self.faults.drop_answer_rate
        if rate <= 0:
            return False
        digest = hashlib.sha256(f"{self.state.seed}|drop|{run['id']}|{index}|{mind_id}".encode()).hexdigest()
        return random.Random(int(digest[:16], 16)).random() < rate

    def _charge(self, run: Record, responses: int, *, now: float) -> bool:
        """Spend allowance for one item's answers, or stop the run as plan-limited, keeping what it has."""
        key_fp = run.get("keyFp")
        remaining = self.remaining_allowance(key_fp) if key_fp else None
        if remaining is not None and remaining < responses:
            run["status"], run["completedAt"] = "plan_limited", now
            return False
        if key_fp:
            self.state.usage[key_fp] = self.state.usage.get(key_fp, 0) + responses
        return True

    def _answer(self, run: Record, *, question: Record, mind_ref: Record) -> Record:
        keeps_history = run["kind"] == "research" or run.get("historyMode", "none") != "none"
        history = (
            [a for item in run["items"] for a in item["answers"] if a["mindId"] == mind_ref["mindId"]]
            if keeps_history
            else []
        )
        mind = with_audience(self.state, self.state.minds[mind_ref["mindId"]], audience_id=mind_ref["audienceId"])
        return respondents.answer_item(
            seed=self.state.seed,
            mind=mind,
            question=question,
            history=history,
            locale=run.get("studyLocale"),
            unpriced=self.faults.unpriced_categories,
        )

    def _finish(self, run: Record, *, now: float) -> None:
        partial = any(i.get("partial") for i in run["items"])
        run["status"], run["completedAt"] = ("partial" if partial else "completed"), now
        if run["kind"] == "research":
            names = {audience_id: audience["name"] for audience_id, audience in self.state.audiences.items()}
            run["calculations"] = calculations.for_run(
                seed=self.state.seed, run=run, minds=self.state.minds, audience_names=names
            ) + [dict(extra) for extra in self.faults.extra_calculations]
        if run["kind"] == "research" and len(run["questions"]) >= 2:
            # Minds check consistency after the summary is written, so it lands a little after completion.
            run["consistencyDueAt"] = now + self.step

    def _check_consistency(self, run: Record) -> None:
        flags = respondents.consistency_flags(run["items"], run["questions"])
        for item in run["items"]:
            if item["index"] in flags:
                item["answerConsistency"] = {"flags": flags[item["index"]]}
        checked = respondents.minds_checked(run["items"])
        flagged = {f["mindId"] for fs in flags.values() for f in fs}
        run["answerConsistency"] = {
            "status": "checked",
            "checkedMinds": len(checked),
            "flaggedMinds": len(flagged),
            "flagCount": sum(len(fs) for fs in flags.values()) // 2,
            "uncheckedMinds": len({m["mindId"] for m in run["minds"]} - checked),
        }

    # ------------------------------------------------------------ exports

    def _advance_export(self, job: Record, now: float) -> None:
        if job["status"] == "queued" and now >= job["createdAt"] + self.step / 2:
            job["status"], job["progress"] = "processing", 50
            self.state.touch()
        if job["status"] == "processing" and now >= job["createdAt"] + self.step:
            job["status"] = "failed" if job.get("error") else "completed"
            job["progress"] = 100
            job["generatedAt"] = None if job.get("error") else iso(now)
            self.state.touch()

    # ------------------------------------------------------------ Audience from brief

    def _advance_brief_job(self, job: Record, now: float) -> None:
        if job["status"] in ("completed", "failed"):
            return
        elapsed_steps = (now - job["createdAt"]) / self.step
        if elapsed_steps >= BRIEF_BUILD_STEPS:
            audience = self._build_audience(self.state, job, now)
            audience["creationMode"] = job.get("creationMode") or "balanced"
            audience["links"] = list(job.get("links") or [])
            if job.get("isLinkSharingEnabled"):  # only when the request asked for a public link
                audience["isLinkSharingEnabled"], audience["publicShareId"] = True, self.state.new_id("share")
            job.update(status="completed", progress=100, audienceId=audience["id"], completedAt=now)
            self.state.touch()
        elif elapsed_steps >= 1 and job["status"] == "queued":
            job.update(status="processing", progress=40)
            self.state.touch()

    # ------------------------------------------------------------ summaries

    def request_summary(self, study: Record, *, length: str, force: bool) -> tuple[int, asyncio.Future[bool] | None]:
        """Start (or reuse) a generation; the future resolves True when written, False when superseded."""
        saved = study.get("summary")
        covered = len(study["messages"])
        if (
            not force
            and saved
            and saved["coveredMessageCount"] == covered
            and saved["length"] == length
            and not study.get("summaryGeneration")
        ):
            return saved["revision"], None
        previous = study.get("summaryGeneration")
        if previous:
            self._resolve_summary(study["id"], previous["revision"], written=False)
        revision = max((saved or {}).get("revision", 0), (previous or {}).get("revision", 0)) + 1
        study["summaryGeneration"] = {
            "revision": revision,
            "length": length,
            "dueAt": self.clock.now() + self.step,
        }
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._summary_waiters[(study["id"], revision)] = future
        self.state.touch()
        return revision, future

    def _advance_summary(self, study: Record, now: float) -> None:
        generation = study.get("summaryGeneration")
        if not generation or now < generation["dueAt"]:
            return
        study["summary"] = write_summary(study, revision=generation["revision"], length=generation["length"], now=now)
        study["summaryGeneration"] = None
        self._resolve_summary(study["id"], generation["revision"], written=True)
        self.state.touch()

    def _resolve_summary(self, study_id: str, revision: int, *, written: bool) -> None:
        future = self._summary_waiters.pop((study_id, revision), None)
        if future is not None and not future.done():
            future.set_result(written)


def _matches(condition: Record, value: Any) -> bool:
    chosen = set(value) if isinstance(value, list) else {value}
    if "answerIn" in condition:
        return bool(chosen & set(condition["answerIn"]))
    return not chosen & set(condition["answerNotIn"])


def add_message(state: SandboxState, *, study: Record, role: str, content: str, now: float, metadata: Record) -> str:
    message_id = state.new_id("message")
    study["messages"].append(
        {"id": message_id, "role": role, "content": content, "metadata": metadata, "createdAt": iso(now)}
    )
    study["updatedAt"] = now
    return message_id


def write_summary(study: Record, *, revision: int, length: str, now: float) -> Record:
    """A deterministic Markdown summary of the answered questions, with one evidence block per question."""
    results = [m for m in study["messages"] if m["role"] == "assistant" and m["metadata"].get("outputData")]
    blocks = [
        {
            "type": "finding",
            "messageId": m["id"],
            "title": m["content"],
            "text": headline(m["metadata"]["outputData"]),
        }
        for m in results
    ]
    lines = [f"# {study['name']}", ""]
    lines += [f"- **{b['title']}** {b['text']}" for b in blocks] or ["No questions have been answered yet."]
    return {
        "summary": "\n".join(lines),
        "blocks": blocks,
        "revision": revision,
        "length": length,
        "generatedAt": iso(now),
        "coveredMessageCount": len(study["messages"]),
    }


def headline(output: Record) -> str:
    """One sentence a reader can take away from a question's results, in the language its answers were given in
    (read from its question and first answer: ``answer_language``)."""
    said = [a.get("message", "") for audience in output.get("audiences", []) for a in audience.get("answers", [])[:1]]
    lang = answer_language.language_of(None, " ".join([str(output.get("title", "")), *said]))
    line = answer_language.phrases_for(lang).line
    kind, n = output["type"], output.get("responseCount", 0)
    if kind in ("categorical", "multiselect") and output.get("distribution"):
        top = max(output["distribution"], key=lambda d: d["count"])
        return line["summary_most"].format(option=top["option"], pct=answer_language.number(top["pct"], lang), n=n)
    if kind == "scale" and output.get("mean") is not None:
        low, high = output["scaleRange"]
        mean = answer_language.number(output["mean"], lang)
        return line["summary_mean"].format(mean=mean, low=low, high=high, n=n)
    if output.get("themes"):
        return line["summary_theme"].format(theme=output["themes"][0]["theme"], n=n)
    return line["summary_none"]


def with_audience(state: SandboxState, mind: Record, *, audience_id: str | None = None) -> Record:
    """The Mind as it answers: its record plus what its Audience is about (name and brief, for the topic fit)."""
    audience_id = audience_id or mind["audienceId"]
    audience = state.audiences.get(audience_id) or {}
    return {
        **mind,
        "audienceId": audience_id,
        "audienceName": audience.get("name"),
        "audienceBrief": audience.get("brief"),
    }
