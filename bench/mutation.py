"""Mutation run: how many one-token changes of chosen modules their tests catch (cosmic-ray).

    nice -n 19 python bench/mutation.py [--timeout 60] [--keep DIR [--retest-survivors]] [MODULE ...]

The modules and the tests that cover each one are listed in ``bench/mutation.toml``
(module path -> pytest files or node ids); MODULE picks some of them (default: all). For
each module the script runs its tests once unmutated (they must pass), then lets
cosmic-ray apply every mutation of its operators to the module, one at a time, in place,
and run only that module's tests against it, each run stopped after ``--timeout`` seconds
(a mutant that hangs its tests counts as caught). The file is restored afterwards, also
when the run is interrupted. With ``--keep DIR`` the sessions stay in DIR and a second run
goes on where the first stopped; ``--retest-survivors`` runs their surviving mutants again,
after tests were added for them.

A surviving mutant either gets a test that kills it or, when the mutated code behaves the
same, an entry in ``bench/mutation_equivalent.toml`` (module, operator, the mutated line,
its column from the line's first non-blank character, and a one-line reason); those are
counted as equivalent and not reported again. The script prints each survivor with its
diff and the entry to copy, then one line per module and per package (``storage``,
``bot/host``, ``bot/discordbot``, ``games/core``): mutants, killed, survived, equivalent
and the kill rate, killed / (mutants - equivalent). Mutants inside annotations of a module
with ``from __future__ import annotations`` are never evaluated: they are counted apart and
not run. Exit status 1 when any mutant
survived, 2 when a module's tests fail unmutated.

This machine has 2 cores shared by everyone: the run lowers its own priority (``nice``
19) and runs one mutant at a time; keep the listed tests small.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import os
import shlex
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAPPING = ROOT / "bench" / "mutation.toml"
EQUIVALENT = ROOT / "bench" / "mutation_equivalent.toml"
PACKAGES = ("storage", "bot/host", "bot/discordbot", "games/core")


@dataclass
class Tally:
    mutants: int = 0
    killed: int = 0
    survived: int = 0
    equivalent: int = 0
    errors: int = 0
    annotations: int = 0
    survivors: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.mutants += other.mutants
        self.killed += other.killed
        self.survived += other.survived
        self.equivalent += other.equivalent
        self.errors += other.errors
        self.annotations += other.annotations

    def rate(self) -> str:
        judged = self.mutants - self.equivalent
        return f"{100 * self.killed / judged:5.1f}%" if judged else "    -"


def package_of(module: str) -> str:
    """The package a module path is reported under: the longest of ``PACKAGES`` it is in."""
    return max((p for p in PACKAGES if module.startswith(p + "/")), key=len, default=module.rsplit("/", 1)[0])


def equivalent_keys() -> dict[tuple[str, str, str, int], str]:
    """(module, operator, stripped line, column) -> reason, from ``mutation_equivalent.toml``."""
    data = tomllib.loads(EQUIVALENT.read_text(encoding="utf-8")) if EQUIVALENT.exists() else {}
    keys = {}
    for e in data.get("equivalent", []):
        missing = {"module", "operator", "line", "column", "reason"} - set(e)
        if missing:
            raise SystemExit(f"{EQUIVALENT.name}: an entry lacks {', '.join(sorted(missing))}: {e}")
        keys[(e["module"], e["operator"], e["line"].strip(), int(e["column"]))] = e["reason"]
    return keys


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(start, end) positions, as (line, column), of every annotation in ``source`` when it
    has ``from __future__ import annotations``: such annotations are never evaluated, so a
    mutant inside one cannot change what the module does. Empty otherwise."""
    tree = ast.parse(source)
    future = any(isinstance(n, ast.ImportFrom) and n.module == "__future__" and
                 any(a.name == "annotations" for a in n.names) for n in tree.body)
    if not future:
        return []
    nodes = []
    for n in ast.walk(tree):
        if isinstance(n, ast.arg | ast.AnnAssign) and n.annotation is not None:
            nodes.append(n.annotation)
        elif isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.returns is not None:
            nodes.append(n.returns)
    return [((a.lineno, a.col_offset), (a.end_lineno, a.end_col_offset)) for a in nodes]


