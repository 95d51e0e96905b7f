// Profile -> spec: turns the hermetic defaults plus the caller's opt-ins into sbx-launch's argv.
// All policy lives here; the launcher applies what it is given and reports what took effect.
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, type Dirent } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { cgroupPlace } from './cgroup.js';
import { landlockArgs, landlockAsk, type LandlockAsk } from './landlock.js';
import { packageRoot } from './package-root.js';
import { realOr } from './trusted-path.js';
import { splitSpace } from './words.js';
import { SbxError } from '../contract/index.js';
import type { LaunchOptions } from './types.js';

/** Host directories shown read-only; on merged-/usr systems most are symlinks and are copied as such. */
export const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];
/** Paths of the fresh /proc made read-only or hidden. */
export const PROC_READ_ONLY = ['/proc/sys', '/proc/sysrq-trigger', '/proc/irq', '/proc/bus'];
export const PROC_HIDDEN = ['/proc/kcore', '/proc/timer_list', '/proc/sched_debug'];

export const SANDBOX_UID = 1000;
export const SANDBOX_GID = 1000;
/**
 * The host ids the sandbox user maps to when host root runs sbx (nobody/nogroup), instead of root's
 * own: otherwise every root-owned file the sandbox can reach (0600 keys in /opt or /root) is its own.
 * The work dir and binds are id-mapped so that root's files there still belong to the sandbox user.
 */
export const ROOT_MAPS_TO = 65534;
export const HOSTNAME = 'sbx';
export const DEFAULT_PIDS = 4096;
export const NOFILE = 65536;
export const FSIZE_BYTES = 16 * 2 ** 30;
export const SOURCE_DATE_EPOCH = '315532800'; // 1980-01-01, the earliest time zip can store
export const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/**
 * HOME inside the sandbox when the caller gives it one (LaunchOptions.home; run() gives each project its
 * own, kept between runs): tool caches (~/.cargo, ~/.cache, ~/.npm) land there, not in the work tree.
 */
export const SANDBOX_HOME = '/home/sbx';
/** Where a sandbox with a HOME keeps Python's bytecode. */
export const PYCACHE_PREFIX = `${SANDBOX_HOME}/.cache/sbx-pycache`;
/**
 * Python's bytecode never in the work tree (issue 29): a .pyc written in the sandbox names /work/... (its
 * co_filename), and pytest's rewritten tests keep that name, so a host run reusing it printed
 * `/work/tests/test_x.py:22: ???`. With a HOME, kept under it (PYTHONPYCACHEPREFIX): re-runs stay fast, though
 * a prefix hides the system's __pycache__ too, so a project's first run compiles the stdlib it imports
 * (`import pytest`: 195 modules, +0.55 s, once). Without one (/tmp is new each run) none is written, and the
 * system's and the tree's own are read. The caller's PYTHONPYCACHEPREFIX or PYTHONDONTWRITEBYTECODE wins.
 */
export function pythonBytecodeEnv(env: Record<string, string>, home: boolean): Record<string, string> {
  if (env.PYTHONPYCACHEPREFIX !== undefined || env.PYTHONDONTWRITEBYTECODE) return {};
  return home ? { PYTHONPYCACHEPREFIX: PYCACHE_PREFIX } : { PYTHONDONTWRITEBYTECODE: '1' };
}
const MiB = 2 ** 20;
const TOTAL_MEMORY = totalmem(); // read from /proc/meminfo: once
/** /tmp and /dev/shm are tmpfs, that is host memory: bounded in bytes and inodes. */
export const TMP_BYTES_DEFAULT = Math.min(Math.floor(TOTAL_MEMORY / 4 / MiB), 4096) * MiB;
export const TMP_INODES = 1 << 20;
export const SHM_BYTES = Math.min(Math.floor(TOTAL_MEMORY / 8 / MiB), 1024) * MiB;
export const SHM_INODES = 1 << 16;
/**
 * The raw log's cap (--max-log): past it the launcher keeps the first and the last half and drops the
 * middle (native/log.c). 64 MiB: a verdict reads a build's first errors in the head and a test run's
 * summary in the tail, and eight such logs fit the state's 512 MiB of kept logs (state/store.ts).
 */
export const MAX_LOG_DEFAULT = 64 * MiB;
/** The smallest cap: the verdict engine's tail of a run (launch.ts, TAIL_BYTES). */
export const MIN_MAX_LOG = 64 * 1024;

