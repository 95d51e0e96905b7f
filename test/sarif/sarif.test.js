// SARIF 2.1.0 export: every fixture's verdict, as SARIF, is valid against the OASIS SARIF 2.1.0 JSON
// schema (the rtm.5 schema shipped in @microsoft/jest-sarif, draft-04, checked with ajv) and carries the
// verdict's facts: one result per diagnostic, crash and failing test, the crash's stack as `stacks` and
// a codeFlow. Then `--sarif FILE` on `sbx verdict` and `sbx run` through the real CLI.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { createEngine, toSarif } from '../../dist/index.js';
import { listCases } from '../../fixtures/lib/cases.js';
import { CLI, ROOT, copyFixture, sbxRun, workDir } from '../e2e/_helpers.js';

const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
// unicodeRegExp off: the schema's `language` pattern ("^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$") is not valid with the u flag.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema);
const check = (sarif) => { if (!validate(sarif)) throw new Error(`not valid SARIF 2.1.0: ${ajv.errorsText(validate.errors, { separator: '\n  ' })}`); };

const engine = await createEngine();
const tmp = mkdtempSync(join(tmpdir(), 'sbx-sarif-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

test('the schema is the SARIF 2.1.0 one and rejects what is not SARIF', () => {
  assert.is(schema.properties.version.enum[0], '2.1.0');
  assert.not.ok(validate({ version: '2.1.0', runs: [{ results: [] }] }), 'a run without a tool passed');
  assert.not.ok(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'sbx' } }, results: [{ message: { text: 'x' }, level: 'fatal' }] }] }), 'a bad level passed');
});

let crashes = 0; let diags = 0; let failures = 0;
for (const c of listCases(join(ROOT, 'fixtures'), { blind: true })) {
  test(`SARIF of ${c.id}`, () => {
    const env = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: Boolean(c.run.timed_out), log: 'log.txt' });
    const sarif = toSarif(env, '0.1.0');
    check(sarif);
    const v = env.verdict; const run = sarif.runs[0];
    const nFail = v.tests?.failures.length ?? 0;
    assert.is(run.results.length, v.diagnostics.length + (v.crash ? 1 : 0) + nFail);
    for (const [i, d] of v.diagnostics.entries()) {
      const r = run.results[i];
      assert.is(r.level, d.severity);
      assert.is(run.tool.driver.rules[r.ruleIndex].id, r.ruleId);
      if (d.file && d.line) assert.is(r.locations[0].physicalLocation.region.startLine, d.line);
      assert.is((r.relatedLocations ?? []).length, (d.notes ?? []).length);
    }
    if (v.crash) {
      crashes++;
      const r = run.results[v.diagnostics.length];
      assert.is(r.ruleId, `${v.crash.tool}/${v.crash.kind}`);
      assert.is(r.stacks?.[0]?.frames.length ?? 0, v.crash.frames.length);
      const f = v.crash.first_user_frame;
      if (f?.file && f.line) assert.is(r.locations[0].physicalLocation.region.startLine, f.line);
      if (v.crash.frames.length) {
        const flow = r.codeFlows[0].threadFlows[0].locations;
        assert.is(flow.length, v.crash.frames.length);
        assert.equal(flow.at(-1).location, r.stacks[0].frames[0].location, 'the flow ends in the faulting frame');
      }
    }
    diags += v.diagnostics.length; failures += nFail;
    assert.is(JSON.stringify(toSarif(env, '0.1.0')), JSON.stringify(sarif), 'deterministic');
  });
}

test('the fixtures exercised diagnostics, crashes and test failures', () => {
  assert.ok(crashes > 20 && diags > 50 && failures > 20, `${crashes} crashes, ${diags} diagnostics, ${failures} failures`);
});

test('sbx verdict --sarif FILE writes valid SARIF beside the usual output', () => {
  const dir = join(ROOT, 'fixtures/cfamily/asan-use-after-free-gcc');
  const out = join(tmp, 'uaf.sarif');
  const r = spawnSync(process.execPath, [CLI, 'verdict', '--raw', join(dir, 'log.txt'), '--exit', '1', '--sarif', out], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /^sbx: crash/);
  const sarif = JSON.parse(readFileSync(out, 'utf8'));
  check(sarif);
  const crash = sarif.runs[0].results.find((x) => x.ruleId === 'asan/heap-use-after-free');
  assert.ok(crash, JSON.stringify(sarif.runs[0].results.map((x) => x.ruleId)));
  assert.is(crash.stacks.length, 3, 'access, allocation and free stacks');
});

test('sbx verdict --sarif into a missing directory: one line, non-zero', () => {
  const r = spawnSync(process.execPath, [CLI, 'verdict', '--raw', join(ROOT, 'fixtures/cfamily/cc-many-errors-gcc/log.txt'), '--sarif', join(tmp, 'no/such/dir/x.sarif')], { encoding: 'utf8' });
  assert.is.not(r.status, 0);
  assert.match(r.stderr, /cannot write the SARIF file .*x\.sarif/);
  assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
});

test('sbx run --sarif FILE: a real gcc build in the sandbox, its errors in SARIF', () => {
  const dir = copyFixture('cfamily/cc-many-errors-gcc', workDir());
  const out = join(tmp, 'run.sarif');
  const r = sbxRun(dir, ['gcc', '-Wall', '-c', 'main.c', '-o', 'main.o'], { flags: ['--sarif', out] });
  assert.is(r.verdict.status, 'build-failed', r.why());
  const sarif = JSON.parse(readFileSync(out, 'utf8'));
  check(sarif);
  const errors = sarif.runs[0].results.filter((x) => x.level === 'error');
  assert.is(errors.length, r.verdict.counts.errors);
  assert.ok(errors.every((x) => x.locations[0].physicalLocation.artifactLocation.uri === 'main.c'), JSON.stringify(errors[0]));
});

test('tests failing on one sanitizer report in a library built without debug info are each at the crash\'s function and module (issue 29 item 8)', () => {
  const c = listCases(join(ROOT, 'fixtures')).find((x) => x.id.endsWith('ctest-asan-lib'));
  assert.ok(c, 'fixture runners/ctest-asan-lib');
  const env = engine.verdict(c.log, { exit: c.run.exit ?? null, signal: c.run.signal ?? null, timedOut: false, log: 'log.txt' });
  const fails = toSarif(env, '0.1.0').runs[0].results.filter((r) => r.ruleId === 'ctest/test-failed');
  assert.is(fails.length, 7);
  for (const r of fails) {
    assert.is(r.locations.length, 1, JSON.stringify(r));
    assert.is(r.locations[0].logicalLocations[0].name, 'strbuf_strdup');
    assert.is(r.locations[0].physicalLocation.artifactLocation.uri, 'build/libstrbuf.so');
  }
});

test.run();
