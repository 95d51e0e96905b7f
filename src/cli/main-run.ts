#!/usr/bin/env node
// `sbx run ...` (dist/cli-run.cjs, which dist/cli.cjs starts when the first argument is `run`): the CLI
// of src/cli/main.ts with only the run command, so a cold start reads, deserialises and sets up half
// the code. Its behaviour is the full CLI's (test/e2e/cli-run-bundle.test.js).
import { phase } from '../host/index.js';
import { start } from './start.js';

phase('bundle');

start({ run: () => import('./commands/run.js').then((m) => m.default) }, process.argv.slice(2));
