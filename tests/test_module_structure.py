"""The structure rules of the host and the Discord adapter (ARCHITECTURE.md, "The host" and "The
adapters"), as tests/games/core/test_game_structure.py holds the games to them: no module of bot/host or
bot/discordbot over 600 lines, no function over 80, and no import cycle among the modules of
either package (every import counts: at the top, inside a function, or for type checking only;
the outbox, the homes, the reminders and the cogs reach the bot through the Protocols of
bot/discordbot/protocols.py and cogs/__init__.py, never by importing the client)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.games.core.test_game_structure import MAX_FUNCTION_LINES, MAX_MODULE_LINES

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"bot.host": ROOT / "bot" / "host", "bot.discordbot": ROOT / "bot" / "discordbot"}


def modules(dotted: str, package: Path) -> dict[str, Path]:
    """Full module name (``bot.discordbot.cogs.play``) -> file, for every module of the package."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join([dotted, *parts])] = path
    return out


def imports(name: str, path: Path, names: set[str]) -> set[str]:
    """The modules among ``names`` that module ``name`` imports, anywhere in its file, by a
    relative or an absolute import (``from . import components`` names the module)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            targets = [module, *(f"{module}.{a.name}" for a in node.names)]
        else:
            continue
        found |= {t for t in targets if t in names}
    return found - {name}


def cycles_in(graph: dict[str, set[str]], skip: set[str]) -> list[list[str]]:
    """The import cycles of ``graph`` (module -> modules it imports), found by a depth-first
    walk; a package's ``__init__`` in ``skip`` re-exports its modules and is not a start."""
    state: dict[str, int] = {}
    found: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node] - skip):
            if state.get(nxt) == 1:
                found.append([*trail[trail.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state and name not in skip:
            visit(name, [name])
    return found


@pytest.mark.parametrize("dotted", sorted(PACKAGES))
def test_no_module_over_600_lines_and_no_function_over_80(dotted: str) -> None:
    long_modules, long_functions = [], []
    for name, path in modules(dotted, PACKAGES[dotted]).items():
        text = path.read_text("utf-8")
        if text.count("\n") > MAX_MODULE_LINES:
            long_modules.append(f"{name}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if n > MAX_FUNCTION_LINES:
                    long_functions.append(f"{name}.{node.name}: {n} lines")
    assert long_modules == [] and long_functions == []


@pytest.mark.parametrize("dotted", sorted(PACKAGES))
def test_no_import_cycle_among_the_modules(dotted: str) -> None:
    mods = modules(dotted, PACKAGES[dotted])
    graph = {name: imports(name, path, set(mods)) for name, path in mods.items()}
    assert cycles_in(graph, {dotted}) == []


def test_the_cycle_check_finds_a_cycle_through_a_type_checking_import(tmp_path: Path) -> None:
    """The check reads every import: a module importing the client for its type only, while
    the client imports it, is a cycle (as outbox.py and client.py were)."""
    pkg = tmp_path / "adapter"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "client.py").write_text("from .outbox import Outbox\n")
    (pkg / "outbox.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                   "    from .client import Bot\n")
    (pkg / "cogs").mkdir()
    (pkg / "cogs" / "__init__.py").write_text("def f():\n    from adapter.client import Bot\n")
    (pkg / "lazy.py").write_text("def g():\n    from .cogs import f\n")
    mods = modules("adapter", pkg)
    graph = {name: imports(name, path, set(mods)) for name, path in mods.items()}
    assert graph["adapter.outbox"] == {"adapter.client"}
    assert graph["adapter.cogs"] == {"adapter.client"}
    assert graph["adapter.lazy"] == {"adapter.cogs"}
    assert cycles_in(graph, {"adapter"}) == [["adapter.client", "adapter.outbox", "adapter.client"]]
