// The seccomp policy as data, and a small assembler that turns it into a classic BPF program
// (struct sock_filter[]), handed to sbx-launch over a file descriptor as bwrap's --seccomp FD is.
// A denylist: everything not named here is allowed, and denied calls fail with EPERM so that
// build tools see an ordinary error instead of dying.

/** Syscalls that fail with EPERM. */
export const DENY = [
  // kernel attack surface that builds and tests do not need
  'io_uring_setup',
  'io_uring_enter',
  'io_uring_register',
  'bpf',
  'perf_event_open',
  'userfaultfd',
  'keyctl',
  'add_key',
  'request_key',
  // looking into or writing other processes
  'ptrace',
  'process_vm_readv',
  'process_vm_writev',
  'kcmp',
  // the machine itself
  'init_module',
  'finit_module',
  'delete_module',
  'kexec_load',
  'kexec_file_load',
  'reboot',
  'swapon',
  'swapoff',
  'acct',
  'quotactl',
  'vhangup',
  'iopl',
  'ioperm',
  'syslog',
  // the mount family and namespaces: the sandbox's shape is final once the command runs
  'mount',
  'umount2',
  'pivot_root',
  'chroot',
  'move_mount',
  'open_tree',
  'fsopen',
  'fsmount',
  'fsconfig',
  'fspick',
  'mount_setattr',
  'open_tree_attr',
  'unshare',
  'setns',
  'name_to_handle_at',
  'open_by_handle_at',
  // clocks: tests must not move the host's time
  'clock_settime',
  'settimeofday',
  'adjtimex',
  'clock_adjtime',
] as const;

/**
 * Syscalls that fail with ENOSYS, so that libc falls back: clone3's flags and openat2's mode sit in
 * a struct that seccomp cannot inspect (clone -> namespaces, openat -> set-id modes are checked).
 */
export const ENOSYS_CALLS = ['clone3', 'openat2'] as const;

/**
 * The highest syscall number this policy was reviewed against (file_setattr, Linux 6.17). A newer
 * call is ENOSYS until it is reviewed: a denylist must not allow what it has never seen.
 */
export const MAX_REVIEWED_SYSCALL = 469;

/** S_ISUID | S_ISGID: no file or directory the sandbox makes may carry them (systemd's RestrictSUIDSGID). */
export const SETID_MODE = 0o6000;
/** open(2) flags that create a file: O_CREAT and __O_TMPFILE (same values on x86_64 and arm64). */
export const O_CREATE_FLAGS = 0o100 | 0o20000000;
/**
 * Calls whose mode argument may set S_ISUID/S_ISGID, with the index of that argument and, for the
 * open family, of the flags that make it create. A set-id file left in /work runs as the caller
 * (or as root when root ran sbx) for anyone on the host who starts it.
 */
export const SETID_CALLS = {
  chmod: { mode: 1 },
  fchmod: { mode: 1 },
  fchmodat: { mode: 2 },
  fchmodat2: { mode: 2 },
  creat: { mode: 1 },
  mkdir: { mode: 1 },
  mkdirat: { mode: 2 },
  mknod: { mode: 1 },
  mknodat: { mode: 2 },
  open: { flags: 1, mode: 2 },
  openat: { flags: 2, mode: 3 },
} as const satisfies Record<string, { mode: number; flags?: number }>;

/** Socket families that may be created; everything else (AF_ALG, AF_PACKET, ...) is EPERM. */
export const SOCKET_FAMILIES = { AF_UNIX: 1, AF_INET: 2, AF_INET6: 10, AF_NETLINK: 16 } as const;
/** Socket types refused for AF_INET/AF_INET6 (compared on `type & 0xf`). */
export const SOCKET_TYPES_DENIED = { SOCK_RAW: 3, SOCK_PACKET: 10 } as const;
/** ioctl requests refused, compared on the low 32 bits like the kernel does (CVE-2019-10063). */
export const IOCTL_DENIED = { TIOCSTI: 0x5412, TIOCLINUX: 0x541c } as const;
/** clone(2) flags refused: creating namespaces. */
export const CLONE_NS_FLAGS = 0x7e020000; // NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET
/** personality(2) stays allowed only as a query, so ADDR_NO_RANDOMIZE cannot be undone. */
export const PERSONALITY_QUERY = 0xffffffff;
/** Syscall numbers with this bit are the x32 ABI: without this guard a denylist is bypassable. */
export const X32_SYSCALL_BIT = 0x40000000;

