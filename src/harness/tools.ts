// The agent's tools: read_file, write_file, run (the task's command in sbx, identical in every
// condition; only its description and its view differ), done.
import type { Condition } from './conditions.js';
import { runToolDescription } from './conditions.js';
import type { ToolDef } from './types.js';

export function toolDefs(c: Condition, cmd: readonly string[]): ToolDef[] {
  return [
    {
      name: 'read_file',
      description: 'Read a file of the task (path relative to the task directory). Lines are numbered: "N<TAB>text".',
      input_schema: { type: 'object', properties: { path: { type: 'string', description: 'relative path, e.g. main.c' } }, required: ['path'] },
    },
    {
      name: 'write_file',
      description: 'Replace the whole content of a file of the task (path relative to the task directory) with content. Give the complete new file, without line numbers.',
      input_schema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
    },
    { name: 'run', description: runToolDescription(c, cmd), input_schema: { type: 'object', properties: {}, required: [] } },
    {
      name: 'done',
      description: 'Finish: call when the command passes, or when you give up.',
      input_schema: { type: 'object', properties: { summary: { type: 'string', description: 'one line: what you changed' } }, required: [] },
    },
  ];
}

export const SYSTEM = [
  'You fix a bug in a small project. You can read and write its files and run its fixed build/test command in a sandbox.',
  'Work with the tools only: read_file, write_file, run, done. Each tool call counts against a limited budget.',
  'Do not change the tests or any file the task says to leave alone. Call done when the command passes.',
].join('\n');
