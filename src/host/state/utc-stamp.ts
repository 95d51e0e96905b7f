// The history's time stamp, as Date#toISOString writes it, from the Date's UTC fields. Not
// toISOString itself: its first call in a process sets up the host's time zone (V8 asks ICU, which
// opens /etc/localtime and resolves its link: 15 syscalls and 0.2-0.45 ms of a cold `sbx run`), and a
// cold run needs no local time anywhere else (docs/architecture.md "A cold verdict").

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** ms since the epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`, the same text as toISOString for years 0-9999. */
export function utcStamp(ms: number = Date.now()): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}Z`;
}
