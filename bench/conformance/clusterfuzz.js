// ClusterFuzz's stack analyzer tests (google/clusterfuzz, stack_analyzer_test.py) as a conformance suite: per
// crash output, the crash type, the crash state (ClusterFuzz's dedup key, up to three lines), its first line
// and the security flag, each against what their test asserts. Tests that assert configuration only (no
// expected type and no expected state) are left out; a test naming two files checks both.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cfType, cfSecurity, sameType } from './cf-types.js';

/** ClusterFuzz prints a state as its lines, each followed by "\n"; no frame at all is "NULL". */
export function cfState(crash) {
  if (!crash) return '';
  const s = crash.state ?? [];
  return s.length === 0 ? 'NULL' : s.map((l) => `${l}\n`).join('');
}

/**
 * The state under the job's FUZZ_TARGET, a job setting like the ones cf-types.js applies: an OOM, a timeout or
 * an input overwrite is grouped by the fuzz target (its stack says nothing), and so is a crash with no frame.
 */
function jobState(type, state, env) {
  const target = env.FUZZ_TARGET;
  if (!target) return state;
  const first = type.split('\n')[0];
  if (first === 'Out-of-memory' || first === 'Timeout' || first === 'Overwrites-const-input' || state === 'NULL') return `${target}\n`;
  return state;
}

const firstLine = (s) => (s ?? '').split('\n')[0];
/** The family a case counts in: the first word of its file name (asan, ubsan, golang, v8, kasan, ...). */
const familyOf = (file) => file.replace(/\.txt$/, '').split('_')[0];

export function clusterfuzzCases(dir) {
  const rows = readFileSync(join(dir, 'expectations.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const cases = [];
  for (const r of rows) {
    if (r.expected_type == null && r.expected_state == null) continue;
    for (const f of r.files) {
      cases.push({ id: `${r.test}:${f}`, file: f, family: familyOf(f), env: r.env ?? {}, type: r.expected_type ?? null,
        state: r.expected_state ?? null, security: r.expected_security_flag ?? null,
        log: readFileSync(join(dir, 'data', f)) });
    }
  }
  return cases;
}

/** The first failing test of a JUnit run of Wycheproof (`testX(com.google.security.wycheproof.AesGcmTest)`), or null. */
function wycheproofFailure(tests) {
  const f = (tests?.failures ?? []).find((x) => /\(com\.google\.security\.wycheproof\.[A-Za-z0-9]*\)$/.test(x.name));
  return f ? f.name : null;
}

/** One case's checks: { type, state, first, security } each true/false, or absent when not asserted. */
export function scoreClusterfuzz(engine, c) {
  const v = engine.verdict(c.log, { exit: 1 }).verdict;
  // A program the dynamic loader could not start is ClusterFuzz's Missing-library, grouped by the library; a
  // failing test of Wycheproof's suite (no crash) its 'Wycheproof error', grouped by the test.
  const lib = v.missing_library;
  const wyche = v.crash ? null : wycheproofFailure(v.tests);
  const type = lib ? 'Missing-library' : wyche ? 'Wycheproof error' : cfType(v.crash, c.env);
  const state = lib ? `${lib}\n` : wyche ? `${wyche}\n` : type === '' ? '' : jobState(type, cfState(v.crash), c.env);
  const checks = {};
  const got = { type, state };
  if (c.type !== null) checks.type = sameType(c.type, type);
  if (c.state !== null) {
    checks.state = c.state === state;
    checks.first = firstLine(c.state) === firstLine(state);
  }
  if (c.security !== null && c.type !== '') {
    got.security = cfSecurity(type, c.env, v.crash?.address ?? null, c.log);
    checks.security = got.security === c.security;
  }
  return { checks, got, want: { type: c.type, state: c.state, security: c.security } };
}

export const CLUSTERFUZZ_METRICS = ['type', 'state', 'first', 'security'];
