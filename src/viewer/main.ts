// The viewer page: logs come from a file input, a drop, a paste or (under `sbx view LOG`) the page's
// own server; the engine worker reads them and the page shows the rendered verdict, the JSON and a
// navigable list of crash frames and diagnostics. Only the worker touches the logs' bytes.
import type { RunResult } from '../engine/index.js';
import { itemsOf, type Item } from './items.js';
import type { Reply, Request, Source } from './protocol.js';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

interface Named {
  src: Source;
  name: string;
}
const state: { log: Named | null; prev: Named | null; junit: { blob: Blob; name: string } | null } = { log: null, prev: null, junit: null };

// Under `sbx view` every request to the page's server carries the token of its URL (src/cli/view-server.ts).
const token = new URLSearchParams(location.search).get('token');
/** A same-origin URL with the page's token, if it has one. */
function withToken(url: URL): URL {
  if (token) url.searchParams.set('token', token);
  return url;
}

const worker = new Worker(withToken(new URL('./worker.js', import.meta.url)), { type: 'module' });
let seq = 0;
let items: Item[] = [];
let selected = -1;
let lastText = '';

worker.onmessage = (ev: MessageEvent<Reply>) => {
  const r = ev.data;
  if (r.id !== seq) return; // an answer to a request since replaced
  if (r.type === 'progress') showProgress(r.which, r.done, r.total);
  else if (r.type === 'error') {
    setBusy(false);
    $('progress-text').textContent = `Could not read the log: ${r.message}`;
  } else {
    setBusy(false);
    show(r.env, r.text, r.ms);
  }
};

function request(): void {
  showFiles();
  if (!state.log) return;
  const exitRaw = $<HTMLInputElement>('exit').value.trim();
  const exit = exitRaw === '' ? null : Number(exitRaw);
  const signal = $<HTMLInputElement>('signal').value.trim() || null;
  const req: Request = {
    id: ++seq,
    log: state.log.src,
    prev: state.prev?.src ?? null,
    junit: state.junit?.blob ?? null,
    opts: { exit: Number.isInteger(exit) ? exit : null, signal, timedOut: $<HTMLInputElement>('timed-out').checked },
  };
  setBusy(true);
  worker.postMessage(req);
}

function setBusy(on: boolean): void {
  document.body.setAttribute('aria-busy', String(on));
  $('progress').hidden = !on;
  if (on) {
    $<HTMLProgressElement>('progress').removeAttribute('value');
    $('progress-text').textContent = 'reading…';
  }
}

function showProgress(which: 'log' | 'prev', done: number, total: number | null): void {
  const p = $<HTMLProgressElement>('progress');
  if (total) {
    p.max = total;
    p.value = done;
  } else p.removeAttribute('value');
  $('progress-text').textContent = `${which === 'prev' ? 'previous log' : 'log'}: ${mb(done)}${total ? ` of ${mb(total)}` : ''} read`;
}

const mb = (n: number): string => (n < 1 << 20 ? `${(n / 1024).toFixed(1)} KB` : `${(n / (1 << 20)).toFixed(1)} MB`);

function showFiles(): void {
  const parts = [];
  if (state.log) parts.push(`log: ${state.log.name}`);
  if (state.prev) parts.push(`previous: ${state.prev.name}`);
  if (state.junit) parts.push(`JUnit: ${state.junit.name}`);
  $('files').textContent = parts.join(' · ');
}

function show(env: RunResult, text: string, ms: number): void {
  const v = env.verdict;
  $('summary').hidden = false;
  $('panes').hidden = false;
  const st = $('status');
  st.textContent = v.status;
  st.className = `status ${v.status}`;
  const f = v.crash?.first_user_frame;
  $('first-frame').textContent = v.crash
    ? `${v.crash.kind}${f ? ` — first user frame: ${f.function ?? '??'} ${f.file ?? ''}${f.line ? `:${f.line}` : ''}` : ' — no user frame'}`
    : `${v.counts.errors} error(s), ${v.counts.warnings} warning(s)${v.tests ? `, tests ${v.tests.passed} passed, ${v.tests.failed} failed${v.tests.errors ? `, ${v.tests.errors} errored` : ''}` : ''}`;
  $('delta').textContent = env.delta ? `Delta from the previous log: ${env.delta.summary}` : '';
  lastText = text;
  $('text').textContent = text;
  $('json').textContent = JSON.stringify(env, null, 2);
  $('progress-text').textContent = `${mb(v.raw_bytes)}, ${v.lines} lines, read in ${ms} ms`;
  items = itemsOf(v);
  const list = $('items');
  list.replaceChildren(
    ...items.map((it, i) => {
      const li = document.createElement('li');
      li.textContent = it.label;
      li.setAttribute('role', 'option');
      li.className = `${it.group} ${it.severity} ${it.user ? 'user' : 'lib'}`;
      li.addEventListener('click', () => select(i));
      return li;
    }),
  );
  if (!items.length) list.replaceChildren(Object.assign(document.createElement('li'), { textContent: 'no crash frames, diagnostics or failing tests' }));
  const firstUser = items.findIndex((it) => it.label.endsWith('first user frame'));
  select(items.length ? Math.max(0, firstUser) : -1);
}

