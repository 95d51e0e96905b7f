// The user's toolchains, not the sandbox's (issue 31 §2): a command resolved the way the caller's shell
// resolves it. pyenv, rustup, nvm, uv, go and conda live under the caller's home, which the sandbox does
// not show; without them `python3` is the system's, a pyenv-based venv's python is not there (exit 127).
// The roots a run uses (a PATH entry, a venv's pyvenv.cfg `home =`, the command's own path) are bound
// read-only at the same absolute path, their bin dirs keep their place in PATH, and a command that still
// resolves to another tool than the shell's is said in a note. Only roots under the caller's home, and
// never one that is or holds a secret (~/.ssh, ~/.aws, ~/.config/gh, ~/.netrc, tokens, shell history).
import { accessSync, closeSync, constants, existsSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { PATH as FIXED_PATH, SYSTEM_PATHS, type Mount } from '../launcher/index.js';

/** One toolchain the sandbox shows: its name and its root (the real path, as bound). */
export interface Toolchain {
  name: string;
  root: string;
}

export interface ToolchainPlan {
  /** What the applied record says (outcome.applied.toolchains). */
  toolchains: Toolchain[];
  /** Read-only binds, each at its own path (real and, when it differs, as the caller spells it). */
  roBind: Mount[];
  /** PATH and the toolchains' variables (PYENV_ROOT, RUSTUP_HOME, CARGO_HOME, NVM_DIR, GOPATH). */
  env: Record<string, string>;
  /** Where the command (and its interpreter) resolve to something other than in the caller's shell. */
  notes: string[];
}

/**
 * Relative to the home: never bound, nor any root that holds one. Names with history, token, secret,
 * credential, password or keyring in them are refused too (secretName).
 */
export const SECRET_DIRS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/hub',
  '.config/gcloud',
  '.azure',
  '.netrc',
  '.docker',
  '.kube',
  '.git-credentials',
  '.password-store',
  '.pypirc',
  '.npmrc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.local/share/keyrings',
  '.vault-token',
];
const SECRET_WORDS = ['history', 'token', 'secret', 'credential', 'password', 'keyring'];
/**
 * Whether part holds one of SECRET_WORDS in any ASCII case (as /history|token|secret|credential|password|keyring/i
 * told, whose compile and tier-up at a cold run's first plan cost ~0.1 ms): only A-Z is lowered, as that
 * regex folds no other character to these letters.
 */
function secretName(part: string): boolean {
  let low = '';
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    low += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : part[i];
  }
  return SECRET_WORDS.some((w) => low.includes(w));
}

interface Kind {
  name: string;
  dirs: string[];
  env?: (dirs: string[], sandboxHome: string) => Record<string, string>;
}

/** The toolchain roots sbx knows, as this caller's environment places them. */
function kinds(home: string, e: NodeJS.ProcessEnv): Kind[] {
  const at = (v: string | undefined, d: string): string => (v && isAbsolute(v) ? v : join(home, d));
  const cargo = at(e.CARGO_HOME, '.cargo');
  const data = at(e.XDG_DATA_HOME, '.local/share');
  const out: Kind[] = [
    { name: 'pyenv', dirs: [at(e.PYENV_ROOT, '.pyenv')], env: ([d]) => ({ PYENV_ROOT: d!, ...pass(e, 'PYENV_VERSION') }) },
    // cargo's registry and git caches go to the sandbox's home (CARGO_HOME): ~/.cargo itself holds
    // credentials.toml, so only its bin dir (the rustup proxies) is shown.
    {
      name: 'rustup',
      dirs: [at(e.RUSTUP_HOME, '.rustup'), join(cargo, 'bin')],
      env: ([d], h) => ({ RUSTUP_HOME: d!, CARGO_HOME: `${h}/.cargo`, ...pass(e, 'RUSTUP_TOOLCHAIN'), ...pass(e, 'RUSTUP_AUTO_INSTALL') }),
    },
    { name: 'nvm', dirs: [at(e.NVM_DIR, '.nvm')], env: ([d]) => ({ NVM_DIR: d! }) },
    { name: 'uv', dirs: [join(data, 'uv')] },
    { name: 'go', dirs: [at(e.GOPATH, 'go')], env: ([d]) => ({ GOPATH: d! }) },
    { name: 'go', dirs: [join(home, 'sdk')] },
  ];
  if (e.GOROOT && isAbsolute(e.GOROOT)) out.push({ name: 'go', dirs: [e.GOROOT], env: ([d]) => ({ GOROOT: d! }) });
  for (const d of ['miniconda3', 'anaconda3', 'miniforge3', 'mambaforge', 'micromamba', '.conda/envs']) out.push({ name: 'conda', dirs: [join(home, d)] });
  if (e.CONDA_PREFIX && isAbsolute(e.CONDA_PREFIX)) out.push({ name: 'conda', dirs: [e.CONDA_PREFIX] });
  return out;
}

