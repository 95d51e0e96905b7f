// A client's request, read from its header frame, and whether the resident sbx can run it as the
// Node CLI started by that client would. It runs it with the client's cwd, environment and streams;
// what belongs to a process and cannot differ per request (Node's and sbx's process-level settings,
// the umask, the groups) must be the server's own, else the client runs the Node CLI itself.
import { isAbsolute, resolve } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { PROTO } from './protocol.js';

export interface Request {
  proto: string;
  key: string;
  cwd: string;
  umask: number;
  groups: number[];
  /** The client's /proc/self/cgroup. */
  cgroup: string;
  argv: string[];
  env: Record<string, string>;
}

export function parseHeader(payload: Buffer): Request | null {
  const f = payload.toString('utf8').split('\0');
  if (f.at(-1) === '') f.pop(); // every field ends in NUL
  const ARGV = 7;
  if (f.length < ARGV) return null;
  const [proto = '', key = '', cwd = '', umask = '', groups = '', cgroup = '', argc = ''] = f;
  const n = Number(argc);
  if (!/^\d+$/.test(argc) || ARGV + n > f.length || !/^[0-7]{1,4}$/.test(umask) || !/^\d+(,\d+)*$/.test(groups)) return null;
  const env: Record<string, string> = {};
  for (const kv of f.slice(ARGV + n)) {
    const i = kv.indexOf('=');
    if (i > 0 && !Object.hasOwn(env, kv.slice(0, i))) env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return { proto, key, cwd, umask: parseInt(umask, 8), groups: groups.split(',').map(Number), cgroup, argv: f.slice(ARGV, ARGV + n), env };
}

export const keyMatches = (given: string, key: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
};

const HOOKS = new Set(['claude-pre', 'claude-post', 'codex-pre', 'codex-post', 'gemini-pre', 'gemini-post']);

/** What the resident sbx runs: a hook, `sbx run` or `sbx host` (their --help is the Node CLI's). As in native/client.c. */
export function served(argv: readonly string[]): boolean {
  if (argv.length === 2 && argv[0] === 'hook') return HOOKS.has(argv[1]!);
  if (argv[0] !== 'run' && argv[0] !== 'host') return false;
  const dash = argv.indexOf('--');
  return !(dash < 0 ? argv : argv.slice(0, dash)).some((a) => a === '--help' || a === '-h');
}

/**
 * Variables read once per process (at start, or by Node itself) that can change what the CLI does or
 * prints, which a request cannot change: Node's options, module path, ICU data, debug output and
 * coverage, TZ, TMPDIR, and sbx's own settings except those read per call. Others of Node's (say
 * NODE_EXTRA_CA_CERTS, which agents set differently) do not touch `sbx run` or a hook.
 */
const PER_CALL = new Set(['SBX_CONFIG', 'SBX_DEBUG', 'SBX_RESIDENT']);
const NODE_LEVEL = new Set([
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_ICU_DATA',
  'NODE_DEBUG',
  'NODE_DEBUG_NATIVE',
  'NODE_V8_COVERAGE',
  'NODE_COMPILE_CACHE',
  'NODE_PENDING_DEPRECATION',
  'NODE_NO_WARNINGS',
  'TZ',
  'TMPDIR',
]);
const processLevel = (name: string): boolean => NODE_LEVEL.has(name) || (name.startsWith('SBX_') && !PER_CALL.has(name));

const ownLevels = new WeakMap<NodeJS.ProcessEnv, string[]>();
/** The process-level names of the server's environment (with a value: one unset reads as ''). */
function ownLevel(env: NodeJS.ProcessEnv): string[] {
  let names = ownLevels.get(env);
  if (!names) ownLevels.set(env, (names = Object.keys(env).filter((n) => processLevel(n) && env[n] !== undefined)));
  return names;
}

/** Why this server cannot run req as the client's own Node would, or null when it can. */
export function mismatch(req: Request, own: { env: NodeJS.ProcessEnv; umask: number; groups: number[]; cgroup: string }): string | null {
  if (req.proto !== PROTO) return `protocol ${req.proto}, this server speaks ${PROTO}`;
  if (!isAbsolute(req.cwd)) return 'no absolute cwd';
  if (!served(req.argv)) return 'not a call the resident sbx runs';
  // Every name either side has, the request's first (as one set of both would list them), the
  // server's process-level ones listed once per server (its environment is its own, never changed).
  for (const name in req.env) {
    if (processLevel(name) && req.env[name] !== (own.env[name] ?? '')) return `${name} differs from the server's`;
  }
  for (const name of ownLevel(own.env)) {
    if (!Object.hasOwn(req.env, name) && own.env[name] !== '') return `${name} differs from the server's`;
  }
  if (req.umask !== own.umask) return 'another umask';
  // The effective gid first, then the supplementary groups (which may or may not list it again).
  const set = (g: number[]): string => [...new Set(g)].sort((x, y) => x - y).join();
  const sameGroups = (a: number[], b: number[]): boolean => a[0] === b[0] && set(a) === set(b);
  if (!sameGroups(req.groups, own.groups)) return 'other groups';
  // --memory puts the run's limit in a cgroup made beside the caller's (src/launcher/cgroup.ts).
  const dash = req.argv.indexOf('--');
  const flags = dash < 0 ? req.argv : req.argv.slice(0, dash);
  if (flags.some((a) => a === '--memory' || a.startsWith('--memory=')) && req.cgroup !== own.cgroup) return 'a --memory run from another cgroup';
  return null;
}

/** Flags of `sbx run` that name files the CLI opens as given (relative to its cwd), and the part of the value that is a path. */
const PATH_FLAGS: Record<string, (v: string, cwd: string) => string> = {
  state: (v, cwd) => resolve(cwd, v),
  envelope: (v, cwd) => resolve(cwd, v),
  sarif: (v, cwd) => resolve(cwd, v),
  // SRC[:DST]: only the source is the host's.
  bind: (v, cwd) => {
    const i = v.indexOf(':');
    return i === 0 ? v : i < 0 ? `${resolve(cwd, v)}:${resolve(cwd, v)}` : `${resolve(cwd, v.slice(0, i))}${v.slice(i)}`;
  },
  'ro-bind': (v, cwd) => PATH_FLAGS.bind!(v, cwd),
};
const PATH_VARS = ['SBX_CONFIG', 'CLAUDE_PROJECT_DIR', 'CODEX_HOME', 'GEMINI_CLI_HOME', 'GEMINI_CLI_SYSTEM_SETTINGS_PATH', 'HOME', 'XDG_CONFIG_HOME'];

/**
 * argv and env with the paths the CLI would open relative to its cwd made absolute: this process's
 * own cwd is not the client's (path.resolve is, through process.cwd(): src/cli/resident/context.ts).
 */
export function absolutePaths(req: Request): { argv: string[]; env: Record<string, string> } {
  const argv = [...req.argv];
  const dash = argv[0] === 'run' ? (argv.indexOf('--') < 0 ? argv.length : argv.indexOf('--')) : 0;
  for (let i = 1; i < dash; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') ? a.slice(2, eq < 0 ? undefined : eq) : '';
    const fix = Object.hasOwn(PATH_FLAGS, name) ? PATH_FLAGS[name] : undefined;
    if (!fix) continue;
    if (eq >= 0) {
      argv[i] = `--${name}=${fix(a.slice(eq + 1), req.cwd)}`;
      continue;
    }
    if (i + 1 < dash && argv[i + 1]) {
      argv[i + 1] = fix(argv[i + 1]!, req.cwd);
      i++;
    }
  }
  const env = { ...req.env };
  for (const v of PATH_VARS) if (env[v] && !isAbsolute(env[v]!)) env[v] = resolve(req.cwd, env[v]!);
  return { argv, env };
}
