// Compiles native/*.c (launch.c and its parts, see native/sbx.h) into build/sbx-launch with the machine's cc.
// Linked statically when the C library allows it (glibc ships libc.a with libc6-dev): a static
// launcher skips the dynamic loader on every run, which is a measurable share of sbx's startup.
// Falls back to a dynamic link otherwise; no extra system packages either way.
// native/client.c is a program of its own, build/sbx-client (the resident sbx's client: src/cli/resident/),
// built the same way with util.c, the ground floor it shares; build/node-path names the node it falls back to (this one).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLIENT = 'client.c';
const launcherSrcs = readdirSync(join(root, 'native')).filter((n) => n.endsWith('.c') && n !== CLIENT).sort().map((n) => join(root, 'native', n));
const cc = process.env.CC || 'cc';
const flags = ['-O2', '-Wall', '-Wextra', '-Werror', '-Wformat=2', '-D_FORTIFY_SOURCE=2'];

if (process.platform !== 'linux') {
  console.error(`build-native: skipped, sbx's sandbox needs Linux (this is ${process.platform})`);
  process.exit(0);
}

function build(name, srcs, own = []) {
  const out = join(root, 'build', name);
  const tmp = `${out}.tmp-${process.pid}`;
  mkdirSync(dirname(out), { recursive: true });
  const compile = (extra) => spawnSync(cc, [...flags, ...own, ...extra, '-o', tmp, ...srcs], { encoding: 'utf8' });
  let r = compile(['-static']);
  let linkage = 'static';
  if (r.error || r.status !== 0) {
    const staticErr = r.error ? r.error.message : r.stderr;
    r = compile([]);
    linkage = 'dynamic';
    if (r.error) {
      console.error(`build-native: cannot run ${cc}: ${r.error.message}; fix: install a C compiler (e.g. apt-get install gcc) or set CC`);
      process.exit(1);
    }
    if (r.status !== 0) {
      process.stderr.write(r.stderr);
      console.error(`build-native: compiling ${name} failed`);
      process.exit(1);
    }
    if (/error/i.test(staticErr)) console.error('build-native: static link unavailable, linked dynamically');
  }
  if (r.stderr) process.stderr.write(r.stderr);
  renameSync(tmp, out);
  rmSync(tmp, { force: true });
  console.log(`build-native: ${join('build', name)} (${linkage})`);
}

build('sbx-launch', launcherSrcs);
// The client links the launcher's ground floor (util.c: its die path) and keeps only what it calls of it.
build('sbx-client', [join(root, 'native', CLIENT), join(root, 'native', 'util.c')], ['-ffunction-sections', '-fdata-sections', '-Wl,--gc-sections']);
writeFileSync(join(root, 'build', 'node-path'), `${process.execPath}\n`);