type SyscallName = (typeof DENY)[number] | (typeof ENOSYS_CALLS)[number] | keyof typeof SETID_CALLS | 'socket' | 'socketpair' | 'ioctl' | 'clone' | 'personality';

interface ArchInfo {
  audit: number;
  x32Guard: boolean;
  nr: Partial<Record<SyscallName, number>>;
}

const ARCHES: Record<string, ArchInfo> = {
  x64: {
    audit: 0xc000003e, // AUDIT_ARCH_X86_64; i386 (int 0x80) and anything else is killed
    x32Guard: true,
    nr: {
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      bpf: 321,
      perf_event_open: 298,
      userfaultfd: 323,
      keyctl: 250,
      add_key: 248,
      request_key: 249,
      ptrace: 101,
      process_vm_readv: 310,
      process_vm_writev: 311,
      kcmp: 312,
      init_module: 175,
      finit_module: 313,
      delete_module: 176,
      kexec_load: 246,
      kexec_file_load: 320,
      reboot: 169,
      swapon: 167,
      swapoff: 168,
      acct: 163,
      quotactl: 179,
      vhangup: 153,
      iopl: 172,
      ioperm: 173,
      syslog: 103,
      mount: 165,
      umount2: 166,
      pivot_root: 155,
      chroot: 161,
      move_mount: 429,
      open_tree: 428,
      fsopen: 430,
      fsmount: 432,
      fsconfig: 431,
      fspick: 433,
      mount_setattr: 442,
      unshare: 272,
      setns: 308,
      name_to_handle_at: 303,
      open_by_handle_at: 304,
      clock_settime: 227,
      settimeofday: 164,
      adjtimex: 159,
      clock_adjtime: 305,
      clone3: 435,
      socket: 41,
      ioctl: 16,
      clone: 56,
      personality: 135,
      open_tree_attr: 467,
      openat2: 437,
      socketpair: 53,
      chmod: 90,
      fchmod: 91,
      fchmodat: 268,
      fchmodat2: 452,
      creat: 85,
      mkdir: 83,
      mkdirat: 258,
      mknod: 133,
      mknodat: 259,
      open: 2,
      openat: 257,
    },
  },
  arm64: {
    audit: 0xc00000b7, // AUDIT_ARCH_AARCH64; arm32 compat is killed
    x32Guard: false,
    nr: {
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      bpf: 280,
      perf_event_open: 241,
      userfaultfd: 282,
      keyctl: 219,
      add_key: 217,
      request_key: 218,
      ptrace: 117,
      process_vm_readv: 270,
      process_vm_writev: 271,
      kcmp: 272,
      init_module: 105,
      finit_module: 273,
      delete_module: 106,
      kexec_load: 104,
      kexec_file_load: 294,
      reboot: 142,
      swapon: 224,
      swapoff: 225,
      acct: 89,
      quotactl: 60,
      vhangup: 58,
      syslog: 116,
      mount: 40,
      umount2: 39,
      pivot_root: 41,
      chroot: 51,
      move_mount: 429,
      open_tree: 428,
      fsopen: 430,
      fsmount: 432,
      fsconfig: 431,
      fspick: 433,
      mount_setattr: 442,
      unshare: 97,
      setns: 268,
      name_to_handle_at: 264,
      open_by_handle_at: 265,
      clock_settime: 112,
      settimeofday: 170,
      adjtimex: 171,
      clock_adjtime: 266,
      clone3: 435,
      socket: 198,
      ioctl: 29,
      clone: 220,
      personality: 92,
      open_tree_attr: 467,
      openat2: 437,
      socketpair: 199,
      fchmod: 52,
      fchmodat: 53,
      fchmodat2: 452,
      mkdirat: 34,
      mknodat: 33,
      openat: 56,
    },
  },
};

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const AND_K = 0x54;
const RET_K = 0x06;
const RET_KILL_PROCESS = 0x80000000;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
// offsets into struct seccomp_data
const OFF_NR = 0;
const OFF_ARCH = 4;
const argLow = (i: number): number => 16 + 8 * i; // little-endian: the low word comes first

