// One way to turn a build/test command's host output into what the model reads, shared by the
// post-hooks (output the client captured) and `sbx host` (the pre-hook's wrapper for a build line kept on
// the host, src/integrations/hook/host-run.ts): the raw output kept as a run of <work>/.sbx (so the
// verdict names its log, and the delta is against the previous run of the same command line), and the
// rendered verdict.
import { join } from 'node:path';
import { loadEngine, verdictReport } from '../../host/index.js';

export interface Distil {
  /** The raw output: a file already on disk, or its bytes. */
  log: string | AsyncIterable<Uint8Array>;
  /** The command's exit code, or null when the client does not tell (Codex's post-hook). */
  exit: number | null;
  signal?: string | null;
  timedOut?: boolean;
  /** The caller stopped it (Ctrl-C): the status is interrupted, and it is no baseline for the next delta. */
  interrupted?: boolean;
  work: string;
  /** The command line as the model wrote it: the run is recorded under it. */
  cmd: string;
}

/** Records the output as a run of <work>/.sbx and renders its verdict. */
export async function distil(d: Distil): Promise<string> {
  const { env } = await verdictReport({
    log: d.log,
    exit: d.exit,
    signal: d.signal ?? null,
    timedOut: d.timedOut ?? false,
    interrupted: d.interrupted ?? false,
    state: join(d.work, '.sbx'),
    work: d.work,
    cmd: d.cmd,
  });
  return (await loadEngine()).render(env);
}

/** A string as the log of distil(). */
export function bytesOf(raw: string): AsyncIterable<Uint8Array> {
  const bytes = Buffer.from(raw);
  return (async function* () {
    yield bytes;
  })();
}
