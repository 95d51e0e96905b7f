// Issue 31 §3, with the real Gemini CLI (pinned): the documented project install (.gemini/settings.json),
// driven headless with --skip-trust. Gemini CLI reads a project's settings only in a trusted folder, and
// --skip-trust trusts the session only after the settings were read: the hooks were ignored without a
// word. Now `sbx hook install --gemini` says so and what to do, `sbx hook doctor` reports it, and
// `install --gemini --trust` records the folder as trusted: the next headless run is sandboxed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { functionResponses, startScriptedGemini } from './_scripted-gemini.js';
import { cli, ensureGemini, geminiSettings, runGemini, scratchProject } from './_client.js';
import { needs, skipping } from '../_tools.js';

const WHAT = 'test/integrations/gemini-project (the real Gemini CLI)';
const tools = needs(WHAT, ['python3'], suite('gemini-cli: project install'));
const client = tools.skipping ? null : ensureGemini();
const test = client?.skip ? skipping(tools, WHAT, `${client.skip}; install: the suite installs it from the npm registry when it can reach it`) : tools;

{
  let s; let proj; const got = {};
  const sbx = (...args) => {
    const env = { ...process.env, HOME: s.home };
    for (const k of ['GEMINI_CLI_TRUST_WORKSPACE', 'GEMINI_CLI_TRUSTED_FOLDERS_PATH', 'GEMINI_CLI_HOME', 'GEMINI_RESTRICTED_MODE']) delete env[k];
    return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env });
  };
  const hostname = async () => {
    const m = await startScriptedGemini([
      { tool: 'run_shell_command', input: { command: 'python3 -c "import socket; print(\'host=\' + socket.gethostname())"' } },
      { text: 'Done.' },
    ]);
    const session = await runGemini(client.bin, { cwd: proj, home: s.home, url: m.url });
    const results = functionResponses(m.mainRequests().at(-1)?.body).map((f) => f.response);
    await m.close();
    return { session, results };
  };

  test.before(async () => {
    s = scratchProject('asan');
    proj = realpathSync(s.proj);
    geminiSettings(s.home); // the user's settings: API-key auth only
    got.install = sbx('hook', 'install', '--gemini', '--dir', proj);
    got.doctor = sbx('hook', 'doctor', '--gemini', '--dir', proj);
    got.untrusted = await hostname();
    got.trust = sbx('hook', 'install', '--gemini', '--trust', '--dir', proj);
    got.doctorAfter = sbx('hook', 'doctor', '--gemini', '--dir', proj);
    got.trusted = await hostname();
  });
  test.after(() => { if (s && !process.env.SBX_INTEG_KEEP) rmSync(s.base, { recursive: true, force: true }); });

  test('install in an untrusted project says the hooks are not live yet, why, and each fix', () => {
    assert.is(got.install.status, 0, got.install.stderr);
    const out = got.install.stdout;
    assert.match(out, /Gemini CLI pre-hook installed in \S+\/\.gemini\/settings\.json\n/);
    assert.match(out, /sbx: not live yet: Gemini CLI ignores \S+\/\.gemini\/settings\.json, hooks included, until the folder is trusted \(no rule in \S+trustedFolders\.json holds the project\)/);
    assert.match(out, /also in a headless run with --skip-trust/);
    assert.match(out, /sbx hook install --gemini --trust/);
    assert.match(out, /GEMINI_CLI_TRUST_WORKSPACE=true/);
  });

  test('doctor: the untrusted project is a missing line, exit 1', () => {
    assert.is(got.doctor.status, 1, got.doctor.stdout);
    assert.match(got.doctor.stdout, /^missing Gemini CLI: the project is not trusted .*--skip-trust; fix: sbx hook install --gemini --trust/m);
  });

  test('what doctor said is what Gemini CLI does: headless with --skip-trust, the project hooks are ignored', () => {
    assert.is(got.untrusted.session.status, 0, got.untrusted.session.stderr.slice(-800));
    const out = got.untrusted.results[0]?.output ?? '';
    assert.match(out, /host=/);
    assert.not.match(out, /sbx: |host=sbx/, 'ran on the host, unsandboxed');
  });

  test('install --trust records the folder in ~/.gemini/trustedFolders.json; doctor: live', () => {
    assert.is(got.trust.status, 0, got.trust.stderr);
    assert.match(got.trust.stdout, /recorded as a trusted folder in \S+\/\.gemini\/trustedFolders\.json/);
    assert.equal(JSON.parse(readFileSync(join(s.home, '.gemini', 'trustedFolders.json'), 'utf8')), { [proj]: 'TRUST_FOLDER' });
    assert.is(got.doctorAfter.status, 0, got.doctorAfter.stdout);
    assert.match(got.doctorAfter.stdout, /^ok {6}Gemini CLI: the project is trusted \(\S+trustedFolders\.json: TRUST_FOLDER /m);
  });

  test('then the same headless run is sandboxed by the project hooks', () => {
    assert.is(got.trusted.session.status, 0, got.trusted.session.stderr.slice(-800));
    assert.match(got.trusted.results[0]?.output ?? '', /sbx: pass · exit 0 [^\n]*\nhost=sbx\n/);
  });
}

test.run();
