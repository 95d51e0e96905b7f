// Bundles the TypeScript host into dist/: the CLI, the library API, and the browser-safe engine
// (which carries the Wasm module inline, so it loads the same way in Node and in a browser).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codeCacheRuns } from './code-cache-runs.js';

const common = { bundle: true, format: 'esm', target: 'es2022', logLevel: 'warning', legalComments: 'none' };

await build({
  ...common,
  entryPoints: { engine: 'src/engine/engine.ts' },
  platform: 'neutral',
  loader: { '.wasm': 'binary' },
  outdir: 'dist',
});

// The CLI is one CommonJS file, dist/cli.cjs (the bin): a cold `sbx run` then loads a single module
// and Node never starts its ESM loader, which a .js entry in this "type": "module" package would
// (measured by `npm run bench:startup`). import.meta.url becomes the file's own URL. dist/cli.js
// is the same program for `node dist/cli.js` (it imports dist/cli.cjs).
// dist/cli.cjs runs the bundle through V8's code cache (dist/cli-*.cjs.cache): a cold start then
// skips parsing and compiling what `sbx run` uses. V8 checks the cache against its version, flags
// and the source, and ignores one it cannot use (the bundle then compiles as usual).
const CLI_LOADER = `#!/usr/bin/env node
'use strict';
// The sbx bin: runs dist/cli-run.cjs for \`sbx run\`, else (or with SBX_CLI_MAIN=1) dist/cli-main.cjs,
// the same CLI with every command, through V8's code cache (made by scripts/build-host.js).
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');
const file = join(__dirname, process.argv[2] === 'run' && !process.env.SBX_CLI_MAIN ? 'cli-run.cjs' : 'cli-main.cjs');
let cachedData;
try { cachedData = readFileSync(file + '.cache'); } catch {}
// latin1: the bundle is ASCII (esbuild escapes the rest), read without UTF-8 decoding.
const script = new Script('(function (exports, require, module, __filename, __dirname) {' + readFileSync(file, 'latin1') + '\\n})', { filename: file, cachedData });
if (process.env.SBX_BUILD_CODE_CACHE === file) {
  process.once('exit', () => { try { writeFileSync(file + '.cache', script.createCachedData()); } catch {} });
}
script.runInThisContext()(module.exports, require, module, file, __dirname);
`;
const wasmFromFile = {
  name: 'wasm-from-file',
  setup(b) {
    b.onResolve({ filter: /\.wasm$/ }, (args) => ({ path: args.path, namespace: 'wasm-file' }));
    b.onLoad({ filter: /.*/, namespace: 'wasm-file' }, (args) => ({
      // An ES default export: a CommonJS module.exports would be wrapped by __toESM, which copies
      // every index of the bytes (240 000 properties, ~0.4 s).
      contents: `import { readFileSync } from 'node:fs';\nimport { join } from 'node:path';\nexport default readFileSync(join(__dirname, '..', 'build', ${JSON.stringify(args.path.split('/').pop())}));`,
      loader: 'js',
    }));
  },
};
await build({
  ...common,
  // cli-run: `sbx run` alone (src/cli/main-run.ts), half the code of cli-main to read and set up.
  entryPoints: { 'cli-main': 'src/cli/main.ts', 'cli-run': 'src/cli/main-run.ts' },
  // Whitespace and syntax only: names stay, so SBX_DEBUG=1 stacks still read. Smaller files to read.
  minifyWhitespace: true,
  minifySyntax: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // `sbx mcp` alone needs the MCP SDK (and its zod and ajv, two thirds of the bundle): it is required
  // from node_modules when that command starts, so every other cold start parses a third of the code.
  external: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*',
    // The experiment's own packages: the CLI reaches the harness through its index for `sbx tasks`
    // alone, and esbuild reads every module an index names before it drops the unused ones.
    'vega', 'vega-lite', 'cli-progress', 'openai', '@anthropic-ai/sdk', 'ollama'],
  // The Wasm module is read from build/sbx.wasm (shipped beside dist/) instead of inlined as base64:
  // the bundle a cold start reads and parses is a third of the size.
  plugins: [wasmFromFile],
  outExtension: { '.js': '.cjs' },
  outdir: 'dist',
  // SBX_CJS: src/launcher/on-demand.ts takes the bundle's own require, without node:module.
  // import.meta.url, made only when read: the run path never does (package-root.ts takes __filename).
  define: { 'import.meta.url': '__sbx_meta.url', SBX_CJS: 'true' },
  banner: { js: 'const __sbx_meta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };' },
});
for (const name of ['cli-main', 'cli-run']) {
  // The bundle runs inside a function wrapper (below): a #! line is only valid at a file's start.
  const bundle = readFileSync(`dist/${name}.cjs`, 'utf8').replace(/^#!.*\n/, '');
  // ...and in a vm.Script, where Node 20 has no import() for modules outside the bundle.
  if (/\bimport\(/.test(bundle)) throw new Error(`dist/${name}.cjs has a dynamic import() that esbuild left external: vm.Script cannot run it; use a static import`);
  // The loader reads it as latin1, which is the same text only for ASCII.
  if (/[^\x00-\x7f]/.test(bundle)) throw new Error(`dist/${name}.cjs is not ASCII: the loader reads it as latin1`);
  writeFileSync(`dist/${name}.cjs`, bundle);
}
writeFileSync('dist/cli.cjs', CLI_LOADER);
chmodSync('dist/cli.cjs', 0o755);
writeFileSync('dist/cli.js', '#!/usr/bin/env node\n// The sbx command line: the bundles are dist/cli-run.cjs and dist/cli-main.cjs, started by dist/cli.cjs (see scripts/build-host.js).\nimport "./cli.cjs";\n');
// Chunk names carry a content hash: those of an earlier build would stay beside these (and ship) unless removed.
rmSync('dist/chunks', { recursive: true, force: true });
const nodeEntries = { index: 'src/host/index.ts' };
if (existsSync('src/launcher/index.ts')) nodeEntries.launcher = 'src/launcher/index.ts';
await build({
  ...common,
  entryPoints: nodeEntries,
  platform: 'node',
  target: 'node20',
  loader: { '.wasm': 'binary' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  banner: { js: '' },
});
chmodSync('dist/cli.js', 0o755);

// The seccomp programs for this machine's architecture, beside the launcher (build/seccomp-<arch>.bpf,
// and -ptrace for --allow-ptrace): launch() hands the file to the launcher, so a cold `sbx run` builds
// no program. Another architecture builds its program at run time. test/launcher/seccomp-file.test.js
// checks the files against the program the code builds.
{
  const { buildSeccompProgram, prebuiltSeccompPath, seccompSupported } = await import(resolve('dist/launcher.js'));
  for (const allowPtrace of [false, true]) {
    const path = prebuiltSeccompPath(allowPtrace);
    rmSync(path, { force: true });
    if (seccompSupported()) writeFileSync(path, buildSeccompProgram(process.arch, { allowPtrace }));
  }
}

// Each code cache comes from a real run of what its bundle mostly starts (whatever that compiled is
// cached, so this works even where the sandbox cannot start); a Node whose V8 differs ignores it.
// cli-run's from `sbx run -- /bin/true`; cli-main's from the call made most often through it, a Claude
// Code PreToolUse hook (one per Bash call of the agent): measured from the shell, 120 interleaved hook
// calls, 95.3 against 98.5 ms with a cache made from `sbx run` through cli-main, CPU 95.1 against 98.3.
for (const run of codeCacheRuns()) {
  rmSync(`dist/${run.name}.cjs.cache`, { force: true });
  spawnSync(process.execPath, ['dist/cli.cjs', ...run.argv], {
    input: run.input, stdio: ['pipe', 'ignore', 'ignore'], timeout: 60_000,
    env: { ...run.env, SBX_BUILD_CODE_CACHE: resolve(`dist/${run.name}.cjs`) },
  });
  rmSync(run.home, { recursive: true, force: true });
}


// The viewer page (dist/viewer/): the page's script, and the engine in a module Web Worker.
await build({
  ...common,
  entryPoints: { main: 'src/viewer/main.ts', worker: 'src/viewer/worker.ts' },
  platform: 'browser',
  loader: { '.wasm': 'binary' },
  outdir: 'dist/viewer',
});
for (const f of ['index.html', 'style.css']) copyFileSync(`src/viewer/${f}`, `dist/viewer/${f}`);

// The experiment apparatus (src/harness): its npm packages (model SDKs, vega) stay in node_modules.
if (existsSync('src/harness/main.ts')) {
  await build({
    ...common,
    entryPoints: { experiment: 'src/harness/main.ts', harness: 'src/harness/index.ts' },
    splitting: true,
    chunkNames: 'chunks/harness-[hash]',
    platform: 'node',
    target: 'node20',
    loader: { '.wasm': 'binary' },
    packages: 'external',
    outdir: 'dist',
  });
}
