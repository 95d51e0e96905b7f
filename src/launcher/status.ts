// The JSON status report sbx-launch writes to fd 3, checked at the trust boundary (contract/shape.ts).
import * as v from 'valibot';
import { finite, jsonObject, shapeProblem } from '../contract/index.js';

/** Must match SBX_PROTO in native/sbx.h. */
export const LAUNCHER_PROTO = 13;

export interface StatusStep {
  step: string;
  ok: boolean;
  us: number;
  detail: string;
}

export interface Status {
  proto: number;
  version: string;
  timed_out: boolean;
  interrupted: boolean;
  exit_code: number | null;
  signal: number | null;
  exec_errno: number;
  /** Everything the command wrote on its stdout and stderr. */
  output_bytes: number;
  /** With one pipe for both streams (native/relay.c: the launcher's fd 1 and 2 are one file), all of it; stderr_bytes 0. */
  stdout_bytes: number;
  stderr_bytes: number;
  /** The log's cap (--max-log) where it took effect (a regular file), else 0. */
  log_cap: number;
  /** Bytes the cap cut out of the log's middle (its marker line's span included). */
  log_dropped: number;
  /** Bytes that could not be written to the log (a full disk): lost from its end. */
  log_unwritten: number;
  /** errno of the first failed write to the log, 0. */
  log_errno: number;
  setup_ns: number;
  wall_ns: number;
  rusage: { user_us: number; sys_us: number; max_rss_kb: number };
  error: { step: string; errno: number; strerror: string; detail: string } | null;
  cgroup: { path: string | null; oom_kills: number };
  steps: StatusStep[];
}

const num = finite();
const STATUS = jsonObject({
  proto: num,
  version: v.string(),
  timed_out: v.boolean(),
  interrupted: v.boolean(),
  exit_code: v.nullable(num),
  signal: v.nullable(num),
  exec_errno: num,
  output_bytes: num,
  stdout_bytes: num,
  stderr_bytes: num,
  log_cap: num,
  log_dropped: num,
  log_unwritten: num,
  log_errno: num,
  setup_ns: num,
  wall_ns: num,
  rusage: jsonObject({ user_us: num, sys_us: num, max_rss_kb: num }),
  error: v.nullable(jsonObject({ step: v.string(), errno: num, strerror: v.string(), detail: v.string() })),
  cgroup: jsonObject({ path: v.nullable(v.string()), oom_kills: num }),
  steps: v.array(jsonObject({ step: v.string(), ok: v.boolean(), us: num, detail: v.string() })),
});

export function parseStatus(text: string): { ok: true; status: Status } | { ok: false; why: string; proto?: unknown } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, why: text.trim() === '' ? 'no status report' : 'the status report is not JSON' };
  }
  if (shapeProblem(json, STATUS) !== null) {
    const proto = typeof json === 'object' && json !== null && 'proto' in json ? String(json.proto) : '?';
    return { ok: false, why: `unexpected status report (protocol ${proto}, expected ${LAUNCHER_PROTO})`, proto: (json as { proto?: unknown } | null)?.proto };
  }
  return { ok: true, status: json as Status };
}
