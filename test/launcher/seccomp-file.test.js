// The seccomp programs the build writes beside the launcher (build/seccomp-<arch>[-ptrace].bpf, handed to
// it as fd 4 by launch()) are the programs the code builds: a stale file would install another policy.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSeccompProgram, prebuiltSeccompPath, seccompSupported } from '../../dist/launcher.js';
import { sh } from './_helpers.js';

for (const allowPtrace of [false, true]) {
  test(`build wrote the ${allowPtrace ? '--allow-ptrace' : 'default'} program for ${process.arch}, byte for byte`, () => {
    assert.ok(seccompSupported(), `no seccomp table for ${process.arch}`);
    const file = new Uint8Array(readFileSync(prebuiltSeccompPath(allowPtrace)));
    const built = buildSeccompProgram(process.arch, { allowPtrace });
    assert.ok(built.length > 0 && built.length % 8 === 0, 'a program is whole 8-byte instructions');
    assert.equal(file, built);
  });
}

test('the programs differ: the ptrace variant is not the default one', () => {
  assert.not.equal(new Uint8Array(readFileSync(prebuiltSeccompPath(false))), new Uint8Array(readFileSync(prebuiltSeccompPath(true))));
});

test('a run through the prebuilt program has seccomp applied and denies what the policy denies', async () => {
  // unshare(2) is on the denylist: refused inside, whatever the shell makes of it.
  const r = await sh('unshare -U true 2>&1; echo rc=$?');
  assert.is(r.setupError, null);
  assert.is(r.outcome.applied.seccomp, true);
  assert.match(r.out, /rc=[1-9]/);
});

test.run();
