"""Shared helpers for the developer scripts in Scripts/ (Python 3 standard library only).

What lives here:
  - finding the repository root and reading `swift package describe --type json` without
    ever waiting on SwiftPM's build lock;
  - the layout of the monorepo: which role a target has, judged from its path alone;
  - a small Swift lexer that finds `import` statements (comments and string literals blanked).

The dependency *rules* are not here: they live in one table at the top of
Scripts/check-architecture.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

REPO_ROOT = Path(__file__).resolve().parents[2]
# Modules SwiftPM makes to run the tests (<Package>PackageTests, …PackageDiscoveredTests): in no
# target of the package, and not an external package's either.
SYNTHESISED_MODULE = re.compile(r"Package(?:Discovered)?Tests$")

# `swift package describe` takes SwiftPM's lock on its scratch directory. Run inside
# `swift test` (which holds the lock on its own scratch directory until it ends), or while
# somebody builds in `.build`, a describe on that same directory would wait forever.
# Describe needs nothing from the scratch directory, so it gets one of its own that nobody
# builds in. SwiftPM does not even create it: only a lock file in the temp directory.
DESCRIBE_SCRATCH = ".build-describe"

# The feature layers, innermost first: Features/<Name>/<Layer>, target `<Name><Layer>`.
LAYERS = ("Interface", "Domain", "Data", "Feature", "Testing", "Example", "Postgres", "API", "Server", "Remote")


class DescribeError(RuntimeError):
    """`swift package describe` failed (a broken manifest, no `swift` on PATH, …)."""


def describe_package(root: Path = REPO_ROOT, only: str | None = None) -> dict:
    """`swift package describe --type json` of the package at `root`, lock-free.

    `only=None` describes the whole package (an inherited MOA_ONLY is removed); otherwise
    the package as `MOA_ONLY=<only>` sees it.
    """
    env = dict(os.environ)
    env.pop("MOA_ONLY", None)
    if only is not None:
        env["MOA_ONLY"] = only
    command = ["swift", "package", "--package-path", str(root),
               "--scratch-path", str(Path(root) / DESCRIBE_SCRATCH),
               "describe", "--type", "json"]
    try:
        result = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True,
                                timeout=300)
    except FileNotFoundError as error:
        raise DescribeError("`swift` was not found on PATH") from error
    except subprocess.TimeoutExpired as error:
        raise DescribeError("`swift package describe` did not finish within 300 s") from error
    if result.returncode != 0:
        raise DescribeError(f"`{' '.join(command)}` failed:\n{result.stderr.strip()}")
    return parse_describe(result.stdout)


def describe_at(root: Path, commit: str) -> dict:
    """`swift package describe` of the tree of `commit` (a `git archive` of it, in a temporary folder)."""
    folder = Path(tempfile.mkdtemp(prefix="moa-describe-at."))
    try:
        archive = subprocess.run(["git", "archive", commit], cwd=root, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
        return describe_package(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def closure_of(describe: dict, name: str) -> tuple[set[str], set[str]]:
    """The package modules `name` is compiled with (itself included), and the external products they use."""
    targets = {t["name"]: t for t in describe.get("targets", [])}
    ours: set[str] = set()
    stack = [name]
    while stack:
        current = stack.pop()
        if current in ours or current not in targets:
            continue
        ours.add(current)
        stack += targets[current].get("target_dependencies") or []
    products = {p for t in ours for p in targets[t].get("product_dependencies") or []}
    return ours, products


def parse_describe(text: str) -> dict:
    """The JSON of a describe output (SwiftPM may print warnings before it)."""
    start = text.find("{")
    if start < 0:
        raise DescribeError("no JSON in the output of `swift package describe`")
    return json.loads(text[start:])


def load_describe(path: Path) -> dict:
    return parse_describe(Path(path).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Target:
    name: str
    type: str  # library, executable, test, macro, plugin, …
    path: str  # relative to the package root
    target_deps: tuple[str, ...]
    product_deps: tuple[str, ...]
    sources: tuple[str, ...] | None  # relative to `path`; None: scan the folder

    @property
    def is_test(self) -> bool:
        return self.type == "test"


def targets_of(describe: dict) -> list[Target]:
    """The package's targets, sorted by name."""
    targets = []
    for raw in describe.get("targets", []):
        sources = raw.get("sources")
        targets.append(Target(
            name=raw["name"],
            type=raw.get("type", "library"),
            path=str(PurePosixPath(raw.get("path", ""))),
            target_deps=tuple(raw.get("target_dependencies", [])),
            product_deps=tuple(raw.get("product_dependencies", [])),
            sources=tuple(sources) if sources is not None else None,
        ))
    return sorted(targets, key=lambda t: t.name)