def skip_annotations(session: Path, source: str) -> None:
    """Mark the session's mutants inside unevaluated annotations as skipped before they run."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

    spans = annotation_spans(source)
    with use_db(str(session), WorkDB.Mode.open) as db:
        done = [item for item, r in db.completed_work_items if r.test_outcome == TestOutcome.SURVIVED]
        for item in [*db.pending_work_items, *done]:
            pos = tuple(item.mutations[0].start_pos)
            if any(start <= pos < end for start, end in spans):
                db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED,
                                                      output="inside an annotation, never evaluated"))


def test_command(tests: list[str]) -> list[str]:
    return [sys.executable, "-m", "pytest", "-x", "-p", "no:cacheprovider", *tests]


def forget_survivors(session: Path) -> int:
    """Drop the results of a kept session's surviving mutants, so that they run again against
    the tests as they are now (tests only added since: the killed stay killed). Returns how many."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(session)) as conn, conn:
        return conn.execute("DELETE FROM work_results WHERE test_outcome = 'SURVIVED'").rowcount


def relocate(session: Path, path: Path) -> None:
    """Point a kept session's mutants at ``path``: the session may come from another checkout."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(session)) as conn, conn:
        conn.execute("UPDATE mutation_specs SET module_path = ?", (str(path),))


def run_module(module: str, tests: list[str], timeout: float, work: Path,
               equivalents: dict[tuple[str, str, str, int], str], retest: bool = False) -> Tally:
    """Mutate ``module`` (a path under the project) with cosmic-ray, each mutant tested by ``tests``."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    tally = Tally()
    path = ROOT / module
    original = path.read_bytes()
    lines = original.decode("utf-8").splitlines()
    baseline = subprocess.run(test_command(tests), cwd=ROOT, capture_output=True, text=True)
    if baseline.returncode != 0:
        print(f"{module}: its tests fail unmutated; fix them first:\n{baseline.stdout[-2000:]}", file=sys.stderr)
        tally.errors = -1
        return tally
    stem = module.replace("/", "_").removesuffix(".py")
    config, session = work / f"{stem}.toml", work / f"{stem}.sqlite"
    config.write_text(
        "[cosmic-ray]\n"
        f"module-path = {str(path)!r}\n"
        f"timeout = {float(timeout)}\n"
        "excluded-modules = []\n"
        f"test-command = {shlex.join(test_command(tests))!r}\n"
        "[cosmic-ray.distributor]\n"
        'name = "local"\n',
        encoding="utf-8",
    )
    cosmic_ray = [sys.executable, "-m", "cosmic_ray.cli"]
    try:
        if not session.exists():  # a kept session goes on where it stopped
            subprocess.run([*cosmic_ray, "init", str(config), str(session)], cwd=ROOT, check=True)
        else:
            relocate(session, path)
        if retest:
            print(f"{module}: {forget_survivors(session)} surviving mutants tested again", flush=True)
        skip_annotations(session, original.decode("utf-8"))
        subprocess.run([*cosmic_ray, "exec", str(config), str(session)], cwd=ROOT, check=True)
    finally:
        if path.read_bytes() != original:
            path.write_bytes(original)
            print(f"{module}: restored after an interrupted mutant", file=sys.stderr)
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if result.worker_outcome == WorkerOutcome.SKIPPED:
                tally.annotations += 1
                continue
            tally.mutants += 1
            m = item.mutations[0]
            (row, col), source = m.start_pos, lines[m.start_pos[0] - 1]
            stripped = source.strip()
            column = col - (len(source) - len(source.lstrip()))
            if result.test_outcome in (TestOutcome.KILLED, TestOutcome.INCOMPETENT):
                tally.killed += 1
            elif result.test_outcome == TestOutcome.SURVIVED:
                if (module, m.operator_name, stripped, column) in equivalents:
                    tally.equivalent += 1
                    continue
                tally.survived += 1
                diff = "\n".join(
                    "    " + d for d in (result.diff or "").splitlines() if d[:1] in "+-" and d[:3] not in ("+++", "---")
                )
                tally.survivors.append(
                    f"{module}:{row}:{col} {m.operator_name}\n{diff}\n"
                    f"    [[equivalent]]\n    module = {module!r}\n    operator = {m.operator_name!r}\n"
                    f"    line = {stripped!r}\n    column = {column}\n    reason = \"...\""
                )
            else:
                tally.errors += 1
                tally.survivors.append(f"{module}:{row}:{col} {m.operator_name}: {result.worker_outcome.value}"
                                       f" ({(result.output or '').strip()[-300:]})")
    return tally


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("modules", nargs="*", metavar="MODULE", help="module paths from bench/mutation.toml (default: all)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds one mutant's tests may take (default 60)")
    p.add_argument("--keep", metavar="DIR", help="keep cosmic-ray's sessions in DIR; a second run resumes them")
    p.add_argument("--retest-survivors", action="store_true",
                   help="with --keep: run a kept session's surviving mutants again (after adding tests)")
    p.add_argument("--list", action="store_true", help="print the modules and their tests, run nothing")
    args = p.parse_args()
    try:
        import cosmic_ray  # noqa: F401
    except ImportError:
        print("cosmic-ray is missing: pip install -e '.[test]'", file=sys.stderr)
        return 2
    mapping = tomllib.loads(MAPPING.read_text(encoding="utf-8"))["modules"]
    unknown = [m for m in args.modules if m not in mapping]
    if unknown:
        print(f"not in {MAPPING.name}: {', '.join(unknown)}; listed: {', '.join(mapping)}", file=sys.stderr)
        return 2
    chosen = args.modules or list(mapping)
    if args.list:
        for m in chosen:
            print(f"{m}: {' '.join(mapping[m]['tests'])}")
        return 0
    os.nice(19 - os.nice(0)) if os.nice(0) < 19 else None
    equivalents = equivalent_keys()
    per_module: dict[str, Tally] = {}
    with tempfile.TemporaryDirectory(prefix="tabula-mutation-") as tmp:
        work = Path(args.keep) if args.keep else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for m in chosen:
            t0 = time.monotonic()
            per_module[m] = tally = run_module(m, list(mapping[m]["tests"]), args.timeout, work, equivalents,
                                             args.retest_survivors)
            if tally.errors < 0:
                return 2
            print(f"{m}: {tally.mutants} mutants, {tally.killed} killed, {tally.survived} survived, "
                  f"{tally.equivalent} equivalent, {tally.annotations} in annotations not run ({time.monotonic() - t0:.0f} s)", flush=True)
    survivors = [s for t in per_module.values() for s in t.survivors]
    if survivors:
        print(f"\nsurviving mutants ({len(survivors)}): a test that kills each, or an entry in {EQUIVALENT.name}")
        for s in survivors:
            print(s)
    packages: dict[str, Tally] = defaultdict(Tally)
    for m, t in per_module.items():
        packages[package_of(m)].add(t)
    print(f"\n{'package / module':28} {'mutants':>7} {'killed':>7} {'survived':>8} {'equiv':>6} {'errors':>6} {'rate':>6}")
    for pkg in sorted(packages):
        for m, t in per_module.items():
            if package_of(m) == pkg:
                print(f"  {m:26} {t.mutants:7} {t.killed:7} {t.survived:8} {t.equivalent:6} {t.errors:6} {t.rate()}")
        t = packages[pkg]
        print(f"{pkg:28} {t.mutants:7} {t.killed:7} {t.survived:8} {t.equivalent:6} {t.errors:6} {t.rate()}")
    return 1 if any(t.survived or t.errors for t in per_module.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
