"""Builds the sandbox aiohttp application and runs it in-process for tests and benchmarks.

Owns: ``create_app`` (routes, middlewares, startup/cleanup of state, store and the background ticker) and
``running_sandbox`` (serve on an ephemeral 127.0.0.1 port). Must not contain endpoint logic.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass

from aiohttp import web

from minds_sandbox import routes_audience_design as design
from minds_sandbox import routes_audience_manage as manage
from minds_sandbox import routes_catalogue as cat
from minds_sandbox import routes_chats as chats
from minds_sandbox import routes_control as ctl
from minds_sandbox import routes_drafts as drafts
from minds_sandbox import routes_formations as formations
from minds_sandbox import routes_mind_extras as extras
from minds_sandbox import routes_minds as minds
from minds_sandbox import routes_profiles as profiles
from minds_sandbox import routes_research as res
from minds_sandbox import routes_studies as stu
from minds_sandbox import routes_tools as tools
from minds_sandbox.clock import Clock, SystemClock
from minds_sandbox.config import SandboxConfig
from minds_sandbox.ids import demo_key
from minds_sandbox.middleware import api_gate, error_envelope, tick_and_save
from minds_sandbox.runtime import RUNTIME, Runtime, Sleeper, load_state, new_engine
from minds_sandbox.state import SnapshotStore

TICK_INTERVAL_SECONDS = 0.1
V1 = "/api/v1"
STUDY = V1 + "/studies/{study_id}"


def create_app(config: SandboxConfig, *, clock: Clock | None = None, sleep: Sleeper | None = None) -> web.Application:
    """The sandbox server. State is loaded (or seeded) on startup and saved after every change."""
    app = web.Application(middlewares=[error_envelope, tick_and_save, api_gate])
    _add_routes(app)
    app.cleanup_ctx.append(_lifecycle(config, clock=clock or SystemClock(), sleep=sleep or asyncio.sleep))
    return app


def _lifecycle(config: SandboxConfig, *, clock: Clock, sleep: Sleeper):  # aiohttp cleanup ctx
    async def context(app: web.Application) -> AsyncIterator[None]:
        store = SnapshotStore(config.db_path) if config.db_path else None
        state = await load_state(config, store)
        app[RUNTIME] = Runtime(
            config=config,
            clock=clock,
            sleep=sleep,
            store=store,
            engine=new_engine(state=state, clock=clock, config=config),
            fault_rng=random.Random(config.seed),
        )
        if store:
            await store.save_if_changed(state)
        ticker = asyncio.create_task(_tick_forever(app[RUNTIME]))
        yield
        ticker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ticker
        if store:
            await store.save_if_changed(app[RUNTIME].state)

    return context


async def _tick_forever(runtime: Runtime) -> None:
    """Runs progress even when nobody polls, and progress reaches the database."""
    while True:
        await asyncio.sleep(TICK_INTERVAL_SECONDS)
        runtime.engine.tick()
        if runtime.store is not None:
            await runtime.store.save_if_changed(runtime.state)


def _add_routes(app: web.Application) -> None:
    r = app.router
    r.add_get(V1 + "/auth/me", cat.auth_me)
    r.add_get(V1 + "/minds", cat.list_minds)
    r.add_post(V1 + "/minds", minds.create_mind)
    r.add_get(V1 + "/minds/{mind_id}", cat.get_mind)
    r.add_put(V1 + "/minds/{mind_id}", minds.update_mind)
    r.add_delete(V1 + "/minds/{mind_id}", minds.delete_mind)
    r.add_get(V1 + "/minds/{mind_id}/training", minds.get_training)
    r.add_post(V1 + "/minds/{mind_id}/retrain", minds.retrain_mind)
    r.add_post(V1 + "/minds/{mind_id}/regenerate-prompt", minds.regenerate_prompt)
    r.add_get(V1 + "/minds/{mind_id}/knowledge", minds.list_knowledge)
    r.add_post(V1 + "/minds/{mind_id}/knowledge", minds.add_knowledge)
    r.add_get(V1 + "/minds/{mind_id}/knowledge/{item_id}/status", minds.knowledge_status)
    r.add_delete(V1 + "/minds/{mind_id}/knowledge/{item_id}", minds.delete_knowledge)
    r.add_delete(V1 + "/minds", extras.delete_minds)
    r.add_post(V1 + "/minds/{mind_id}/regenerate-image", extras.regenerate_image)
    r.add_post(V1 + "/minds/{mind_id}/regenerate-embeddings", extras.regenerate_embeddings)
    r.add_get(V1 + "/minds/{mind_id}/patterns", extras.list_patterns)
    r.add_get(V1 + "/minds/{mind_id}/knowledge/patterns", extras.knowledge_patterns)
    r.add_put(V1 + "/minds/{mind_id}/knowledge/{item_id}", extras.update_knowledge)
    r.add_post(V1 + "/minds/{mind_id}/knowledge/enrich", extras.enrich_knowledge)
    r.add_get(V1 + "/audiences", cat.list_audiences)
    r.add_post(V1 + "/audiences", design.create_audience)
    r.add_post(V1 + "/audiences/from-brief/segmentation-preview", design.preview_segmentation)
    r.add_get(V1 + "/audiences/limits", cat.audience_limits)
    r.add_post(V1 + "/audiences/from-brief", cat.create_audience_from_brief)
    r.add_get(V1 + "/audiences/from-brief/jobs/{job_id}", cat.get_brief_job)
    r.add_post(V1 + "/audiences/source-import", tools.source_import)
    r.add_get(V1 + "/audiences/{audience_id}", cat.get_audience)
    r.add_post(V1 + "/audiences/{audience_id}/duplicate", cat.duplicate_audience)
    r.add_get(V1 + "/audiences/{audience_id}/progress", tools.audience_progress)
    r.add_put(V1 + "/audiences/{audience_id}", manage.update_audience)
    r.add_delete(V1 + "/audiences/{audience_id}", manage.delete_audience)
    r.add_post(V1 + "/audiences/{audience_id}/follow", manage.follow)
    r.add_delete(V1 + "/audiences/{audience_id}/follow", manage.unfollow)
    r.add_post(V1 + "/audiences/{audience_id}/members", manage.add_members)
    r.add_delete(V1 + "/audiences/{audience_id}/members/{mind_id}", manage.remove_member)
    r.add_post(V1 + "/audiences/{audience_id}/regenerate-images", manage.regenerate_images)
    r.add_get(V1 + "/audiences/{audience_id}/formations", formations.list_formations)
    r.add_post(V1 + "/audiences/{audience_id}/formations", formations.create_formation)
    r.add_post(V1 + "/audiences/{audience_id}/formations/preview", formations.preview_formation)
    r.add_get(V1 + "/audiences/{audience_id}/formations/{formation_id}", formations.get_formation)
    r.add_delete(V1 + "/audiences/{audience_id}/formations/{formation_id}", formations.delete_formation)
    r.add_post(V1 + "/audiences/{audience_id}/formations/{formation_id}/recompute", formations.recompute_formation)
    r.add_post(V1 + "/audiences/{audience_id}/recalibrate", tools.recalibrate)
    r.add_get(V1 + "/model-connections", tools.model_connections)
    r.add_post(STUDY + "/invitations", tools.invite)
    r.add_get(STUDY + "/heatmaps/{message_id}", tools.get_heatmap)
    r.add_post(STUDY + "/heatmaps/{message_id}", tools.start_heatmap)
    r.add_post(STUDY + "/heatmaps/{message_id}/export", tools.start_heatmap_export)
    r.add_get(STUDY + "/heatmaps/{message_id}/export-status", tools.heatmap_export_status)
    r.add_get(STUDY + "/heatmaps/{message_id}/export-download", tools.heatmap_export_download)
    r.add_get(V1 + "/studies", cat.list_studies)
    r.add_post(V1 + "/studies", cat.create_study)
    r.add_get(V1 + "/research-methods", cat.research_methods)
    r.add_get(V1 + "/study-drafts", cat.list_study_drafts)
    r.add_get(V1 + "/study-templates", cat.list_study_templates)
    r.add_post(V1 + "/study-templates/{template_id}/use", cat.use_study_template)
    r.add_get(STUDY, cat.get_study)
    r.add_delete(STUDY, stu.delete_study)
    r.add_post(STUDY + "/research-plans/preview", res.preview_plan)
    r.add_post(STUDY + "/research-runs", res.start_research_run)
    r.add_get(STUDY + "/research-runs/{run_id}", res.get_research_run)
    r.add_get(STUDY + "/runs", stu.list_study_runs)
    r.add_post(STUDY + "/runs", stu.start_direct_run)
    r.add_get(V1 + "/runs/{run_id}", stu.get_run)
    r.add_post(V1 + "/runs/{run_id}/cancel", stu.cancel_run)
    r.add_get(STUDY + "/messages/{message_id}/answers", stu.message_answers)
    r.add_get(STUDY + "/summary", stu.get_summary)
    r.add_post(STUDY + "/summary", stu.refresh_summary)
    r.add_get(STUDY + "/analytics", stu.analytics)
    r.add_post(STUDY + "/export", stu.start_export)
    r.add_get(STUDY + "/export-status", stu.export_status)
    r.add_get(STUDY + "/export-download", stu.export_download)
    r.add_put(STUDY + "/sharing", stu.update_sharing)
    r.add_post(STUDY + "/duplicate", stu.duplicate_study)
    r.add_post(V1 + "/chats", chats.create_chat)
    r.add_post(V1 + "/chats/{chat_id}/messages", chats.send_message)
    r.add_delete(V1 + "/chats/{chat_id}", chats.delete_chat)
    r.add_post(V1 + "/minds/{mind_id}/export", profiles.start_export)
    r.add_get(V1 + "/minds/{mind_id}/export-status", profiles.export_status)
    r.add_post(V1 + "/audiences/{audience_id}/export", profiles.start_export)
    r.add_get(V1 + "/audiences/{audience_id}/export-status", profiles.export_status)
    r.add_post(V1 + "/study-drafts", drafts.create_draft)
    r.add_post(V1 + "/study-templates", drafts.save_template)
    r.add_delete(V1 + "/study-drafts/{draft_id}", drafts.delete_draft)
    r.add_get(V1 + "/study-drafts/{draft_id}", drafts.get_draft)
    r.add_patch(V1 + "/study-drafts/{draft_id}", drafts.update_draft)
    r.add_get(V1 + "/study-templates/{template_id}", drafts.get_template)
    r.add_patch(V1 + "/study-templates/{template_id}", drafts.update_template)
    r.add_delete(V1 + "/study-templates/{template_id}", drafts.delete_template)
    r.add_post(V1 + "/study-drafts/{draft_id}/consume", drafts.consume_draft)
    r.add_get("/_sandbox/faults", ctl.get_faults)
    r.add_put("/_sandbox/faults", ctl.put_faults)
    r.add_post("/_sandbox/reset", ctl.reset)
    r.add_post("/_sandbox/advance", ctl.advance)
    r.add_put("/_sandbox/allowance", ctl.put_allowance)
    r.add_get("/_sandbox/status", ctl.status)
    r.add_get("/_sandbox/traffic", ctl.traffic)
    r.add_get("/_sandbox/attachments", ctl.attachments)
    r.add_get("/_files/{token}", ctl.download_file)


@dataclass
class RunningSandbox:
    """A sandbox serving on 127.0.0.1 for the duration of a ``running_sandbox`` block."""

    origin: str
    app: web.Application

    @property
    def base_url(self) -> str:
        return self.origin + V1

    @property
    def runtime(self) -> Runtime:
        return self.app[RUNTIME]

    @property
    def demo_key(self) -> str:
        return demo_key(self.runtime.config.seed)

    def advance(self, seconds: float) -> None:
        """Move the sandbox clock and bring every run, export and job up to it."""
        self.runtime.clock.advance(seconds)
        self.runtime.engine.tick()


@contextlib.asynccontextmanager
async def running_sandbox(
    config: SandboxConfig | None = None,
    *,
    clock: Clock | None = None,
    sleep: Sleeper | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
) -> AsyncIterator[RunningSandbox]:
    """Serve the sandbox on ``host``:``port`` (0, the default, is any free port; ``config.port`` is ignored)."""
    config = config or SandboxConfig()
    app = create_app(config, clock=clock, sleep=sleep)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((host, port))
        site = web.SockSite(runner, sock)
        await site.start()
        yield RunningSandbox(origin=f"http://{host}:{sock.getsockname()[1]}", app=app)
    finally:
        await runner.cleanup()
        sock.close()
