"""What a test run came to, test by test: retries of the failing tests, flaky and quarantined
tests, a JUnit report and a history of runs (Scripts/test-feature, Scripts/test-affected, .ci/run,
Scripts/flaky-report).

A run is `swift test … --xunit-output DIR/run.xml`: Swift Testing writes DIR/run-swift-testing.xml,
one <testcase> per test with its suite, time and failure message (every test of this package is a
Swift Testing test). Then each failing test is run again, alone (`swift test --skip-build --filter
^ID(/|$)`), up to `retries` times:
  - passing on a retry, it is **flaky**: reported as such, and it does not fail the run;
  - failing every time, it fails the run;
  - named in Tests/quarantine.txt (one test id a line, `Target.Suite/name()`; `#` comments), it is
    run and reported but never fails the run.
A run that ended without Swift Testing's report (the build failed, or a test crashed the process)
fails as it did, with nothing to retry.

The JUnit file (`--junit PATH`): <testsuites>, one <testsuite> per test target, one <testcase>
per executed test (classname `Target.Suite`, name, time), <failure> for a failed test, <skipped>
for a quarantined test that failed and for each test target the selection skipped (with its
reason); a flaky test passes and its <system-out> says which attempts failed. Only the elements
and attributes of the common JUnit schema (Jenkins' junit-10.xsd) are used: `validate_junit`
checks a file against that model strictly.

The history (`.test-history/runs.jsonl` unless MOA_TEST_HISTORY names another file): one JSON
line per run, appended — when, which commit, which runner, green or red, and each test's outcome
and attempts. Scripts/flaky-report reads it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import uuid
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

PASSED, FAILED, FLAKY, QUARANTINED = "passed", "failed", "flaky", "quarantined"
QUARANTINE_FILE = "Tests/quarantine.txt"
HISTORY_FILE = ".test-history/runs.jsonl"


@dataclass
class Case:
    """One test: its id is `classname/name`, as Swift Testing's --filter sees it."""
    classname: str
    name: str
    time: float
    outcome: str = PASSED
    attempts: int = 1
    failures: list[str] = field(default_factory=list)  # the message of each failed attempt

    @property
    def id(self) -> str:
        return f"{self.classname}/{self.name}"

    @property
    def target(self) -> str:
        return self.classname.split(".", 1)[0]

    @property
    def filter_id(self) -> str:
        """The id Swift Testing's --filter matches: the JUnit classname `Module.Outer.Inner` is
        `Module.Outer/Inner` there."""
        parts = self.classname.split(".")
        suites = ".".join(parts[:2]) + "".join("/" + part for part in parts[2:])
        return f"{suites}/{self.name}"


@dataclass
class Outcome:
    status: int  # the run's exit status once retries are counted
    cases: list[Case]
    reported: bool  # whether Swift Testing's report was there


@dataclass
class Report:
    cases: list[Case]
    # Failures the report counts but puts on no test case (an issue recorded outside any test), or
    # that XCTest's report holds: nothing a retry can explain.
    unexplained: bool


def xunit_arguments(directory: Path) -> list[str]:
    return ["--xunit-output", str(directory / "run.xml")]


def parse_xml(path: Path):
    try:
        return ElementTree.fromstring(readable_xml(path.read_bytes().decode("utf-8", errors="replace")))
    except (FileNotFoundError, ElementTree.ParseError):
        return None


def seconds(text: str | None) -> float:
    try:
        value = float(text or 0)
    except ValueError:
        return 0.0
    return value if value >= 0 and value != float("inf") else 0.0


