// The work tree walked in C (`sbx-launch --walk`, native/walk.c): the fingerprint of the files the
// user edits and the control entries (.git, .claude, ... at any depth) in one pass, at ~3 us of CPU
// a file (most of it the kernel's stat) where the two walks in JavaScript cost ~10 us each (an lstat
// through libuv, a string and a Dirent each). The names and what they mean stay here, in TypeScript: the walker is given them as flags.
// Null when the walker cannot run (not built, an older build without --walk): the callers then walk
// in JavaScript, with the same rules.
import { childProcess, launcherPath } from '../launcher/index.js';

export interface WalkedControl {
  /** 'e': an entry named as a control name; 'b': a directory holding every repository mark. */
  kind: 'e' | 'b';
  link: boolean;
  /** dev:ino as the host sees it. */
  id: string;
  /** Relative to the work dir, '/'-separated. */
  rel: string;
}

export interface Walked {
  /** The fingerprint asked for (--files walk|list), null when unknown (more files than --max); undefined when not asked. */
  fingerprint?: string | null;
  control: WalkedControl[];
  files: number;
  dirs: number;
}

/** Runs the walker over work with these flags (and the file list on stdin); null when it cannot. */
export function nativeWalk(work: string, flags: readonly string[], input?: Buffer, launcher?: string): Walked | null {
  if (process.platform !== 'linux') return null;
  const { spawnSync } = childProcess();
  const r = spawnSync(launcher ?? launcherPath(), ['--walk', work, ...flags], {
    input: input ?? Buffer.alloc(0),
    maxBuffer: 256 << 20,
    stdio: ['pipe', 'pipe', 'ignore'],
    timeout: 300_000,
  });
  if (r.status !== 0 || r.error || !r.stdout) return null;
  const out: Walked = { control: [], files: -1, dirs: -1 };
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    switch (rec[0]) {
      case 'F':
        out.fingerprint = rec === 'F-' ? null : rec.slice(1);
        break;
      case 'N':
        out.files = Number(rec.slice(1));
        break;
      case 'D':
        out.dirs = Number(rec.slice(1));
        break;
      case 'C': {
        const slash = rec.indexOf('/', 3);
        if ((rec[1] !== 'e' && rec[1] !== 'b') || slash < 0) return null;
        out.control.push({ kind: rec[1], link: rec[2] === '1', id: rec.slice(3, slash), rel: rec.slice(slash + 1) });
        break;
      }
      case undefined:
        break;
      default:
        return null; // not this walker's output: walk in JavaScript
    }
  }
  // Every record ends with NUL: a walker cut short (killed, out of memory) misses its last counts.
  return out.files >= 0 && out.dirs >= 0 ? out : null;
}
