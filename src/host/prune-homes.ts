// The project HOMEs of projects that are gone. A project's first run writes `<home>.work` beside its HOME
// (outside it: the sandbox never sees it) holding the work dir's real path; each first run of a project
// then removes the HOMEs whose work dir no longer exists, as `git worktree prune` does for its records.
// A HOME without a record (made before records were kept) is left alone. Only caches are lost: a project
// whose dir comes back starts cold.
import { chmodSync, existsSync, lstatSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const RECORD = '.work';

export function recordHome(dir: string, workReal: string): void {
  try {
    writeFileSync(`${dir}${RECORD}`, `${workReal}\n`, { mode: 0o600 });
  } catch {
    // No record: this HOME is never pruned, as before records.
  }
}

/** Removes every HOME under homes whose recorded work dir is gone; returns how many. Never throws. */
export function pruneHomes(homes: string): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(homes);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.endsWith(RECORD)) continue;
    const record = join(homes, name);
    try {
      const work = readFileSync(record, 'utf8').trimEnd();
      if (!work.startsWith('/') || existsSync(work)) continue;
      removeTree(record.slice(0, -RECORD.length));
      rmSync(record, { force: true });
      removed++;
    } catch {
      // Another run pruned it, or it cannot be removed: left for the next first run.
    }
  }
  return removed;
}

/** rm -rf, also through the read-only directories Go's module cache makes (0555): made writable first. */
function removeTree(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    writable(path);
    rmSync(path, { recursive: true, force: true });
  }
}

function writable(path: string): void {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return;
  chmodSync(path, 0o700);
  for (const name of readdirSync(path)) writable(join(path, name));
}
