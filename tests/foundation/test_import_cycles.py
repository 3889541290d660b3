"""Issue #15 (structure that serves start-up): no module of ``minds_bot`` (nor of the Minds sandbox and the Slack
emulator, distributions of their own since issue #35) imports itself back, directly or round a loop — at module
level or inside a function (a lazy import that climbs back is still a loop). Imports only for type checkers
(``if TYPE_CHECKING:``) are not run, so they do not count. A loop here makes lazy loading fragile and start-up
order matter; the test names the loop it finds."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

# Each package, with fewer import edges than its walk must see (so an empty walk cannot pass).
PACKAGES = {"minds_bot": 200, "minds_sandbox": 100, "slack_emulator": 20}


def _modules(package_name: str = "minds_bot") -> dict[str, Path]:
    package = Path(importlib.import_module(package_name).__file__ or "").resolve().parent
    found = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _run_time_nodes(node: ast.AST) -> Iterator[ast.AST]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            for other in child.orelse:
                yield other
                yield from _run_time_nodes(other)
            continue
        yield child
        yield from _run_time_nodes(child)


def _imports(name: str, path: Path, modules: set[str]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in _run_time_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:  # ``from pkg import sub`` needs pkg.sub; ``from pkg import name``, pkg
                targets.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {t for t in targets if t in modules and t != name}


def _a_loop(graph: dict[str, set[str]]) -> list[str] | None:
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def walk(module: str) -> list[str] | None:
        path.append(module)
        on_path.add(module)
        for target in sorted(graph[module]):
            if target in on_path:
                return [*path[path.index(target) :], target]
            if target not in done and (loop := walk(target)):
                return loop
        on_path.discard(path.pop())
        done.add(module)
        return None

    for module in sorted(graph):
        if module not in done and (loop := walk(module)):
            return loop
    return None


@pytest.mark.parametrize(("package", "edges"), PACKAGES.items())
def test_no_module_imports_itself_back_round_a_loop(package: str, edges: int) -> None:
    modules = _modules(package)
    graph = {name: _imports(name, path, set(modules)) for name, path in modules.items()}
    assert sum(len(targets) for targets in graph.values()) > edges  # the walk sees the real import graph
    loop = _a_loop(graph)
    assert loop is None, "import loop: " + " → ".join(loop or [])


def test_the_loop_finder_finds_a_loop() -> None:
    assert _a_loop({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _a_loop({"a": {"b"}, "b": set()}) is None
