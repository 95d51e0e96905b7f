// Bundles the TypeScript host into dist/: the CLI, the library API, and the browser-safe engine
// (which carries the Wasm module inline, so it loads the same way in Node and in a browser).
import { build } from 'esbuild';
import { chmodSync, existsSync } from 'node:fs';

const common = { bundle: true, format: 'esm', target: 'es2022', logLevel: 'warning', legalComments: 'none' };

await build({
  ...common,
  entryPoints: { engine: 'src/host/engine.ts' },
  platform: 'neutral',
  loader: { '.wasm': 'binary' },
  outdir: 'dist',
});

const nodeEntries = { index: 'src/host/index.ts', cli: 'src/host/cli.ts' };
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
