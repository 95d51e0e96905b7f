// `sbx replay SESSION`: replay a recorded session offline (a directory of logs, or a JSONL of steps).
import { defineCommand } from 'citty';
import { SbxError } from '../../contract/index.js';
import { loadEngine, loadSession, replay } from '../../host/index.js';
import { writeOut } from '../closed-pipe.js';

export default defineCommand({
  meta: { name: 'replay', description: 'Replay a recorded session offline: every verdict with its delta' },
  args: {
    session: { type: 'positional', description: 'a directory of logs (name order) or a JSONL file of {log, exit} steps', required: true },
    json: { type: 'boolean', description: 'one run-result envelope per line' },
  },
  async run({ args }) {
    if (!args.session) throw new SbxError('E_USAGE', 'no session given: sbx replay DIR|FILE.jsonl');
    const engine = await loadEngine();
    const session = await loadSession(args.session);
    let n = 0;
    for await (const env of replay(engine, session, process.cwd())) {
      n++;
      if (args.json) writeOut(`${JSON.stringify(env)}\n`);
      else writeOut(`── step ${n}: ${env.log}\n${engine.render(env)}\n`);
    }
  },
});
