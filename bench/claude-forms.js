// How Claude Code's own handling of a Bash command depends on its form (issue 31 §3: is the `bash -c '…'`
// of the rewrite what costs Claude its time?). Raw Claude Code (no hooks, Bash allowed), the same simple
// build command typed in four forms, interleaved in each session: as is; in `bash -c '…'`; as the hooks'
// rewrite with bash -c (`build/sbx-client run … -- bash -c '…'`); as the rewrite without it (`… -- argv`).
// The gap between model requests after each call; medians over SESSIONS sessions (first round left out).
// No `cd` in the command: Claude Code keeps the shell's directory from call to call.
// Seen (load average 9-14, three runs): `bash -c '…'` +15-25 ms over the command as is, in Claude Code's own
// handling; `sbx-client run … -- bash -c '…'` within 6 ms of that; `… -- argv` from 20 ms faster to 2 ms slower than it:
// a rewrite that drops the `bash -c` for a simple command buys nothing measurable.
//   node bench/claude-forms.js [--sessions 4] [--rounds 5]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel } from '../test/integrations/_scripted-model.js';
import { ensureClaude, root, runClaude, scratchProject } from '../test/integrations/_client.js';

const arg = (name, def) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : def; };
const SESSIONS = arg('sessions', 4);
const ROUNDS = arg('rounds', 5);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

const c = ensureClaude();
if (c.skip) { console.log(`skipped: ${c.skip}`); process.exit(0); }
const client = join(root, 'build', 'sbx-client');
const CMD = 'gcc -O0 -o c/m c/m.c';
const gaps = {};
let all = 0; let main = 0;
for (let n = 0; n < SESSIONS; n++) {
  const s = scratchProject();
  mkdirSync(join(s.proj, 'c'), { recursive: true });
  writeFileSync(join(s.proj, 'c', 'm.c'), 'int main(void) { return 0; }\n');
  const prefix = `${client} run --work ${s.proj} --timeout 118 --brief --`;
  const forms = { 'as is': CMD, "bash -c '…'": `bash -c '${CMD}'`, "sbx-client run … -- bash -c '…'": `${prefix} bash -c '${CMD}'`, 'sbx-client run … -- argv': `${prefix} ${CMD}` };
  const names = Object.keys(forms);
  const cmds = [];
  for (let r = 0; r < ROUNDS; r++) for (const k of (n + r) % 2 ? names : [...names].reverse()) cmds.push(k);
  const m = await startScriptedModel([...cmds.map((k) => ({ tool: 'Bash', input: { command: forms[k], description: 'step' } })), { text: 'Done.' }]);
  const r = await runClaude(c.bin, { cwd: s.proj, home: s.home, url: m.url, args: ['--allowedTools', 'Bash'] });
  const reqs = m.mainRequests();
  all += m.requests.length; main += reqs.length;
  await m.close();
  rmSync(s.base, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`claude exited ${r.status}: ${r.stderr.slice(-300)}`);
  for (let k = names.length; k < cmds.length; k++) (gaps[cmds[k]] ??= []).push(reqs[k + 1].at - reqs[k].at);
}
console.log(`Claude Code, raw (no hooks): gap after one Bash call of \`${CMD}\` by form; ${SESSIONS} sessions × ${ROUNDS - 1} rounds counted; requests to the model: ${all} (${main} main-loop)\n`);
console.log('| form | median | n |\n| --- | ---: | ---: |');
for (const [k, g] of Object.entries(gaps)) console.log(`| ${k} | ${median(g).toFixed(1)} ms | ${g.length} |`);