function pass(e: NodeJS.ProcessEnv, k: string): Record<string, string> {
  const v = e[k];
  return v ? { [k]: v } : {};
}

const under = (p: string, d: string): boolean => p === d || p.startsWith(d.endsWith(sep) ? d : `${d}${sep}`);

type Real = (p: string) => string | null;

/**
 * realpath, each path resolved once per plan (PATH entries, the command, the roots are asked for more
 * than once). A path that is missing is told by existsSync, which does not throw: most toolchain roots are
 * missing on a given machine, and a realpath that throws costs several times the syscall. Not a stat:
 * its Stats (four Dates) were built for nothing, ~25 per cold run.
 */
function realpaths(): Real {
  const seen = new Map<string, string | null>();
  return (p) => {
    let r = seen.get(p);
    if (r === undefined) {
      looked?.(p, 1);
      try {
        r = existsSync(p) ? realpathSync.native(p) : null;
      } catch {
        r = null;
      }
      seen.set(p, r);
    }
    return r;
  };
}

/** Whether dir (a real path) may be shown: strictly under the home, no secret in it or on the way to it. */
export function bindable(dir: string, home: string): boolean {
  if (dir === home || !under(dir, home)) return false;
  const rel = dir.slice(home.length + 1);
  if (rel.split(sep).some(secretName)) return false;
  return !SECRET_DIRS.some((s) => under(rel, s) || under(s, rel));
}

/** The caller's home by real path: $HOME, else the password database's. */
function callerHome(e: NodeJS.ProcessEnv, real: Real): string | null {
  const h =
    e.HOME && isAbsolute(e.HOME)
      ? e.HOME
      : (() => {
          try {
            return homedir();
          } catch {
            return '';
          }
        })();
  return h ? real(h) : null;
}

function executable(p: string): boolean {
  looked?.(p, 2);
  try {
    accessSync(p, constants.X_OK);
    return !p.endsWith(sep);
  } catch {
    return false;
  }
}

/** What a shell's `command -v` finds for name on path (absolute as given; a name with a slash as is). */
function which(name: string, path: string[], cwd: string): string | null {
  if (name.includes('/')) return executable(resolve(cwd, name)) ? resolve(cwd, name) : null;
  for (const d of path) if (d && isAbsolute(d) && executable(join(d, name))) return join(d, name);
  return null;
}

/** The interpreter a script names on its `#!` line: `/usr/bin/env python3` gives python3, else the path. */
function interpreter(file: string): string | null {
  let head: string;
  let fd = -1;
  looked?.(file, 2);
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK); // a FIFO on PATH must not block the run
    const buf = Buffer.alloc(256);
    head = buf.toString('latin1', 0, readSync(fd, buf, 0, 256, 0));
  } catch {
    return null;
  } finally {
    if (fd >= 0) closeSync(fd);
  }
  if (!head.startsWith('#!')) return null;
  const words = head.slice(2).split('\n')[0]!.trim().split(/\s+/);
  if (words[0] === '/usr/bin/env' || words[0] === '/bin/env') return words.slice(1).find((w) => !w.startsWith('-') && !w.includes('=')) ?? null;
  return words[0] ?? null;
}

