// The launcher's public shapes: what a caller passes to launch() and the self-describing outcome.

export interface Mount {
  /** Path on the host. */
  src: string;
  /** Path inside the sandbox (absolute); defaults to src when built from `SRC[:DST]`. */
  dst: string;
}

export interface ProfileOptions {
  /** Share the host network namespace (egress allowed). Default false. */
  net?: boolean;
  /**
   * --allow-host patterns (NAME, *.NAME, an IP address; optional :PORT): the sandbox keeps its own
   * network, and an HTTP(S) proxy on the host admits connections to these hosts alone. Default none.
   */
  allowHosts?: string[];
  /** Pass the caller's environment through instead of the fixed set. Default false. */
  inheritEnv?: boolean;
  /** Install the seccomp denylist. Default true. */
  seccomp?: boolean;
  /** Leave ptrace out of the denylist, so LeakSanitizer works (it stops the world with ptrace). Default false. */
  allowPtrace?: boolean;
  /** Bring lo up in the private network namespace. Default true. */
  loopback?: boolean;
  /** Keep address-space randomisation (non-deterministic addresses). Default false. */
  aslr?: boolean;
  bind?: Mount[];
  roBind?: Mount[];
  /**
   * Sandbox paths hidden behind empty, unreadable stand-ins (e.g. '/work/.sbx', so that the
   * command cannot read or rewrite the state and logs kept there). Missing paths are ignored.
   */
  hide?: string[];
  /**
   * Sandbox directories shown as empty, read-only directories (e.g. '/work/.sbx'): hidden like
   * `hide`, but a tree walk (find, grep -r, node --test) sees an empty directory, not EACCES.
   */
  hideEmpty?: string[];
  /**
   * Sandbox paths under /work made read-only where they are (a bind of each over itself): files the
   * host later obeys (a .git, a client's settings). Missing paths are ignored; a symlink on the way
   * fails the run.
   */
  protect?: string[];
  /** Where the command starts, a directory under /work (default: /work). */
  cwd?: string;
  /**
   * Show the caller's toolchains (pyenv, rustup, nvm, uv, go, conda under the home) read-only, their
   * bin dirs on PATH in the caller's order (run() only; src/host/toolchains.ts). Default true.
   */
  toolchains?: boolean;
  /** Extra fixed environment variables, added to (and overriding) the fixed set. */
  env?: Record<string, string>;
  /** cgroup memory.max in MiB, where a delegated cgroup v2 subtree exists. */
  memoryMb?: number;
  /** Process cap (threads count): RLIMIT_NPROC, pid_max of the pid namespace, cgroup pids.max. Default 4096. */
  pids?: number;
  /** Size of the private /tmp in MiB (a tmpfs: it is host memory). Default: a quarter of RAM, at most 4 GiB. */
  tmpMb?: number;
  /**
   * Bytes the raw log may hold (at least 64 KiB). Past it the log keeps its first and last halves and a
   * line saying how much was dropped between them; the command runs on. Default 64 MiB (MAX_LOG_DEFAULT).
   */
  maxLog?: number;
}

export interface LaunchOptions extends ProfileOptions {
  cmd: string[];
  /** Host directory mounted read-write at /work (the command's cwd, and its HOME unless home is given). */
  work: string;
  /**
   * Host directory mounted read-write at /home/sbx (SANDBOX_HOME), the command's HOME: where tool caches
   * go. run() gives each project its own (src/host/sandbox-home.ts). Default: none, HOME is /work.
   */
  home?: string;
  /** Wall-clock limit in seconds; the whole pid namespace is killed when it passes. */
  timeout?: number;
  /** The raw log: stdout and stderr in the order they were written (what `2>&1` shows), written as they stream. */
  logPath: string;
  /** Path of sbx-launch; default $SBX_LAUNCHER or build/sbx-launch in the package. */
  launcherPath?: string;
  /**
   * A file where the log's reader writes how far it has read (8 bytes, little-endian; all ones: no longer
   * reading). The launcher stops draining the command's output while it is more than 8 MiB ahead of it,
   * so that little is left to read once the command exits (native/pace.c). run() sets it.
   */
  pace?: string;
  /** Aborting kills the sandbox; the result then has signal SIGKILL. */
  signal?: StopSignal;
  /**
   * A descriptor of this process open on a regular file: the command's stdin, read from its start (`sbx run --
   * patch -p1 < fix.patch`). Anything else (none, a terminal, a pipe) leaves the command /dev/null.
   */
  stdin?: number;
  /** @internal run() has checked the work dir (src/launcher/work-check.ts): launch() does not again. */
  workChecked?: boolean;
}

