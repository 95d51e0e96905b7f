// `sbx verdict --raw FILE|-`: distil a recorded log into a verdict (text, or the envelope with --json);
// with --state DIR, keep the log in DIR and say what changed since the previous run there.
import { createReadStream } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { defineCommand } from 'citty';
import { SbxError } from '../errors.js';
import { loadEngine } from '../load-engine.js';
import { readFile } from 'node:fs/promises';
import { checkLogFile, fsError, verdictOfFile, verdictOfStdin } from '../log-source.js';
import { parseExit, parseSignal } from '../parse-flags.js';
import { print } from '../output.js';
import { StateDir } from '../state/store.js';
import { recordVerdict } from '../state/record.js';
import { treeFingerprint } from '../state/fingerprint.js';

export default defineCommand({
  meta: { name: 'verdict', description: 'Turn a recorded log into a typed verdict' },
  args: {
    raw: { type: 'string', description: 'the log file, or - for standard input', required: true },
    exit: { type: 'string', description: 'the command\'s exit code, when known' },
    signal: { type: 'string', description: 'the signal that killed the command (SIGSEGV or 11)' },
    'timed-out': { type: 'boolean', description: 'the command was killed by a timeout' },
    state: { type: 'string', description: 'state directory: keep the log there and add the delta to its previous run' },
    work: { type: 'string', description: 'work tree whose fingerprint tells an edit from none (default: the parent of a .sbx state dir)' },
    json: { type: 'boolean', description: 'print the sbx.run-result/1 envelope as JSON' },
    junit: { type: 'string', description: 'a JUnit XML report of the same run: its tests replace those read off the log' },
    'exit-status': { type: 'boolean', description: 'exit 0 when the verdict is pass, 1 otherwise (default: 0 whenever a verdict was printed)' },
  },
  async run({ args }) {
    if (!args.raw) throw new SbxError('E_USAGE', 'no log given: pass --raw FILE, or --raw - to read standard input');
    const opts = { exit: parseExit(args.exit), signal: parseSignal(args.signal), timedOut: Boolean(args['timed-out']) };
    const engine = await loadEngine();
    const from = args.raw === '-' ? 'standard input' : args.raw;
    let env;
    if (args.state) {
      const state = await new StateDir(args.state).open();
      const work = args.work ?? (basename(state.dir) === '.sbx' ? dirname(state.dir) : undefined);
      const tree = work ? treeFingerprint(resolve(work)) : null;
      const { id, logPath } = state.newRun();
      if (args.raw !== '-') await checkLogFile(args.raw);
      const source = args.raw === '-' ? process.stdin : createReadStream(args.raw);
      await state.saveLog(logPath, source);
      // A recorded log: its command is unknown, and it ran outside, so the tree at its end is now's.
      const rec = await recordVerdict(engine, state, { id, logPath, cmd: null, tree, treeEnd: tree }, opts);
      if (rec.problem) process.stderr.write(`sbx: note: ${rec.problem}\n`);
      env = rec.env;
    } else {
      env = args.raw === '-' ? await verdictOfStdin(engine, opts) : await verdictOfFile(engine, args.raw, { ...opts, log: args.raw });
    }
    if (args.junit) {
      const xml = await readFile(args.junit).catch((err: unknown) => { throw fsError(err, args.junit as string); });
      if (xml.length === 0) throw new SbxError('E_JUNIT_EMPTY', `${args.junit} is empty: give the JUnit XML report the test run wrote (e.g. pytest --junitxml=report.xml)`);
      env = engine.mergeJunit(env, xml);
    }
    if (env.verdict.raw_bytes === 0) process.stderr.write(`sbx: note: ${from} is empty; the verdict rests on the exit status alone\n`);
    print(engine, env, Boolean(args.json));
    return { exitCode: args['exit-status'] && env.verdict.status !== 'pass' ? 1 : 0 };
  },
});
