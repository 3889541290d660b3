"""Charts are drawn on one dedicated thread, in turn.

Owns: ``draw(fn, ...)``, the one way flows run a chart renderer (``render.charts``, ``render.analytics``) off
the event loop. One thread, not the default pool: drawing is CPU work that the GIL serialises anyway, so more
threads would only add memory (each keeps its own allocator arena), and a burst of results
(``benchmarks/run_fanout.py``) queues its charts here instead of taking the threads file I/O uses. The renderer
runs in a copy of the caller's context, so a chart's words speak the caller's language (``minds_bot.i18n``).
When no font here has the letters of a chart's labels (Chinese or Korean words without a CJK font,
``render.bars.GlyphsMissing``), ``draw`` returns None and the caller posts ``render.charts.chart_not_drawn``
instead of a chart of boxes.
Must not touch Slack or Minds.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from minds_bot.render.bars import GlyphsMissing

_pool: ThreadPoolExecutor | None = None


async def draw(render: Callable[..., bytes], /, **kwargs: Any) -> bytes | None:
    """Run ``render(**kwargs)`` on the charts thread and return its PNG; None when no font here can draw its
    labels (the caller says so with ``render.charts.chart_not_drawn``)."""
    global _pool  # one thread for the process, made on the first chart
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="charts")
    context = contextvars.copy_context()  # the language being spoken, as ``asyncio.to_thread`` would carry it
    try:
        return await asyncio.get_running_loop().run_in_executor(_pool, functools.partial(context.run, render, **kwargs))
    except GlyphsMissing:  # logged by render.bars with the fonts it looked at
        return None
