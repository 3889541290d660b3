"""An Audience's Formations: the auto-seeded splits (age, location), Formations created from a previewed hypothesis,
their detail, recompute and (soft) delete — per the OpenAPI's ``/audiences/{audienceId}/formations…`` operations.

Owns: those handlers and the bookkeeping on the Audience record (``formations``: the created ones by id;
``deletedFormations``: ids soft-deleted, auto ones included; ``rebuiltUntil``: a recompute's end per id). A created
or recomputed Formation is ``building`` for ``BUILD_STEPS`` engine steps, then ``ready``; members are sorted into
its subgroups deterministically (by the words of the subgroup's definition found in the persona, else by a hash).
The preview proposes a split from the request's words (age, location, occupation; else two halves) and saves nothing.
Must not touch runs, plans or exports.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from minds_sandbox.clock import iso
from minds_sandbox.errors import ApiError, bad_request, not_found
from minds_sandbox.http_support import list_response, lookup, ok, parse, read_json, runtime
from minds_sandbox.ids import stable_id
from minds_sandbox.state import Record, SandboxState

BUILD_STEPS = 2
MAX_FORMATION_MEMBERS = 1000
SOFT_WARN_MEMBERS = 50
MAX_FORWARDED_BYTES = 64 * 1024
MAX_USER_INPUT = 2000
RESERVED_IDS = frozenset({"unanswered", "__unanswered", "__other"})
DEFAULT_REQUEST = "Split this audience into meaningful subgroups."
AGE_BANDS = ((0, 24, "Under 25"), (25, 34, "25–34"), (35, 44, "35–44"), (45, 200, "45+"))
SANDBOX_USER = stable_id("user", "sandbox")


def _members(state: SandboxState, audience: Record) -> list[Record]:
    minds = (state.minds[m] for m in audience["mindIds"] if m in state.minds)
    return sorted(minds, key=lambda m: m["name"])


def _audience(request: web.Request) -> Record:
    return lookup(runtime(request).state.audiences, request.match_info["audience_id"], "Formation")


def _age_band(age: int) -> str:
    return next(label for low, high, label in AGE_BANDS if low <= age <= high)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "group"


# ---------------------------------------------------------------- the Formations an Audience has


def _auto(audience: Record, members: list[Record], *, key: str, name: str) -> Record:
    """An auto-seeded split: each member's age band or location is its subgroup."""
    pick = (lambda m: _age_band(m["persona"]["age"])) if key == "age" else (lambda m: m["persona"]["location"])
    labels = sorted({pick(m) for m in members})
    groups = [{"id": _slug(label), "label": label, "definition": f"{name}: {label}"} for label in labels]
    assigned = {m["id"]: _slug(pick(m)) for m in members}
    return {
        "id": stable_id("formation", audience["id"], key),
        "name": name,
        "source": "auto",
        "dimensionKey": key,
        "createdAt": audience["createdAt"],
        "hypothesis": {},  # legacy auto rows store no proposal (the OpenAPI: may be an empty object)
        "groups": groups,
        "assigned": assigned,
    }


def formations_of(state: SandboxState, audience: Record) -> list[Record]:
    """Every visible Formation, newest first: created ones, then the auto splits (when the members have personas)."""
    members = [m for m in _members(state, audience) if m.get("persona")]
    auto = (
        [_auto(audience, members, key="age", name="Age"), _auto(audience, members, key="geography", name="Location")]
        if members
        else []
    )
    created = sorted(audience.get("formations", {}).values(), key=lambda f: f["createdAt"], reverse=True)
    deleted = set(audience.get("deletedFormations", []))
    return [f for f in [*created, *auto] if f["id"] not in deleted]


def _status(audience: Record, formation: Record, now: float) -> str:
    until = max(formation.get("buildUntil", 0.0), audience.get("rebuiltUntil", {}).get(formation["id"], 0.0))
    return "building" if now < until else "ready"