def read_full_report(directory: Path) -> Report | None:
    """The tests of Swift Testing's report in `directory`, or None if there is none."""
    root = parse_xml(directory / "run-swift-testing.xml")
    if root is None:
        return None
    cases = []
    for element in root.iter("testcase"):
        case = Case(element.get("classname", ""), element.get("name", ""), seconds(element.get("time")))
        failures = element.findall("failure")
        if failures:
            case.outcome = FAILED
            # One message per attempt: each issue the test recorded, in order.
            case.failures.append("; ".join(failure.get("message") or (failure.text or "").strip() or "failed" for failure in failures))
        elif element.find("skipped") is not None:
            continue  # a test disabled by its own trait did not run
        cases.append(case)
    # Swift Testing counts issues, not tests: a test that records three issues is three failures of
    # the suite and three <failure> elements of its case.
    counted = sum(int(suite.get("failures", "0")) if suite.get("failures", "0").isdigit() else 1 for suite in root.iter("testsuite"))
    on_cases = sum(len(element.findall("failure")) for element in root.iter("testcase"))
    xctest = parse_xml(directory / "run.xml")
    unexplained = counted > on_cases or (
        xctest is not None and any(True for _ in xctest.iter("failure")))
    return Report(cases, unexplained)


def read_report(directory: Path) -> list[Case] | None:
    report = read_full_report(directory)
    return report.cases if report is not None else None


def readable_xml(text: str) -> str:
    """`text` with what XML 1.0 may not hold — a control character, raw or as a character reference,
    which a failure message quoting hostile input carries — written as a visible escape instead, so
    that the report can be read at all."""
    def reference(match: re.Match) -> str:
        try:
            code = int(match.group(2), 16 if match.group(1) else 10)
        except ValueError:
            return match.group()
        return xml_text(chr(code)) if code < 0x110000 and NOT_XML.fullmatch(chr(code)) else match.group()
    return xml_text(re.sub(r"&#([xX]?)([0-9a-fA-F]+);", reference, text))


def filter_for(test_id: str) -> str:
    """A Swift Testing --filter that selects exactly the test `test_id` (its id is a prefix of the
    ids of its arguments' cases, which follow a "/")."""
    return "^" + re.sub(r"([\\^$.|?*+()\[\]{}])", r"\\\1", test_id) + "(/|$)"


def quarantined(root: Path) -> set[str]:
    try:
        lines = (root / QUARANTINE_FILE).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return set()
    return {line.split("#", 1)[0].strip() for line in lines} - {""}


