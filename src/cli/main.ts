#!/usr/bin/env node
// The sbx command line, every command (dist/cli-main.cjs). `sbx run` starts from src/cli/main-run.ts
// instead: the same CLI with only that command, a bundle a cold start loads and compiles less of.
import { phase } from '../host/index.js';
import { start } from './start.js';

phase('bundle');

start(
  {
    verdict: () => import('./commands/verdict.js').then((m) => m.default),
    history: () => import('./commands/history.js').then((m) => m.default),
    replay: () => import('./commands/replay.js').then((m) => m.default),
    run: () => import('./commands/run.js').then((m) => m.default),
    host: () => import('./commands/host.js').then((m) => m.default),
    selftest: () => import('./commands/selftest.js').then((m) => m.default),
    view: () => import('./commands/view.js').then((m) => m.default),
    tasks: () => import('./commands/tasks.js').then((m) => m.default),
    hook: () => import('./commands/hook.js').then((m) => m.default),
    mcp: () => import('./commands/mcp.js').then((m) => m.default),
    daemon: () => import('./commands/daemon.js').then((m) => m.default),
  },
  process.argv.slice(2),
);