/**
 * The part of an AbortSignal that launch() and run() use: pass an AbortSignal, or any object with these
 * members. The CLI passes a plain one (src/cli/interrupt.ts): in a cold process an AbortController and
 * its first listener cost ~1 ms, most of it loading Node's EventTarget.
 */
export interface StopSignal {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface Rusage {
  user_ms: number;
  sys_ms: number;
  max_rss_kb: number;
}

export interface Rlimits {
  cpu: number | null;
  nofile: number | null;
  fsize: number | null;
  nproc: number | null;
  core: number | null;
  /** pid_max of the sandbox's pid namespace (Linux >= 6.14), null where not per-namespace. */
  pid_max: number | null;
}

export interface Applied {
  userns: boolean;
  pidns: boolean;
  mntns: boolean;
  netns: boolean;
  utsns: boolean;
  ipcns: boolean;
  cgroupns: boolean;
  pivot_root: boolean;
  ro_root: boolean;
  proc_masked: boolean;
  loopback: boolean;
  no_aslr: boolean;
  no_new_privs: boolean;
  seccomp: boolean;
  /** The seccomp policy left ptrace allowed (the --allow-ptrace opt-in). */
  ptrace_allowed: boolean;
  env_fixed: boolean;
  setsid: boolean;
  rlimits: Rlimits;
  cgroup: { path: string | null; reason: string | null };
  /** The second layer under the mounts (native/landlock.c): which Landlock rules hold on the command. */
  landlock: LandlockApplied;
  /**
   * The work dir shown a second time at its host path (the same tree as /work, cwd stays /work), so that
   * what a project set up on the host names (a venv's #! lines, a CMake build dir) is there; path null with
   * the reason where it cannot be (the host path is /work or under a system dir, or would cover another mount).
   */
  work_alias: { path: string | null; reason: string | null };
  /** run() only: the caller's toolchain roots shown read-only (src/host/toolchains.ts). */
  toolchains?: Array<{ name: string; root: string }>;
  /** run() only: the host directory that is the sandbox's HOME (/home/sbx), null when HOME is /tmp. */
  home?: string | null;
  /** With --allow-host: the patterns, and every connection the proxy was asked for, in order. */
  network?: NetworkApplied;
}

export interface LandlockApplied {
  /** The kernel's Landlock ABI version; 0 where it has none. */
  abi: number;
  /** The ruleset restricts the command and all it starts. */
  enforced: boolean;
  /** Why not (no Landlock, a refused ruleset), or null. */
  reason: string | null;
  /** Directories beneath which files may be created, written, removed and renamed: every other write is refused. */
  write: string[];
  /** Where existing files may be written, nothing created or removed (/dev, /proc). */
  write_file: string[];
  /** The TCP ports connect(2) may reach (ABI >= 4), or null when connect is not restricted. */
  connect_tcp: number[] | null;
  /** ABI >= 6: what cannot reach out of the sandbox's own domain ("abstract_unix_socket", "signal"). */
  scoped: string[];
}

export interface NetworkApplied {
  allowed: string[];
  connections: Array<{ host: string; port: number; decision: 'allowed' | 'refused'; reason: string | null }>;
  /** Connections past the first 1000, not listed. */
  unlisted: number;
}

export interface Outcome {
  exit_code: number | null;
  /** Signal name ("SIGSEGV") when the command was killed by one. */
  signal: string | null;
  timed_out: boolean;
  wall_ms: number;
  setup_ms: number;
  rusage: Rusage;
  /** Everything the command wrote on its stdout and stderr: the log's size before a cap or a failed write. */
  output_bytes: number;
  /**
   * stdout_bytes + stderr_bytes = output_bytes. The split is known only when the launcher's fd 1 and 2 are
   * different files; with one log (every launch()) the command's stdout and stderr are one pipe, so that
   * the log keeps their true order, and which stream a byte came from is not recoverable: stdout_bytes
   * holds all of it and stderr_bytes is 0.
   */
  stdout_bytes: number;
  stderr_bytes: number;
  /** The raw log's cap in bytes (--max-log), null when none applied (the log was not a file). */
  log_max_bytes: number | null;
  /** Output the cap cut out of the log's middle; 0 when the log holds it all. */
  log_dropped_bytes: number;
  /** Output that could not be written to the log (a full disk, a file size limit): missing from its end. */
  log_unwritten_bytes: number;
  /** Why the log is incomplete: the failed write's errno name ("ENOSPC", "EFBIG"), or null. */
  log_error: string | null;
  applied: Applied;
}

export interface SetupError {
  code: string;
  /** One line: what happened, why, and the fix. */
  message: string;
}

export interface LaunchResult {
  outcome: Outcome;
  setupError: SetupError | null;
  /** The last <= 64 KiB of the combined output, for the verdict engine. */
  tail: Uint8Array;
  logPath: string;
}
