// `sbx verdict --raw FILE|-`: distil a recorded log into a verdict (text, or the envelope with --json);
// with --state DIR, keep the log in DIR and say what changed since the previous run there.
import { defineCommand } from 'citty';
import { SbxError } from '../../contract/index.js';
import { loadEngine, verdictReport } from '../../host/index.js';
import { parseExit, parseSignal } from '../parse-flags.js';
import { print } from '../output.js';
import { SARIF_ARG, writeSarif } from '../sarif-file.js';
import { writeErr } from '../closed-pipe.js';

export default defineCommand({
  meta: { name: 'verdict', description: 'Turn a recorded log into a typed verdict' },
  args: {
    raw: { type: 'string', description: 'the log file, or - for standard input', required: true },
    exit: { type: 'string', description: "the command's exit code, when known" },
    signal: { type: 'string', description: 'the signal that killed the command (SIGSEGV or 11)' },
    'timed-out': { type: 'boolean', description: 'the command was killed by a timeout' },
    state: { type: 'string', description: 'state directory: keep the log there and add the delta to its previous run' },
    work: { type: 'string', description: 'work tree whose fingerprint tells an edit from none (default: the parent of a .sbx state dir)' },
    json: { type: 'boolean', description: 'print the sbx.run-result/1 envelope as JSON' },
    junit: { type: 'string', description: 'a JUnit XML report of the same run: its tests replace those read off the log' },
    sarif: SARIF_ARG,
    'exit-status': { type: 'boolean', description: 'exit 0 when the verdict is pass, 1 otherwise (default: 0 whenever a verdict was printed)' },
  },
  async run({ args }) {
    if (!args.raw) throw new SbxError('E_USAGE', 'no log given: pass --raw FILE, or --raw - to read standard input');
    const from = args.raw === '-' ? 'standard input' : args.raw;
    const { env, problem } = await verdictReport({
      log: args.raw === '-' ? process.stdin : args.raw,
      exit: parseExit(args.exit),
      signal: parseSignal(args.signal),
      timedOut: Boolean(args['timed-out']),
      ...(args.state ? { state: args.state } : {}),
      ...(args.work ? { work: args.work } : {}),
      ...(args.junit ? { junit: args.junit } : {}),
    });
    if (problem) writeErr(`sbx: note: ${problem}\n`);
    if (env.verdict.raw_bytes === 0) writeErr(`sbx: note: ${from} is empty; the verdict rests on the exit status alone\n`);
    if (args.sarif) await writeSarif(args.sarif, env);
    print(await loadEngine(), env, Boolean(args.json));
    return { exitCode: args['exit-status'] && env.verdict.status !== 'pass' ? 1 : 0 };
  },
});
