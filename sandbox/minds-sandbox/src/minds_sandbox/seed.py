"""Seeded demo data: three Audiences of persona Minds, two Studies with history, a draft and two templates.

Owns: building a fresh ``SandboxState`` for a seed and building the Audience a from-brief job produces.
Ids are uuid5 of names so every sandbox with the same seed shows the same demo.
Must not touch HTTP or the real clock.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from minds_sandbox import briefs, planner, reading
from minds_sandbox.clock import ManualClock, iso
from minds_sandbox.config import Faults, SandboxConfig
from minds_sandbox.engine import Engine, write_summary
from minds_sandbox.ids import stable_id
from minds_sandbox.plans import new_plan, study_audiences
from minds_sandbox.respondents import role
from minds_sandbox.state import Record, SandboxState

SEED_EPOCH = 1_764_579_600.0  # 2025-12-01T09:00:00Z, before any sandbox session starts
TRAITS = ("priceSensitivity", "noveltySeeking", "brandLoyalty", "sustainabilityFocus", "skepticism")
MAX_BRIEF_MEMBERS = 50
DEFAULT_BRIEF_MEMBERS = 8
SANDBOX_USER_NAME = "sandbox"


@dataclass(frozen=True)
class AudienceSpec:
    name: str
    size: int
    first_names: tuple[str, ...]
    last_names: tuple[str, ...]
    occupations: tuple[str, ...]
    locations: tuple[str, ...]
    ages: tuple[int, int]
    bias: dict[str, float]
    jobs_by_age: bool = False  # a built Audience: each Mind gets a real job for its age (``briefs``)


DEMO_AUDIENCES = (
    AudienceSpec(
        name="Gen Z sneaker buyers in Germany",
        size=12,
        first_names=(
            "Lena",
            "Jonas",
            "Mia",
            "Elias",
            "Emma",
            "Noah",
            "Hannah",
            "Luca",
            "Lea",
            "Finn",
            "Mila",
            "Paul",
        ),
        last_names=("Schmidt", "Weber", "Fischer", "Wagner", "Becker", "Hoffmann"),
        occupations=(
            "University student",
            "Apprentice mechanic",
            "Barista",
            "Design student",
            "Retail assistant",
            "Junior developer",
        ),
        locations=("Berlin", "Hamburg", "Munich", "Cologne", "Leipzig", "Frankfurt"),
        ages=(17, 26),
        bias={"noveltySeeking": 0.2, "brandLoyalty": 0.1, "priceSensitivity": 0.1},
    ),
    AudienceSpec(
        name="US IT procurement leads",
        size=10,
        first_names=(
            "Karen",
            "David",
            "Michelle",
            "Robert",
            "Priya",
            "James",
            "Angela",
            "Marcus",
            "Linda",
            "Steven",
        ),
        last_names=("Johnson", "Miller", "Davis", "Patel", "Garcia", "Thompson"),
        occupations=(
            "IT procurement manager",
            "Vendor management lead",
            "IT director",
            "Sourcing specialist",
        ),
        locations=("Chicago", "Dallas", "Atlanta", "Denver", "Seattle", "Boston"),
        ages=(34, 58),
        bias={"skepticism": 0.25, "priceSensitivity": 0.15, "noveltySeeking": -0.1},
    ),
    AudienceSpec(
        name="Korean skincare enthusiasts",
        size=16,
        first_names=(
            "Ji-woo",
            "Seo-yeon",
            "Min-jun",
            "Ha-eun",
            "Do-yoon",
            "Soo-ah",
            "Ye-jin",
            "Hyun-woo",
            "Na-rae",
            "Eun-ji",
            "Tae-yang",
            "Bo-ra",
            "Ji-ho",
            "Yu-na",
            "Sung-min",
            "Da-eun",
        ),
        last_names=("Kim", "Lee", "Park", "Choi", "Jung", "Kang"),
        occupations=(
            "Beauty content creator",
            "Office worker",
            "Nurse",
            "Graduate student",
            "Pharmacist",
            "Marketing coordinator",
        ),
        locations=("Seoul", "Busan", "Incheon", "Daegu", "Daejeon", "Gwangju"),
        ages=(21, 39),
        bias={"noveltySeeking": 0.15, "sustainabilityFocus": 0.1, "brandLoyalty": 0.15},
    ),
)


def build_demo_state(seed: int) -> SandboxState:
    """A fresh state with the demo Audiences, the two Studies and their history."""
    state = SandboxState(seed=seed)
    audiences = [_seed_audience(state, spec, created=SEED_EPOCH + i * 3600) for i, spec in enumerate(DEMO_AUDIENCES)]
    launch = _seed_study(
        state, name="Launch positioning", audiences=[audiences[0], audiences[2]], created=SEED_EPOCH + 86_400
    )
    pricing = _seed_study(state, name="Pricing pulse", audiences=[audiences[1]], created=SEED_EPOCH + 2 * 86_400)
    _seed_history(state, launch=launch, pricing=pricing)
    _seed_drafts_and_templates(state)
    state.revision = 0
    return state


def _rng(*parts: object) -> random.Random:
    return random.Random(int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:16], 16))


def _seed_audience(
    state: SandboxState, spec: AudienceSpec, *, created: float, audience_id: str | None = None
) -> Record:
    audience_id = audience_id or stable_id("audience", spec.name)
    rng = _rng(state.seed, "audience", spec.name)
    minds = [
        _persona(state, spec=spec, audience_id=audience_id, index=i, rng=rng, created=created + 60 * (i + 1))
        for i in range(spec.size)
    ]
    audience = {
        "id": audience_id,
        "name": spec.name,
        "mindIds": [m["id"] for m in minds],
        "createdAt": created,
        "updatedAt": created,
        "isLinkSharingEnabled": False,
        "publicShareId": None,
        "brief": f"{spec.name}, aged {spec.ages[0]}-{spec.ages[1]}",
    }
    state.audiences[audience_id] = audience
    return audience


def _persona(
    state: SandboxState,
    *,
    spec: AudienceSpec,
    audience_id: str,
    index: int,
    rng: random.Random,
    created: float,
) -> Record:
    name = f"{spec.first_names[index % len(spec.first_names)]} {rng.choice(spec.last_names)}"
    traits = {t: round(min(1.0, max(0.0, rng.uniform(0.15, 0.85) + spec.bias.get(t, 0.0))), 2) for t in TRAITS}
    age, location = rng.randint(*spec.ages), rng.choice(spec.locations)
    occupation = rng.choice(spec.occupations) if spec.occupations else ""
    jobs = _rng(state.seed, "job", audience_id, index)  # its own draws, so the demo's other draws stay as they were
    if spec.jobs_by_age:
        occupation = briefs.occupation_for(age, spec.occupations or None, jobs)
    elif not briefs.suits(occupation, age):
        occupation = jobs.choice([o for o in spec.occupations if briefs.suits(o, age)] or [occupation])
    persona: Record = {"age": age, "location": location, "occupation": occupation, "traits": traits}
    mind: Record = {
        "id": stable_id("mind", audience_id, index, name),
        "name": name,
        "description": f"{persona['age']}-year-old {role(persona['occupation'])} in {persona['location']}",
        "type": "user",
        "discipline": persona["occupation"],
        "tags": [spec.name],
        "audienceId": audience_id,
        "persona": persona,
        "createdAt": created,
        "updatedAt": created,
    }
    state.minds[mind["id"]] = mind
    return mind


def _seed_study(state: SandboxState, *, name: str, audiences: list[Record], created: float) -> Record:
    return new_study(
        state,
        name=name,
        audience_ids=[a["id"] for a in audiences],
        now=created,
        study_id=stable_id("study", name),
    )


def new_study(
    state: SandboxState, *, name: str, audience_ids: list[str], now: float, study_id: str | None = None
) -> Record:
    study: Record = {
        "id": study_id or state.new_id("study"),
        "name": name,
        "audienceIds": list(dict.fromkeys(audience_ids)),
        "messages": [],
        "createdAt": now,
        "updatedAt": now,
        "isLinkSharingEnabled": False,
        "publicShareId": None,
        "summary": None,
        "summaryGeneration": None,
    }
    state.studies[study["id"]] = study
    state.touch()
    return study


def _seed_history(state: SandboxState, *, launch: Record, pricing: Record) -> None:
    clock = ManualClock(launch["createdAt"] + 600)
    engine = Engine(state=state, clock=clock, config=SandboxConfig(), faults=Faults(), build_audience=build_audience)
    body = planner.plan_from_request(
        request="Test the launch of our recycled-material running shoe in 8 questions",
        audiences=study_audiences(state, launch),
        locale="en",
    )
    revision = new_plan(state, study=launch, body=body, now=clock.now())
    minds = [state.minds[m] for a in launch["audienceIds"] for m in state.audiences[a]["mindIds"]]
    run = engine.create_run(
        study=launch,
        kind="research",
        questions=revision["questions"],
        minds=minds,
        key_fp=None,
        extra={"draftPlanId": revision["draftPlanId"], "revision": 1},
    )
    state.plans[revision["draftPlanId"]]["confirmed"]["1"] = run["id"]
    clock.advance(600)
    engine.tick()
    launch["summary"] = write_summary(launch, revision=1, length="standard", now=clock.now())
    clock.advance(pricing["createdAt"] + 600 - clock.now())
    question = "How fair is a price of $49 per seat per month for a team collaboration tool? (rate 1-5)"
    pricing_minds = [state.minds[m] for m in state.audiences[pricing["audienceIds"][0]]["mindIds"]]
    engine.create_run(
        study=pricing,
        kind="direct",
        minds=pricing_minds,
        key_fp=None,
        questions=[{"id": "q1", "text": question, "response": planner.infer_response(question)}],
        extra={"clientRequestId": stable_id("seed-request", "pricing"), "historyMode": "none"},
    )
    clock.advance(600)
    engine.tick()
    pricing["summary"] = write_summary(pricing, revision=1, length="standard", now=clock.now())


def _seed_drafts_and_templates(state: SandboxState) -> None:
    created = iso(SEED_EPOCH + 3 * 86_400)
    for name, goal, text in (
        ("Concept test", "concept", "What is your first reaction to this concept?"),
        ("Pricing check", "pricing", "What would you expect to pay for this?"),
    ):
        template_id = stable_id("template", name)
        state.templates[template_id] = {
            "id": template_id,
            "name": name,
            "revision": 1,
            "isSharedWithTeam": False,
            "canManage": True,
            "canShareWithTeam": False,
            "createdAt": created,
            "updatedAt": created,
            "configuration": {
                "version": 1,
                "goal": goal,
                "studyLocale": "en",
                "methodId": "survey",
                "questions": [{"text": text, "response": {"type": "qualitative"}}],
            },
        }
    draft_id = stable_id("draft", "Holiday gifting")
    state.drafts[draft_id] = new_draft_record(
        draft_id=draft_id, name="Holiday gifting", created=created, state_payload={"questions": []}
    )


def new_draft_record(*, draft_id: str, name: str, created: str, state_payload: dict[str, Any]) -> Record:
    return {
        "id": draft_id,
        "userId": stable_id("user", SANDBOX_USER_NAME),
        "name": name,
        "mode": "custom",
        "currentStep": "questions",
        "revision": 1,
        "status": "draft",
        "payload": {"version": 1, "state": state_payload},
        "studyId": None,
        "startRequestId": None,
        "startLeaseExpiresAt": None,
        "createdAt": created,
        "updatedAt": created,
    }


def build_audience(state: SandboxState, job: Record, now: float) -> Record:
    """The Audience a finished from-brief job produces: personas drawn deterministically from what the brief
    names (``briefs``): its place's cities and names, its ages, real jobs (the ones it names, else for each age)."""
    size = job["memberCount"] or DEFAULT_BRIEF_MEMBERS
    words = [w.strip(".,;:").capitalize() for w in job["text"].split() if len(w) > 3][:3] or ["Brief"]
    named = briefs.read(job["text"], language=reading.brief_language(job["text"]))
    spec = AudienceSpec(
        name=job["name"] or f"Audience: {' '.join(words)}",
        size=size,
        first_names=named.first_names,
        last_names=named.last_names,
        occupations=named.occupations or (),
        locations=named.cities,
        ages=named.ages,
        bias={},
        jobs_by_age=True,
    )
    audience = _seed_audience(state, spec, created=now, audience_id=stable_id("audience", "from-brief", job["id"]))
    audience["brief"] = job["text"][:500]
    audience["files"] = list(job.get("files") or [])
    return audience
