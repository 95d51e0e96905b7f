// The JSON status report sbx-launch writes to fd 3, validated at the trust boundary.
import * as v from 'valibot';

/** Must match SBX_PROTO in native/sbx.h. */
export const LAUNCHER_PROTO = 5;

const Step = v.object({ step: v.string(), ok: v.boolean(), us: v.number(), detail: v.string() });

export const StatusSchema = v.object({
  proto: v.number(),
  version: v.string(),
  timed_out: v.boolean(),
  interrupted: v.boolean(),
  exit_code: v.nullable(v.number()),
  signal: v.nullable(v.number()),
  exec_errno: v.number(),
  stdout_bytes: v.number(),
  stderr_bytes: v.number(),
  setup_ns: v.number(),
  wall_ns: v.number(),
  rusage: v.object({ user_us: v.number(), sys_us: v.number(), max_rss_kb: v.number() }),
  error: v.nullable(v.object({ step: v.string(), errno: v.number(), strerror: v.string(), detail: v.string() })),
  cgroup: v.object({ path: v.nullable(v.string()), oom_kills: v.number() }),
  steps: v.array(Step),
});

export type Status = v.InferOutput<typeof StatusSchema>;
export type StatusStep = v.InferOutput<typeof Step>;

export function parseStatus(text: string): { ok: true; status: Status } | { ok: false; why: string; proto?: unknown } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, why: text.trim() === '' ? 'no status report' : 'the status report is not JSON' };
  }
  const r = v.safeParse(StatusSchema, json);
  if (!r.success) {
    const proto = typeof json === 'object' && json !== null && 'proto' in json ? String(json.proto) : '?';
    return { ok: false, why: `unexpected status report (protocol ${proto}, expected ${LAUNCHER_PROTO})`, proto: (json as { proto?: unknown }).proto };
  }
  return { ok: true, status: r.output };
}
