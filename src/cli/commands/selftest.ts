// `sbx selftest`: which parts of the hermetic profile hold on this machine, and why not where not.
import { defineCommand } from 'citty';
import { selftest } from '../../launcher/index.js';
import { writeOut } from '../closed-pipe.js';

export default defineCommand({
  meta: { name: 'selftest', description: 'Check the sandbox profile on this machine and print what holds' },
  args: { json: { type: 'boolean', description: 'print the checks as JSON' } },
  async run({ args }) {
    const checks = await selftest();
    if (args.json) writeOut(`${JSON.stringify(checks)}\n`);
    else for (const c of checks) writeOut(`${c.ok ? 'ok  ' : 'FAIL'}  ${c.check}${c.detail ? ` — ${c.detail}` : ''}\n`);
    return { exitCode: checks.every((c) => c.ok) ? 0 : 1 };
  },
});
