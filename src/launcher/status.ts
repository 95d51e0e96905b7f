// The JSON status report sbx-launch writes to fd 3, checked at the trust boundary by a shape table
// (contract/shape.ts: one small function, no schema to build on a cold run's path).
import { shapeProblem, type ShapeTable } from '../contract/index.js';

/** Must match SBX_PROTO in native/sbx.h. */
export const LAUNCHER_PROTO = 12;

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

const STATUS: ShapeTable = {
  proto: 'number',
  version: 'string',
  timed_out: 'boolean',
  interrupted: 'boolean',
  exit_code: 'number|null',
  signal: 'number|null',
  exec_errno: 'number',
  output_bytes: 'number',
  stdout_bytes: 'number',
  stderr_bytes: 'number',
  log_cap: 'number',
  log_dropped: 'number',
  log_unwritten: 'number',
  log_errno: 'number',
  setup_ns: 'number',
  wall_ns: 'number',
  rusage: 'object',
  'rusage.user_us': 'number',
  'rusage.sys_us': 'number',
  'rusage.max_rss_kb': 'number',
  error: 'object|null',
  'error.step': 'string',
  'error.errno': 'number',
  'error.strerror': 'string',
  'error.detail': 'string',
  cgroup: 'object',
  'cgroup.path': 'string|null',
  'cgroup.oom_kills': 'number',
  steps: 'array',
  'steps[]': 'object',
  'steps[].step': 'string',
  'steps[].ok': 'boolean',
  'steps[].us': 'number',
  'steps[].detail': 'string',
};

export function parseStatus(text: string): { ok: true; status: Status } | { ok: false; why: string; proto?: unknown } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, why: text.trim() === '' ? 'no status report' : 'the status report is not JSON' };
  }
  if (shapeProblem(json, STATUS) !== null) {
    const proto = typeof json === 'object' && json !== null && 'proto' in json ? String(json.proto) : '?';
    return { ok: false, why: `unexpected status report (protocol ${proto}, expected ${LAUNCHER_PROTO})`, proto: (json as { proto?: unknown }).proto };
  }
  return { ok: true, status: json as Status };
}
