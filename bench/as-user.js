// `--as USER`: a bench run as root re-runs itself as that ordinary user (through runuser, in a
// directory it can write) and exits with its status: how sbx is used, without root, measured the same way.
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

/** Re-runs the bench at `metaUrl` as `--as USER` when that flag is given and this is root; returns otherwise. */
export function runAsUser(metaUrl, before = () => {}) {
  const args = process.argv.slice(2);
  const i = args.indexOf('--as');
  if (i < 0 || process.getuid?.() !== 0) return;
  const user = args[i + 1];
  if (!user) {
    console.error('bench: --as needs a user name (e.g. --as sbxtest); run it again with one');
    process.exit(2);
  }
  before(); // what needs root (installing a package) happens before the switch
  console.log(`bench: running as ${user}`);
  const rest = args.filter((_, j) => j !== i && j !== i + 1);
  const r = spawnSync('runuser', ['-u', user, '--', process.execPath, fileURLToPath(metaUrl), ...rest], { stdio: 'inherit', cwd: tmpdir() });
  process.exit(r.status ?? 1);
}