def settle(status: int, directory: Path, rerun: list[str], environment: dict[str, str], root: Path,
           retries: int, label: str) -> Outcome:
    """What a run that exited with `status` comes to, its failing tests run again (`rerun` is the
    `swift test --skip-build …` command to which a --filter is added)."""
    report = read_full_report(directory)
    if report is None:
        return Outcome(status, [], False)
    cases = report.cases
    held = quarantined(root)
    for case in cases:
        if case.outcome != FAILED:
            continue
        for attempt in range(2, retries + 2):
            print(f"{label}: {visible(case.id)} failed; running it again, alone (attempt {attempt} of {retries + 1})", flush=True)
            with tempfile.TemporaryDirectory(prefix="moa-retry-") as retry_directory:
                again = subprocess.run([*rerun, "--filter", filter_for(case.filter_id), *xunit_arguments(Path(retry_directory))],
                                       cwd=root, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                result = [c for c in read_report(Path(retry_directory)) or [] if c.id == case.id]
            case.attempts = attempt
            if again.returncode == 0 and result and all(c.outcome == PASSED for c in result):
                case.outcome = FLAKY
                break
            case.failures.append(result[0].failures[0] if result and result[0].failures else f"exit status {again.returncode}")
        if case.outcome == FAILED and case.id in held:
            case.outcome = QUARANTINED
    failing = [case for case in cases if case.outcome == FAILED]
    if failing:
        final = status or 1
    else:
        # Every failure is explained (flaky or quarantined); a failure Swift Testing did not report
        # (no failed test, yet a failing status) still fails the run.
        final = 0 if status == 0 or (not report.unexplained and any(case.outcome in (FLAKY, QUARANTINED) for case in cases)) else status
    return Outcome(final, cases, True)


# What a terminal would act on rather than show: controls (C0, DEL, C1) and bidirectional overrides.
NOT_VISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """`text` for a terminal: what it would act on is shown as an escape (`\\u{1B}`)."""
    return NOT_VISIBLE.sub(lambda match: f"\\u{{{ord(match.group()):X}}}", text)


def summary(outcome: Outcome, label: str) -> str:
    counts = {kind: sum(1 for case in outcome.cases if case.outcome == kind) for kind in (PASSED, FLAKY, QUARANTINED, FAILED)}
    lines = [f"{label}: {counts[PASSED]} passed, {counts[FLAKY]} flaky, {counts[QUARANTINED]} quarantined, "
             f"{counts[FAILED]} failed" + ("" if outcome.reported else " (no test report: the build or the test process failed)")]
    for case in outcome.cases:
        if case.outcome == FLAKY:
            lines.append(f"  flaky: {visible(case.id)} — failed {case.attempts - 1} of {case.attempts} attempts, then passed")
        elif case.outcome == QUARANTINED:
            lines.append(f"  quarantined ({QUARANTINE_FILE}): {visible(case.id)} failed {case.attempts} times; the run stays green")
        elif case.outcome == FAILED:
            lines.append(f"  failed: {visible(case.id)} — {case.attempts} attempts: {visible(case.failures[-1][:200])}")
    return "\n".join(lines)


# MARK: - JUnit

# What XML 1.0 cannot hold (C0 controls but tab, line feed and return; surrogates; U+FFFE/U+FFFF):
# a failure message that quotes hostile input is written with these escaped, never as a broken file.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    return NOT_XML.sub(lambda match: f"\\u{{{ord(match.group()):X}}}", text)



def write_junit(path: Path, outcome: Outcome, skipped_targets: dict[str, str], name: str) -> None:
    suites: dict[str, list[Case]] = {}
    for case in outcome.cases:
        suites.setdefault(case.target, []).append(case)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    host = socket.gethostname() or "localhost"
    root = ElementTree.Element("testsuites", name=name)
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0, "time": 0.0}

    def suite_element(suite_name: str, tests: int, failures: int, errors: int, skipped: int, seconds: float):
        for key, value in (("tests", tests), ("failures", failures), ("errors", errors), ("skipped", skipped), ("time", seconds)):
            totals[key] += value
        return ElementTree.SubElement(root, "testsuite", name=suite_name, tests=str(tests), failures=str(failures),
                                      errors=str(errors), skipped=str(skipped), time=f"{seconds:.3f}",
                                      timestamp=stamp, hostname=host)

    for target in sorted(suites):
        cases = suites[target]
        suite = suite_element(target, len(cases), sum(c.outcome == FAILED for c in cases), 0,
                              sum(c.outcome == QUARANTINED for c in cases), sum(c.time for c in cases))
        for case in cases:
            element = ElementTree.SubElement(suite, "testcase", classname=xml_text(case.classname), name=xml_text(case.name),
                                             time=f"{case.time:.3f}")
            if case.outcome == FAILED:
                failure = ElementTree.SubElement(element, "failure", message=xml_text(case.failures[-1]), type="failure")
                failure.text = xml_text("\n".join(f"attempt {n}: {message}" for n, message in enumerate(case.failures, 1)))
            elif case.outcome == QUARANTINED:
                ElementTree.SubElement(element, "skipped", message=xml_text(f"quarantined ({QUARANTINE_FILE}): failed "
                                                                          f"{case.attempts} times: {case.failures[-1]}"))
            elif case.outcome == FLAKY:
                out = ElementTree.SubElement(element, "system-out")
                out.text = xml_text("flaky: " + "; ".join(f"attempt {n} failed: {m}" for n, m in enumerate(case.failures, 1))
                                    + f"; attempt {case.attempts} passed")
    if not outcome.reported and outcome.status != 0:
        suite = suite_element("swift-test", 1, 0, 1, 0, 0.0)
        element = ElementTree.SubElement(suite, "testcase", classname="swift-test", name="run", time="0.000")
        ElementTree.SubElement(element, "error", message=f"swift test exited with status {outcome.status} before reporting "
                               "its tests (the build failed, or a test crashed the process)", type="error")
    for target in sorted(skipped_targets):
        suite = suite_element(target, 1, 0, 0, 1, 0.0)
        element = ElementTree.SubElement(suite, "testcase", classname=target, name="(not selected)", time="0.000")
        ElementTree.SubElement(element, "skipped", message=xml_text(f"not selected: {skipped_targets[target]}"))
    for key in ("tests", "failures", "errors"):  # junit-10.xsd has no skipped count on <testsuites>
        root.set(key, str(totals[key]))
    root.set("time", f"{totals['time']:.3f}")
    ElementTree.indent(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    ElementTree.ElementTree(root).write(temporary, encoding="UTF-8", xml_declaration=True)
    temporary.replace(path)


# Jenkins' junit-10.xsd, as element → (required attributes, optional attributes, allowed children).
JUNIT_MODEL = {
    "testsuites": (set(), {"name", "tests", "failures", "errors", "time"}, {"testsuite"}),
    "testsuite": ({"name", "tests", "failures", "errors"}, {"skipped", "disabled", "time", "timestamp", "hostname", "id",
                                                          "package"}, {"properties", "testcase", "system-out", "system-err"}),
    "properties": (set(), set(), {"property"}),
    "property": ({"name", "value"}, set(), set()),
    "testcase": ({"name"}, {"classname", "time"}, {"skipped", "error", "failure", "system-out", "system-err"}),
    "failure": (set(), {"message", "type"}, set()),
    "error": (set(), {"message", "type"}, set()),
    "skipped": (set(), {"message"}, set()),
    "system-out": (set(), set(), set()),
    "system-err": (set(), set(), set()),
}


def validate_junit(path: Path) -> list[str]:
    """What in `path` breaks the JUnit model (empty: it is valid): elements, attributes, numbers,
    and each suite's counts against its test cases."""
    problems: list[str] = []
    try:
        root = ElementTree.parse(path).getroot()
    except (FileNotFoundError, ElementTree.ParseError) as error:
        return [f"not an XML file: {error}"]
    if root.tag != "testsuites":
        problems.append(f"the root is <{root.tag}>, not <testsuites>")

    def check(element, where: str) -> None:
        model = JUNIT_MODEL.get(element.tag)
        if model is None:
            problems.append(f"{where}: <{element.tag}> is not a JUnit element")
            return
        required, optional, children = model
        for attribute in required - set(element.attrib):
            problems.append(f"{where}: <{element.tag}> lacks {attribute}")
        for attribute in set(element.attrib) - required - optional:
            problems.append(f"{where}: <{element.tag}> has {attribute}, which JUnit does not define")
        for attribute in ("tests", "failures", "errors", "skipped", "disabled"):
            if attribute in element.attrib and not element.attrib[attribute].isdigit():
                problems.append(f"{where}: {attribute}={element.attrib[attribute]!r} is not a count")
        if "time" in element.attrib:
            try:
                float(element.attrib["time"])
            except ValueError:
                problems.append(f"{where}: time={element.attrib['time']!r} is not a number")
        if not children and len(element):
            problems.append(f"{where}: <{element.tag}> has child elements")
        for index, child in enumerate(element):
            if child.tag not in children:
                problems.append(f"{where}: <{child.tag}> may not be inside <{element.tag}>")
            else:
                check(child, f"{where}/{child.tag}[{index}]")

    check(root, "testsuites")
    for suite in root.findall("testsuite"):
        cases = suite.findall("testcase")
        counted = {
            "tests": len(cases),
            "failures": sum(c.find("failure") is not None for c in cases),
            "errors": sum(c.find("error") is not None for c in cases),
            "skipped": sum(c.find("skipped") is not None for c in cases),
        }
        for key, value in counted.items():
            if suite.get(key, "0") != str(value):
                problems.append(f"testsuite {suite.get('name')}: {key}={suite.get(key)} but it holds {value}")
    return problems


# MARK: - History


def history_path(root: Path) -> Path:
    given = os.environ.get("MOA_TEST_HISTORY")
    return Path(given) if given else root / HISTORY_FILE


def append_history(root: Path, outcome: Outcome, runner: str, walls: dict[str, float] | None = None) -> None:
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
    record = {
        **({"targets": {target: round(seconds, 2) for target, seconds in walls.items()}} if walls else {}),
        "run": uuid.uuid4().hex, "at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "commit": commit or None, "runner": runner,
        "green": outcome.status == 0,
        "tests": {case.id: {"outcome": case.outcome, "attempts": case.attempts, "time": round(case.time, 3)}
                  for case in outcome.cases},
    }
    path = history_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as file:
        file.write(json.dumps(record, sort_keys=True) + "\n")


def read_history(path: Path) -> list[dict]:
    runs = []
    try:
        lines = path.read_bytes().decode("utf-8", errors="replace").splitlines()
    except (FileNotFoundError, IsADirectoryError):
        return []
    for line in lines:
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            continue  # a line cut by a crash (or not ours) is not a run
        if isinstance(record, dict) and isinstance(record.get("tests"), dict):
            runs.append(record)
    return runs


# MARK: - Shards


def target_durations(runs: list[dict]) -> dict[str, float]:
    """Each test target's duration: the wall time of its own `swift test` in the latest run of the
    history that ran it alone (a sharded run: `run_targets`). Its tests' own times do not add up to
    it: Swift Testing starts them all at once, and each one's time includes its wait for a thread."""
    durations: dict[str, float] = {}
    for run in reversed(runs):
        walls = run.get("targets")
        if isinstance(walls, dict):
            for target, wall in walls.items():
                if isinstance(wall, (int, float)) and not isinstance(wall, bool) and 0 <= wall < float("inf"):
                    durations.setdefault(target, float(wall))
    return durations


def shard_parts(root: Path, targets: list[str], count: int, shard: int, mode: str, mark: bool = True
                ) -> tuple[list[list[str]], dict[str, float]]:
    """The parts of a split for shard `shard`, and the durations they were balanced on. The shards
    of one split — one commit, one way of selecting (`mode`), one N — must agree on its parts,
    whichever runs first and whatever the others record meanwhile (their durations; with
    --since-green, their green marks, which shrink the selection): the first to run balances and
    keeps the plan beside the history; each sibling takes its part from there, once, less what is no
    longer selected; a selection the plan does not cover, or a shard that already ran under it,
    begins the next split, balanced on every duration recorded since. (CI's shards each start
    from the same history, so they balance alike without the plan.)"""
    durations = target_durations(read_history(history_path(root)))
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
    key = hashlib.sha256(f"{commit}\n{mode}\n{count}".encode()).hexdigest()[:16]
    path = history_path(root).parent / "shard-plans" / f"{key}.json"
    try:
        plan = json.loads(path.read_bytes().decode("utf-8", errors="replace"))
        valid = (isinstance(plan, dict) and isinstance(plan.get("parts"), list) and len(plan["parts"]) == count
                 and all(isinstance(part, list) and all(isinstance(t, str) for t in part) for part in plan["parts"])
                 and isinstance(plan.get("ran"), list) and all(isinstance(i, int) for i in plan["ran"])
                 and set(targets) <= {t for part in plan["parts"] for t in part})
    except (OSError, ValueError, RecursionError):
        plan, valid = None, False
    if not valid or shard in plan["ran"]:
        plan = {"parts": shards(targets, durations, count), "ran": []}
    selected = set(targets)
    parts = [[t for t in part if t in selected] for part in plan["parts"]]
    if not mark:  # a dry run: nothing ran
        return parts, durations
    plan["ran"] = sorted(set(plan["ran"]) | {shard})
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(plan), encoding="utf-8")
    temporary.replace(path)
    return parts, durations


