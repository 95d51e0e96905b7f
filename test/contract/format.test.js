// The house's formatting, applied once and held (issue 34): the TypeScript of src/ as prettier writes it
// (.prettierrc.json), the launcher's C as clang-format writes it (.clang-format, GNU style as bubblewrap).
// assembly/ is AssemblyScript, whose decorators on functions prettier's TypeScript parser refuses.
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { needs } from '../_tools.js';

const ROOT = new URL('../../', import.meta.url).pathname;

uvuTest('src/**/*.ts is as prettier writes it (fix: npx prettier --write "src/**/*.ts")', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/prettier/bin/prettier.cjs'), '--check', 'src/**/*.ts'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(r.status, 0, `${r.stdout}${r.stderr}`);
});

const cTest = needs('test/contract/format: the launcher\'s C', ['clang-format'], uvuTest);
cTest('native/*.c and *.h are as clang-format writes them (fix: clang-format -i native/*.c native/*.h)', () => {
  const files = readdirSync(join(ROOT, 'native')).filter((n) => /\.[ch]$/.test(n)).map((n) => join('native', n));
  const r = spawnSync('clang-format', ['--dry-run', '-Werror', ...files], { cwd: ROOT, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr.split('\n').slice(0, 20).join('\n'));
});

uvuTest.run();
