// `npm test`: builds (unless SBX_NO_BUILD=1), runs every uvu suite under test/, and ends with the plain
// line "N passed, N failed" that CI reads. Suites run one file at a time so one crash cannot hide others.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
if (!process.env.SBX_NO_BUILD) {
  const b = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) { console.log('build failed\n0 passed, 1 failed'); process.exit(1); }
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
for (const d of dirs) walk(join(root, d));

let passed = 0; let failed = 0;
for (const f of files) {
  const r = spawnSync(process.execPath, [f], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  const out = (r.stdout ?? '') + (r.stderr ?? '');
  process.stdout.write(`── ${f.slice(root.length)}\n${out}`);
  const total = /Total:\s+(\d+)/.exec(out); const ok = /Passed:\s+(\d+)/.exec(out);
  if (total && ok) {
    passed += Number(ok[1]);
    failed += Number(total[1]) - Number(ok[1]);
    if (r.status !== 0 && Number(total[1]) === Number(ok[1])) failed++;
  } else {
    failed++; // the file crashed before uvu could report
  }
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
