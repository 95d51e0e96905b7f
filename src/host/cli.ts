#!/usr/bin/env node
// The sbx command line. Only this file exits the process: errors become one line and a non-zero exit.
import { defineCommand, runCommand, showUsage } from 'citty';
import { SbxError } from './errors.js';
import pkg from '../../package.json' with { type: 'json' };

const main = defineCommand({
  meta: { name: 'sbx', version: pkg.version, description: 'Run a command hermetically and get a typed verdict, not raw output' },
  subCommands: {
    verdict: () => import('./commands/verdict.js').then((m) => m.default),
    history: () => import('./commands/history.js').then((m) => m.default),
    replay: () => import('./commands/replay.js').then((m) => m.default),
    run: () => import('./commands/run.js').then((m) => m.default),
    selftest: () => import('./commands/selftest.js').then((m) => m.default),
    hook: () => import('./commands/hook.js').then((m) => m.default),
    mcp: () => import('./commands/mcp.js').then((m) => m.default),
  },
});

const USAGE = 2;
const INTERNAL = 70;

async function cli(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') { await showUsage(main); return argv.length === 0 ? USAGE : 0; }
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) { process.stdout.write(`${pkg.version}\n`); return 0; }
  if (argv.includes('--help') || argv.includes('-h')) {
    const sub = main.subCommands as Record<string, () => Promise<Parameters<typeof showUsage>[0]>>;
    const loader = sub[argv[0]!];
    if (loader) { await showUsage(await loader(), main); return 0; }
  }
  try {
    // Subcommands are resolved here, not by citty, so that their result (the exit code) comes back.
    const subs = main.subCommands as Record<string, () => Promise<Parameters<typeof runCommand>[0]>>;
    const name = argv[0]!;
    const load = Object.hasOwn(subs, name) ? subs[name] : undefined;
    if (!load) throw new SbxError('E_USAGE', `unknown command ${JSON.stringify(name)}: use one of ${Object.keys(subs).join(', ')} (sbx --help)`);
    const { result } = await runCommand(await load(), { rawArgs: argv.slice(1) });
    return typeof result === 'number' ? result : exitCodeOf(result);
  } catch (err) {
    if (err instanceof SbxError) {
      process.stderr.write(`sbx: ${err.message}\n`);
      return err.code === 'E_USAGE' || err.code.startsWith('E_') ? USAGE : 1;
    }
    const e = err as Error & { code?: string };
    if (e?.name === 'CLIError' || e?.code?.startsWith?.('E_')) {
      process.stderr.write(`sbx: ${e.message} (see sbx --help)\n`);
      return USAGE;
    }
    process.stderr.write(`sbx: internal error: ${e?.message ?? String(err)}; rerun with SBX_DEBUG=1 for the stack and report it\n`);
    if (process.env.SBX_DEBUG) process.stderr.write(`${e?.stack}\n`);
    return INTERNAL;
  }
}

/** `sbx run` mirrors the command's exit; `sbx verdict` exits 0 when it produced a verdict. */
function exitCodeOf(result: unknown): number {
  const r = result as { exitCode?: number } | undefined;
  return typeof r?.exitCode === 'number' ? r.exitCode : 0;
}

process.exitCode = await cli(process.argv.slice(2));
