// npm run bench:crash — crash agreement over every fixture that expects a crash (fixtures/, the holdout
// sets and fixtures/blind): the share whose crash KIND the engine gets right (tool and kind as expect.json
// gives them; for a program the loader could not start, the setup-failed status) and the share whose crash
// STATE it gets right (the first user frame's function, file and line; the assertion or panic message when
// expect.json gives one). These are the two numbers a fuzzing fleet groups crash reports by.
//   node bench/crash.js                       this tree's engine (dist/engine.js)
//   node bench/crash.js --baseline ENGINE.js  the same, beside another build of the engine (a saved
//                                             dist/engine.js of an older commit), case by case
// A measurement, not a test: npm test asserts every fact of the same fixtures.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { listCases, ROOT } from '../fixtures/lib/cases.js';

const strip = (f) => (typeof f === 'string' ? f.replace(/^(\.\/)+/, '') : f);

/** { kind, state } agreement of one verdict with one case's expected crash. */
export function agreement(verdict, expect) {
  if (expect.crash === null || expect.crash === undefined) {
    const ok = verdict.status === expect.status;
    return { kind: ok, state: ok };
  }
  const want = expect.crash;
  const c = verdict.crash;
  if (!c) return { kind: false, state: false };
  const kind = (want.tool === undefined || c.tool === want.tool) && (want.kind === undefined || c.kind === want.kind);
  let state = true;
  if (want.first_user_frame !== undefined) {
    const a = c.first_user_frame; const w = want.first_user_frame;
    if (w === null) state = a === null;
    else state = a !== null && (w.function === undefined || a.function === w.function) &&
      (w.file === undefined || strip(a.file) === strip(w.file)) && (w.line === undefined || a.line === w.line);
  }
  if (want.message !== undefined && !(c.message ?? '').includes(want.message)) state = false;
  return { kind, state };
}

export function crashCases() {
  return listCases(undefined, { blind: true }).filter((c) =>
    (c.expect.crash !== undefined && c.expect.crash !== null) || c.expect.status === 'setup-failed');
}

async function score(enginePath, cases) {
  const { createEngine } = await import(pathToFileURL(resolve(enginePath)).href);
  const engine = await createEngine();
  return cases.map((c) => agreement(
    engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out) }).verdict,
    c.expect));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--baseline');
  const base = i > 0 ? process.argv[i + 1] : null;
  const cases = crashCases();
  const now = await score(`${ROOT}dist/engine.js`, cases);
  const before = base ? await score(base, cases) : null;
  const pct = (n) => `${((100 * n) / cases.length).toFixed(1)}%`;
  const sum = (rs, k) => rs.filter((r) => r[k]).length;
  const groups = new Map();
  cases.forEach((c, j) => {
    const g = c.id.split('/').slice(0, -1).join('/');
    const e = groups.get(g) ?? { n: 0, kind: 0, state: 0, bkind: 0, bstate: 0 };
    e.n++; e.kind += now[j].kind; e.state += now[j].state;
    if (before) { e.bkind += before[j].kind; e.bstate += before[j].state; }
    groups.set(g, e);
  });
  for (const [g, e] of [...groups].sort()) {
    console.log(`${g.padEnd(24)} ${String(e.n).padStart(3)} cases  kind ${e.kind}/${e.n}  state ${e.state}/${e.n}` +
      (before ? `   (baseline kind ${e.bkind}/${e.n}  state ${e.bstate}/${e.n})` : ''));
  }
  cases.forEach((c, j) => {
    const r = now[j]; const b = before?.[j];
    if (!r.kind || !r.state || (b && (!b.kind || !b.state))) {
      const mark = (x) => `${x.kind ? 'kind ok ' : 'kind BAD'} ${x.state ? 'state ok ' : 'state BAD'}`;
      console.log(`  ${c.id.padEnd(52)} ${mark(r)}${b ? `   baseline: ${mark(b)}` : ''}`);
    }
  });
  console.log(`all: ${cases.length} crash cases  kind ${sum(now, 'kind')} (${pct(sum(now, 'kind'))})  state ${sum(now, 'state')} (${pct(sum(now, 'state'))})`);
  if (before) console.log(`baseline:             kind ${sum(before, 'kind')} (${pct(sum(before, 'kind'))})  state ${sum(before, 'state')} (${pct(sum(before, 'state'))})`);
}
