// `sbx history`: the runs recorded in a state directory, and the streaks in them.
import { defineCommand } from 'citty';
import { SbxError } from '../../contract/index.js';
import { StateDir, streaks, streakText } from '../../host/index.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeOut, writeErr } from '../closed-pipe.js';

export default defineCommand({
  meta: { name: 'history', description: 'Show the run history of a state directory, with streaks' },
  args: {
    work: { type: 'string', description: 'work dir whose runs to show, as for sbx run (its state is <work>/.sbx)' },
    state: { type: 'string', description: 'state directory (default: <work>/.sbx, ./.sbx without --work)' },
    json: { type: 'boolean', description: 'print one JSON object per run' },
  },
  async run({ args }) {
    const dir = args.state ?? join(args.work ?? '.', '.sbx');
    if (!existsSync(dir)) throw new SbxError('E_NO_STATE', `no state directory at ${dir}: run \`sbx run\` or \`sbx verdict --state ${dir}\` first, or pass --work DIR or --state DIR`);
    const state = new StateDir(dir);
    const { entries, bad } = await state.history();
    if (bad) writeErr(`sbx: note: ${bad} unreadable history line(s) skipped\n`);
    if (args.json) {
      for (const e of entries) writeOut(`${JSON.stringify(e)}\n`);
      return;
    }
    if (!entries.length) {
      writeOut('no runs recorded yet\n');
      return;
    }
    const lines: string[] = [];
    entries.forEach((e, i) => {
      const n = (k: number, one: string, many: string): string => `${k} ${k === 1 ? one : many}`;
      const what = e.identity ?? (e.counts.errors ? n(e.counts.errors, 'error', 'errors') : e.counts.failed ? `${n(e.counts.failed, 'test', 'tests')} failing` : '');
      lines.push(`${String(i + 1).padStart(3)}  ${e.time}  ${e.status.padEnd(13)} ${what}${e.summary && e.summary !== 'first run' ? `  — ${e.summary}` : ''}`);
      if (e.cmd) lines.push(`     $ ${e.cmd}`);
    });
    for (const s of streaks(entries)) if (s.length >= 2) lines.push(`streak: ${streakText(s)} (runs ${s.from + 1}–${s.to + 1})`);
    writeOut(`${lines.join('\n')}\n`);
  },
});