// Sanitizers: complete, symbolized reports with stable shape, and no core files. LeakSanitizer
// stops the world with ptrace, which the default seccomp policy denies; there leak checking is off
// rather than failing every ASan run with "LeakSanitizer has encountered a fatal error". With
// --allow-ptrace (or --no-seccomp) it is on. `leaks` says whether ptrace is allowed.
const sanitizerEnv = (leaks: boolean): Record<string, string> => ({
  ASAN_OPTIONS: [
    'abort_on_error=0',
    'halt_on_error=1',
    'symbolize=1',
    'print_summary=1',
    'color=never',
    'disable_coredump=1',
    'handle_abort=1',
    'allocator_may_return_null=0',
    'strip_path_prefix=/work/',
    `detect_leaks=${leaks ? 1 : 0}`,
  ].join(':'),
  UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1:symbolize=1:color=never:strip_path_prefix=/work/',
  LSAN_OPTIONS: 'symbolize=1:print_suppressions=0:strip_path_prefix=/work/',
  TSAN_OPTIONS: 'halt_on_error=1:symbolize=1:second_deadlock_stack=1:color=never:strip_path_prefix=/work/',
});

/** The fixed environment of the default profile; leaks: ptrace is allowed, so LeakSanitizer can run. */
export function fixedEnv(leaks = false): Record<string, string> {
  return {
    PATH,
    HOME: '/work',
    USER: 'sbx',
    LOGNAME: 'sbx',
    SHELL: '/bin/sh',
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TZ: 'UTC',
    TERM: 'dumb',
    NO_COLOR: '1',
    PYTHONHASHSEED: '0',
    SOURCE_DATE_EPOCH,
    ...sanitizerEnv(leaks),
  };
}

type SystemEntry = { kind: 'dir'; path: string } | { kind: 'link'; path: string; target: string };
let systemLayout: SystemEntry[] | null = null;

function hostLayout(): SystemEntry[] {
  if (systemLayout) return systemLayout;
  const out: SystemEntry[] = [];
  // The root's listing tells each entry's type (d_type): one getdents where each path's lstat made a
  // Stats (four Dates). A type the listing leaves unknown, or no listing, is asked by lstat as before.
  let listed: Map<string, Dirent> | null;
  try {
    listed = new Map(readdirSync('/', { withFileTypes: true }).map((d) => [`/${d.name}`, d]));
  } catch {
    listed = null;
  }
  for (const path of SYSTEM_PATHS) {
    try {
      const d = listed && path.lastIndexOf('/') === 0 ? (listed.get(path) ?? 'absent') : null;
      if (d === 'absent') continue;
      // Absent told without a throw: a cold process's first exception costs ~0.1 ms (/libx32 on most hosts).
      const st =
        d && (d.isSymbolicLink() || d.isDirectory() || d.isFile() || d.isFIFO() || d.isSocket() || d.isCharacterDevice() || d.isBlockDevice()) ? d : lstatSync(path, { throwIfNoEntry: false });
      if (st?.isSymbolicLink()) out.push({ kind: 'link', path, target: readlinkSync(path) });
      else if (st?.isDirectory()) out.push({ kind: 'dir', path });
    } catch {
      // absent on this host: nothing to show
    }
  }
  systemLayout = out;
  return out;
}

let mapsAway: boolean | undefined;

/**
 * Whether the caller is root and can map the sandbox user to ROOT_MAPS_TO: real root, or root of a
 * user namespace whose maps include that id. Root of a namespace that maps only itself (unshare -r)
 * is no one outside, and keeps the ordinary one-id mapping.
 */
export function rootMapsAway(): boolean {
  if (mapsAway !== undefined) return mapsAway;
  const covers = (file: string): boolean => {
    try {
      return readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .some((line) => {
          const [inside, , count] = splitSpace(line.trim()).map(Number);
          return inside !== undefined && count !== undefined && inside <= ROOT_MAPS_TO && ROOT_MAPS_TO < inside + count;
        });
    } catch {
      return false;
    }
  };
  return (mapsAway = process.getuid?.() === 0 && covers('/proc/self/uid_map') && covers('/proc/self/gid_map'));
}

/**
 * native/etc of this package: a fixed /etc/passwd and /etc/group naming the sandbox user `sbx`
 * (1000), so that `id -un`, `ls -l` and `whoami` print the same on every host instead of whichever
 * host account has uid 1000: [source, destination] pairs, none when the package has no such files.
 */
