// The sbx command line's one way of running: the subcommand named by argv[0], from the table given
// (src/cli/main.ts has every command, src/cli/main-run.ts only `run`). Only this file ends a run of the
// CLI: errors become one line and a non-zero exit code.
import { SbxError } from '../contract/index.js';
import type { CommandDef } from 'citty';
import { readFlags } from './flags.js';
import { ignoreClosedPipes, outputStreamsMade, writeErr, writeOut } from './closed-pipe.js';
import { fail, wantsJson, USAGE } from './fail.js';
import type { HelpMeta } from './help.js';
import pkg from '../../package.json' with { type: 'json' };
import { phase, takePhases } from '../host/index.js';

export type SubCommands = Record<string, () => Promise<CommandDef<any>>>;

/** Runs the command line argv (process.argv.slice(2)) with these subcommands and sets the exit code. */
export function start(subCommands: SubCommands, argv: string[]): void {
  ignoreClosedPipes();
  // No top-level await: the bin is bundled as CommonJS (scripts/build-host.js), which has none.
  void runCommandLine(subCommands, argv).then((code) => {
    process.exitCode = code;
    phase('done');
    const line = takePhases();
    if (line) writeErr(line);
    // The command is done and its output written (writeOut and writeErr are synchronous): exiting now
    // skips Node's teardown of the environment and heap, ~2 ms of every short command (measured from
    // the last phase mark to the parent's wait, 50 interleaved cold runs). Not when a stream was made:
    // it may still hold output (the MCP server's, or a full pipe's), which a natural exit waits for.
    if (!outputStreamsMade()) process.exit(code);
  });
}

/**
 * The command line argv run to its exit code, the process left running: what start() does before it
 * exits, and what the resident sbx (src/cli/resident/) does for each of its clients.
 */
export function runCommandLine(subCommands: SubCommands, argv: string[]): Promise<number> {
  const main: CommandDef<any> = {
    meta: { name: 'sbx', version: pkg.version, description: 'Run a command hermetically and get a typed verdict, not raw output' },
    subCommands,
  };
  return cli(main, subCommands, argv);
}

async function cli(main: CommandDef<any>, subs: SubCommands, argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') {
    await (await help()).showHelp(main);
    return argv.length === 0 ? USAGE : 0;
  }
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    writeOut(`${pkg.version}\n`);
    return 0;
  }
  try {
    // Subcommands are found and run here, not by citty's runMain, which exits the process: their result
    // (the exit code) comes back to the caller, the resident sbx among them. citty reads the flags (flags.ts).
    const name = argv[0]!;
    const load = Object.hasOwn(subs, name) ? subs[name] : undefined;
    if (!load) throw new SbxError('E_USAGE', `unknown command ${JSON.stringify(name)}: use one of ${Object.keys(subs).join(', ')} (sbx --help)`);
    const cmd = await load();
    const rawArgs = argv.slice(1);
    const dash = rawArgs.indexOf('--');
    const ours = dash >= 0 ? rawArgs.slice(0, dash) : rawArgs;
    if (ours.includes('--help') || ours.includes('-h')) {
      await (await help()).showHelp(cmd, main);
      return 0;
    }
    const meta = (await resolve(cmd.meta)) as HelpMeta | undefined;
    const args = readFlags(`sbx ${name}`, (await resolve(cmd.args)) ?? {}, rawArgs, meta?.usage);
    const result: unknown = await cmd.run?.({ args, rawArgs, cmd });
    return typeof result === 'number' ? result : exitCodeOf(result);
  } catch (err) {
    return fail(err, wantsJson(argv));
  }
}

// Loaded when help is asked for: its terminal check (node:tty) is no cost of every other start.
const help = () => import('./help.js');

const resolve = <T>(x: T | (() => T | Promise<T>)): T | Promise<T> => (typeof x === 'function' ? (x as () => T | Promise<T>)() : x);

/** `sbx run` mirrors the command's exit; `sbx verdict` exits 0 when it produced a verdict. */
function exitCodeOf(result: unknown): number {
  const r = result as { exitCode?: number } | undefined;
  return typeof r?.exitCode === 'number' ? r.exitCode : 0;
}
