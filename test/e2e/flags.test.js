// sbx checks its commands' flags before citty's parser reads them (src/cli/flags.ts): for every command's
// real args, each way of giving a flag reads as citty reads it alone, and where sbx differs on purpose (the
// last switch wins, --no-x flags, a switch given a value, one dash, `--` for a command with arguments)
// the table says what it does instead.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './_helpers.js';

const { build } = await import('esbuild');
const names = ['run', 'verdict', 'history', 'replay', 'selftest', 'view', 'tasks', 'hook', 'mcp'];
const entry = [
  "export { readFlags } from './src/cli/flags.ts';",
  "export { parseArgs } from 'citty';",
  ...names.map((n) => `export { default as ${n} } from './src/cli/commands/${n}.ts';`),
].join('\n');
const out = join(mkdtempSync(join(tmpdir(), 'sbx-flags-')), 'flags.mjs');
const bundled = await build({ stdin: { contents: entry, resolveDir: ROOT, loader: 'js' }, bundle: true, platform: 'node', target: 'node20', format: 'esm', write: false, logLevel: 'silent', loader: { '.wasm': 'binary' } });
writeFileSync(out, bundled.outputFiles[0].text);
const mod = await import(out);
const { readFlags, parseArgs } = mod;

/** What run() sees of the args: the defined names and `_` (citty also adds camelCase copies). */
const seen = (args, defs) => Object.fromEntries(['_', ...Object.keys(defs)].filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));

/** Each way of giving each of the command's flags, alone and together, with its arguments. */
function ways(defs) {
  const positional = Object.entries(defs).filter(([, d]) => d.type === 'positional').map(([n]) => n);
  // What must be there: the positional args and the required flags.
  const args = [...positional.map((n) => `${n}-value`), ...Object.entries(defs).filter(([, d]) => d.type === 'string' && d.required).flatMap(([n]) => [`--${n}`, 'given'])];
  const tail = positional.length ? [] : ['--', 'make', '-k', '--json'];
  const out = [[...args, ...tail]];
  const all = [];
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === 'positional') continue;
    const forms = def.type === 'boolean'
      ? [[`--${name}`], [`--${name}=false`], [`--${name}=true`]]
      : [[`--${name}`, 'a b'], [`--${name}=x=y`], [`--${name}=`], [`--${name}`, '-'], [`--${name}`, 'one', `--${name}=two`]];
    for (const f of forms) out.push([...f, ...args, ...tail], [...args, ...f, ...tail]);
    all.push(...forms[0]);
  }
  out.push([...all, ...args, ...tail]);
  return out;
}

for (const name of names) {
  test(`sbx ${name}: every flag, given every way, reads as citty read it`, () => {
    const defs = mod[name].args;
    for (const argv of ways(defs)) {
      if (argv.some((a) => a.startsWith('--no-'))) continue;
      assert.equal(seen(readFlags(`sbx ${name}`, defs, argv), defs), seen(parseArgs(argv, defs), defs), argv.join(' '));
    }
  });
}

// [command, argv, what run() gets (the defined names and _), or the error]
const differs = [
  ['run', ['--no-seccomp', '--', 'true'], { _: ['true'], 'no-seccomp': true }],
  ['run', ['--no-seccomp=false', '--no-loopback', '--', 'true'], { _: ['true'], 'no-seccomp': false, 'no-loopback': true }],
  ['run', ['--json', '--no-json', '--', 'true'], { _: ['true'], json: false }],
  ['run', ['--no-json', '--json', '--', 'true'], { _: ['true'], json: true }],
  ['run', ['--work', '-x', '--', 'true'], { _: ['true'], work: '-x' }],
  ['run', ['--json=1', '--', 'true'], /--json=1: --json is a switch, it takes no value: give --json, or --json=false/],
  ['run', ['-json', '--', 'true'], /unknown flag -json for sbx run: did you mean --json\?/],
  ['run', ['--no-work', '--', 'true'], /unknown flag --no-work for sbx run/],
  ['run', ['--work', '--json', '--', 'true'], /--work needs a value/],
  ['replay', ['--', '-dir'], { _: ['-dir'], session: '-dir' }],
  ['replay', ['a', '--', 'b'], /unexpected argument "b" for sbx replay: sbx replay takes 1 argument besides flags/],
  ['replay', [], /missing SESSION for sbx replay: a directory of logs/],
  ['verdict', ['--exit', '1'], /missing --raw for sbx verdict/],
  ['hook', ['install', '--claude', '--project'], { _: ['install'], action: 'install', claude: true, project: true }],
];

test('where sbx reads flags otherwise than citty, it does what the table says', () => {
  for (const [name, argv, want] of differs) {
    const defs = mod[name].args;
    const what = `sbx ${name} ${argv.join(' ')}`;
    if (want instanceof RegExp) {
      assert.throws(() => readFlags(`sbx ${name}`, defs, argv), (e) => e.code === 'E_USAGE' && want.test(e.message), what);
    } else {
      assert.equal(seen(readFlags(`sbx ${name}`, defs, argv), defs), want, what);
    }
  }
});

test.run();