def shards(targets: list[str], durations: dict[str, float], count: int) -> list[list[str]]:
    """`targets` in `count` parts of about equal duration: the longest first, each to the part that
    has the least so far (ties: the first). A target without a recorded duration weighs what the
    recorded ones weigh on average — 1 when none is recorded, so that the parts are even by count.
    Every target is in exactly one part; the same inputs give the same parts on every machine."""
    known = [durations[t] for t in targets if t in durations]
    default = sum(known) / len(known) if known else 1.0
    weight = {t: durations.get(t, default) for t in targets}
    parts: list[list[str]] = [[] for _ in range(count)]
    loads = [0.0] * count
    for target in sorted(targets, key=lambda t: (-weight[t], t)):
        index = min(range(count), key=lambda i: (loads[i], i))
        parts[index].append(target)
        loads[index] += weight[target]
    return [sorted(part) for part in parts]


def shard_seconds(part: list[str], durations: dict[str, float]) -> float | None:
    """The recorded duration of `part`, or None if a target of it has none."""
    return round(sum(durations[t] for t in part), 1) if all(t in durations for t in part) else None


# MARK: - One call for the runners


def run(command: list[str], rerun: list[str], environment: dict[str, str], root: Path, *, retries: int,
        junit: Path | None, skipped_targets: dict[str, str] | None, label: str, stream=None) -> int:
    """Runs `command` (a `swift test …`), settles it, prints the summary, and writes the JUnit file
    and the history. `stream(process)` reads the process's output if given (it must return when the
    process's output ends); otherwise the output goes straight to ours."""
    with tempfile.TemporaryDirectory(prefix="moa-tests-") as directory:
        full = [*command, *xunit_arguments(Path(directory))]
        if stream is None:
            status = subprocess.run(full, cwd=root, env=environment).returncode
        else:
            process = subprocess.Popen(full, cwd=root, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       text=True, bufsize=1, errors="replace")
            stream(process)
            status = process.wait()
        outcome = settle(status, Path(directory), rerun, environment, root, retries, label)
    print(summary(outcome, label), flush=True)
    if junit is not None:
        write_junit(junit, outcome, skipped_targets or {}, label)
        print(f"{label}: JUnit report in {junit}", flush=True)
    if outcome.reported:
        append_history(root, outcome, label)
    return outcome.status


