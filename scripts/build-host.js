// Bundles the TypeScript host into dist/: the CLI, the library API, and the browser-safe engine
// (which carries the Wasm module inline, so it loads the same way in Node and in a browser).
import { build } from 'esbuild';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';

const common = { bundle: true, format: 'esm', target: 'es2022', logLevel: 'warning', legalComments: 'none' };

await build({
  ...common,
  entryPoints: { engine: 'src/host/engine.ts' },
  platform: 'neutral',
  loader: { '.wasm': 'binary' },
  outdir: 'dist',
});

// The CLI is one CommonJS file, dist/cli.cjs (the bin): a cold `sbx run` then loads a single module
// and Node never starts its ESM loader, which a .js entry in this "type": "module" package would
// (measured by `npm run bench:startup`). import.meta.url becomes the file's own URL. dist/cli.js
// is the same program for `node dist/cli.js` (it imports dist/cli.cjs).
const wasmFromFile = {
  name: 'wasm-from-file',
  setup(b) {
    b.onResolve({ filter: /\.wasm$/ }, (args) => ({ path: args.path, namespace: 'wasm-file' }));
    b.onLoad({ filter: /.*/, namespace: 'wasm-file' }, (args) => ({
      contents: `module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'build', ${JSON.stringify(args.path.split('/').pop())}));`,
      loader: 'js',
    }));
  },
};
await build({
  ...common,
  entryPoints: { cli: 'src/host/cli.ts' },
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // The Wasm module is read from build/sbx.wasm (shipped beside dist/) instead of inlined as base64:
  // the bundle a cold start reads and parses is a third of the size.
  plugins: [wasmFromFile],
  outExtension: { '.js': '.cjs' },
  outdir: 'dist',
  define: { 'import.meta.url': '__sbx_file_url' },
  banner: { js: 'const __sbx_file_url = require("node:url").pathToFileURL(__filename).href;' },
});
writeFileSync('dist/cli.js', '#!/usr/bin/env node\n// The sbx command line: the bundle is dist/cli.cjs (see scripts/build-host.js).\nimport "./cli.cjs";\n');
chmodSync('dist/cli.cjs', 0o755);

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
