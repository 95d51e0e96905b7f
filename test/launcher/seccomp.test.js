// The seccomp program as data: shape, the arch check first, the x32 guard, and every denied
// call present (checked by decoding the program, not by trusting the table).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSeccompProgram, DENY, MAX_REVIEWED_SYSCALL, unmappedSyscalls } from '../../dist/launcher.js';

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

/**
 * Runs a classic BPF program the way the kernel's seccomp does, on one struct seccomp_data
 * (nr, arch, args as 64-bit values: only their low words are read by our program).
 */
function evaluate(prog, { nr, arch, args = [] }) {
  const word = (off) => {
    if (off === 0) return nr >>> 0;
    if (off === 4) return arch >>> 0;
    const i = (off - 16) >> 3;
    if (off >= 16 && off < 64 && (off - 16) % 8 === 0) return Number(BigInt.asUintN(32, BigInt(args[i] ?? 0)));
    throw new Error(`unexpected load at ${off}`);
  };
  let a = 0;
  for (let pc = 0; pc < prog.length; pc++) {
    const { code, jt, jf, k } = prog[pc];
    switch (code) {
      case 0x20: a = word(k); break;
      case 0x54: a = (a & k) >>> 0; break;
      case 0x06: return k >>> 0;
      case 0x15: pc += a === k ? jt : jf; break;
      case 0x35: pc += a >= k ? jt : jf; break;
      case 0x45: pc += (a & k) !== 0 ? jt : jf; break;
      default: throw new Error(`unexpected opcode ${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error('fell off the end');
}
const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;
const ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 };
const NR = {
  x64: { chmod: 90, fchmod: 91, fchmodat: 268, fchmodat2: 452, creat: 85, mkdir: 83, mkdirat: 258, mknod: 133, mknodat: 259, open: 2, openat: 257, openat2: 437, socketpair: 53, read: 0, open_tree_attr: 467 },
  arm64: { fchmod: 52, fchmodat: 53, fchmodat2: 452, mkdirat: 34, mknodat: 33, openat: 56, openat2: 437, socketpair: 199, read: 63, open_tree_attr: 467 },
};
const O_CREAT = 0o100;
const O_TMPFILE = 0o20000000 | 0o200000;

// [call, args, expected]: set-id modes refused everywhere a mode is given, ordinary modes allowed.
const setidRows = [
  ['chmod', [0, 0o4755], EPERM], ['chmod', [0, 0o2755], EPERM], ['chmod', [0, 0o755], ALLOW], ['chmod', [0, 0o1777], ALLOW],
  ['fchmod', [3, 0o4755], EPERM], ['fchmod', [3, 0o644], ALLOW],
  ['fchmodat', [-100, 0, 0o6755], EPERM], ['fchmodat', [-100, 0, 0o755], ALLOW],
  ['fchmodat2', [-100, 0, 0o4755, 0], EPERM], ['fchmodat2', [-100, 0, 0o700, 0], ALLOW],
  ['creat', [0, 0o4755], EPERM], ['creat', [0, 0o644], ALLOW],
  ['mkdir', [0, 0o2775], EPERM], ['mkdir', [0, 0o755], ALLOW],
  ['mkdirat', [-100, 0, 0o2775], EPERM], ['mkdirat', [-100, 0, 0o755], ALLOW],
  ['mknod', [0, 0o104755, 0], EPERM], ['mknod', [0, 0o10644, 0], ALLOW],
  ['mknodat', [-100, 0, 0o104755, 0], EPERM], ['mknodat', [-100, 0, 0o10644, 0], ALLOW],
  ['open', [0, O_CREAT | 1, 0o4755], EPERM], ['open', [0, O_CREAT | 1, 0o644], ALLOW],
  // Without O_CREAT the mode argument is garbage and ignored by the kernel: never refuse on it.
  ['open', [0, 0, 0o4755], ALLOW],
  ['openat', [-100, 0, O_CREAT | 1, 0o4755], EPERM], ['openat', [-100, 0, O_TMPFILE | 2, 0o2755], EPERM],
  ['openat', [-100, 0, 0, 0o4755], ALLOW], ['openat', [-100, 0, O_CREAT | 1, 0o600], ALLOW],
  // High bits of a 64-bit argument do not hide a set-id mode from the low-word check.
  ['fchmod', [3, 0x1_0000_0000n + 0o4755n], EPERM],
  ['openat2', [-100, 0, 0, 24], ENOSYS],
  ['socketpair', [1, 1, 0], ALLOW], ['socketpair', [38, 5, 0], EPERM], ['socketpair', [2, 1, 0], EPERM],
  ['open_tree_attr', [-100, 0, 1, 0, 0], EPERM],
  ['read', [0, 0, 0], ALLOW],
];

for (const arch of ['x64', 'arm64']) {
  test(`${arch}: set-id modes, openat2, socketpair and unknown calls, evaluated`, () => {
    const prog = decode(buildSeccompProgram(arch));
    for (const [call, args, want] of setidRows) {
      const nr = NR[arch][call];
      if (nr === undefined) continue; // arm64 has only the *at forms
      const got = evaluate(prog, { nr, arch: ARCH[arch], args });
      assert.is(got.toString(16), want.toString(16), `${arch} ${call}(${args.map(String).join(', ')})`);
    }
    assert.is(evaluate(prog, { nr: MAX_REVIEWED_SYSCALL, arch: ARCH[arch] }), ALLOW, 'the newest reviewed call');
    for (const nr of [MAX_REVIEWED_SYSCALL + 1, 500, 1023])
      assert.is(evaluate(prog, { nr, arch: ARCH[arch] }), ENOSYS, `unreviewed syscall ${nr}`);
    assert.is(evaluate(prog, { nr: 0, arch: 0x40000003 }), 0x80000000, 'a foreign arch is killed');
  });
}

test.run();
