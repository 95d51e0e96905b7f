// The history's time stamp, as Date#toISOString writes it, from the Date's UTC fields. Not
// toISOString itself: its first call in a process sets up the host's time zone (V8 asks ICU, which
// opens /etc/localtime and resolves its link: 15 syscalls and 0.2-0.45 ms of a cold `sbx run`), and a
// cold run needs no local time anywhere else (docs/architecture.md "A cold verdict").

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/** ms since the epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`, the same text as toISOString for years 0-9999. */
export function utcStamp(ms: number = Date.now()): string {
  const d = new Date(ms);
  const msPart = d.getUTCMilliseconds();
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${msPart < 10 ? '00' : msPart < 100 ? '0' : ''}${msPart}Z`;
}