# MARK: - The layout: a target's role, from its path


@dataclass(frozen=True)
class Role:
    """Where a target sits in the layout.

    kind: "Shared", "Core", one of LAYERS, "App", "FeatureTests", "ServedTests" (Tests/<F>ServedTests: a served
    feature's handlers, remote use cases and stores together), "CrossCuttingTests", "Tool"
    (a benchmark under Scripts/Benchmarks, the simulation under Scripts/Simulation) or "Outside".
    feature: the feature name for feature layers and feature tests.
    problem: for "Outside", what is wrong.
    """
    kind: str
    feature: str | None = None
    problem: str | None = None

    def describe(self, core_layer: str | None = None) -> str:
        if self.kind in LAYERS:
            return f"{self.feature} · {self.kind}"
        if self.kind == "FeatureTests":
            return f"{self.feature} · tests"
        if self.kind == "ServedTests":
            return f"{self.feature} · served tests"
        if self.kind == "CrossCuttingTests":
            return "cross-cutting tests"
        if self.kind == "Core" and core_layer:
            return f"Core · {core_layer}"
        if self.kind == "Outside":
            return "outside the layout"
        return self.kind


LAYOUT_HELP = "Shared/, Core/, Features/<Feature>/<Layer>, App/, Tests/, Scripts/Benchmarks/ or Scripts/Simulation/"


def feature_names(targets: list[Target]) -> list[str]:
    """Features are the names X of the targets at Features/X/<Layer>."""
    names = set()
    for target in targets:
        parts = PurePosixPath(target.path).parts
        if len(parts) == 3 and parts[0] == "Features" and parts[2] in LAYERS:
            names.add(parts[1])
    return sorted(names)


def role_of(target: Target, features: list[str]) -> Role:
    parts = PurePosixPath(target.path).parts
    top = parts[0] if parts else ""
    if top == "Shared" and len(parts) >= 2:
        return Role("Shared")
    if top == "Core" and len(parts) >= 2:
        return Role("Core")
    if top == "App" and len(parts) >= 2:
        return Role("App")
    if top == "Features":
        if len(parts) == 3 and parts[2] in LAYERS:
            feature, layer = parts[1], parts[2]
            if target.name != feature + layer:
                return Role("Outside", feature, f"a target in {target.path} must be named {feature}{layer}")
            return Role(layer, feature)
        return Role("Outside", problem=f"{target.path} is not Features/<Feature>/<Layer> "
                                       f"with a layer among {', '.join(LAYERS)}")
    if top == "Scripts" and len(parts) == 3 and parts[1] in ("Benchmarks", "Simulation"):
        return Role("Tool")
    if top == "Tests" and len(parts) == 2:
        folder = parts[1]
        if folder.endswith("ServedTests") and folder[: -len("ServedTests")] in features:
            return Role("ServedTests", folder[: -len("ServedTests")])
        if folder.endswith("Tests") and folder[: -len("Tests")] in features:
            return Role("FeatureTests", folder[: -len("Tests")])
        return Role("CrossCuttingTests")
    return Role("Outside", problem=f"{target.path or '(no path)'} is not under {LAYOUT_HELP}")


# MARK: - Swift sources and their imports


def swift_files(root: Path, target: Target) -> list[Path]:
    """Every .swift file under a target's folder, sorted.

    The folder, not the described `sources`: a file excluded in Package.swift is still
    checked, and a describe JSON written before a file was added still sees it.
    """
    base = Path(root) / target.path
    if not target.path or not base.is_dir():
        return []
    return sorted(p for p in base.rglob("*.swift") if p.is_file())