function identityFiles(): Array<[string, string]> {
  if (identity) return identity;
  const root = packageRoot();
  const dir = root && existsSync(join(root, 'native', 'etc', 'passwd')) ? join(root, 'native', 'etc') : null;
  // Looked up once per process: the package and the host's /etc do not move under a running sbx.
  identity = dir ? ['passwd', 'group'].filter((f) => existsSync(`/etc/${f}`)).map((f) => [realOr(join(dir, f)), `/etc/${f}`]) : [];
  return identity;
}
let identity: Array<[string, string]> | null = null;

/**
 * Why host root may not turn the filter off: root's sandbox writes the work dir through an id-mapped
 * mount, so what it leaves there is root's on the host. The filter is what refuses set-id modes, and
 * without it a user namespace inside can give a file `security.capability` (cap_setuid): either way a
 * root-owned program that raises whoever runs it on the host.
 */
export const NO_SECCOMP_AS_ROOT =
  "--no-seccomp is refused when root runs sbx: files the sandbox leaves in the work dir are root's on the host, and without the syscall filter it can make them set-uid or give them file capabilities (cap_setuid); fix: run sbx as an ordinary user, or use --allow-ptrace instead (LeakSanitizer works with the filter on)";

let cgroupSeq = 0;

export interface Spec {
  argv: string[];
  /** The environment the command gets (for diagnostics). */
  env: Record<string, string>;
  seccomp: boolean;
  /** What Landlock is asked to keep (src/launcher/landlock.ts). */
  landlock: LandlockAsk;
  /** Where the work dir is shown a second time, at its host path, or why not (workAlias). */
  workAlias: WorkAlias;
}

/** The work dir's host path inside the sandbox (besides /work), or null and why it is not there. */
export interface WorkAlias {
  path: string | null;
  reason: string | null;
}

const under = (p: string, d: string): boolean => p === d || p.startsWith(d === '/' ? '/' : `${d}/`);

/**
 * Whether the work dir can also be shown at its host path `host` (real, absolute): a project set up on the
 * host names it (a venv's `#!/home/u/proj/.venv/bin/python`, a CMake build dir's Makefiles). It is the same
 * tree as /work (native --rebind: every mount below /work comes along), so nothing new is reachable or
 * writable; it is left out where it would need a mount point in a read-only system dir or cover another mount.
 * `taken`: the other mount destinations of the spec.
 */
export function workAlias(host: string, taken: readonly string[]): WorkAlias {
  const skip = (reason: string): WorkAlias => ({ path: null, reason: `the work dir's host path ${host} ${reason}` });
  if (!isAbsolute(host) || host.split('/').includes('..')) return skip('is not a plain absolute path');
  if (host === '/') return skip('is /, the sandbox root');
  if (under(host, '/work')) return skip('is /work or under it, where the sandbox shows the work dir anyway');
  const system = [...SYSTEM_PATHS, '/proc', '/sys', '/dev'].find((d) => under(host, d) || under(throughSystemLinks(host), d));
  if (system !== undefined) return skip(`is under ${system}, a system dir the sandbox shows read-only (no mount point can be made there)`);
  if (host === '/tmp') return skip("is /tmp, the sandbox's own tmpfs");
  const cover = taken.find((d) => under(host, d) || under(d, host));
  if (cover !== undefined) return skip(`would ${under(host, cover) ? 'sit inside' : 'cover'} the sandbox's mount at ${cover}`);
  return { path: host, reason: null };
}

/** Where the --allow-host forwarder listens inside the sandbox, and where the proxy's socket is bound. */
export const PROXY_PORT = 3128;
export const PROXY_SOCKET = '/run/sbx-proxy.sock';

/** The proxy settings of the tools a build runs: curl, npm, pip, cargo, git, Go all read one of these. */
export function proxyEnv(port: number = PROXY_PORT): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const local = 'localhost,127.0.0.1,::1';
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NO_PROXY: local,
    no_proxy: local,
    // The same port speaks SOCKS5 (names resolved by the proxy: socks5h), for a client that knows no HTTP proxy.
    ALL_PROXY: `socks5h://127.0.0.1:${port}`,
    all_proxy: `socks5h://127.0.0.1:${port}`,
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    PIP_PROXY: url,
    CARGO_HTTP_PROXY: url,
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.proxy',
    GIT_CONFIG_VALUE_0: url,
  };
}

