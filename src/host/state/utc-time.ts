// The history's timestamps, as Date's toISOString() prints them, made from the getUTC* fields:
// toISOString() sets up the local time zone on first use (it reads /etc/localtime; ~0.3-0.5 ms of a
// cold `sbx run`), which a UTC timestamp never needs.
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `2026-12-03T13:09:39.765Z` for ms since the epoch (years outside 0-9999 as ±YYYYYY, as toISOString). */
export function utcTime(ms: number = Date.now()): string {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const year = y >= 0 && y <= 9999 ? pad(y, 4) : `${y < 0 ? '-' : '+'}${pad(Math.abs(y), 6)}`;
  return `${year}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}Z`;
}
