// `sbx daemon`: the resident sbx that build/sbx-client talks to (src/cli/resident/server.ts). The client
// starts it when none answers; --status and --stop are for people.
import { readFileSync } from 'node:fs';
import { defineCommand } from 'citty';
import { SbxError } from '../../contract/index.js';
import { writeOut } from '../closed-pipe.js';
import { parsePositive } from '../parse-flags.js';

export default defineCommand({
  meta: { name: 'daemon', description: 'The resident sbx that build/sbx-client hands run and hook calls to (started by the client; --status, --stop)' },
  args: {
    status: { type: 'boolean', description: 'say whether it runs, its pid and socket' },
    stop: { type: 'boolean', description: 'ask it to exit (calls in flight finish first)' },
    'lock-fd': { type: 'string', description: 'the start-up lock the client hands over (internal)' },
    idle: { type: 'string', description: 'exit after this many seconds without a call (default: $SBX_DAEMON_IDLE, else 600)' },
  },
  async run({ args }) {
    const { packageRoot, residentPlace } = await import('../resident/place.js');
    const cli = process.argv[1] ?? '';
    if (args.status || args.stop) {
      const place = residentPlace(packageRoot(cli));
      if (!place) throw new SbxError('E_NO_RESIDENT_DIR', "no private directory for the resident sbx's socket: none can run");
      let pid = 0;
      try {
        pid = Number(readFileSync(place.key, 'utf8').split('\n')[1]);
      } catch {
        /* none */
      }
      let alive = pid > 0;
      try {
        if (alive) process.kill(pid, args.stop ? 'SIGTERM' : 0);
      } catch {
        alive = false;
      }
      writeOut(alive ? `sbx daemon: ${args.stop ? 'asked to exit' : 'running'}: pid ${pid}, socket ${place.sock}, log ${place.log}\n` : `sbx daemon: not running (socket ${place.sock})\n`);
      return { exitCode: alive || args.stop ? 0 : 1 };
    }
    const idle = parsePositive('idle', args.idle ?? process.env.SBX_DAEMON_IDLE) ?? 600;
    const lockFd = args['lock-fd'] === undefined ? null : (parsePositive('lock-fd', args['lock-fd']) ?? null);
    const { serveResident } = await import('../resident/server.js');
    return { exitCode: await serveResident({ cli, lockFd, idleMs: idle * 1000 }) };
  },
});