def blank_comments_and_strings(source: str, blank_strings: bool = True) -> str:
    """`source` with comments (and, by default, string literal contents) replaced by spaces.

    Newlines are kept, so line numbers stay right. Understands nested block comments,
    multi-line strings, raw strings (#"…"#) and string interpolation (code inside `\\(…)` is
    kept). Regex literals are not recognised (an unbalanced quote inside one could confuse it).
    """
    out = list(source)
    n = len(source)

    def blank(start: int, end: int, always: bool = True) -> None:
        if not always:
            return
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    i = 0
    interpolations: list[list] = []  # [hashes, multiline, paren depth] of each open \( … )
    string: tuple[int, bool] | None = None  # (hashes, multiline) while inside a literal
    while i < n:
        c = source[i]
        if string is None:
            if source.startswith("//", i):
                end = source.find("\n", i)
                end = n if end < 0 else end
                blank(i, end)
                i = end
                continue
            if source.startswith("/*", i):
                depth, j = 0, i
                while j < n:
                    if source.startswith("/*", j):
                        depth += 1
                        j += 2
                    elif source.startswith("*/", j):
                        depth -= 1
                        j += 2
                        if depth == 0:
                            break
                    else:
                        j += 1
                blank(i, j)
                i = j
                continue
            if c in "#\"":
                j = i
                while j < n and source[j] == "#":
                    j += 1
                if j < n and source[j] == '"':
                    multiline = source.startswith('"""', j)
                    contents = j + (3 if multiline else 1)
                    blank(i, contents, blank_strings)
                    string = (j - i, multiline)
                    i = contents
                    continue
                i = max(j, i + 1)
                continue
            if interpolations:
                if c == "(":
                    interpolations[-1][2] += 1
                elif c == ")":
                    if interpolations[-1][2] == 0:
                        hashes, multiline, _ = interpolations.pop()
                        string = (hashes, multiline)
                        blank(i, i + 1, blank_strings)
                        i += 1
                        continue
                    interpolations[-1][2] -= 1
            i += 1
            continue
        hashes, multiline = string
        if c == "\\" and source.startswith("#" * hashes, i + 1):
            j = i + 1 + hashes
            if j < n and source[j] == "(":
                blank(i, j + 1, blank_strings)
                interpolations.append([hashes, multiline, 0])
                string = None
                i = j + 1
                continue
            blank(i, j + 1, blank_strings)
            i = j + 1
            continue
        close = ('"""' if multiline else '"') + "#" * hashes
        if source.startswith(close, i):
            blank(i, i + len(close), blank_strings)
            string = None
            i += len(close)
            continue
        if c == "\n" and not multiline:  # unterminated literal: recover at the end of the line
            string = None
            i += 1
            continue
        blank(i, i + 1, blank_strings)
        i += 1
    return "".join(out)


_IMPORT = re.compile(r"""
    (?:^|;)[ \t]*                                         # the start of a statement
    (?:@[A-Za-z_]\w*(?:\([^()]*\))?\s+)*                  # @testable @_exported @preconcurrency @_spi(X) …
    (?:(?:public|package|internal|fileprivate|private|open)\s+)?
    (?P<keyword>import)\s+
    (?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?   # import struct X.Y
    `?(?P<module>[A-Za-z_]\w*)                            # X of X, X.Submodule, X.Y
    """, re.MULTILINE | re.VERBOSE)


@dataclass(frozen=True)
class Import:
    line: int
    module: str


def find_imports(source: str) -> list[Import]:
    """Every import statement of a Swift file, including those inside #if blocks."""
    code = blank_comments_and_strings(source)
    found = []
    for match in _IMPORT.finditer(code):
        line = code.count("\n", 0, match.start("keyword")) + 1
        found.append(Import(line, match.group("module")))
    return found


def import_statements(source: str) -> list[str]:
    """The import statements of a Swift file as written (attributes included), whitespace collapsed."""
    code = blank_comments_and_strings(source)
    return [" ".join(match.group(0).split()).lstrip(";").strip() for match in _IMPORT.finditer(code)]


