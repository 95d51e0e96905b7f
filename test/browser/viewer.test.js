// The viewer page as a new user meets it, in real headless Chromium: `sbx view LOG` prints a URL whose
// page shows the log's verdict; dropping a log, two logs (→ the delta), a JUnit report, pasting text,
// arrow keys through the frames, and a large log streamed in a worker with progress while the page
// keeps answering. Every value checked is Node's own engine's on the same real fixture. No request
// leaves the page's origin, and each carries the token of the URL sbx view printed. Screenshots go to artifacts/ (not tracked) to look at.
// sbx-test: alone (the page's longest freeze is timed; scripts/test.js runs it with no other file beside it)
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../../dist/engine.js';
import { ROOT, launch } from './_chromium.js';
import { needs } from '../_tools.js';

const test = needs('test/browser/viewer (the viewer page in Chromium)', ['chromium'], uvuTest);

const engine = await createEngine();
const fx = (p) => join(ROOT, 'fixtures', p);
const run = (dir) => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
const verdictOf = (dir, extra = {}) => {
  const r = run(dir);
  return engine.verdict(readFileSync(join(dir, 'log.txt')), { exit: r.exit ?? null, signal: r.signal ?? null, ...extra });
};
const ARTIFACTS = join(ROOT, 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

// `sbx view LOG`: the command line a user types; its first stdout line is the URL.
const CRASH = fx('cfamily/asan-heap-overflow-read-gcc');
const crashRun = run(CRASH);
// Started only when the suite runs. The server is killed however the file ends (a failed assertion, a
// throw before after() runs): it would otherwise serve on with nobody to stop it.
let view; let url; let origin; let browser; let page;
const requests = [];
const pageErrors = [];
process.on('exit', () => view?.kill('SIGKILL'));
if (!test.skipping) {
  view = spawn(process.execPath, [join(ROOT, 'dist/cli.js'), 'view', join(CRASH, 'log.txt'), '--exit', String(crashRun.exit)], { stdio: ['ignore', 'pipe', 'pipe'] });
  url = await new Promise((ok, bad) => {
    let out = '';
    view.stdout.on('data', (d) => { out += d; if (out.includes('\n')) ok(out.split('\n')[0]); });
    view.on('exit', (code) => bad(new Error(`sbx view exited ${code} before printing a URL`)));
    setTimeout(() => bad(new Error('sbx view printed no URL in 10 s')), 10000).unref();
  });
  origin = new URL(url).origin;
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => pageErrors.push(e.message));
}

const statusIs = async (s) => { await page.waitForFunction((s) => document.querySelector('#status')?.textContent === s && document.body.getAttribute('aria-busy') === 'false', s, { timeout: 20000 }); };
/** Drops files on the page as a user's drag and drop does: a DataTransfer with File objects. */
async function drop(files) {
  await page.evaluate((files) => {
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { lastModified: f.lastModified }));
    window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files.map((f) => ({ name: f.name, lastModified: f.lastModified ?? 1, b64: readFileSync(f.path).toString('base64') })));
}

test('sbx view LOG: the page opens on the log with its status and first user frame', async () => {
  const want = verdictOf(CRASH);
  await page.goto(url);
  await statusIs(want.verdict.status);
  const f = want.verdict.crash.first_user_frame;
  const shown = await page.textContent('#first-frame');
  assert.ok(shown.includes(`${f.function} ${f.file}:${f.line}`), shown);
  assert.is(await page.inputValue('#exit'), String(crashRun.exit));
  assert.is(await page.textContent('#text'), engine.render(want));
  assert.equal(JSON.parse(await page.textContent('#json')), want);
  const selected = await page.textContent('#items li[aria-selected="true"]');
  assert.ok(selected.includes('first user frame') && selected.includes(f.function), selected);
  await page.screenshot({ path: join(ARTIFACTS, 'viewer-crash.png') });
});

