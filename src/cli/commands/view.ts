// `sbx view [LOG]`: the viewer page on 127.0.0.1 (a free port unless --port): drop, open or paste logs
// there; with LOG, the page opens on it. Prints the URL on stdout and serves until Ctrl-C.
import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineCommand } from 'citty';
import { SbxError } from '../../contract/index.js';
import { openLogFile } from '../../host/index.js';
import { parseExit, parseSignal } from '../parse-flags.js';
import { serveViewer } from '../view-server.js';
import type { HelpMeta } from '../help.js';
import { writeOut, writeErr } from '../closed-pipe.js';

const meta: { name: string; description: string } & HelpMeta = {
  name: 'view',
  description: 'Serve the verdict viewer page on 127.0.0.1 and print its URL',
  usage: 'sbx view [LOG] [--exit N] [--signal SIG] [--port N]',
};

export default defineCommand({
  meta,
  args: {
    log: { type: 'positional', description: 'a log to open the page on', required: false },
    exit: { type: 'string', description: "the command's exit code, when known (prefills the page)" },
    signal: { type: 'string', description: 'the signal that killed the command (prefills the page)' },
    'timed-out': { type: 'boolean', description: 'the command was killed by a timeout (prefills the page)' },
    port: { type: 'string', description: 'the port to listen on (default: a free one)' },
  },
  async run({ args }) {
    const exit = parseExit(args.exit);
    const signal = parseSignal(args.signal);
    const port = args.port === undefined ? 0 : Number(args.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new SbxError('E_USAGE', `--port ${args.port}: not a port; give a number 1-65535, or leave it out for a free one`);
    const log = args.log ? resolve(args.log) : null;
    if (args.log) await (await openLogFile(args.log)).close(); // a regular file: not a FIFO the page would wait on
    const server = await serveViewer(viewerDir(), log, port);
    // server.url carries the token every request needs: the page's own parameters go after it.
    const url = new URL(server.url);
    const q = url.searchParams;
    if (log) {
      q.set('log', '/log');
      q.set('name', basename(log));
    }
    if (exit !== null) q.set('exit', String(exit));
    if (signal !== null) q.set('signal', signal);
    if (args['timed-out']) q.set('timed-out', '1');
    writeOut(`${url.href}\n`);
    writeErr('sbx view: open the URL above, token included, in a browser; the log is read there and nothing leaves the page. Ctrl-C to stop.\n');
    // Stopping the server is what the user asked for: exit 0 on any of these.
    await new Promise<void>((ok) => {
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(s, () => ok());
    });
    await server.close();
    return { exitCode: 0 };
  },
});

/** dist/viewer, found from this bundle's place in dist/ (dist/cli.js or a chunk under dist/chunks/). */
function viewerDir(): string {
  for (const rel of ['./viewer/', '../viewer/', '../../dist/viewer/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}index.html`)) return dir;
  }
  throw new SbxError('E_NO_VIEWER', 'the viewer page is not built (no dist/viewer/index.html): run npm run build in the sbx checkout');
}
