#!/usr/bin/env node
'use strict';
// The floor of any Node CLI that sandboxes a command: Node's start-up, node:child_process, one launcher
// spawned with a fixed spec (argv NUL-separated in the file given) over fd 5, and waiting for it. No
// state, no engine, no render. bench/startup.js runs it beside `node -e 0` and `sbx run -- /bin/true`.
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const [launcher, specFile] = process.argv.slice(2);
const c = spawn(launcher, ['--spec-fd', '5'], { stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'ignore', 'pipe'], env: {} });
c.stdout.resume(); c.stderr.resume(); c.stdio[3].resume();
c.stdio[5].end(readFileSync(specFile));
c.on('close', (code) => { process.exitCode = code === 0 ? 0 : 1; });