/** A venv's python home (pyvenv.cfg `home =`), or null. */
function venvHome(venv: string): string | null {
  const cfg = join(venv, 'pyvenv.cfg');
  looked?.(cfg, 2);
  try {
    if (!existsSync(cfg)) return null; // the usual case, told without a throw or a Stats
    const m = /^\s*home\s*=\s*(.+?)\s*$/m.exec(readFileSync(cfg, 'utf8'));
    return m && isAbsolute(m[1]!) ? m[1]! : null;
  } catch {
    return null;
  }
}

export interface PlanInput {
  cmd: readonly string[];
  /** The work dir on the host (the sandbox's /work). */
  work: string;
  /** Where the command starts, relative to the work dir. */
  sub: string;
  /** HOME inside the sandbox. */
  sandboxHome: string;
  /** The caller's environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** PATH the caller set for the sandbox (--env PATH=...): then it is theirs, and no note compares it. */
  pathGiven?: boolean;
  /** The sandbox shows the work dir at its host path too (applied.work_alias), not only at /work. */
  workShown?: boolean;
}

/** Told each path a plan reads: resolved (realpath) or read (access, open, a config's text). Set while a plan is made. */
let looked: ((path: string, how: Look) => void) | null = null;
/** 1: resolved, where only its real path counts; 2: read, where what it is (device, inode, type), its mode, size and times count. */
type Look = 1 | 2;

/**
 * What a path looked like, as far as a plan's reading of it goes. Resolved only (how 1): its real path,
 * all the plan takes of it (realpaths()). Read: its device, inode and type, mode, size and ns times (and
 * its real path when resolved too). '' when there is none; null when read and changed too recently to
 * tell a later change by its times (the file system's clock is coarse: a rewrite in the same tick can
 * keep them).
 */