def run_targets(build: list[str], rerun: list[str], targets: list[str], environment: dict[str, str], root: Path, *,
                retries: int, junit: Path | None, skipped_targets: dict[str, str] | None, label: str) -> int:
    """Builds once (`build`), then runs each test target on its own (`rerun --filter ^Target\\.`),
    one after the other, timing each: the durations a shard's balance is made from (the history
    keeps them). A target whose process ended without a report is one failed test case of its own."""
    status = subprocess.run(build, cwd=root, env=environment).returncode
    if status != 0:
        outcome = Outcome(status, [], False)
        print(summary(outcome, label), flush=True)
        if junit is not None:
            write_junit(junit, outcome, skipped_targets or {}, label)
        return status
    cases: list[Case] = []
    walls: dict[str, float] = {}
    final = 0
    for target in targets:
        print(f"{label}: {target}", flush=True)
        with tempfile.TemporaryDirectory(prefix="moa-tests-") as directory:
            started = time.monotonic()
            status = subprocess.run([*rerun, "--filter", "^" + re.escape(target) + r"\.", *xunit_arguments(Path(directory))],
                                    cwd=root, env=environment).returncode
            walls[target] = time.monotonic() - started
            outcome = settle(status, Path(directory), rerun, environment, root, retries, label)
        if not outcome.reported:
            outcome.cases.append(Case(target, "(the test process)", walls[target], FAILED, 1,
                                      [f"swift test exited with status {status} without a report (a crash?)"]))
        cases += outcome.cases
        final = final or outcome.status
    outcome = Outcome(final, cases, True)
    print(summary(outcome, label), flush=True)
    print(f"{label}: " + ", ".join(f"{target} {seconds:.1f} s" for target, seconds in walls.items()), flush=True)
    if junit is not None:
        write_junit(junit, outcome, skipped_targets or {}, label)
        print(f"{label}: JUnit report in {junit}", flush=True)
    append_history(root, outcome, label, walls)
    return final


