// The MCP tools' arguments and results as valibot schemas: arguments are checked with safeParse (a bad
// call is an isError result naming the argument), and both are sent as JSON Schema in tools/list.
import * as v from 'valibot';

const Work = v.optional(v.pipe(v.string(), v.nonEmpty(), v.description('project dir mounted read-write at /work: the dir the server was started in (the default) or one below it')));
const Log = v.pipe(v.string(), v.nonEmpty(), v.description('path of a raw log, as printed on the `log:` line of a verdict (in the dir the server was started in, or below)'));

export const RunArgs = v.strictObject({
  command: v.pipe(v.string(), v.nonEmpty(), v.description('shell command line, run as `bash -c COMMAND` in /work, e.g. "make test" or "gcc -g a.c && ./a.out"')),
  work: Work,
  timeout: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3600), v.description('wall-clock limit in seconds (default 600)'))),
});

export const VerdictArgs = v.strictObject({
  log: v.optional(Log),
  text: v.optional(v.pipe(v.string(), v.description('raw output to distil, when there is no log file'))),
  exit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255), v.description("the command's exit code, when known"))),
});

export const HistoryArgs = v.strictObject({
  work: Work,
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200), v.description('newest runs to list (default 20)'))),
});

export const ShowArgs = v.strictObject({
  log: Log,
  what: v.pipe(
    v.picklist(['crash', 'diagnostics', 'tests', 'raw']),
    v.description('crash: every frame and the alloc/free stacks; diagnostics: all of them with notes; tests: every failure; raw: lines of the log'),
  ),
  from: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description('raw: first line, 1-based (default 1)'))),
  to: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description('raw: last line, inclusive (at most 400 lines are returned)'))),
});

const nstr = v.nullable(v.string());

/** What `run` and `verdict` return: the facts an agent acts on, the rendered verdict, where the log is. */
export const VerdictResult = v.object({
  status: v.picklist(['setup-failed', 'timeout', 'interrupted', 'crash', 'build-failed', 'tests-failed', 'runtime-error', 'pass']),
  exit_code: v.nullable(v.number()),
  signal: nstr,
  delta: v.pipe(nstr, v.description('what changed since the previous run in the same project')),
  crash: v.pipe(nstr, v.description('kind and first user frame, e.g. "asan heap-use-after-free at main main.c:23"')),
  errors: v.number(),
  failed_tests: v.array(v.string()),
  log: v.pipe(nstr, v.description('the raw log on disk; read parts of it with the show tool')),
  verdict: v.pipe(v.string(), v.description('the rendered verdict')),
});

export const HistoryResult = v.object({
  runs: v.array(v.object({ time: v.string(), status: v.string(), identity: nstr, summary: nstr, log: v.string() })),
  streaks: v.array(v.string()),
});

export const ShowResult = v.object({
  log: v.string(),
  what: v.string(),
  text: v.string(),
});
