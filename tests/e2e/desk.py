"""Driving the demo as people in a Slack workspace would: type ``/minds …``, read private answers, open and
submit dialogs, press buttons — and, behind the scenes, turn the Minds sandbox's fault knobs and allowance.

Shared by the command tests in this directory. Every wait is the emulator's event-driven wait with a bound;
nothing sleeps.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx

from minds_bot.demo import Demo, running_demo
from minds_bot.render import unescape
from minds_sandbox import SandboxConfig
from slack_emulator.ids import ts_key
from slack_emulator.state import Ephemeral, Message, View

FAST = SandboxConfig(seconds_per_step=0.05)
WAIT = 30.0  # a bound on every wait, not a timing: answers usually arrive well within a second
DESCRIPTION = "Run further. / Made to last. / Light on the planet."  # what a requester types when Minds asks for words


def shown(item: Ephemeral | Message | View) -> str:
    """Everything a person can read in a message or modal: its text and its blocks."""
    if isinstance(item, View):
        return json.dumps(item.payload, ensure_ascii=False)
    # As Slack shows it: mrkdwn's entities (&lt; &gt; &amp;) read as the characters they stand for, and the
    # zero-width spaces that let bold render next to Hangul and CJK (``i18n.markup``) are not seen.
    return unescape(item.text + " " + json.dumps(item.blocks, ensure_ascii=False)).replace("\u200b", "")


def action_ids(blocks: list[dict[str, Any]]) -> list[str]:
    found: list[str] = []
    for block in blocks:
        accessory = block.get("accessory") or {}
        if accessory.get("action_id"):
            found.append(accessory["action_id"])
        found += [e.get("action_id", "") for e in block.get("elements", []) if isinstance(e, dict)]
    return found


class Desk:
    """The workspace as its people see it: Ada (admin), Ben and Chloé in #research."""

    def __init__(self, demo: Demo) -> None:
        self.demo = demo
        self.emu = demo.emulator
        self.ada = self._person("ada")
        self.ben = self._person("ben")
        self.chloe = self._person("chlo")
        self.research = next(c.id for c in self.emu.config.channels if c.name == "research")

    def _person(self, name: str) -> str:
        return next(u.id for u in self.emu.config.users if u.name.lower().startswith(name))

    # ---- as a user

    async def type(self, user: str, text: str) -> str:
        """Send ``/minds <text>`` in #research; returns the mark to wait from."""
        since = self.emu.mark()
        delivery = await self.emu.send_slash_command(user=user, channel=self.research, text=text)
        assert delivery.ok, f"the bot did not acknowledge /minds {text[:40]}: {delivery.error}"
        return since

    async def answered_plan(self, user: str, request: str) -> Message:
        """``/minds plan …``, then every confirmation question answered — with its first option, or, when Minds
        asks for words (a concept's description), with ``DESCRIPTION`` in the answer dialog — until the plan
        offers Approve (Minds' confirmation questions are answered before a run)."""
        since = await self.type(user, request)
        plan = await self.posted(since, lambda m: "Research plan" in m.text)
        while "plan_approve" not in action_ids(plan.blocks):
            plan = await self.answer_first_question(user, plan)
        return plan

    async def answer_first_question(self, user: str, plan: Message) -> Message:
        """Answer the plan's first open confirmation question (its first option, or ``DESCRIPTION`` typed)."""
        ids = action_ids(plan.blocks)
        shown_before = plan.text
        chosen = next((a for a in ids if a.startswith(("plan_answer:", "plan_answer_text:"))), None)
        assert chosen is not None, "the plan shows no confirmation question to answer"
        await self.emu.click_button(user=user, action_id=chosen, channel=self.research, ts=plan.ts)
        if chosen.startswith("plan_answer_text:"):
            dialog = await self.emu.wait_for_modal(  # the answer dialog, in whichever language the person reads
                user, lambda v: any(b.get("block_id") == "answer" for b in v.payload.get("blocks", [])), timeout=WAIT
            )
            delivery = await self.emu.submit_view(user=user, view_id=dialog.id, inputs={"answer/value": DESCRIPTION})
            assert delivery.ok, delivery.error
        return await self.wait(lambda ts=plan.ts, before=shown_before: self._changed(ts, before))

    def _changed(self, ts: str, before: str) -> Message | None:
        return next((m for m in self.emu.state.messages(self.research) if m.ts == ts and m.text != before), None)

    async def private(self, user: str, since: str, *needles: str) -> Ephemeral:
        """The first private answer after ``since`` that shows every one of ``needles``."""
        return await self.emu.wait_for_ephemeral(
            user, lambda e: all(n in shown(e) for n in needles), since=since, timeout=WAIT
        )

    def privates(self, user: str, since: str) -> list[Ephemeral]:
        return [e for e in self.emu.state.ephemerals(user) if ts_key(e.ts) > ts_key(since)]

    async def posted(
        self, since: str, predicate: Callable[[Message], bool], *, thread_ts: str | None = None
    ) -> Message:
        return await self.emu.wait_for_message(self.research, predicate, since=since, thread_ts=thread_ts, timeout=WAIT)

    def channel_since(self, since: str) -> list[Message]:
        messages = self.emu.state.messages(self.research, include_replies=True)
        return [m for m in messages if ts_key(m.ts) > ts_key(since)]

    async def modal(self, user: str, *needles: str) -> View:
        return await self.emu.wait_for_modal(user, lambda v: all(n in shown(v) for n in needles), timeout=WAIT)

    async def wait(self, predicate: Callable[[], Any]) -> Any:
        return await self.emu.wait_for(predicate, timeout=WAIT)

    # ---- behind the scenes: the Minds sandbox

    @property
    def _origin(self) -> str:
        return self.demo.minds_url.split("/api/")[0]

    async def minds_api(self, method: str, path: str, body: Any = None) -> Any:
        key = self.demo.bot.bot.services.settings.minds_api_key
        assert key is not None
        headers = {"Authorization": f"Bearer {key.get_secret_value()}"}
        async with httpx.AsyncClient(base_url=self.demo.minds_url, headers=headers, timeout=WAIT) as http:
            reply = await http.request(method, path, json=body)
        reply.raise_for_status()
        return reply.json()["data"]

    async def faults(self, **knobs: Any) -> None:
        async with httpx.AsyncClient(base_url=self._origin, timeout=WAIT) as http:
            (await http.put("/_sandbox/faults", json=knobs)).raise_for_status()

    async def allowance(self, limit: int | None) -> None:
        async with httpx.AsyncClient(base_url=self._origin, timeout=WAIT) as http:
            (await http.put("/_sandbox/allowance", json={"limit": limit})).raise_for_status()

    async def study_names(self) -> list[str]:
        return [s["name"] for s in await self.minds_api("GET", "/studies?limit=100")]


@asynccontextmanager
async def open_desk(workdir: Path) -> AsyncIterator[Desk]:
    async with running_demo(page_port=0, workdir=workdir, sandbox=FAST) as demo:
        yield Desk(demo)
