// `npm test`: builds (unless SBX_NO_BUILD=1), runs every uvu suite under test/, and ends with the plain
// line "N passed, N failed, N skipped" that CI reads. Suites run one file at a time so one crash cannot
// hide others, each in its own process group, which is killed when the file ends (a server or sleeper a
// test left behind goes with it) or after SBX_TEST_TIMEOUT seconds (default 1200: counted as failed).
// A suite whose system tool is missing prints "SKIP <what>: <tool> missing; install: <command>" and uvu
// counts its tests as skipped (test/_tools.js); the lines are listed again at the end. With CI set (CI
// installs every tool: scripts/ci-deps.sh), a skip fails the run.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
if (!process.env.SBX_NO_BUILD) {
  const b = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) { console.log('build failed\n0 passed, 1 failed, 0 skipped'); process.exit(1); }
}

// The sandbox HOMEs the runs make (src/host/sandbox-home.ts: one per work dir, and the tests make hundreds
// of work dirs) go to a directory of this run's, removed at the end, not to the user's ~/.cache.
if (!process.env.SBX_HOMES) {
  process.env.SBX_HOMES = mkdtempSync(join(tmpdir(), 'sbx-test-homes-'));
  chmodSync(process.env.SBX_HOMES, 0o711); // the unprivileged user's own runs make theirs beside (their mkdir needs search)
  const homes = process.env.SBX_HOMES;
  process.on('exit', () => rmSync(homes, { recursive: true, force: true }));
}

const dirs = process.argv.slice(2).length ? process.argv.slice(2) : ['test'];
const files = [];
const walk = (d) => {
  for (const n of readdirSync(d).sort()) {
    const p = join(d, n);
    if (statSync(p).isDirectory()) walk(p);
    else if (n.endsWith('.test.js')) files.push(p);
  }
};
for (const d of dirs) {
  const p = join(root, d);
  const st = statSync(p, { throwIfNoEntry: false });
  if (!st) {
    console.error(`scripts/test.js: ${d} does not exist: name a folder of test/ (${readdirSync(join(root, 'test')).filter((n) => statSync(join(root, 'test', n)).isDirectory()).join(', ')}) or a .test.js file`);
    process.exit(2);
  }
  if (st.isDirectory()) walk(p);
  else files.push(p);
}

const timeoutS = Number(process.env.SBX_TEST_TIMEOUT || 1200);
const killGroup = (pid) => { try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ } };

/** Runs one file in its own process group: { out, status, timedOut }. */
function runFile(f) {
  return new Promise((done) => {
    const p = spawn(process.execPath, [f], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    p.stdout.on('data', (d) => chunks.push(d));
    p.stderr.on('data', (d) => chunks.push(d));
    let timedOut = false; let status = null;
    const timer = setTimeout(() => { timedOut = true; killGroup(p.pid); }, timeoutS * 1000);
    // The file is done: whatever it started and left in its group goes, so the pipes close too.
    p.on('exit', (code, signal) => { status = code ?? signal; killGroup(p.pid); });
    p.on('close', () => { clearTimeout(timer); done({ out: Buffer.concat(chunks).toString(), status, timedOut }); });
    p.on('error', (e) => { clearTimeout(timer); done({ out: `cannot start ${f}: ${e.message}\n`, status: null, timedOut }); });
  });
}

let passed = 0; let failed = 0; let skipped = 0;
const skipLines = new Set();
/** Counts one file's result and prints its output (files are printed in their order, whatever order they end in). */
function report(f, { out, status, timedOut }) {
  process.stdout.write(`── ${f.slice(root.length)}\n${out}`);
  for (const l of out.split('\n')) if (l.startsWith('SKIP ')) skipLines.add(l);
  const total = /Total:\s+(\d+)/.exec(out); const ok = /Passed:\s+(\d+)/.exec(out); const skip = /Skipped:\s+(\d+)/.exec(out);
  if (timedOut) {
    console.log(`${f.slice(root.length)}: killed after ${timeoutS} s (SBX_TEST_TIMEOUT)`);
    failed++;
  } else if (total && ok) {
    passed += Number(ok[1]);
    failed += Number(total[1]) - Number(ok[1]);
    skipped += skip ? Number(skip[1]) : 0;
    if (status !== 0 && Number(total[1]) === Number(ok[1])) failed++;
  } else {
    failed++; // the file crashed before uvu could report
  }
}

// SBX_TEST_JOBS files at once (default: 2 where there are two cores or more; 1 runs them one by one),
// printed in file order whatever order they end in. A file that times something against a bound (a
// page's longest freeze, runs side by side) says "sbx-test: alone" in its first lines: those run one by
// one after the others, with no other file beside them, and are printed after them.
const jobs = Math.max(1, Number(process.env.SBX_TEST_JOBS || Math.min(2, availableParallelism())));
const solo = new Set(files.filter((f) => readFileSync(f, 'utf8').slice(0, 2000).includes('sbx-test: alone')));
const shared = files.filter((f) => !solo.has(f));
const order = [...shared, ...solo]; // the order they are printed in
const results = new Map();
let printed = 0;
const flush = () => { for (; printed < order.length && results.has(order[printed]); printed++) report(order[printed], results.get(order[printed])); };
const lane = async (queue) => { while (queue.length) { const f = queue.shift(); results.set(f, await runFile(f)); flush(); } };
await Promise.all(Array.from({ length: Math.min(jobs, shared.length) }, () => lane(shared)));
await lane([...solo]);
if (skipLines.size) {
  const pkgs = new Set();
  for (const l of skipLines) for (const p of /install: apt-get install -y (.+)$/.exec(l)?.[1].split(' ') ?? []) pkgs.add(p);
  console.log(`\nSkipped, each with the command that installs what it needs:\n${[...skipLines].join('\n')}`);
  if (pkgs.size) console.log(`All of them: apt-get install -y ${[...pkgs].sort().join(' ')} (or scripts/ci-deps.sh as root)`);
}
const ci = Boolean(process.env.CI) && !/^(0|false)$/i.test(process.env.CI);
if (ci && skipped) console.log(`CI is set and installs every tool: ${skipped} skipped test(s) fail the run`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed || (ci && skipped) ? 1 : 0);
