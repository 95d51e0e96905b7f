// The seccomp program as data: shape, the arch check first, the x32 guard, and every denied
// call present (checked by decoding the program, not by trusting the table).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSeccompProgram, DENY, unmappedSyscalls } from '../../dist/launcher.js';

const decode = (bytes) => {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  for (let i = 0; i < bytes.length; i += 8)
    out.push({ code: v.getUint16(i, true), jt: v.getUint8(i + 2), jf: v.getUint8(i + 3), k: v.getUint32(i + 4, true) });
  return out;
};

test('x86_64: arch check, kill on a foreign arch, x32 guard', () => {
  const p = decode(buildSeccompProgram('x64'));
  assert.equal(p[0], { code: 0x20, jt: 0, jf: 0, k: 4 }); // ld arch
  assert.is(p[1].k, 0xc000003e);
  assert.equal(p[2], { code: 0x06, jt: 0, jf: 0, k: 0x80000000 }); // ret KILL_PROCESS
  assert.equal(p[3], { code: 0x20, jt: 0, jf: 0, k: 0 }); // ld nr
  assert.is(p[4].code, 0x35); // jge
  assert.is(p[4].k, 0x40000000);
  assert.ok(p.length < 256);
  assert.is(p.at(-1).k, 0x00050000 | 38); // ENOSYS for clone3
});

test('every denied syscall has a number and a rule on x86_64 and arm64', () => {
  assert.equal(unmappedSyscalls('x64'), []);
  assert.equal(unmappedSyscalls('arm64').sort(), ['ioperm', 'iopl']);
  for (const arch of ['x64', 'arm64']) {
    const p = decode(buildSeccompProgram(arch));
    const jeqs = p.filter((i) => i.code === 0x15).length;
    assert.ok(jeqs >= DENY.length - unmappedSyscalls(arch).length, arch);
  }
});

test('jumps stay inside the program', () => {
  for (const arch of ['x64', 'arm64']) {
    const p = decode(buildSeccompProgram(arch));
    p.forEach((insn, i) => {
      if ((insn.code & 0x07) === 0x05) {
        assert.ok(i + 1 + insn.jt < p.length && i + 1 + insn.jf < p.length, `${arch} insn ${i}`);
      }
    });
    assert.is(p.at(-1).code, 0x06);
  }
});

test.run();