test('arrow keys walk the crash frames; the detail follows', async () => {
  const before = await page.textContent('#detail');
  await page.focus('#items');
  await page.keyboard.press('ArrowDown');
  const after = await page.textContent('#detail');
  assert.is.not(after, before);
  const idx = await page.evaluate(() => [...document.querySelectorAll('#items li')].findIndex((li) => li.getAttribute('aria-selected') === 'true'));
  assert.ok(idx >= 1);
});

test('dropping a compiler log shows its diagnostics in the list', async () => {
  const dir = fx('cfamily/cc-many-errors-gcc');
  const want = verdictOf(dir);
  await page.fill('#exit', '');
  await drop([{ name: 'build.log', path: join(dir, 'log.txt') }]);
  await page.fill('#exit', String(run(dir).exit));
  await page.dispatchEvent('#exit', 'change');
  await statusIs(want.verdict.status);
  assert.is(await page.textContent('#text'), engine.render(want));
  const items = await page.$$eval('#items li', (lis) => lis.map((li) => li.textContent));
  assert.is(items.length, want.verdict.diagnostics.length);
  assert.ok(items[0].includes(`${want.verdict.diagnostics[0].file}:${want.verdict.diagnostics[0].line}`), items[0]);
});

test('two logs dropped together: the older is the previous run, the delta is shown', async () => {
  const pair = fx('pairs/asan-crash-moved');
  const before = verdictOf(join(pair, 'before')).verdict;
  await page.fill('#exit', String(run(join(pair, 'after')).exit));
  await drop([
    { name: 'after.log', path: join(pair, 'after/log.txt'), lastModified: 2000 },
    { name: 'before.log', path: join(pair, 'before/log.txt'), lastModified: 1000 },
  ]);
  const cur = verdictOf(join(pair, 'after'));
  const delta = engine.delta(before, cur.verdict, {});
  await statusIs(cur.verdict.status);
  await page.waitForFunction(() => document.querySelector('#delta')?.textContent !== '');
  assert.is(await page.textContent('#delta'), `Delta from the previous log: ${delta.summary}`);
  assert.is(await page.textContent('#text'), engine.render({ ...cur, delta }));
  assert.match(await page.textContent('#files'), 'previous: before.log');
  await page.screenshot({ path: join(ARTIFACTS, 'viewer.png') });
});

test('a JUnit report is merged into the verdict', async () => {
  const dir = fx('runners/junit-pytest-fail');
  await page.click('#clear');
  await page.fill('#exit', String(run(dir).exit ?? ''));
  await page.setInputFiles('#junit-file', join(dir, 'report.xml'));
  await page.setInputFiles('#log-file', join(dir, 'log.txt'));
  const want = engine.mergeJunit(verdictOf(dir), readFileSync(join(dir, 'report.xml')));
  await statusIs(want.verdict.status);
  assert.equal(JSON.parse(await page.textContent('#json')).verdict.tests, want.verdict.tests);
  assert.is(await page.textContent('#text'), engine.render(want));
});

test('pasted text is read like a file', async () => {
  const dir = fx('cfamily/cc-many-errors-gcc');
  await page.click('#clear');
  await page.fill('#exit', '');
  await page.click('#paste-box summary');
  await page.fill('#paste', readFileSync(join(dir, 'log.txt'), 'utf8'));
  await page.click('#use-paste');
  const want = engine.verdict(readFileSync(join(dir, 'log.txt')), {});
  await statusIs(want.verdict.status);
  assert.is(await page.textContent('#text'), engine.render(want));
});

