"""The structure rules of a game built on the flow engine (ARCHITECTURE.md, "Adding a game"):
no module over about 600 lines, no function over about 80, notation importing only the
game's queries and model (never its game object), and no import cycle inside the package.
Checked for every game converted to games.core.flow and for the tests' toy game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = [
    ROOT / "games" / "roman_war", ROOT / "games" / "barbarian_hordes", ROOT / "games" / "promised_land",
    ROOT / "games" / "credo", ROOT / "games" / "soul_of_the_empire",
    ROOT / "tests" / "harvest",
]
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
NOTATION_MAY_IMPORT = {"queries", "model", "data"}


def modules(package: Path) -> dict[str, Path]:
    """Module name inside the package (``rules.turn``) -> file."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def local_imports(name: str, path: Path, names: set[str]) -> set[str]:
    """The package's own modules that module ``name`` imports (relative imports, resolved)."""
    package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".") if name else []
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
            target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            if node.module is None:
                targets = [".".join([*base, a.name]) for a in node.names]
            else:
                targets = [target, *(f"{target}.{a.name}" for a in node.names)]
            found |= {t for t in targets if t in names}
    return found


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_no_module_over_600_lines_and_no_function_over_80(package: Path) -> None:
    long_modules, long_functions = [], []
    for name, path in modules(package).items():
        text = path.read_text("utf-8")
        if text.count("\n") > MAX_MODULE_LINES:
            long_modules.append(f"{name}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if n > MAX_FUNCTION_LINES:
                    long_functions.append(f"{name}.{node.name}: {n} lines")
    assert long_modules == [] and long_functions == []


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_notation_imports_only_the_queries_and_the_model(package: Path) -> None:
    """A notation may be a package of its own modules (``notation.read``); together they import
    nothing else of the game but the queries, the model and the data."""
    mods = modules(package)
    own = {name for name in mods if name == "notation" or name.startswith("notation.")}
    imported = set().union(*(local_imports(name, mods[name], set(mods)) for name in own)) - own
    assert imported <= NOTATION_MAY_IMPORT, f"notation imports {sorted(imported - NOTATION_MAY_IMPORT)}"


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_no_import_cycle_inside_the_package(package: Path) -> None:
    mods = modules(package)
    graph = {name: local_imports(name, path, set(mods)) - {name} for name, path in mods.items()}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*trail[trail.index(nxt):], nxt] if nxt in trail else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name and name not in state:  # the package's __init__ imports its game: not a cycle of its modules
            visit(name, [name])
    assert cycles == []


@pytest.mark.parametrize(("game_id", "players", "options"), [
    ("roman-war", 1, {}), ("roman-war", 3, {}), ("roman-war", 3, {"mode": "duel"}), ("harvest", 3, {}),
    ("barbarian-hordes", 2, {}), ("barbarian-hordes", 3, {"variant": "three-player"}), ("barbarian-hordes", 6, {}),
    ("promised-land", 2, {}), ("promised-land", 5, {"no_dice": True}),
    ("credo", 3, {}), ("credo", 4, {"ask_all": False}), ("credo", 6, {}),
    ("soul-of-the-empire", 2, {}), ("soul-of-the-empire", 3, {}), ("soul-of-the-empire", 4, {}),
])
def test_a_running_game_always_has_a_current_stage_that_asks_someone(game_id: str, players: int, options: dict) -> None:
    """The stage list covers every state random play reaches: while the game runs one stage
    is current (games.core.flow.check_flow) and it asks a seat that has a legal action."""
    import tests.harvest  # noqa: F401  (registers the toy game)
    from games.core import apply_at, get_game, start
    from games.core.agents import RandomAgent
    from games.core.flow import check_flow

    game = get_game(game_id)
    for seed in range(3):
        agent = RandomAgent(seed)
        s = start(game, list(range(players)), game.Options.model_validate(options), seed).state
        for step in range(1, 400):
            if game.outcome(s) is not None:
                break
            check_flow(game, s)  # type: ignore[arg-type]
            seat = min(game.to_act(s))
            s = apply_at(game, s, seat, agent.choose(game, s, seat), seed, step).state