# MARK: - Package.swift locations


def declaration_line(package_swift: str | None, target: Target, role: Role) -> int | None:
    """The line of Package.swift where a target is declared, if it can be found.

    A feature's targets are declared by its `.feature("<Name>", …)` line; other targets by
    the first `("<Name>"` or `name: "<Name>"`.
    """
    if not package_swift:
        return None
    code = blank_comments_and_strings(package_swift, blank_strings=False)
    patterns = []
    if role.feature and role.kind in LAYERS + ("FeatureTests", "ServedTests"):
        patterns.append(r"\bfeature\(\s*\"%s\"" % re.escape(role.feature))
    patterns.append(r"(?:\(\s*|\bname:\s*)\"%s\"" % re.escape(target.name))
    for pattern in patterns:
        match = re.search(pattern, code)
        if match:
            return code.count("\n", 0, match.start()) + 1
    return None


def read_package_swift(root: Path) -> str | None:
    path = Path(root) / "Package.swift"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


# MARK: - MOA_ONLY closures (Scripts/test-feature, Scripts/run-example)

EX_USAGE = 64

# What Scripts/bench-server and Scripts/bench-client build in release, in one scratch path
# (.build-bench): the same MOA_ONLY, so that neither rebuilds what the other built.
BENCH_PRODUCTS = "moa-server,moa"


def only_names(describe: dict) -> list[str]:
    """The names MOA_ONLY understands here: "Core" and every feature."""
    return ["Core"] + feature_names(targets_of(describe))


def closure_sizes(root: Path, name: str, whole: dict | None = None) -> tuple[int, int]:
    """(package modules in the MOA_ONLY=<name> closure, package modules in the whole package)."""
    whole = whole if whole is not None else describe_package(root)
    only = describe_package(root, only=name)
    return len(only.get("targets", [])), len(whole.get("targets", []))


# MARK: - Line coverage per module (Scripts/test-feature --coverage, Scripts/test-affected --coverage)


def toolchain_tool(name: str) -> str:
    """`name` from the Swift toolchain's own bin folder (a system llvm-cov may not read its profiles)."""
    import shutil
    swift = shutil.which("swift")
    if swift:
        candidate = Path(os.path.realpath(swift)).parent / name
        if candidate.is_file():
            return str(candidate)
    return name


def coverage_by_module(root: Path, scratch: Path, describe: dict) -> list[tuple[str, int, int]]:
    """(module, lines covered, lines) for every non-test target of this package that the last
    `swift test --enable-code-coverage --scratch-path <scratch>` run compiled into its test binary,
    read with the toolchain's `llvm-cov export -summary-only`. Raises DescribeError when there is
    no coverage data (the run did not use --enable-code-coverage, or did not finish)."""
    debug = Path(scratch) / "debug"
    profile = debug / "codecov" / "default.profdata"
    binaries = sorted(debug.glob("*PackageTests.xctest"))
    if not profile.is_file() or not binaries:
        raise DescribeError(f"no coverage data in {debug} (run `swift test --enable-code-coverage` first)")
    result = subprocess.run(
        [toolchain_tool("llvm-cov"), "export", "-summary-only", f"-instr-profile={profile}", str(binaries[0])],
        capture_output=True, text=True)
    if result.returncode != 0:
        raise DescribeError(f"llvm-cov export failed: {result.stderr.strip()[:300]}")
    targets = [t for t in targets_of(describe) if not t.is_test and t.path]
    folders = sorted(((str(Path(root).resolve() / t.path) + "/", t.name) for t in targets), key=lambda f: -len(f[0]))
    totals: dict[str, list[int]] = {}
    for data in json.loads(result.stdout).get("data", []):
        for file in data.get("files", []):
            name = str(Path(file.get("filename", "")).resolve())
            owner = next((target for folder, target in folders if name.startswith(folder)), None)
            if owner is None:
                continue
            lines = file.get("summary", {}).get("lines", {})
            entry = totals.setdefault(owner, [0, 0])
            entry[0] += int(lines.get("covered", 0))
            entry[1] += int(lines.get("count", 0))
    return sorted((module, covered, count) for module, (covered, count) in totals.items())