test('a large log is streamed in the worker with progress, the page keeps answering, a change of inputs meanwhile wins', async () => {
  // 96 MB cut from real fixture logs, built in the page (as a File) so no 96 MB crosses the protocol.
  const parts = ['cfamily/asan-heap-overflow-read-gcc', 'cfamily/cc-many-errors-gcc'].map((p) => readFileSync(join(fx(p), 'log.txt')).toString('base64'));
  const result = await page.evaluate(async (parts) => {
    const bytes = parts.map((b) => Uint8Array.from(atob(b), (c) => c.charCodeAt(0)));
    const unit = new Blob(bytes);
    const reps = Math.ceil((96 << 20) / unit.size);
    const file = new File(Array.from({ length: reps }, () => unit), 'big.log');
    const seen = new Set();
    let ticks = 0; let maxGap = 0; let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now(); maxGap = Math.max(maxGap, now - last); last = now; ticks++;
      seen.add(document.querySelector('#progress-text').textContent);
    }, 10);
    document.querySelector('#clear').click();
    const dt = new DataTransfer(); dt.items.add(file);
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    // The user changes the exit code while the log is being read: the running read gives way to a new one.
    await new Promise((ok) => setTimeout(ok, 100));
    const exit = document.querySelector('#exit'); exit.value = '3'; exit.dispatchEvent(new Event('change'));
    await new Promise((ok) => { const w = () => (document.body.getAttribute('aria-busy') === 'false' ? ok() : setTimeout(w, 20)); setTimeout(w, 20); });
    clearInterval(timer);
    const v = JSON.parse(document.querySelector('#json').textContent).verdict;
    return { size: file.size, progress: [...seen].filter((s) => / of /.test(s)), ticks, maxGap, raw: v.raw_bytes, exit: v.exit.code, after: document.querySelector('#progress-text').textContent };
  }, parts);
  assert.is(result.raw, result.size, 'the verdict counts every byte of the file');
  assert.is(result.exit, 3, 'the verdict is for the exit code given while reading');
  assert.match(result.after, /read in \d+ ms/);
  assert.ok(result.progress.length >= 3, `progress shown ${result.progress.length} times: ${result.progress.join(' | ')}`);
  assert.ok(result.maxGap < 1000, `the page froze for ${Math.round(result.maxGap)} ms`);
});

test('nothing left the page: every request went to its own origin, no script error', () => {
  assert.ok(requests.length > 3);
  assert.equal(requests.filter((r) => !r.startsWith(origin) && !r.startsWith('blob:') && !r.startsWith('data:')), []);
  assert.equal(pageErrors, []);
});

test('the page asked for everything with its token (sbx view refuses any request without it)', () => {
  const token = new URL(url).searchParams.get('token');
  assert.ok(token);
  const own = requests.filter((r) => r.startsWith(origin));
  assert.ok(own.some((r) => new URL(r).pathname === '/log'), own.join('\n'));
  assert.equal(own.filter((r) => new URL(r).searchParams.get('token') !== token), []);
});

test('the server gives the page and the log, nothing else, only to its own host and only with the token', async () => {
  const { request } = await import('node:http');
  const token = new URL(url).searchParams.get('token');
  const get = (path, host, withToken = true) => new Promise((ok, bad) => {
    const u = new URL(url);
    const full = withToken ? `${path}${path.includes('?') ? '&' : '?'}token=${token}` : path;
    request({ host: '127.0.0.1', port: u.port, path: full, headers: host ? { host } : {} }, (res) => { res.resume(); ok(res.statusCode); }).on('error', bad).end();
  });
  assert.is(await get('/log'), 200);
  assert.is(await get('/worker.js'), 200);
  assert.is(await get('/../package.json'), 404);
  assert.is(await get('/%2e%2e/package.json'), 404);
  assert.is(await get('/log', 'attacker.example:80'), 403, 'a rebound DNS name is refused');
  for (const p of ['/log', '/', '/worker.js', '/log?token=wrong']) assert.is(await get(p, null, false), 403, `${p} without the token`);
});

// No browser needed: runs wherever the suite is skipped too.
uvuTest('sbx view with bad input: one line, exit 2', () => {
  for (const args of [['view', 'no/such.log'], ['view', '--port', 'x'], ['view', '--exit', 'one'], ['view', '--prot', '1']]) {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), ...args], { encoding: 'utf8', timeout: 10000 });
    assert.is(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test.after(async () => { await browser?.close(); view?.kill('SIGINT'); });
test.run();
