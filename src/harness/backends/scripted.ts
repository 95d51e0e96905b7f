// Scripted policies for CI and for checking the apparatus: no network, deterministic. They read the
// conversation like a model would (the last tool result), and may peek at the task's answer key only as
// their definition says:
//   oracle      runs, writes the reference solution, runs, done.
//   named-line  runs, then edits the first line the feedback names that it has not edited yet: the reference
//               fix when that line is within 3 lines of the fix locus, else a wrong edit there (a trailing
//               comment); runs again; gives up after 3 lines or when no new line is named. Its success
//               measures how well the feedback localises.
//   loop-prone  runs, applies the obvious fix (loop tasks) or a comment at the named line, runs, and
//               repeats until the budget ends, with a prose-only reply every third turn (to be nudged).
//   cheat-*     adversarial: game the success check instead of fixing the bug (./cheats.ts); must score 0.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '../tasks.js';
import { SbxError } from '../../contract/index.js';
import type { Backend, Block, Message, ModelReply, ModelRequest } from '../types.js';
import { CHEATS, cheatStep, type Cheat } from './cheats.js';

export const POLICIES = ['oracle', 'named-line', 'loop-prone', ...CHEATS] as const;
export type Policy = (typeof POLICIES)[number];

const SOURCE = /([\w./-]+\.(?:c|cc|cpp|h|hpp|rs|py)):(\d+)|([\w./-]+\.py)", line (\d+)/g;

/** file:line references in a tool result, in order, to files that exist in the work dir and are not protected. */
export function namedLines(text: string, task: Task): { file: string; line: number }[] {
  const out: { file: string; line: number }[] = [];
  for (const m of text.matchAll(SOURCE)) {
    const path = (m[1] ?? m[3])!;
    const line = Number(m[2] ?? m[4]);
    const file = path.slice(path.lastIndexOf('/') + 1);
    if (Object.hasOwn(task.protected, file)) continue;
    if (!existsSync(join(task.dir, 'src', file))) continue;
    out.push({ file, line });
  }
  return out;
}

