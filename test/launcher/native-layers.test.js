// The launcher's C stands in floors (native/sbx.h): each part is one .c with its own .h, a part
// includes only headers of parts below it, and util, the ground floor, includes nothing of the
// others. Read from the #include lines of native/*.c and *.h: a loop between parts (report.c calling
// cgroup.c calling report.c, as once), util.c reaching up, or a header included by nobody's rule
// fails here. native/client.c is a program of its own and includes only util, which it links.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { here } from './_helpers.js';

const native = join(here, '..', '..', 'native');
const files = readdirSync(native).filter((n) => /\.[ch]$/.test(n)).sort();
const part = (name) => name.replace(/\.[ch]$/, '');

/** The project headers a file includes (`#include "x.h"`), as part names. */
function includes(name) {
  const out = [];
  for (const line of readFileSync(join(native, name), 'utf8').split('\n')) {
    const m = /^\s*#\s*include\s+"([^"]+)"/.exec(line);
    if (m) out.push(m[1]);
  }
  return out;
}

/** part -> the parts it includes (its .c and its .h together). */
const graph = new Map();
for (const f of files) {
  const p = part(f);
  if (!graph.has(p)) graph.set(p, new Set());
  for (const h of includes(f)) if (part(h) !== p) graph.get(p).add(part(h));
}

test('every included header is a part of native/', () => {
  for (const f of files) for (const h of includes(f)) assert.ok(files.includes(h), `${f} includes "${h}", not in native/`);
});

test('no loop between the parts', () => {
  const state = new Map(); // 1: on the path, 2: done
  const path = [];
  const visit = (p) => {
    if (state.get(p) === 2) return;
    if (state.get(p) === 1) assert.unreachable(`include loop: ${[...path.slice(path.indexOf(p)), p].join(' -> ')}`);
    state.set(p, 1);
    path.push(p);
    for (const q of graph.get(p) ?? []) visit(q);
    path.pop();
    state.set(p, 2);
  };
  for (const p of graph.keys()) visit(p);
});

test('util is the ground floor: it includes only the protocol (sbx.h)', () => {
  assert.equal([...graph.get('util')], ['sbx']);
  assert.equal([...graph.get('sbx')], []);
});

test('client.c, a program of its own, includes only the ground floor (util.c: the one die path)', () => {
  assert.equal([...graph.get('client')], ['util']);
});

test("mount.c's helpers return what failed; only its step list (and the host root's detach) ends the run", () => {
  // GNU style: a function's name starts its line. fail_step ends init: a helper that called it would decide for its caller.
  let fn = null;
  const callers = new Set();
  for (const line of readFileSync(join(native, 'mount.c'), 'utf8').split('\n')) {
    const m = /^([a-z_]+)\s*\(/.exec(line);
    if (m) fn = m[1];
    if (/\bfail_step\s*\(/.test(line) && !/^\s*(\/\*|\*)/.test(line)) callers.add(fn);
  }
  assert.equal([...callers].sort(), ['detach_host_root', 'step_root']);
});

test('each part has its own header, which its .c includes first', () => {
  for (const f of files.filter((n) => n.endsWith('.c') && n !== 'client.c' && n !== 'main.c')) {
    const own = `${part(f)}.h`;
    assert.ok(files.includes(own), `${f} has no ${own}`);
    assert.is(includes(f)[0], own, `${f} includes ${own} first (so that the header stands on its own)`);
  }
  for (const h of files.filter((n) => n.endsWith('.h') && n !== 'sbx.h'))
    assert.ok(files.includes(`${part(h)}.c`), `${h} has no ${part(h)}.c`);
});

test('every function a part exports is declared in a header (cc -Wmissing-prototypes)', () => {
  const cc = process.env.CC || 'cc';
  for (const f of files.filter((n) => n.endsWith('.c') && n !== 'client.c')) {
    const r = spawnSync(cc, ['-fsyntax-only', '-Wmissing-prototypes', '-Werror', join(native, f)], { encoding: 'utf8' });
    if (r.error) return; // no C compiler: the build would have failed first
    assert.is(r.status, 0, `${f}: ${r.stderr}`);
  }
});

test.run();
