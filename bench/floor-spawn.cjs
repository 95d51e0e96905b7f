#!/usr/bin/env node
'use strict';
// The floor of any Node CLI that sandboxes a command: Node's start-up and one launcher spawned with a
// fixed spec (argv NUL-separated in the file given, opened as its fd 5), its output into a file, and
// waiting for its exit. No state, no engine, no render. bench/startup.js runs it beside `node -e 0`
// and `sbx run -- /bin/true`. It spawns as sbx does (src/launcher/spawn-launcher.ts): through Node's
// process_wrap binding, descriptors only; with `--child-process`, through node:child_process.
const { constants, openSync } = require('node:fs');
const { dirname } = require('node:path');
const argv = process.argv.slice(2);
const viaChildProcess = argv[0] === '--child-process';
const [launcher, specFile, logFile] = viaChildProcess ? argv.slice(1) : argv;
const O_TMPFILE = 0o20000000 | constants.O_DIRECTORY;
const log = openSync(logFile, 'w');
const status = openSync(dirname(logFile), O_TMPFILE | constants.O_RDWR, 0o600);
const spec = openSync(specFile, 'r');
const fds = [-1, log, log, status, -1, spec];
if (viaChildProcess) {
  const c = require('node:child_process').spawn(launcher, ['--spec-fd', '5'], { stdio: fds.map((fd) => (fd < 0 ? 'ignore' : fd)), env: {} });
  c.on('exit', (code) => { process.exitCode = code === 0 ? 0 : 1; });
} else {
  const { Process } = process.binding('process_wrap');
  const p = new Process();
  p.onexit = (code) => { p.close(); process.exitCode = code === 0 ? 0 : 1; };
  p.spawn({ file: launcher, args: [launcher, '--spec-fd', '5'], envPairs: [], stdio: fds.map((fd) => (fd < 0 ? { type: 'ignore' } : { type: 'fd', fd })) });
}