/** A jump target: a label name, or 0 for the next instruction. */
type Target = string | 0;
type Insn = { op: 'ld'; off: number } | { op: 'and'; k: number } | { op: 'jeq' | 'jge' | 'jset'; k: number; jt: Target; jf: Target } | { op: 'ret'; k: number } | { op: 'label'; name: string };

function assemble(prog: Insn[]): Uint8Array {
  const labels = new Map<string, number>();
  const real: Exclude<Insn, { op: 'label' }>[] = [];
  for (const insn of prog) {
    if (insn.op === 'label') labels.set(insn.name, real.length);
    else real.push(insn);
  }
  const out = new Uint8Array(real.length * 8);
  const view = new DataView(out.buffer);
  const offset = (at: number, t: Target): number => {
    if (t === 0) return 0;
    const dest = labels.get(t);
    if (dest === undefined) throw new Error(`seccomp: unknown label ${t}`);
    const d = dest - at - 1;
    if (d < 0 || d > 255) throw new Error(`seccomp: jump to ${t} out of range (${d})`);
    return d;
  };
  real.forEach((insn, i) => {
    let code: number;
    let jt = 0;
    let jf = 0;
    let k: number;
    switch (insn.op) {
      case 'ld':
        code = LD_W_ABS;
        k = insn.off;
        break;
      case 'and':
        code = AND_K;
        k = insn.k;
        break;
      case 'ret':
        code = RET_K;
        k = insn.k;
        break;
      default:
        code = insn.op === 'jeq' ? JEQ_K : insn.op === 'jge' ? JGE_K : JSET_K;
        k = insn.k;
        jt = offset(i, insn.jt);
        jf = offset(i, insn.jf);
    }
    view.setUint16(i * 8, code, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k >>> 0, true);
  });
  return out;
}

/** Variants of the policy a profile may ask for. */
export interface PolicyOptions {
  /** Leave ptrace allowed (LeakSanitizer stops the world with it); process_vm_* stay denied. */
  allowPtrace?: boolean;
}

