"""How much memory relaying a 200 MB export into Slack costs: the bot's streamed upload (``flows/uploads.py``)
against slack_sdk's ``files_upload_v2`` (which reads the whole file first), measured in the same run.

Each way runs in its own child process (so peak RSS is its own) against a Slack stand-in on 127.0.0.1 that
answers ``files.getUploadURLExternal`` / ``files.completeUploadExternal`` and reads the upload in pieces,
discarding them (it never holds the file either). The figure is the child's peak RSS growth while uploading
(``ru_maxrss`` after minus RSS before); the ratio streamed / files_upload_v2 is what to compare across machines.
Goal (issue #15): growth ≤ 32 MB for the streamed relay. The download from Minds is already streamed to disk
by the Minds client; this measures the leg into Slack. Bounded: one upload per way, SIZE_MB each.

    .venv/bin/python benchmarks/export_relay.py            (writes benchmarks/results/export_relay.json)
"""

from __future__ import annotations

import asyncio
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._harness import write_result

SIZE_MB = 200
WAYS = ("files_upload_v2", "streamed")


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def _slack_stand_in() -> tuple[web.AppRunner, str]:
    received: dict[str, int] = {}

    async def api(request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if method == "files.getUploadURLExternal":
            base = f"http://{request.host}"
            return web.json_response({"ok": True, "file_id": "F1", "upload_url": f"{base}/upload/F1"})
        if method == "files.completeUploadExternal":
            return web.json_response({"ok": True, "files": [{"id": "F1", "size": received.get("F1", 0)}]})
        return web.json_response({"ok": True})

    async def upload(request: web.Request) -> web.Response:
        total = 0
        async for piece in request.content.iter_chunked(256 * 1024):
            total += len(piece)
        received[request.match_info["file_id"]] = total
        return web.Response(text=f"OK - {total}")

    app = web.Application(client_max_size=(SIZE_MB + 10) * 1024 * 1024)
    app.router.add_route("*", "/api/{method}", api)
    app.router.add_post("/upload/{file_id}", upload)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{runner.addresses[0][1]}"


async def _child(way: str, path: Path, base_url: str) -> dict[str, float]:
    from slack_sdk.web.async_client import AsyncWebClient

    from minds_bot.flows.uploads import upload_file

    client = AsyncWebClient(token="xoxb-bench", base_url=f"{base_url}/api/")  # noqa: S106 - the local stand-in
    before = _rss_mb()
    started = time.perf_counter()
    if way == "streamed":
        await upload_file(client, path=path, filename="export.zip", title="export", channel="C1", thread_ts=None)
    else:
        await client.files_upload_v2(file=str(path), filename="export.zip", title="export", channel="C1")
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"rss_before_mb": round(before, 1), "peak_growth_mb": round(peak - before, 1), "seconds": round(seconds, 2)}


async def main() -> None:
    runner, base_url = await _slack_stand_in()
    results: dict[str, dict[str, float]] = {}
    try:
        with tempfile.TemporaryDirectory() as workdir:
            path = Path(workdir) / "export.zip"
            with path.open("wb") as handle:
                for _ in range(SIZE_MB):
                    handle.write(b"\x5a" * (1024 * 1024))
            for way in WAYS:
                child = await asyncio.create_subprocess_exec(
                    sys.executable, __file__, "--child", way, str(path), base_url, stdout=subprocess.PIPE
                )
                out, _ = await asyncio.wait_for(child.communicate(), timeout=300)
                results[way] = json.loads(out.decode().strip().splitlines()[-1])
    finally:
        await runner.cleanup()
    ratio = results["streamed"]["peak_growth_mb"] / max(results["files_upload_v2"]["peak_growth_mb"], 0.1)
    print(f"a {SIZE_MB} MB file into Slack (peak RSS growth of the uploading process)")
    print(f"{'way':>16} {'growth MB':>10} {'seconds':>8}")
    for way in WAYS:
        print(f"{way:>16} {results[way]['peak_growth_mb']:>10} {results[way]['seconds']:>8}")
    print(f"ratio streamed / files_upload_v2: {ratio:.3f} (goal: streamed growth <= 32 MB)")
    written = write_result("export_relay", {"size_mb": SIZE_MB, "ways": results, "growth_ratio": round(ratio, 3)})
    print(f"written to {written.relative_to(Path.cwd()) if written.is_relative_to(Path.cwd()) else written}")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        print(json.dumps(asyncio.run(_child(sys.argv[2], Path(sys.argv[3]), sys.argv[4]))))
    else:
        asyncio.run(main())
