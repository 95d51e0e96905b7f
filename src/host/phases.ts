// Where a run's time goes: with SBX_PHASES=1 each phase is marked (ms since the process started, so
// Node's own start-up shows as the first mark) and `sbx` prints the marks on stderr as it exits.
// Off, a mark is one comparison. bench/startup.js reads them for its breakdown.
const on = process.env.SBX_PHASES === '1';
let marks: Array<[string, number]> = [];

export function phase(name: string): void {
  if (on) marks.push([name, process.uptime() * 1000]);
}

/** The marks so far as one line, `phases: name=ms name=ms ...` (empty when off), and forgets them. */
export function takePhases(): string {
  const line = on ? `phases: ${marks.map(([n, t]) => `${n}=${t.toFixed(2)}`).join(' ')}\n` : '';
  marks = [];
  return line;
}
