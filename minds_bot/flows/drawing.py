"""Charts are drawn on one dedicated thread, in turn.

Owns: ``draw(fn, ...)``, the one way flows run a chart renderer (``render.charts``, ``render.analytics``) off
the event loop. One thread, not the default pool: drawing is CPU work that the GIL serialises anyway, so more
threads would only add memory (each keeps its own allocator arena), and a burst of results
(``benchmarks/run_fanout.py``) queues its charts here instead of taking the threads file I/O uses.
Must not touch Slack or Minds.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

_pool: ThreadPoolExecutor | None = None


async def draw(render: Callable[..., bytes], /, **kwargs: Any) -> bytes:
    """Run ``render(**kwargs)`` on the charts thread and return its PNG."""
    global _pool  # noqa: PLW0603 - one thread for the process, made on the first chart
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="charts")
    return await asyncio.get_running_loop().run_in_executor(_pool, functools.partial(render, **kwargs))
