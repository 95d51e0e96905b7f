// --allow-host patterns from the config files (issue 35): the user's ($XDG_CONFIG_HOME/sbx/config.json) and
// the project's (sbx.config.json at the top of the work dir), key "allowHosts". None by default; a bad file
// is one E_CONFIG line and exit 2; with --net they do not apply. A server on 127.0.0.1 named pkg.test by
// SBX_PROXY_HOSTS (nothing asked of DNS), curl inside. Run as root and as an ordinary user.
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { which, workDir, write } from './_helpers.js';
import { sbxAsync } from './_sbx-async.js';

const server = createServer((req, res) => res.end('hello from pkg.test\n'));
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const PORT = server.address().port;
const etc = mkdtempSync(join(tmpdir(), 'sbx-hostcfg-'));
write(etc, { hosts: '127.0.0.1 pkg.test\n' });
process.on('exit', () => rmSync(etc, { recursive: true, force: true }));

/** A fresh XDG_CONFIG_HOME holding the user's config (or none). */
function userConfig(json) {
  const d = mkdtempSync(join(etc, 'xdg-'));
  if (json !== undefined) { mkdirSync(join(d, 'sbx')); write(join(d, 'sbx'), { 'config.json': JSON.stringify(json) }); }
  return d;
}

function sbx(dir, flags, xdg) {
  const env = { ...process.env, SBX_PROXY_HOSTS: join(etc, 'hosts'), XDG_CONFIG_HOME: xdg };
  delete env.SBX_CONFIG;
  return sbxAsync(dir, ['sh', '-c', `curl -sS --max-time 20 http://pkg.test:${PORT}/hello; echo curl=$?`], flags, env);
}

const hasCurl = which('curl');

test('no config, no flag: no host is allowed', async () => {
  if (!hasCurl) { console.log('  (skipped: no curl; apt-get install -y curl)'); return; }
  const r = await sbx(workDir(), [], userConfig());
  assert.is(r.env?.outcome.applied.network, undefined, r.why());
  assert.not.match(r.log, 'hello from pkg.test', r.why());
});

test('the user\'s config allows a host: curl reaches it, applied.network lists the pattern', async () => {
  if (!hasCurl) return;
  const r = await sbx(workDir(), [], userConfig({ allowHosts: ['pkg.test'] }));
  assert.is(r.code, 0, r.why());
  assert.match(r.log, 'hello from pkg.test', r.why());
  assert.equal(r.env.outcome.applied.network.allowed, ['pkg.test']);
  assert.not.match(r.out + r.err, 'allowHosts', 'the user\'s own config is not a note');
});

test('the project\'s sbx.config.json allows a host, and the run says which file did', async () => {
  if (!hasCurl) return;
  const dir = workDir({ 'sbx.config.json': JSON.stringify({ allowHosts: ['pkg.test:' + PORT], hook: { rewrite: true } }) });
  const r = await sbx(dir, ['--allow-host', 'other.test'], userConfig());
  assert.is(r.code, 0, r.why());
  assert.match(r.log, 'hello from pkg.test', r.why());
  assert.equal(r.env.outcome.applied.network.allowed, ['other.test', `pkg.test:${PORT}`]);
  assert.match(r.err, `network: ${join(dir, 'sbx.config.json')} allows pkg.test:${PORT} (allowHosts)`, r.why());
});

test('a bad pattern, a list that is not one, a symlinked project config: E_CONFIG, exit 2, nothing runs', async () => {
  const cases = [
    [workDir({ 'sbx.config.json': JSON.stringify({ allowHosts: ['*.com'] }) }), userConfig(), 'a wildcard over a whole top-level domain'],
    [workDir(), userConfig({ allowHosts: 'pkg.test' }), 'allowHosts must be an array'],
    [workDir({ 'sbx.config.json': '{ nope' }), userConfig(), 'is not JSON'],
  ];
  const linked = workDir({ 'real.json': '{"allowHosts":["pkg.test"]}' });
  symlinkSync(join(linked, 'real.json'), join(linked, 'sbx.config.json'));
  cases.push([linked, userConfig(), 'is a symlink']);
  for (const [dir, xdg, why] of cases) {
    const r = await sbx(dir, [], xdg);
    assert.is(r.code, 2, r.why());
    assert.match(r.err, why, r.why());
    assert.is(r.env, null, 'nothing ran');
  }
});

test('with --net the config files\' hosts do not apply (the whole network is the choice)', async () => {
  const r = await sbx(workDir(), ['--net'], userConfig({ allowHosts: ['pkg.test'] }));
  assert.is(r.code, 0, r.why());
  assert.is(r.env.outcome.applied.network, undefined);
  assert.is(r.env.outcome.applied.netns, false);
});

test.after(() => server.close());
test.run();
