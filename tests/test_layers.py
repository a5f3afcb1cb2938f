"""Imports point one way: games <- storage, render <- bot (ARCHITECTURE.md, "Layers").

Walks the imports (ast) of every .py file in games/, storage/ and render/ and
fails on an import that crosses a layer the wrong way:

- games   may not import discord, storage, render, bot, aiosqlite or PIL;
- storage may not import bot, render or discord;
- render  may not import storage, bot or discord;
- bot (the host and its adapters) may import anything.

Imports inside ``if TYPE_CHECKING:`` blocks count too: a type-only import still
ties the layers together.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN: dict[str, set[str]] = {
    "games": {"discord", "storage", "render", "bot", "aiosqlite", "PIL"},
    "storage": {"bot", "render", "discord"},
    "render": {"storage", "bot", "discord"},
    "bot": set(),
}


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import in the file, relative ones resolved."""
    return imports_in(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")


def imports_in(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import in ``source``, the text of
    ``module``; ``importlib.import_module("literal")`` counts as an import."""
    tree = ast.parse(source)
    package = module.split(".")
    if not is_package:
        package = package[:-1]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                prefix = ".".join(base)
                if node.module:
                    out.append((node.lineno, f"{prefix}.{node.module}" if prefix else node.module))
                else:
                    out += [(node.lineno, f"{prefix}.{alias.name}") for alias in node.names]
            elif node.module:
                out.append((node.lineno, node.module))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and not node.args[0].value.startswith(".")
        ):
            out.append((node.lineno, node.args[0].value))
    return out


def layer_files(layer: str) -> list[Path]:
    base = ROOT / layer
    return sorted(p for p in base.rglob("*.py") if "__pycache__" not in p.parts) if base.is_dir() else []


def violations(layer: str) -> list[str]:
    bad = []
    for path in layer_files(layer):
        for line, name in imported_modules(path):
            top = name.split(".")[0]
            if top in FORBIDDEN[layer]:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    return bad


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_imports_point_one_way(layer: str) -> None:
    assert layer_files(layer) or layer != "games", "games/ has no Python files"
    bad = violations(layer)
    assert not bad, f"{layer} crosses a layer:\n" + "\n".join(bad)


def test_the_walker_resolves_relative_and_dynamic_imports() -> None:
    """The checker itself: ``from ..render import x`` inside games/core is caught."""
    source = (
        "from ..render import draw\n"
        "from . import errors\n"
        "import importlib\n"
        "importlib.import_module('PIL.Image')\n"
    )
    names = [n for _, n in imports_in(source, "games.core.model", is_package=False)]
    assert names == ["games.render", "games.core.errors", "importlib", "PIL.Image"]
    assert [n for _, n in imports_in("from .x import y", "games.core", is_package=True)] == ["games.core.x"]