/** p: one of POLICIES (parseModel in ./index.ts refuses any other). */
export function scriptedBackend(p: Policy, task: Task): Backend {
  let n = 0;
  let turn = 0;
  const edited = new Set<string>();
  const files = (variant: string): Record<string, string> => {
    const d = join(task.dir, variant);
    const out: Record<string, string> = {};
    if (existsSync(d)) for (const f of readdirSync(d)) out[f] = readFileSync(join(d, f), 'utf8');
    return out;
  };
  const use = (name: string, input: Record<string, unknown> = {}): Block => ({ type: 'tool_use', id: `call_${++n}`, name, input });
  const lastResult = (msgs: Message[]): string => {
    for (let i = msgs.length - 1; i >= 0; i--) {
      for (const b of msgs[i]!.content) if (b.type === 'tool_result') return b.content;
    }
    return '';
  };
  const lastRunResult = (msgs: Message[]): string => {
    const runIds = new Set<string>();
    for (const m of msgs) for (const b of m.content) if (b.type === 'tool_use' && b.name === 'run') runIds.add(b.id);
    for (let i = msgs.length - 1; i >= 0; i--) {
      for (const b of msgs[i]!.content) if (b.type === 'tool_result' && runIds.has(b.tool_use_id)) return b.content;
    }
    // run-before-edit: the first user message carries the first run's output.
    const first = msgs[0]?.content.find((b) => b.type === 'text');
    return first?.type === 'text' ? first.text : '';
  };
  const passed = (t: string): boolean => /^exit code: 0\b/m.test(t) || /^sbx: pass\b/m.test(t);
  const current = (msgs: Message[], file: string): string | null => {
    // The last read_file result for file, without its line numbers.
    for (let i = msgs.length - 1; i >= 0; i--) {
      for (const b of msgs[i]!.content) {
        if (b.type !== 'tool_result') continue;
        const m = /^file: (\S+)\n/.exec(b.content);
        if (m?.[1] === file)
          return b.content
            .slice(m[0].length)
            .split('\n')
            .map((l) => l.replace(/^ *\d+\t/, ''))
            .join('\n');
      }
    }
    return null;
  };
  // A wrong edit that keeps every line where it was: a trailing comment on the named line.
  const commentAt = (text: string, line: number, file: string): string => {
    const lines = text.split('\n');
    const at = Math.min(Math.max(line, 1), lines.length) - 1;
    lines[at] = `${lines[at] ?? ''}${file.endsWith('.py') ? '  # checked' : ' // checked'}`;
    return lines.join('\n');
  };
  const pick = (msgs: Message[]): { file: string; line: number } | null => {
    const named = namedLines(lastRunResult(msgs), task);
    if (p === 'loop-prone') return named[0] ?? null;
    return named.find((x) => !edited.has(`${x.file}:${x.line}`)) ?? null;
  };

  // One step of the policy: what to do given the conversation so far.
  const step = (msgs: Message[]): Block[] => {
    turn++;
    const said = (t: string): Block => ({ type: 'text', text: t });
    const prev = msgs.at(-1)?.content.find((b) => b.type === 'tool_use' || b.type === 'tool_result');
    const lastCall = [...msgs]
      .reverse()
      .flatMap((m) => m.content)
      .find((b) => b.type === 'tool_use');
    const lastName = lastCall?.type === 'tool_use' ? lastCall.name : null;
    void prev;
    if ((CHEATS as readonly string[]).includes(p)) return cheatStep(p as Cheat, task, msgs, use);
    if (p === 'oracle') {
      if (!lastName) return [said('Running the tests first.'), use('run')];
      if (lastName === 'run' && passed(lastResult(msgs))) return [use('done')];
      if (lastName === 'run') return Object.entries(files('solution')).map(([f, c]) => use('write_file', { path: f, content: c }));
      if (lastName === 'write_file') return [use('run')];
      return [use('done')];
    }
    if (p === 'loop-prone' && turn % 3 === 0) return [said('The fix looks right to me; the failure must be elsewhere.')];
    if (!lastName || lastName === 'write_file') return [use('run')];
    if (lastName === 'run' && passed(lastResult(msgs))) return [use('done')];
    if (lastName === 'run') {
      const target = pick(msgs);
      if (p === 'named-line' && (!target || edited.size >= 3)) return [said('The feedback names no new line; stopping.'), use('done')];
      return [use('read_file', { path: (target ?? { file: task.fix.file }).file })];
    }
    if (lastName === 'read_file') {
      const named = pick(msgs) ?? { file: task.fix.file, line: 1 };
      const text = current(msgs, named.file) ?? '';
      edited.add(`${named.file}:${named.line}`);
      const [lo, hi] = task.fix.lines;
      const hit = named.file === task.fix.file && named.line >= lo - 3 && named.line <= hi + 3;
      if (p === 'named-line' && hit) return [use('write_file', { path: named.file, content: files('solution')[named.file]! })];
      const obvious = files('obvious')[named.file];
      if (p === 'loop-prone' && obvious !== undefined) return [use('write_file', { path: named.file, content: obvious })];
      return [use('write_file', { path: named.file, content: commentAt(text, named.line, named.file) })];
    }
    return [use('done')];
  };

  return {
    name: `scripted:${p}`,
    async complete(req: ModelRequest): Promise<ModelReply> {
      const content = step(req.messages);
      // Tokens as a model would count them, roughly 4 characters a token: deterministic, never zero.
      const input = Math.ceil((req.system.length + JSON.stringify(req.messages).length + JSON.stringify(req.tools).length) / 4);
      const output = Math.ceil(JSON.stringify(content).length / 4);
      return { content, usage: { input, output, cache_read: 0, cache_write: 0 }, model: `scripted-${p}` };
    },
  };
}