function looks(path: string, how: number, now: bigint): string | null {
  if (how === 1) {
    try {
      return `>${realpathSync.native(path)}`;
    } catch {
      return existsSync(path) ? '>!' : '';
    }
  }
  let st;
  try {
    st = statSync(path, { throwIfNoEntry: false, bigint: true });
  } catch (err) {
    return `!${(err as NodeJS.ErrnoException).code}`;
  }
  if (!st) return '';
  let r = `${st.dev}:${st.ino}:${st.mode & 0o170000n}`;
  if (now - st.ctimeNs < RACY_NS || now - st.mtimeNs < RACY_NS) return null;
  r += `:${st.mode}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  if (how & 1) {
    try {
      r += `>${realpathSync.native(path)}`;
    } catch {
      r += '>!';
    }
  }
  return r;
}

/**
 * Whether path still looks as it did (was, from looks), in one call where that tells it: a path that was
 * missing is still missing (existsSync: what the plan got from it, a null real path or a failed read, is
 * the same), one only resolved still resolves to the same real path (realpath alone: no stat).
 */
function same(path: string, how: number, was: string, now: bigint): boolean {
  if (was === '') return !existsSync(path);
  if (how === 1) {
    try {
      return was === `>${realpathSync.native(path)}`;
    } catch {
      return false;
    }
  }
  return looks(path, how, now) === was;
}

/** Changed less than this long before it was looked at: not kept. */
const RACY_NS = 100_000_000n;

interface Kept {
  plan: ToolchainPlan;
  /** The caller's environment variables the plan read, and their values then. */
  env: Array<[string, string | undefined]>;
  paths: Array<[string, number, string]>;
}

/** Plans made, by their input: each is used again while every path it read and variable it used are the same. */
const kept = new Map<string, Kept>();
/** Inputs planned once in this process (a plan is kept from the second on). */
const asked = new Set<string>();
const KEEP = 16;

/** How many plans are kept (for tests). */
export const keptPlans = (): number => kept.size;

const copy = (p: ToolchainPlan): ToolchainPlan => ({
  toolchains: p.toolchains.map((t) => ({ ...t })),
  roBind: p.roBind.map((m) => ({ ...m })),
  env: { ...p.env },
  notes: [...p.notes],
});

/**
 * Which toolchain roots this run uses, how to show them, and what still differs from the caller's shell.
 * A plan is kept per input (command, work dir, sandbox home) and used again only while every path it read
 * (PATH entries, the command, toolchain roots, venv configs, scripts' first lines) stats the same, each
 * resolved one to the same real path, and the variables it read hold the same values: any change there is
 * a new plan. One taken from a path changed in the last 100 ms is not kept (its times cannot tell), nor a
 * process's first for an input.
 */
export function planToolchains(p: PlanInput): ToolchainPlan {
  const e = p.env ?? process.env;
  const key = JSON.stringify([p.cmd, p.work, p.sub, p.sandboxHome, p.pathGiven === true, p.workShown === true]);
  const had = kept.get(key);
  if (had && had.env.every(([k, v]) => e[k] === v)) {
    const now = BigInt(Date.now()) * 1_000_000n;
    if (had.paths.every(([path, how, was]) => same(path, how, was, now))) return copy(had.plan);
  }
  kept.delete(key);
  // A process's first plan for an input is only made: keeping it costs a stat and a realpath of each
  // path it read, which a one-run process (the CLI) would pay for nothing. The second is kept.
  if (!asked.has(key)) {
    if (asked.size >= KEEP * 4) asked.clear();
    asked.add(key);
    return makePlan(p, e);
  }
  const env = new Map<string, string | undefined>();
  const paths = new Map<string, number>();
  looked = (path, how) => paths.set(path, (paths.get(path) ?? 0) | how);
  let plan: ToolchainPlan;
  try {
    plan = makePlan(p, new Proxy(e, { get: (t, k) => (typeof k === 'string' ? (env.set(k, t[k]), t[k]) : undefined) }));
  } finally {
    looked = null;
  }
  // Without $HOME the home is the password database's (homedir()), which no stat here watches.
  if (env.get('HOME') === undefined) return plan;
  const now = BigInt(Date.now()) * 1_000_000n;
  const seen: Array<[string, number, string]> = [];
  for (const [path, how] of paths) {
    const was = looks(path, how, now);
    if (was === null) return plan;
    seen.push([path, how, was]);
  }
  if (kept.size >= KEEP) kept.delete(kept.keys().next().value!);
  kept.set(key, { plan: copy(plan), env: [...env], paths: seen });
  return plan;
}

function makePlan(p: PlanInput, e: NodeJS.ProcessEnv): ToolchainPlan {
  const real = realpaths();
  const home = callerHome(e, real);
  const userPath = (e.PATH ?? '').split(':').filter((d) => isAbsolute(d));
  const plan: ToolchainPlan = { toolchains: [], roBind: [], env: {}, notes: [] };
  if (!home) return plan;
  const workReal = real(p.work) ?? p.work;
  const cwd = join(workReal, p.sub);
  const argv0 = p.cmd[0] ?? '';
  // The evidence a root is in use, as real paths: PATH entries, the command's path, venvs' python homes
  // (gathered below). The PATH entries and the command are resolved only once a root is there to test.
  const evidence: string[] = [];
  let resolved = false;
  const inUse = (root: string): boolean => {
    if (!resolved) {
      resolved = true;
      for (const d of userPath) {
        const r = real(d);
        if (r) evidence.push(r);
      }
      if (argv0.includes('/')) {
        const r = real(resolve(cwd, argv0));
        if (r) evidence.push(r);
      }
    }
    return evidence.some((x) => under(x, root));
  };
  const venvs = new Set<string>();
  for (const v of ['.venv', 'venv', 'env']) venvs.add(join(workReal, v));
  if (argv0.includes('/')) venvs.add(dirname(dirname(resolve(cwd, argv0))));
  if (e.VIRTUAL_ENV && isAbsolute(e.VIRTUAL_ENV)) venvs.add(e.VIRTUAL_ENV);
  const pyHomes: Array<[string, string]> = [];
  for (const v of venvs) {
    const h = venvHome(v);
    if (!h) continue;
    const r = real(h) ?? h;
    pyHomes.push([v, r]);
    evidence.push(r);
  }
  // Bound: each dir of a used kind, by real path and as the caller spells it.
  const shown: string[] = [];
  const seen = new Set<string>();
  for (const k of kinds(home, e)) {
    const reals = k.dirs.map((d) => real(d));
    if (reals.some((r) => r === null) || !reals.some((r) => inUse(r!))) continue;
    if (!reals.every((r) => bindable(r!, home) && !under(r!, workReal) && !under(workReal, r!))) continue;
    if (seen.has(reals[0]!)) continue;
    seen.add(reals[0]!);
    k.dirs.forEach((d, i) => {
      const r = reals[i]!;
      for (const dst of new Set([r, d])) {
        plan.roBind.push({ src: r, dst });
        shown.push(dst);
      }
    });
    plan.toolchains.push({ name: k.name, root: reals[0]! });
    Object.assign(plan.env, k.env?.(reals as string[], p.sandboxHome) ?? {});
  }
  // An absolute path is shown when a bind or the system dirs hold it (the work dir is at /work, and at its
  // host path too where the launcher can show it there: spec.ts workAlias).
  if (p.workShown === true) shown.push(workReal);
  const visible = (f: string): boolean => {
    const r = real(f) ?? f;
    return [f, r].some((x) => shown.some((d) => under(x, d)) || SYSTEM_PATHS.some((s) => under(x, s)));
  };
  // PATH: the caller's entries the sandbox shows, in the caller's order, then the fixed ones left.
  const fixed = FIXED_PATH.split(':');
  let sandboxPath = fixed;
  if (plan.toolchains.length) {
    const out: string[] = [];
    for (const d of userPath) if (!out.includes(d) && (fixed.includes(d) || shown.some((s) => under(d, s) || under(real(d) ?? d, s)))) out.push(d);
    for (const d of fixed) if (!out.includes(d)) out.push(d);
    sandboxPath = out;
    plan.env.PATH = out.join(':');
  }
  if (!p.pathGiven) plan.notes.push(...differences(argv0, userPath, sandboxPath, cwd, visible, real));
  for (const [v, h] of pyHomes) {
    if (visible(h)) continue;
    const at = under(v, workReal) ? v.slice(workReal.length + 1) || '.' : v;
    plan.notes.push(
      `the venv ${at} runs the python in ${h} (pyvenv.cfg home), which the sandbox does not show: only the toolchain roots under your home (pyenv, rustup, nvm, uv, go, conda) are bound; pass --ro-bind ${h} to use it`,
    );
  }
  return plan;
}

/** A note when name (then its script's interpreter) resolves to another file in the sandbox than in the shell. */
function differences(name: string, userPath: string[], sandboxPath: string[], cwd: string, visible: (f: string) => boolean, real: Real): string[] {
  const notes: string[] = [];
  let n: string | null = name;
  for (let depth = 0; n && depth < 2; depth++) {
    const shell = which(n, userPath, cwd);
    if (!shell) break;
    // A relative name is found in the work dir, which the sandbox shows (at /work).
    const inside = !n.includes('/') ? which(n, sandboxPath.filter(visible), cwd) : !isAbsolute(n) || visible(shell) ? shell : null;
    const what = depth === 0 ? `\`${n}\`` : `its interpreter \`${n}\``;
    if (inside === null) {
      notes.push(
        `${what} is ${shell} in your shell, and the sandbox does not show it${n.includes('/') ? '' : ' nor any other on its PATH'}: pass --ro-bind ${dirname(shell)} (and --env PATH=...) to use it`,
      );
      break;
    }
    if ((real(inside) ?? inside) !== (real(shell) ?? shell)) {
      notes.push(
        `${what} is ${inside} in the sandbox but ${shell} in your shell: ${dirname(shell)} is not shown (only the toolchain roots under your home are: pyenv, rustup, nvm, uv, go, conda); pass --ro-bind ${dirname(shell)} and --env PATH=... to run yours`,
      );
      break;
    }
    n = interpreter(shell);
  }
  return notes;
}
