// `sbx run` as a child that does not block this process (the tests' servers answer from it): the text
// verdict on stdout, the notes on stderr, and the envelope (--envelope, read back; null when nothing ran).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, logText } from './_helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sbx-envelopes-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** `sbx run --work work --envelope … flags -- cmd` with `env` (the whole environment of sbx). */
export function sbxAsync(work, cmd, flags, env) {
  const envelope = join(dir, `env-${++n}.json`);
  return new Promise((done) => {
    const p = spawn(process.execPath, [CLI, 'run', '--work', work, '--envelope', envelope, ...flags, '--', ...cmd], { env });
    let out = '', err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => {
      let e = null;
      try { e = JSON.parse(readFileSync(envelope, 'utf8')); } catch { /* nothing ran: the caller says why */ }
      const log = e ? logText(e) : '';
      done({ code, out, err, env: e, log, why: () => `exit ${code}\n${out}\n${err}\n--- log:\n${log}` });
    });
  });
}