def _subgroups(state: SandboxState, audience: Record, formation: Record, *, ready: bool) -> list[Record]:
    if not ready:
        return []
    members = {m["id"] for m in _members(state, audience)}
    assigned = formation.get("assigned") or _assign(state, audience, formation)
    return [
        {
            "id": stable_id("subgroup", formation["id"], group["id"]),
            "label": group["label"],
            "definition": group["definition"],
            "isAuxiliary": False,
            "position": position,
            "memberships": [
                {"mindId": mind_id, "confidence": 0.8}
                for mind_id, group_id in sorted(assigned.items())
                if group_id == group["id"] and mind_id in members
            ],
        }
        for position, group in enumerate(formation["groups"])
    ]


def _assign(state: SandboxState, audience: Record, formation: Record) -> dict[str, str]:
    """Each current member into the subgroup whose definition names something of its persona, else by a hash."""
    groups = formation["groups"]
    assigned = {}
    for mind in _members(state, audience):
        words = " ".join(str(v) for v in (mind.get("persona") or {}).values()).lower()
        named = [g for g in groups if any(w in words for w in re.findall(r"[a-z]{4,}", g["definition"].lower()))]
        digest = int(hashlib.sha256(f"{formation['id']}/{mind['id']}".encode()).hexdigest(), 16)
        assigned[mind["id"]] = (named or groups)[digest % len(named or groups)]["id"]
    return assigned


def _summary(state: SandboxState, audience: Record, formation: Record, now: float) -> dict[str, Any]:
    status = _status(audience, formation, now)
    groups = _subgroups(state, audience, formation, ready=status == "ready")
    return {
        **_common(formation, status),
        "dimensionKey": formation.get("dimensionKey"),
        "subgroups": [
            {
                **{k: g[k] for k in ("id", "label", "isAuxiliary", "position")},
                "_count": {"memberships": len(g["memberships"])},
            }
            for g in groups
        ],
    }


def _common(formation: Record, status: str) -> dict[str, Any]:
    return {
        "id": formation["id"],
        "name": formation["name"],
        "status": status,
        "source": formation["source"],
        "visibility": "shared",
        "createdAt": iso(formation["createdAt"]),
        "updatedAt": iso(formation.get("updatedAt") or formation["createdAt"]),
        "createdByUserId": SANDBOX_USER,
        "canMutate": True,
    }


async def list_formations(request: web.Request) -> web.Response:
    rt = runtime(request)
    audience = _audience(request)
    now = rt.clock.now()
    rows = [_summary(rt.state, audience, f, now) for f in formations_of(rt.state, audience)]
    return list_response(request, rows, pagination=None)


def _formation(request: web.Request, audience: Record) -> Record:
    wanted = request.match_info["formation_id"]
    found = next((f for f in formations_of(runtime(request).state, audience) if f["id"] == wanted), None)
    if found is None:
        raise not_found("Formation")
    return found


async def get_formation(request: web.Request) -> web.Response:
    rt = runtime(request)
    audience = _audience(request)
    formation = _formation(request, audience)
    status = _status(audience, formation, rt.clock.now())
    detail = {
        **_common(formation, status),
        "subgroups": _subgroups(rt.state, audience, formation, ready=status == "ready"),
        "hypothesis": formation["hypothesis"],
        "progress": {"phase": "classify", "done": 0, "total": len(_members(rt.state, audience))}
        if status == "building"
        else None,
    }
    return ok(detail)


async def recompute_formation(request: web.Request) -> web.Response:
    rt = runtime(request)
    audience = _audience(request)
    formation = _formation(request, audience)
    now = rt.clock.now()
    audience.setdefault("rebuiltUntil", {})[formation["id"]] = now + BUILD_STEPS * rt.engine.step
    if formation["source"] == "manual":
        formation["assigned"] = _assign(rt.state, audience, formation)
        formation["updatedAt"] = now
    rt.state.touch()
    return ok({"id": formation["id"], "status": "building"})


async def delete_formation(request: web.Request) -> web.Response:
    rt = runtime(request)
    audience = _audience(request)
    formation = _formation(request, audience)
    audience.setdefault("deletedFormations", []).append(formation["id"])
    rt.state.touch()
    return web.Response(status=204)


# ---------------------------------------------------------------- preview and create


