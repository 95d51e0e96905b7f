// The run-result contract (docs/run-result.md) as valibot schemas, built on first use (contract()):
// the tests, bench/fuzz.js and the library's RunResultSchema/VerdictSchema check every envelope
// sbx emits against them, and the engine checks an envelope it did not make before rendering it. A
// cold `sbx run` builds none of them: what it reads back of its own, the launcher's report and its
// state files, it checks with the smaller schemas of launcher/status.ts and host/state/state-file.ts
// (contract/shape.ts).
import * as v from 'valibot';

export const STATUSES = ['setup-failed', 'timeout', 'interrupted', 'crash', 'build-failed', 'tests-failed', 'runtime-error', 'pass'] as const;

function build() {
  const int = v.pipe(v.number(), v.integer());
  const nint = v.nullable(int);
  const nstr = v.nullable(v.string());

  const FrameSchema = v.object({
    index: nint,
    function: nstr,
    file: nstr,
    line: nint,
    col: nint,
    module: nstr,
    user: v.boolean(),
  });

  const DiagnosticBase = {
    tool: v.string(),
    severity: v.picklist(['error', 'warning', 'note']),
    file: nstr,
    line: nint,
    col: nint,
    code: nstr,
    message: v.string(),
    // the text on the primary span (rustc's `^^^ expected `i32`, found `usize``), when the tool prints one
    label: v.optional(v.string()),
  };
  const DiagnosticSchema = v.object({
    ...DiagnosticBase,
    notes: v.optional(v.array(v.object(DiagnosticBase))),
  });

  const CrashSchema = v.object({
    // every crash tool the engine names (assembly/parsers/…: `c.tool = "…"`); docs/run-result.md lists them
    tool: v.picklist([
      'asan',
      'lsan',
      'tsan',
      'msan',
      'hwasan',
      'ubsan',
      'rust-panic',
      'go-panic',
      'python',
      'node',
      'ruby',
      'php',
      'java',
      'signal',
      'assert',
      'cfi',
      'libfuzzer',
      'centipede',
      'valgrind',
      'cdb',
      'gdb',
      'android',
      'kernel',
      'trusty',
      'systemsan',
      'pysecsan',
      'v8',
      'chrome',
    ]),
    kind: v.string(),
    access: v.nullable(v.picklist(['READ', 'WRITE'])),
    size: nint,
    address: nstr,
    summary: nstr,
    message: nstr,
    thread: nstr,
    frames: v.array(FrameSchema),
    alloc_frames: v.array(FrameSchema),
    free_frames: v.array(FrameSchema),
    other_frames: v.optional(v.array(FrameSchema)),
    first_user_frame: v.nullable(FrameSchema),
    // the crash state: up to three lines (message, top frames after the ignore rules) a fleet groups crashes by;
    // optional: verdicts written before it lack it
    state: v.optional(v.array(v.string())),
    identity: v.string(),
    hint: nstr,
    // where the address lies, without addresses (ASan: `0 bytes to the right of 40-byte region`)
    region: v.optional(v.string()),
    // the exceptions it was chained to, nearest first (Python `raise .. from e`, `During handling of ..`)
    causes: v.optional(
      v.array(
        v.object({
          relation: v.picklist(['cause', 'context']),
          kind: v.string(),
          message: nstr,
          at: v.nullable(FrameSchema),
        }),
      ),
    ),
  });

  const TestFailureSchema = v.object({
    name: v.string(),
    file: nstr,
    line: nint,
    message: v.string(),
    expected: nstr,
    actual: nstr,
    // The unit the test belongs to (go test: the package's import path), when the log names it; only then.
    package: v.optional(v.string()),
    // The subtest the failure is of (unittest's `(n=3)` after the test's name), when the runner lists a test's
    // failing subtests each under the test's name; only then.
    subtest: v.optional(v.string()),
  });

  const TestsSchema = v.object({
    runner: v.string(),
    // null: the log does not say (`go test` without -v prints no passing test), never a made-up 0.
    passed: nint,
    failed: nint,
    errors: nint,
    skipped: nint,
    // Announced but never run (the binary died mid-suite); optional: verdicts stored before it lack it.
    not_run: v.optional(nint),
    // Units a panic ended before all their tests reported (go packages), or the cargo target after which cargo
    // test stopped; present only when there are any.
    unfinished: v.optional(v.array(v.string())),
    // The tests listed as passed before the stop (go test -v, -json; cargo's `... ok`); present only when any.
    unfinished_passed: v.optional(v.array(v.string())),
    // Every test the run listed as passed (mocha's spec tree, cargo test, pytest -v), as 8 hex digits of FNV-1a each; present only when
    // the runner named all it passed (at most 4096): a test failing before and in neither list did not run.
    passed_set: v.optional(v.string()),
    // The tests the run named as skipped (RSpec's `Pending:` list, a JSON report's pending ones), hashed as
    // passed_set; present only when it named any: a test failing before and skipped now did not run.
    skipped_set: v.optional(v.pipe(v.string(), v.regex(/^(?:[0-9a-f]{8})*$/))),
    // The test files whose results the run printed (pytest's progress lines), hashed as passed_set; present only
    // when any: a file whose collection failed before loaded now.
    loaded_set: v.optional(v.pipe(v.string(), v.regex(/^(?:[0-9a-f]{8})*$/))),
    // pytest --lf's `run-last-failure: rerun previous N failures`: N, the tests failing in pytest's last run that it
    // ran again (and no other); present only when said.
    rerun_failed: v.optional(int),
    // pytest's xfailed count (an xfail test that failed, as expected); present only when above 0.
    xfailed: v.optional(int),
    // pytest's deselected count (-k, -m); present only when above 0.
    deselected: v.optional(int),
    failures: v.array(TestFailureSchema),
  });

  const VerdictSchema = v.object({
    schema: v.literal('sbx.verdict/1'),
    status: v.picklist(STATUSES),
    exit: v.object({ code: nint, signal: nstr, timed_out: v.boolean() }),
    diagnostics: v.array(DiagnosticSchema),
    counts: v.object({ errors: int, warnings: int, diagnostics_dropped: int, crashes: int }),
    crash: v.nullable(CrashSchema),
    tests: v.nullable(TestsSchema),
    error_groups: v.array(v.object({ count: int, message: v.string(), file: nstr, line: nint, tests: v.array(v.string()) })),
    setup_error: nstr,
    // The shared library the dynamic loader could not find; present only when there is one.
    missing_library: v.optional(v.string()),
    build_failure: nstr,
    // A build tool said a compile step did not run, its outputs up to date: present (true) only then.
    up_to_date: v.optional(v.literal(true)),
    // The base names of the C and C++ sources the build said it compiled, as 8-hex-digit FNV-1a hashes (as
    // passed_set); present only when it said any.
    compiled_set: v.optional(v.pipe(v.string(), v.regex(/^(?:[0-9a-f]{8})*$/))),
    tail: v.pipe(v.array(v.string()), v.maxLength(12)),
    raw_bytes: int,
    lines: int,
    binary: v.boolean(),
  });

  const DeltaDiagnostic = v.object({ tool: v.string(), severity: v.string(), file: nstr, line: nint, col: nint, code: nstr, message: v.string(), label: v.optional(v.string()) });

  const DeltaSchema = v.object({
    schema: v.literal('sbx.delta/1'),
    first_run: v.boolean(),
    status: v.object({ before: nstr, after: v.picklist(STATUSES) }),
    // not_rebuilt: warnings gone or new only because one of the runs compiled part of the code (its build
    // failed, or a step was up to date) and printed nothing of their file; written only when any.
    diagnostics: v.object({ fixed: v.array(DeltaDiagnostic), new: v.array(DeltaDiagnostic), unchanged: int, fixed_count: int, new_count: int, not_rebuilt: v.optional(int) }),
    tests: v.object({
      fixed: v.array(v.string()),
      broken: v.array(v.string()),
      still_failing: v.array(v.string()),
      // Optional: deltas stored before they were kept lack them. changed: still failing, another way;
      // not_run: failed before, not reached now (the build failed, the run was stopped, the file did not load).
      changed: v.optional(v.array(v.string())),
      not_run: v.optional(v.array(v.string())),
      // gone: of not_run, those no longer in the run (a runner's counts say removed, skipped or deselected; a
      // rename): written only when any; the host carries them to no later run.
      gone: v.optional(v.array(v.string())),
      // Failures past the list's bound (MAX_FAILURES), unnamed: fixed when none fails now, broken when none failed
      // before; written only when any.
      fixed_unlisted: v.optional(int),
      broken_unlisted: v.optional(int),
      // The tests each run ran (passed + failed + errors) and passed, when they changed and no name says so (none
      // ran now, or neither run failed and the passes are another number): written only then.
      counts_changed: v.optional(v.object({ ran_before: int, ran_after: int, passed_before: int, passed_after: int })),
    }),
    crash: v.picklist(['none', 'gone', 'new', 'moved', 'same', 'changed', 'not-reached']),
    crash_moved: v.nullable(v.object({ from: FrameSchema, to: FrameSchema })),
    // Both runs failed at set-up (setup-failed), each with its own setup_error: present (true) only then.
    setup_error_changed: v.optional(v.literal(true)),
    no_op_edit: v.boolean(),
    tree_changed: v.nullable(int),
    repeat: v.object({ same_verdict_runs: int }),
    summary: v.string(),
  });

  const RunResultSchema = v.object({
    schema: v.literal('sbx.run-result/1'),
    outcome: v.nullable(v.record(v.string(), v.unknown())),
    verdict: VerdictSchema,
    delta: v.nullable(DeltaSchema),
    log: nstr,
  });

  return {
    Frame: FrameSchema,
    Diagnostic: DiagnosticSchema,
    Crash: CrashSchema,
    TestFailure: TestFailureSchema,
    Tests: TestsSchema,
    Verdict: VerdictSchema,
    Delta: DeltaSchema,
    RunResult: RunResultSchema,
  };
}

type Contract = ReturnType<typeof build>;
let built: Contract | undefined;

/** The contract's schemas, built on the first call. */
export function contract(): Contract {
  return (built ??= build());
}

export type Frame = v.InferOutput<Contract['Frame']>;
export type Diagnostic = v.InferOutput<Contract['Diagnostic']>;
export type Crash = v.InferOutput<Contract['Crash']>;
export type Tests = v.InferOutput<Contract['Tests']>;
export type Verdict = v.InferOutput<Contract['Verdict']>;
export type Status = Verdict['status'];
export type Delta = v.InferOutput<Contract['Delta']>;
export interface RunResult {
  schema: 'sbx.run-result/1';
  outcome: Record<string, unknown> | null;
  verdict: Verdict;
  delta: Delta | null;
  log: string | null;
}

/** One line naming the first problem, for error messages. */
export function issueText(issues: readonly v.BaseIssue<unknown>[]): string {
  const i = issues[0];
  if (!i) return 'unknown problem';
  const path = i.path?.map((p) => String(p.key)).join('.') ?? '';
  return path ? `${path}: ${i.message}` : i.message;
}
