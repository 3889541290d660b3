"""``LazyModule``: a module imported when one of its names is first used, not when the importer loads; and
``lazy_names``: a package's module ``__getattr__`` (PEP 562) that imports the submodule holding a name on first use.

Owns: deferring a library the bot needs on some requests but not at start-up (``httpx`` pulls in its command
line's ``rich``/``click`` when they are installed, tens of milliseconds). Use it under ``TYPE_CHECKING``'s
``else`` so type checkers still see the real module::

    if TYPE_CHECKING:
        import httpx
    else:
        httpx = LazyModule("httpx")

Must not touch: anything of the bot; it is a base helper every layer may use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any


class LazyModule:
    """Stands for the module ``name``; the first attribute read imports it (later reads are a dict lookup)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        module: ModuleType = importlib.import_module(self._name)
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"LazyModule({self._name!r})"


def lazy_names(package: str, where: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: ``where`` maps each name to the submodule defining it; a name found is
    kept in the package's ``namespace`` (its ``globals()``), so later reads are plain attribute reads."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    return __getattr__
