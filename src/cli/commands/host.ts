// `sbx host [--work W] [--timeout N] [--distil-bytes N] -- CMD ARGS...`: run a command on the host (no
// sandbox), keep its raw log as a run of <work>/.sbx, print its output when small and its verdict when
// not, exit with its code. What the agent hooks rewrite a build/test line to when the line must stay on
// the host (src/integrations/hook/host-run.ts).
import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { SbxError } from '../../contract/index.js';
import { hostRunner } from '../../integrations/index.js';
import { parsePositive } from '../parse-flags.js';
import { onInterrupt } from '../interrupt.js';
import { writeBytes } from '../closed-pipe.js';
import { redirect } from '../io-redirect.js';
import type { HelpMeta } from '../help.js';

const meta: { name: string; description: string } & HelpMeta = {
  name: 'host',
  description: 'Run a command on the host (no sandbox); print its output when small, its verdict when larger; keep its log in <work>/.sbx',
  usage: 'sbx host [OPTIONS] -- CMD [ARGS...]',
};

export default defineCommand({
  meta,
  args: {
    work: { type: 'string', description: 'the project: the run is recorded in <work>/.sbx (default: .)' },
    timeout: { type: 'string', description: "wall-clock limit in seconds: the command's process group is killed (default: none)" },
    'distil-bytes': { type: 'string', description: 'output up to this many bytes is printed as it is, a larger one as its verdict (default 4096)' },
  },
  async run({ args, rawArgs }) {
    const dash = rawArgs.indexOf('--');
    const cmd = dash >= 0 ? rawArgs.slice(dash + 1) : [];
    if (cmd.length === 0) throw new SbxError('E_USAGE', 'no command given: put it after --, e.g. sbx host -- bash -c "git pull && make"');
    const bytes = args['distil-bytes'];
    if (bytes !== undefined && !/^\d+$/.test(bytes)) throw new SbxError('E_USAGE', `--distil-bytes ${bytes}: give a number of bytes (0 or more)`);
    const timeout = parsePositive('timeout', args.timeout);
    const interrupt = onInterrupt('the command');
    const { hostRun } = await hostRunner();
    try {
      const code = await hostRun({
        cmd,
        // The line the model wrote, when the rewrite's `bash -c LINE`: its runs share one history.
        line: cmd.length === 3 && cmd[0] === 'bash' && cmd[1] === '-c' ? cmd[2]! : cmd.join(' '),
        work: resolve(args.work ?? '.'),
        cwd: process.cwd(),
        env: { ...process.env },
        ...(timeout ? { timeout } : {}),
        distilBytes: bytes === undefined ? 4096 : Number(bytes),
        stop: interrupt.signal,
        out: writeBytes,
        // In the resident sbx the command's group is its own (the server's is not the caller's).
        ownGroup: redirect() !== undefined,
      });
      return { exitCode: code };
    } finally {
      interrupt.done();
    }
  },
});