class Subgroup(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str = Field(min_length=1)
    label: str = Field(min_length=1)
    definition: str = Field(min_length=1)


class Hypothesis(BaseModel):
    model_config = ConfigDict(extra="ignore")
    intent: str = Field(min_length=1)
    subgroups: list[Subgroup] = Field(min_length=2, max_length=15)


class Preview(BaseModel):
    model_config = ConfigDict(extra="ignore")
    userInput: str | None = None
    priorHypothesis: dict[str, Any] | None = None


class Create(BaseModel):
    model_config = ConfigDict(extra="ignore")
    hypothesis: Hypothesis
    name: str | None = None


def _proposal(request_text: str, members: list[Record]) -> dict[str, Any]:
    text = request_text.lower()
    personas = [m["persona"] for m in members if m.get("persona")]
    if "age" in text or "old" in text:
        labels = sorted({_age_band(p["age"]) for p in personas}) or [label for _l, _h, label in AGE_BANDS]
        intent, rule = "Audience by age", "Aged {label}"
    elif any(w in text for w in ("location", "city", "country", "place", "where", "region")):
        labels = sorted({p["location"] for p in personas})
        intent, rule = "Audience by location", "Lives in {label}"
    elif any(w in text for w in ("occupation", "job", "work", "profession")):
        labels = sorted({p["occupation"] for p in personas})
        intent, rule = "Audience by occupation", "Works as {label}"
    else:
        labels, intent, rule = ["Younger half", "Older half"], "Audience by life stage", "The {label} of the members"
    if len(labels) < 2:
        labels = [*labels, "Everyone else"][:2]
    groups = [{"id": _slug(label), "label": label, "definition": rule.format(label=label)} for label in labels[:15]]
    return {"intent": intent, "subgroups": groups}


async def preview_formation(request: web.Request) -> web.Response:
    rt = runtime(request)
    audience = _audience(request)
    raw = await read_json(request, max_bytes=MAX_FORWARDED_BYTES, required=False)
    body = parse(Preview, raw)
    text = (body.userInput or "").strip()[:MAX_USER_INPUT] or DEFAULT_REQUEST
    members = _members(rt.state, audience)
    data = {
        "memberCount": len(members),
        "softWarn": len(members) >= SOFT_WARN_MEMBERS,
        "hardCapExceeded": len(members) > MAX_FORMATION_MEMBERS,
        "phase": "hypothesizing",
        "hypothesis": _proposal(text, members),
    }
    return web.json_response({"success": True, "data": data})


def _check(hypothesis: Hypothesis) -> list[dict[str, str]]:
    groups = [
        {"id": g.id.strip(), "label": g.label.strip(), "definition": g.definition.strip()} for g in hypothesis.subgroups
    ]
    ids, labels = [g["id"] for g in groups], [g["label"].lower() for g in groups]
    if any(not all(g.values()) for g in groups) or len(set(ids)) != len(ids) or len(set(labels)) != len(labels):
        raise bad_request("Invalid hypothesis", code="INVALID_HYPOTHESIS")
    if RESERVED_IDS & set(ids):
        raise bad_request("Invalid hypothesis", code="INVALID_HYPOTHESIS")
    return groups


async def create_formation(request: web.Request) -> web.Response:
    rt = runtime(request)
    audience = _audience(request)
    body = parse(Create, await read_json(request, max_bytes=MAX_FORWARDED_BYTES))
    groups = _check(body.hypothesis)
    members = _members(rt.state, audience)
    if not members:
        raise bad_request("Audience has no members to categorize", code="NO_MEMBERS")
    if len(members) > MAX_FORMATION_MEMBERS:
        raise ApiError(400, "FORMATION_CAP", code="FORMATION_CAP")
    now = rt.clock.now()
    formation: Record = {
        "id": rt.state.new_id("formation"),
        "name": (body.name or "").strip() or body.hypothesis.intent.strip()[:80],
        "source": "manual",
        "dimensionKey": None,
        "createdAt": now,
        "updatedAt": now,
        "buildUntil": now + BUILD_STEPS * rt.engine.step,
        "hypothesis": {"intent": body.hypothesis.intent.strip(), "subgroups": groups},
        "groups": groups,
    }
    formation["assigned"] = _assign(rt.state, audience, formation)
    audience.setdefault("formations", {})[formation["id"]] = formation
    rt.state.touch()
    return ok({"id": formation["id"], "name": formation["name"], "status": "building"})