def coverage_table(rows: list[tuple[str, int, int]]) -> str:
    """The rows as a small table: module, covered / lines, percentage; and the total."""
    if not rows:
        return "coverage: no module of this package was compiled into the tests"
    width = max(len("module"), *(len(module) for module, _, _ in rows))
    lines = [f"{'module'.ljust(width)}  {'lines':>13}  {'covered':>7}"]
    for module, covered, count in rows:
        share = f"{100 * covered / count:.1f}%" if count else "—"
        lines.append(f"{module.ljust(width)}  {f'{covered}/{count}':>13}  {share:>7}")
    covered, count = sum(r[1] for r in rows), sum(r[2] for r in rows)
    lines.append(f"{'total'.ljust(width)}  {f'{covered}/{count}':>13}  {(100 * covered / count if count else 0):>6.1f}%")
    return "\n".join(lines)


# MARK: - Scripts that use each other, and generated sections of docs/


def load_script(name: str):
    """The Python script Scripts/<name> (no .py suffix) as a module, e.g. test-affected's selection."""
    import importlib.machinery
    import importlib.util
    import sys
    module_name = name.replace("-", "_")
    loader = importlib.machinery.SourceFileLoader(module_name, str(REPO_ROOT / "Scripts" / name))
    spec = importlib.util.spec_from_loader(module_name, loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses look their module up there
    loader.exec_module(module)
    return module


def replace_section(path: Path, begin: str, end: str, section: str, heading: str, preamble: str) -> None:
    """Puts `section` (which starts with `begin` and ends with `end`) into the Markdown file `path`:
    in place of the text between those markers, or appended under `heading`; a new file starts
    with `preamble`. The rest of the file is kept as it is."""
    text = path.read_text(encoding="utf-8") if path.exists() else preamble
    if begin in text and end in text:
        text = text[: text.index(begin)] + section + text[text.index(end) + len(end):]
    else:
        text = text.rstrip() + f"\n\n{heading}\n\n" + section + "\n"
    path.write_text(text, encoding="utf-8")


def run_logged(command: list[str], cwd: Path, log: Path, without: tuple[str, ...] = ("MOA_ONLY",),
               timeout: float | None = None) -> tuple[int, float]:
    """Runs `command` in `cwd` with its output in `log` and the variables `without` removed from
    its environment: (exit status, wall seconds). Past `timeout` seconds the command and everything
    it started are killed, and the status is 124 (as timeout(1) says it)."""
    import signal
    import time
    started = time.monotonic()
    environment = {k: v for k, v in os.environ.items() if k not in without}
    with Path(log).open("w") as out:
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=environment,
                                   start_new_session=True)
        try:
            status = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            out.write(f"\n[killed after {timeout:.0f} s]\n")
            status = 124
    return status, time.monotonic() - started


def scratch_worktree(root: Path, work: Path, revision: str = "HEAD") -> Path:
    """`work`/worktree, a git worktree of `root` checked out (detached, forced) at `revision`: kept from
    an earlier run with its warm build folder, or added."""
    worktree = work / "worktree"
    work.mkdir(exist_ok=True)
    commit = subprocess.run(["git", "rev-parse", revision], cwd=root, check=True, capture_output=True,
                            text=True).stdout.strip()
    if (worktree / ".git").exists():
        subprocess.run(["git", "checkout", "-q", "--force", "--detach", commit], cwd=worktree, check=True)
    else:
        subprocess.run(["git", "worktree", "add", "--detach", str(worktree), commit], cwd=root, check=True,
                       capture_output=True)
    return worktree


def test_filter(targets: list[str]) -> str:
    """The `swift test --filter` pattern that runs exactly these test targets' tests."""
    return "^(" + "|".join(re.escape(t) for t in targets) + ")\\."


class UsageParser(argparse.ArgumentParser):
    """argparse, but a bad argument exits 64 (EX_USAGE), as every script documents, not argparse's 2."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(EX_USAGE, f"{self.prog}: error: {message}\n")