function select(i: number): void {
  const list = $('items');
  list.querySelectorAll('li[aria-selected="true"]').forEach((li) => li.setAttribute('aria-selected', 'false'));
  selected = i;
  const it = items[i];
  if (!it) {
    $('detail').textContent = '';
    $('text').textContent = lastText;
    return;
  }
  const li = list.children[i] as HTMLElement | undefined;
  li?.setAttribute('aria-selected', 'true');
  li?.scrollIntoView({ block: 'nearest' });
  $('detail').textContent = it.detail;
  markLine(it);
}

/** Marks the first line of the rendered verdict that names the item's file:line. */
function markLine(it: Item): void {
  const pre = $('text');
  const base = it.file?.split('/').pop();
  const lines = lastText.split('\n');
  const find = (s: string): number => lines.findIndex((l) => l.includes(s));
  let at = base && it.line && it.col ? find(`${base}:${it.line}:${it.col}`) : -1;
  if (at < 0 && base && it.line) at = find(`${base}:${it.line}`);
  if (at < 0) {
    pre.textContent = lastText;
    return;
  }
  const mark = document.createElement('mark');
  mark.textContent = lines[at]!;
  pre.replaceChildren(lines.slice(0, at).join('\n') + (at ? '\n' : ''), mark, `\n${lines.slice(at + 1).join('\n')}`);
  mark.scrollIntoView({ block: 'nearest' });
}

$('items').addEventListener('keydown', (ev) => {
  if (!items.length) return;
  if (ev.key === 'ArrowDown') select(Math.min(items.length - 1, selected + 1));
  else if (ev.key === 'ArrowUp') select(Math.max(0, selected - 1));
  else if (ev.key === 'Home') select(0);
  else if (ev.key === 'End') select(items.length - 1);
  else return;
  ev.preventDefault();
});

const isXml = (f: File): boolean => /\.xml$/i.test(f.name) || f.type.includes('xml');

function takeFiles(files: File[], slot: 'log' | 'prev' | 'junit' | 'auto'): void {
  if (slot === 'junit') {
    const f = files[0];
    state.junit = f ? { blob: f, name: f.name } : null;
  } else if (slot !== 'auto') {
    const f = files[0];
    state[slot] = f ? { src: f, name: f.name } : null;
  } else {
    const xml = files.filter(isXml);
    const logs = files.filter((f) => !isXml(f)).sort((a, b) => a.lastModified - b.lastModified || a.name.localeCompare(b.name));
    if (xml[0]) state.junit = { blob: xml[0], name: xml[0].name };
    if (logs.length >= 2) {
      state.prev = { src: logs[logs.length - 2]!, name: logs[logs.length - 2]!.name };
    }
    const cur = logs[logs.length - 1];
    if (cur) state.log = { src: cur, name: cur.name };
  }
  request();
}

for (const [id, slot] of [
  ['log-file', 'log'],
  ['prev-file', 'prev'],
  ['junit-file', 'junit'],
] as const) {
  $<HTMLInputElement>(id).addEventListener('change', (ev) => takeFiles([...((ev.target as HTMLInputElement).files ?? [])], slot));
}
for (const id of ['exit', 'signal', 'timed-out']) $(id).addEventListener('change', request);
$('use-paste').addEventListener('click', () => {
  const text = $<HTMLTextAreaElement>('paste').value;
  state.log = { src: new Blob([text]), name: 'pasted text' };
  request();
});
$('clear').addEventListener('click', () => {
  state.log = state.prev = state.junit = null;
  for (const id of ['log-file', 'prev-file', 'junit-file']) $<HTMLInputElement>(id).value = '';
  $('summary').hidden = true;
  $('panes').hidden = true;
  $('progress-text').textContent = '';
  showFiles();
});

let dragDepth = 0;
window.addEventListener('dragenter', (ev) => {
  ev.preventDefault();
  dragDepth++;
  $('drop-overlay').hidden = false;
});
window.addEventListener('dragleave', () => {
  if (--dragDepth <= 0) {
    dragDepth = 0;
    $('drop-overlay').hidden = true;
  }
});
window.addEventListener('dragover', (ev) => ev.preventDefault());
window.addEventListener('drop', (ev) => {
  ev.preventDefault();
  dragDepth = 0;
  $('drop-overlay').hidden = true;
  const files = [...(ev.dataTransfer?.files ?? [])];
  if (files.length) takeFiles(files, 'auto');
});

// `sbx view LOG` opens the page as /?token=...&log=/log&name=...&exit=...&signal=...: the log comes from the page's own server.
const q = new URLSearchParams(location.search);
if (q.get('exit')) $<HTMLInputElement>('exit').value = q.get('exit')!;
if (q.get('signal')) $<HTMLInputElement>('signal').value = q.get('signal')!;
if (q.get('timed-out') === '1') $<HTMLInputElement>('timed-out').checked = true;
const served = q.get('log');
// Only the page's own server (its token goes with the request): `/\host` is another host to URL().
const servedUrl = served?.startsWith('/') ? new URL(served, location.href) : null;
if (served && servedUrl?.origin === location.origin) {
  const u = withToken(servedUrl);
  state.log = { src: { url: u.pathname + u.search }, name: q.get('name') ?? served };
  request();
}