/**
 * Builds sbx-launch's argv (without the binary itself). fd 3 is the status report, fd 4 the BPF.
 * `proxySocket`: the host path of the --allow-host proxy's socket, bound in and forwarded to from loopback.
 */
export function buildSpec(opts: LaunchOptions, work: string, proxySocket: string | null = null): Spec {
  if (proxySocket !== null && opts.net === true) throw new SbxError('E_BAD_OPTIONS', '--allow-host and --net do not go together: --net shares the whole host network; fix: drop one');
  const net = opts.net === true;
  const seccomp = opts.seccomp !== false;
  const loopback = !net && opts.loopback !== false;
  const pids = opts.pids ?? DEFAULT_PIDS;
  const a: string[] = ['--status-fd', '3'];
  if (seccomp) a.push('--seccomp-fd', '4');

  a.push('--unshare-user', '--unshare-pid', '--unshare-mount', '--unshare-uts', '--unshare-ipc', '--unshare-cgroup');
  if (!net) a.push('--unshare-net');
  a.push('--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_GID), '--hostname', HOSTNAME);
  const mapped = rootMapsAway();
  if (mapped) a.push('--map-uid', String(ROOT_MAPS_TO), '--map-gid', String(ROOT_MAPS_TO));
  const idmap = mapped ? ['--idmap'] : [];

  for (const e of hostLayout()) {
    if (e.kind === 'link') a.push('--symlink', e.target, e.path);
    else a.push('--ro-bind', e.path, e.path);
  }
  const dst = (d: string): string => throughSystemLinks(d);
  // (--idmap for host root: the package may sit where its mapped id cannot reach, such as /root.)
  for (const [src, dstPath] of identityFiles()) a.push('--ro-bind', src, dstPath, ...idmap);
  if (net && existsSync('/run/systemd/resolve')) a.push('--ro-bind', '/run/systemd/resolve', '/run/systemd/resolve');
  // The launcher opens bind sources after its pivot, where an absolute symlink (a work dir reached
  // through a symlinked home, a ~/.cargo link) would point into the new root: pass real paths.
  // /tmp's tmpfs before the binds: a --bind or --ro-bind into /tmp (a cache at /tmp/x) lands inside it,
  // not under it, where the tmpfs mounted later would hide it.
  const tmpBytes = opts.tmpMb !== undefined ? Math.round(opts.tmpMb * MiB) : TMP_BYTES_DEFAULT;
  a.push('--tmpfs', '/tmp', '--size', String(tmpBytes), '--nr-inodes', String(TMP_INODES));
  a.push('--bind', realOr(work), '/work', ...idmap);
  if (opts.home !== undefined) a.push('--bind', realOr(resolve(opts.home)), SANDBOX_HOME, ...idmap);
  if (proxySocket !== null) a.push('--ro-bind', proxySocket, PROXY_SOCKET, ...idmap, '--forward-unix', `${PROXY_SOCKET}:${PROXY_PORT}`);
  for (const m of opts.roBind ?? []) a.push('--ro-bind', realOr(resolve(m.src)), dst(m.dst), ...idmap);
  for (const m of opts.bind ?? []) a.push('--bind', realOr(resolve(m.src)), dst(m.dst), ...idmap);
  for (const p of opts.protect ?? []) a.push('--protect', p);
  for (const p of opts.hide ?? []) a.push('--hide', dst(p));
  for (const p of opts.hideEmpty ?? []) a.push('--hide-empty', dst(p));
  a.push('--dev', '/dev', '--size', String(SHM_BYTES), '--nr-inodes', String(SHM_INODES));
  a.push('--proc', '/proc');
  for (const p of PROC_READ_ONLY) a.push('--remount-ro', p);
  for (const p of PROC_HIDDEN) a.push('--hide', p);
  // A fresh sysfs needs a network namespace of our own; with the host network, bind it read-only.
  if (net) a.push('--ro-bind', '/sys', '/sys');
  else a.push('--sysfs', '/sys');
  // Last of the mounts: the work dir at its host path too, with every mount now below /work (and inside /tmp's tmpfs).
  const alias = workAliasOf(opts, work);
  if (alias.path !== null) a.push('--rebind', '/work', alias.path);
  a.push('--pid-max', String(Math.max(301, pids + 1)));
  a.push('--ro-root');
  if (loopback) a.push('--loopback');
  a.push('--chdir', opts.cwd ?? '/work');

  const env: Record<string, string> =
    opts.inheritEnv === true ? Object.fromEntries(Object.entries(process.env).filter((kv): kv is [string, string] => kv[1] !== undefined)) : fixedEnv(!seccomp || opts.allowPtrace === true);
  if (opts.home !== undefined && opts.inheritEnv !== true) env.HOME = SANDBOX_HOME;
  if (proxySocket !== null) Object.assign(env, proxyEnv());
  Object.assign(env, opts.env ?? {});
  Object.assign(env, pythonBytecodeEnv(env, opts.home !== undefined));
  a.push('--clearenv');
  for (const [k, v] of Object.entries(env)) a.push('--setenv', k, v);

  if (opts.aslr !== true) a.push('--no-aslr');
  a.push('--no-new-privs', '--setsid', '--drop-caps', '--new-session-keyring');
  const writable = [...(opts.home !== undefined ? [SANDBOX_HOME] : []), ...(opts.bind ?? []).map((m) => dst(m.dst))];
  const landlock = landlockAsk(writable, proxySocket !== null ? PROXY_PORT : null);
  a.push(...landlockArgs(landlock));
  const timeout = opts.timeout;
  const cpuSeconds = Math.ceil((timeout ?? 3600) * availableParallelism()) + 5;
  a.push('--rlimit', 'CPU', String(cpuSeconds), '--rlimit', 'NOFILE', String(NOFILE));
  a.push('--rlimit', 'FSIZE', String(FSIZE_BYTES), '--rlimit', 'NPROC', String(pids), '--rlimit', 'CORE', '0');
  if (timeout !== undefined) a.push('--timeout-ms', String(Math.max(1, Math.round(timeout * 1000))));
  a.push('--max-log', String(opts.maxLog ?? MAX_LOG_DEFAULT));
  if (opts.pace !== undefined) a.push('--pace', opts.pace);

  const place = cgroupPlace();
  if (place.parent !== null) {
    const memory = opts.memoryMb ?? Math.floor(TOTAL_MEMORY / 2 ** 21); // half the RAM by default
    a.push('--cgroup', `${place.parent}/sbx-${process.pid}-${++cgroupSeq}`);
    a.push('--cgroup-set', 'memory.max', String(memory * 2 ** 20));
    a.push('--cgroup-set', 'pids.max', String(pids));
  } else {
    a.push('--cgroup-skip', place.reason);
  }
  a.push('--', ...opts.cmd);
  return { argv: a, env, seccomp, landlock, workAlias: alias };
}

/** workAlias for the spec buildSpec makes of opts: the host path of work, and the spec's other mount destinations. */
export function workAliasOf(opts: LaunchOptions, work: string): WorkAlias {
  const dst = (d: string): string => throughSystemLinks(d);
  const taken = [
    ...(opts.home !== undefined ? [SANDBOX_HOME] : []),
    ...(opts.allowHosts?.length ? [PROXY_SOCKET] : []),
    ...(opts.net === true ? ['/run/systemd/resolve'] : []),
    ...[...(opts.roBind ?? []), ...(opts.bind ?? [])].map((m) => dst(m.dst)),
    ...[...(opts.hide ?? []), ...(opts.hideEmpty ?? []), ...(opts.protect ?? [])].filter((p) => !under(p, '/work')).map(dst),
  ];
  return workAlias(realOr(resolve(work)), taken);
}

/** Parses `SRC[:DST]` (the CLI's --bind/--ro-bind) into a mount. */
export function parseMount(s: string): { src: string; dst: string } {
  const i = s.indexOf(':');
  const src = i < 0 ? s : s.slice(0, i);
  const dst = i < 0 ? resolve(s) : s.slice(i + 1);
  if (!src || !isAbsolute(dst)) throw new SbxError('E_BAD_MOUNT', `bad mount "${s}": the destination must be an absolute path; fix: write SRC or SRC:/ABS/DST`);
  return { src, dst };
}

/**
 * A destination as the new root spells it: the launcher refuses any mount point that crosses a
 * symlink inside the sandbox (one planted in /work could lead out), and on a merged-/usr host
 * /bin, /lib, ... are such symlinks; `/bin/tool` becomes `/usr/bin/tool`.
 */
export function throughSystemLinks(d: string): string {
  for (const e of hostLayout()) {
    if (e.kind !== 'link' || !(d === e.path || d.startsWith(`${e.path}/`))) continue;
    const target = e.target.startsWith('/') ? e.target : resolve('/', e.target);
    return resolve(target + d.slice(e.path.length));
  }
  return d;
}