def without_option(arguments: list[str], option: str, takes_value: bool) -> tuple[list[str], str | None]:
    """`arguments` without `option` (and its value), and that value (or "" for a flag)."""
    rest, value = [], None
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        if argument == option:
            if takes_value:
                if index + 1 >= len(arguments):
                    raise ValueError(f"{option} needs a value")
                value = arguments[index + 1]
                index += 2
                continue
            value = ""
        elif takes_value and argument.startswith(option + "="):
            value = argument[len(option) + 1:]
        else:
            rest.append(argument)
        index += 1
    return rest, value


def retries_value(text: str | None, default: int) -> int:
    if text is None:
        return default
    if not text.isdigit() or int(text) > 20:
        raise ValueError(f"--retries takes a count from 0 to 20, not {text!r}")
    return int(text)


def default_retries() -> int:
    """2 in CI (CI set), 0 elsewhere: on a developer's machine a failure is shown as it is."""
    return 2 if os.environ.get("CI") else 0


def rerun_command(command: list[str]) -> list[str]:
    """`command` for one test again: without its own --filter and --skip (the retry's --filter
    names the test), and with --skip-build for `swift test` (the run before built it)."""
    rest = list(command)
    for option in ("--filter", "--skip"):
        while True:
            rest, value = without_option(rest, option, True)
            if value is None:
                break
    if rest[:2] == ["swift", "test"] and "--skip-build" not in rest:
        rest.append("--skip-build")
    return rest


