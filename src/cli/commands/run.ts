// `sbx run [flags] -- CMD ARGS...`: run a command in the hermetic sandbox and print its verdict and delta.
import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { SbxError, exitForSignal } from '../../contract/index.js';
import { loadEngine, defaultWork, runReport, mirrorExit, runNotes, logNotes, phase, configHosts } from '../../host/index.js';
import { print, printBrief } from '../output.js';
import { parsePositive, parseSize } from '../parse-flags.js';
import { MIN_MAX_LOG, parseAllowHost, parseMount } from '../../launcher/index.js';
import { onInterrupt } from '../interrupt.js';
import { redirect } from '../io-redirect.js';
import { unappliedLimits } from '../unapplied.js';
import type { HelpMeta } from '../help.js';
import { SARIF_ARG, writeSarif } from '../sarif-file.js';
import { writeErr } from '../closed-pipe.js';
import { writeOutFile } from '../out-file.js';

const meta: { name: string; description: string } & HelpMeta = {
  name: 'run',
  description: 'Run a command in the hermetic sandbox; print its verdict and what changed',
  usage: 'sbx run [OPTIONS] -- CMD [ARGS...]',
};

export default defineCommand({
  meta,
  args: {
    work: { type: 'string', description: 'work dir, mounted read-write at /work (default: the top of the git work tree you are in, the command starting where you are; else .)' },
    'allow-home-work': {
      type: 'boolean',
      description: 'allow a work dir that is your home directory, / or a directory above your home (refused by default: the sandbox could write ~/.bashrc and other start-up files)',
    },
    timeout: { type: 'string', description: 'wall-clock limit in seconds, the whole sandbox is killed (default: none; each process still gets RLIMIT_CPU of 3600 s x cores)' },
    state: { type: 'string', description: 'state directory (default: <work>/.sbx)' },
    json: { type: 'boolean', description: 'print the sbx.run-result/1 envelope as JSON' },
    brief: {
      type: 'boolean',
      description:
        "a short plain output (no diagnostics, crash or tests) is printed as itself under the verdict's status line when that is shorter than the verdict (what the agent hooks' rewrite asks for)",
    },
    envelope: { type: 'string', description: 'also write the sbx.run-result/1 envelope as JSON to this file, and print the verdict as usual (for a caller that wants both)' },
    net: { type: 'boolean', description: 'share the host network (opt-in: allows egress)' },
    'allow-host': {
      type: 'string',
      description:
        'let the command reach this host through a proxy on the host, the sandbox keeping its own network: NAME, *.NAME or an IP address, with an optional :PORT (repeatable; none by default)',
    },
    'inherit-env': { type: 'boolean', description: 'pass your environment through instead of the fixed one' },
    'no-seccomp': { type: 'boolean', description: 'do not install the seccomp denylist' },
    'allow-ptrace': { type: 'boolean', description: 'allow ptrace in the sandbox, so LeakSanitizer runs (off by default)' },
    'no-toolchains': { type: 'boolean', description: "do not show your toolchains (pyenv, rustup, nvm, uv, go, conda under your home) read-only in the sandbox; the system's tools alone" },
    'no-loopback': { type: 'boolean', description: 'leave lo down in the private network' },
    aslr: { type: 'boolean', description: 'keep address randomisation (runs stop being reproducible)' },
    env: { type: 'string', description: 'set K=V in the sandbox environment (repeatable)' },
    bind: { type: 'string', description: 'bind SRC[:DST] read-write (repeatable)' },
    'ro-bind': { type: 'string', description: 'bind SRC[:DST] read-only (repeatable)' },
    memory: { type: 'string', description: 'memory limit in MiB; needs a delegated cgroup v2 subtree, else the run goes ahead without it and says so' },
    pids: { type: 'string', description: 'process limit (default 1024)' },
    'max-log': { type: 'string', description: 'the most the raw log keeps, in bytes or with K/M/G; past it the start and end are kept and the verdict says how much was dropped (default 64M)' },
    sarif: SARIF_ARG,
  },
  async run({ args, rawArgs }) {
    phase('command');
    const dash = rawArgs.indexOf('--');
    const cmd = dash >= 0 ? rawArgs.slice(dash + 1) : [];
    if (cmd.length === 0) throw new SbxError('E_USAGE', 'no command given: put it after --, e.g. sbx run -- make test');
    const flags = dash >= 0 ? rawArgs.slice(0, dash) : rawArgs;
    const many = (name: string) => flags.flatMap((a, i) => (a === `--${name}` && flags[i + 1] ? [flags[i + 1]!] : a.startsWith(`--${name}=`) ? [a.slice(name.length + 3)] : []));
    const pids = parsePositive('pids', args.pids);
    const memoryMb = parsePositive('memory', args.memory);
    const maxLog = parseSize('max-log', args['max-log'], MIN_MAX_LOG);
    // The profile choices the notes after the verdict depend on, read once.
    const flagHosts = many('allow-host');
    for (const h of flagHosts) parseAllowHost(h); // a bad pattern is a usage error before anything runs
    if (flagHosts.length && args.net)
      throw new SbxError(
        'E_USAGE',
        "--allow-host and --net do not go together: --net shares the whole host network, --allow-host keeps the sandbox's own and lets named hosts through a proxy; fix: drop one",
      );
    // Where /work is, found once: the top of the git work tree you are in (the command starting in your dir).
    const place = args.work ? { work: resolve(args.work), sub: '' } : defaultWork(process.cwd());
    // The config files' patterns join the flags' (with --net, the whole network, they do not apply).
    const config = args.net ? null : configHosts(place.work);
    const allowHosts = [...new Set([...flagHosts, ...(config?.hosts ?? [])])];
    const profile = { net: Boolean(args.net), seccomp: !args['no-seccomp'], allowPtrace: Boolean(args['allow-ptrace']), allowHosts };
    const interrupt = onInterrupt();
    const report = await runReport({
      signal: interrupt.signal,
      // A `< file` redirect reaches the command (a terminal or a pipe does not: launch.ts); the resident sbx
      // has no descriptor of its client's (native/client.c runs such a call through Node).
      ...(redirect() ? {} : { stdin: 0 }),
      cmd,
      work: place.work,
      cwd: place.sub,
      ...(process.argv[1] ? { invokedAs: process.argv[1] } : {}),
      state: args.state,
      allowHomeWork: Boolean(args['allow-home-work']),
      timeout: parsePositive('timeout', args.timeout),
      ...profile,
      inheritEnv: Boolean(args['inherit-env']),
      loopback: !args['no-loopback'],
      ...(args['no-toolchains'] ? { toolchains: false } : {}),
      aslr: Boolean(args.aslr),
      bind: many('bind').map(parseMount),
      roBind: many('ro-bind').map(parseMount),
      env: parseEnv(many('env')),
      ...(pids ? { pids } : {}),
      ...(memoryMb ? { memoryMb } : {}),
      ...(maxLog ? { maxLog } : {}),
    });
    interrupt.done();
    phase('recorded');
    if (report.problem) writeErr(`sbx: note: ${report.problem}\n`);
    const notes = [
      ...(config?.project ? [`network: ${config.project.path} allows ${config.project.hosts.join(', ')} (allowHosts)`] : []),
      ...unappliedLimits(report.env, { memoryMb }),
      ...logNotes(report.env),
      ...runNotes(report.env, { cmd, ...profile }),
    ];
    for (const n of notes) writeErr(`sbx: note: ${n}\n`);
    if (args.sarif) await writeSarif(args.sarif, report.env);
    if (args.envelope) await writeOutFile('envelope', 'envelope file', args.envelope, `${JSON.stringify(report.env)}\n`);
    if (args.brief && !args.json) await printBrief(await loadEngine(), report.env, notes, report.text);
    else print(await loadEngine(), report.env, Boolean(args.json), notes, report.text);
    phase('printed');
    if (interrupt.by) {
      writeErr(`sbx: interrupted by ${interrupt.by}: the sandbox was stopped and the run recorded; log: ${report.env.log}\n`);
      return { exitCode: exitForSignal(interrupt.by) };
    }
    return { exitCode: mirrorExit(report.env, report.setupCode) };
  },
});

function parseEnv(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const i = p.indexOf('=');
    if (i <= 0) throw new SbxError('E_USAGE', `--env ${p}: give NAME=VALUE`);
    out[p.slice(0, i)] = p.slice(i + 1);
  }
  return out;
}
