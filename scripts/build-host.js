// Bundles the TypeScript host into dist/: the CLI, the library API, and the browser-safe engine
// (which carries the Wasm module inline, so it loads the same way in Node and in a browser).
import { build } from 'esbuild';
import { chmodSync, copyFileSync, existsSync } from 'node:fs';

const common = { bundle: true, format: 'esm', target: 'es2022', logLevel: 'warning', legalComments: 'none' };

await build({
  ...common,
  entryPoints: { engine: 'src/engine/engine.ts' },
  platform: 'neutral',
  loader: { '.wasm': 'binary' },
  outdir: 'dist',
});

const nodeEntries = { index: 'src/host/index.ts', cli: 'src/cli/main.ts' };
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

// The viewer page (dist/viewer/): the page's script, and the engine in a module Web Worker.
await build({
  ...common,
  entryPoints: { main: 'src/viewer/main.ts', worker: 'src/viewer/worker.ts' },
  platform: 'browser',
  loader: { '.wasm': 'binary' },
  outdir: 'dist/viewer',
});
for (const f of ['index.html', 'style.css']) copyFileSync(`src/viewer/${f}`, `dist/viewer/${f}`);