def main(argv: list[str]) -> int:
    """`run [--junit PATH] [--retries N] [--label L] -- COMMAND…` runs COMMAND (`swift test …`)
    through `run` (.ci/run's test step); `--validate FILE…` checks JUnit files strictly."""
    if len(argv) > 1 and argv[0] == "--validate":
        bad = 0
        for name in argv[1:]:
            problems = validate_junit(Path(name))
            for problem in problems:
                print(f"{name}: {problem}", file=sys.stderr)
            bad += bool(problems)
            if not problems:
                print(f"{name}: a valid JUnit report")
        return 1 if bad else 0
    if argv[:1] == ["run"] and "--" in argv and argv.index("--") + 1 < len(argv):
        options, command = argv[1:argv.index("--")], argv[argv.index("--") + 1:]
        try:
            options, junit = without_option(options, "--junit", True)
            options, retries_text = without_option(options, "--retries", True)
            options, label = without_option(options, "--label", True)
            retries = retries_value(retries_text, default_retries())
            if options:
                raise ValueError(f"unknown option {options[0]}")
        except ValueError as error:
            print(f"test_runs: {error}", file=sys.stderr)
            return 64
        root = Path.cwd()
        return run(command, rerun_command(command), dict(os.environ), root, retries=retries,
                   junit=Path(junit) if junit else None, skipped_targets=None, label=label or "tests")
    print("usage: python3 Scripts/lib/test_runs.py run [--junit PATH] [--retries N] [--label L] -- swift test …\n"
          "       python3 Scripts/lib/test_runs.py --validate JUNIT-FILE…", file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    sys.exit(main(sys.argv[1:]))
