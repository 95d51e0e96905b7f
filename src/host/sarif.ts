// A verdict as SARIF 2.1.0, for code-scanning tools and IDEs: each diagnostic a result (its notes as
// related locations), the crash a result with its stacks (`stacks`) and the call path into the faulting
// frame (`codeFlows`, outermost call first), each failing test a result. Pure (no Node API, no clock):
// the same envelope gives the same bytes anywhere. Paths stay as the log wrote them: relative ones as
// relative URI references (to the work dir), absolute ones as file:// URIs.
import type { Crash, Frame, RunResult, Verdict } from '../contract/index.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

type Level = 'error' | 'warning' | 'note';
interface Rule {
  id: string;
  shortDescription: { text: string };
}
interface Location {
  physicalLocation?: object;
  logicalLocations?: object[];
  message?: { text: string };
}

export function toSarif(env: RunResult, toolVersion: string): object {
  const v = env.verdict;
  const rules: Rule[] = [];
  const ruleIndex = (id: string, text: string): number => {
    let i = rules.findIndex((r) => r.id === id);
    if (i < 0) {
      i = rules.length;
      rules.push({ id, shortDescription: { text } });
    }
    return i;
  };
  const results: object[] = [];

  for (const d of v.diagnostics) {
    const id = d.code ? `${d.tool}/${d.code}` : `${d.tool}/${d.severity}`;
    const loc = location(d.file, d.line, d.col);
    results.push({
      ruleId: id,
      ruleIndex: ruleIndex(id, d.code ? `${d.tool} ${d.code}` : `${d.tool} ${d.severity}`),
      level: d.severity as Level,
      message: { text: d.message || `${d.tool} ${d.severity}` },
      locations: loc ? [loc] : [],
      ...(d.notes?.length
        ? {
            relatedLocations: d.notes.map((n, i) => ({ id: i + 1, ...(location(n.file, n.line, n.col) ?? {}), message: { text: n.message || 'note' } })),
          }
        : {}),
    });
  }

  if (v.crash) results.push(crashResult(v.crash, ruleIndex));

  // A failure that names no place of its own but is the run's crash (a sanitizer report in a test's
  // output: its message names the crash's kind) is at the crash's place: its first user frame, by file
  // and line, else by function and module (a library built without debug info).
  const crashAt = v.crash ? crashPlace(v.crash) : null;
  for (const t of v.tests?.failures ?? []) {
    const id = `${v.tests!.runner}/test-failed`;
    const own = location(t.file, t.line, null);
    const loc = own ?? (crashAt && v.crash && (t.message ?? '').includes(v.crash.kind) ? crashAt : null);
    results.push({
      ruleId: id,
      ruleIndex: ruleIndex(id, `a ${v.tests!.runner} test failed`),
      level: 'error',
      message: { text: `${t.name}: ${t.message || 'failed'}` },
      locations: loc ? [loc] : [],
    });
  }

  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'sbx', version: toolVersion, rules } },
        results,
        properties: runProperties(v, env.log),
      },
    ],
  };
}

function crashResult(c: Crash, ruleIndex: (id: string, text: string) => number): object {
  const id = `${c.tool}/${c.kind}`;
  const top = c.first_user_frame ?? c.frames[0] ?? null;
  const topLoc = top ? frameLocation(top) : null;
  const stacks = [
    { message: { text: `stack${c.thread ? ` of thread ${c.thread}` : ''}` }, frames: c.frames },
    { message: { text: 'where it was allocated' }, frames: c.alloc_frames },
    { message: { text: 'where it was freed' }, frames: c.free_frames },
  ]
    .filter((s) => s.frames.length)
    .map((s) => ({ message: s.message, frames: s.frames.map(stackFrame) }));
  const text = [c.summary ?? c.message ?? `${c.tool} ${c.kind}`, c.hint].filter(Boolean).join('. ');
  return {
    ruleId: id,
    ruleIndex: ruleIndex(id, `${c.tool} ${c.kind}`),
    level: 'error',
    message: { text },
    locations: topLoc ? [topLoc] : [],
    ...(stacks.length ? { stacks } : {}),
    ...(c.frames.length
      ? {
          codeFlows: [
            {
              message: { text: 'calls into the faulting frame, outermost first' },
              threadFlows: [{ locations: [...c.frames].reverse().map((f, i) => ({ location: frameLocation(f), nestingLevel: i, importance: f.user ? 'essential' : 'unimportant' })) }],
            },
          ],
        }
      : {}),
    partialFingerprints: { 'sbx/crashIdentity': c.identity },
  };
}

function stackFrame(f: Frame): object {
  return { location: frameLocation(f), ...(f.module ? { module: f.module } : {}) };
}

/** Where a crash is: its first user frame (or top frame), by file and line, else by function and module. */
function crashPlace(c: Crash): Location | null {
  const f = c.first_user_frame ?? c.frames[0] ?? null;
  if (!f) return null;
  const at = location(f.file, f.line, f.col) ?? (f.module && !f.module.startsWith('/') ? location(f.module, null, null) : null) ?? {};
  const logical = f.function ? { logicalLocations: [{ name: f.function, kind: 'function' }] } : {};
  return Object.keys(at).length || f.function ? { ...at, ...logical } : null;
}

function frameLocation(f: Frame): Location {
  const at = location(f.file, f.line, f.col) ?? {};
  return {
    ...at,
    ...(f.function ? { logicalLocations: [{ name: f.function, kind: 'function' }] } : {}),
    message: { text: `#${f.index ?? '?'} ${f.function ?? '??'}${f.user ? '' : ' (not user code)'}` },
  };
}

function location(file: string | null, line: number | null, col: number | null): Location | null {
  if (!file) return null;
  const region = line && line > 0 ? { region: { startLine: line, ...(col && col > 0 ? { startColumn: col } : {}) } } : {};
  return { physicalLocation: { artifactLocation: { uri: fileUri(file) }, ...region } };
}

/** A path as a URI reference: absolute paths as file:// URIs, relative ones relative (./ dropped). */
export function fileUri(path: string): string {
  const enc = (p: string): string =>
    p
      .split('/')
      .map((s) => encodeURIComponent(s))
      .join('/');
  if (path.startsWith('/')) return `file://${enc(path)}`;
  return enc(path.replace(/^(\.\/)+/, ''));
}

function runProperties(v: Verdict, log: string | null): object {
  return {
    status: v.status,
    exitCode: v.exit.code,
    signal: v.exit.signal,
    timedOut: v.exit.timed_out,
    ...(log ? { log } : {}),
  };
}
