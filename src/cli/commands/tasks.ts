// `sbx tasks validate`: every study task (bench/tasks) inside the sandbox — buggy fails, the reference
// solution passes, the obvious fix of a loop-inducing task fails — with one line per task.
import { defineCommand } from 'citty';
import { SbxError } from '../../contract/index.js';
import { writeOut } from '../closed-pipe.js';
import { harnessTasks } from '../../harness/index.js';

export default defineCommand({
  meta: { name: 'tasks', description: 'Check the experiment tasks in the sandbox (sbx tasks validate)', usage: 'sbx tasks validate [--dir DIR] [--only ID,ID] [--json]' } as {
    name: string;
    description: string;
  },
  args: {
    action: { type: 'positional', description: 'what to do: validate', required: true },
    dir: { type: 'string', description: 'task directory (default: bench/tasks of this checkout)' },
    only: { type: 'string', description: 'comma-separated task ids (default: all)' },
    json: { type: 'boolean', description: 'print one JSON object per task' },
  },
  async run({ args }) {
    if (args.action !== 'validate') throw new SbxError('E_USAGE', `unknown action ${JSON.stringify(args.action)} for sbx tasks: the only one is validate (sbx tasks validate)`);
    const { loadTasks, defaultTasksDir, validateTask } = await harnessTasks();
    const tasks = loadTasks(args.dir ?? defaultTasksDir(), args.only ? String(args.only).split(',').filter(Boolean) : undefined);
    let bad = 0;
    for (const t of tasks) {
      const r = await validateTask(t);
      if (!r.ok) bad++;
      const line = args.json
        ? JSON.stringify(r)
        : `${r.ok ? 'ok  ' : 'FAIL'} ${r.id.padEnd(20)} ${Object.entries(r.statuses)
            .map(([k, s]) => `${k}=${s}`)
            .join(' ')}  ${(r.ms / 1000).toFixed(1)} s${r.problems.length ? `\n     ${r.problems.join('\n     ')}` : ''}`;
      writeOut(`${line}\n`);
    }
    if (!args.json) writeOut(`${tasks.length - bad} of ${tasks.length} tasks valid\n`);
    return { exitCode: bad ? 1 : 0 };
  },
});