/** Builds the policy's program for one architecture (process.arch naming). */
export function buildSeccompProgram(arch: string = process.arch, opts: PolicyOptions = {}): Uint8Array {
  const a = ARCHES[arch];
  if (!a) throw new Error(`seccomp: no syscall table for ${arch}`);
  const nr = (name: SyscallName): number => {
    const n = a.nr[name];
    if (n === undefined) throw new Error(`seccomp: no number for ${name} on ${arch}`);
    return n;
  };
  const deny: Insn = { op: 'ret', k: RET_ERRNO | EPERM };
  const p: Insn[] = [
    { op: 'ld', off: OFF_ARCH },
    { op: 'jeq', k: a.audit, jt: 'native', jf: 0 },
    { op: 'ret', k: RET_KILL_PROCESS },
    { op: 'label', name: 'native' },
    { op: 'ld', off: OFF_NR },
  ];
  if (a.x32Guard) p.push({ op: 'jge', k: X32_SYSCALL_BIT, jt: 'eperm', jf: 0 });
  p.push({ op: 'jge', k: MAX_REVIEWED_SYSCALL + 1, jt: 'enosys', jf: 0 });
  // Arch-specific calls (iopl, ioperm) are absent from other tables: nothing to deny there.
  for (const name of DENY) {
    if (name === 'ptrace' && opts.allowPtrace) continue;
    const n = a.nr[name];
    if (n !== undefined) p.push({ op: 'jeq', k: n, jt: 'eperm', jf: 0 });
  }
  for (const name of ENOSYS_CALLS) p.push({ op: 'jeq', k: nr(name), jt: 'enosys', jf: 0 });
  // Set-id modes: one check block per call (the mode and flags sit in different arguments).
  const setid: Insn[] = [];
  for (const [name, args] of Object.entries(SETID_CALLS) as [keyof typeof SETID_CALLS, { mode: number; flags?: number }][]) {
    const n = a.nr[name];
    if (n === undefined) continue; // arm64 has only the *at forms
    p.push({ op: 'jeq', k: n, jt: `setid_${name}`, jf: 0 });
    setid.push({ op: 'label', name: `setid_${name}` });
    if (args.flags !== undefined) {
      setid.push({ op: 'ld', off: argLow(args.flags) }, { op: 'jset', k: O_CREATE_FLAGS, jt: 0, jf: 'allow' });
    }
    setid.push({ op: 'ld', off: argLow(args.mode) }, { op: 'jset', k: SETID_MODE, jt: 'eperm', jf: 'allow' });
  }
  p.push(
    { op: 'jeq', k: nr('socket'), jt: 'socket', jf: 0 },
    { op: 'jeq', k: nr('socketpair'), jt: 'socketpair', jf: 0 },
    { op: 'jeq', k: nr('ioctl'), jt: 'ioctl', jf: 0 },
    { op: 'jeq', k: nr('clone'), jt: 'clone', jf: 0 },
    { op: 'jeq', k: nr('personality'), jt: 'personality', jf: 0 },
    { op: 'ret', k: RET_ALLOW },

    { op: 'label', name: 'socket' },
    { op: 'ld', off: argLow(0) },
    { op: 'jeq', k: SOCKET_FAMILIES.AF_INET, jt: 'inet', jf: 0 },
    { op: 'jeq', k: SOCKET_FAMILIES.AF_INET6, jt: 'inet', jf: 0 },
    { op: 'jeq', k: SOCKET_FAMILIES.AF_UNIX, jt: 'allow', jf: 0 },
    { op: 'jeq', k: SOCKET_FAMILIES.AF_NETLINK, jt: 'allow', jf: 'eperm' },
    { op: 'label', name: 'inet' },
    { op: 'ld', off: argLow(1) },
    { op: 'and', k: 0xf },
    { op: 'jeq', k: SOCKET_TYPES_DENIED.SOCK_RAW, jt: 'eperm', jf: 0 },
    { op: 'jeq', k: SOCKET_TYPES_DENIED.SOCK_PACKET, jt: 'eperm', jf: 'allow' },

    { op: 'label', name: 'socketpair' },
    { op: 'ld', off: argLow(0) },
    { op: 'jeq', k: SOCKET_FAMILIES.AF_UNIX, jt: 'allow', jf: 'eperm' },

    ...setid,

    { op: 'label', name: 'ioctl' },
    { op: 'ld', off: argLow(1) },
    { op: 'jeq', k: IOCTL_DENIED.TIOCSTI, jt: 'eperm', jf: 0 },
    { op: 'jeq', k: IOCTL_DENIED.TIOCLINUX, jt: 'eperm', jf: 'allow' },

    { op: 'label', name: 'clone' },
    { op: 'ld', off: argLow(0) },
    { op: 'jset', k: CLONE_NS_FLAGS, jt: 'eperm', jf: 'allow' },

    { op: 'label', name: 'personality' },
    { op: 'ld', off: argLow(0) },
    { op: 'jeq', k: PERSONALITY_QUERY, jt: 'allow', jf: 'eperm' },

    { op: 'label', name: 'allow' },
    { op: 'ret', k: RET_ALLOW },
    { op: 'label', name: 'eperm' },
    deny,
    { op: 'label', name: 'enosys' },
    { op: 'ret', k: RET_ERRNO | ENOSYS },
  );
  return assemble(p);
}

const cached = new Map<boolean, Uint8Array>();

/** The program for this machine, built once per process and variant. */
export function seccompProgram(allowPtrace = false): Uint8Array {
  let p = cached.get(allowPtrace);
  if (!p) {
    p = buildSeccompProgram(process.arch, { allowPtrace });
    cached.set(allowPtrace, p);
  }
  return p;
}

/** Syscall names of the policy that have no number on `arch` (expected: x86-only calls elsewhere). */
export function unmappedSyscalls(arch: string = process.arch): string[] {
  const a = ARCHES[arch];
  return a ? DENY.filter((n) => a.nr[n] === undefined) : [...DENY];
}

export function seccompSupported(arch: string = process.arch): boolean {
  return arch in ARCHES;
}
