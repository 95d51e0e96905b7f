// The engine in a Web Worker: reads a log in chunks from File.stream() (or a same-origin fetch), feeds
// the Wasm engine chunk by chunk and reports progress, so a 1 GB log never blocks the page nor sits
// in memory whole.
import { createEngine, type Engine, type RunResult } from '../engine/index.js';
import type { Reply, Request, Source } from './protocol.js';

interface WorkerScope {
  onmessage: ((ev: { data: Request }) => void) | null;
  postMessage(msg: Reply): void;
}
const scope = self as unknown as WorkerScope;
const PROGRESS_EVERY = 4 << 20;

let engine: Promise<Engine> | null = null;
let latest = 0;
// One request at a time (the engine holds one stream): a newer request makes the running one stop at
// its next chunk, then runs.
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (ev) => {
  const req = ev.data;
  latest = req.id;
  queue = queue
    .then(() => (req.id === latest ? run(req) : Promise.reject(new Error('superseded by a newer request'))))
    .then(
      (r) => scope.postMessage(r),
      (err: unknown) => scope.postMessage({ id: req.id, type: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
};

async function run(req: Request): Promise<Reply> {
  const t0 = performance.now();
  engine ??= createEngine();
  const e = await engine;
  const prev = req.prev ? await verdictOf(e, req, req.prev, 'prev', {}) : null;
  let env = await verdictOf(e, req, req.log, 'log', req.opts);
  if (req.junit) env = e.mergeJunit(env, new Uint8Array(await req.junit.arrayBuffer()));
  if (prev) env = { ...env, delta: e.delta(prev.verdict, env.verdict, {}) };
  return { id: req.id, type: 'result', env, text: e.render(env), ms: Math.round(performance.now() - t0) };
}

async function verdictOf(e: Engine, req: Request, src: Source, which: 'log' | 'prev', opts: Request['opts']): Promise<RunResult> {
  const { stream, total } = await open(src);
  const s = e.stream(opts);
  const reader = stream.getReader();
  let done = 0;
  let next = 0;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      s.push(r.value);
      done += r.value.length;
      if (done >= next) {
        scope.postMessage({ id: req.id, type: 'progress', which, done, total });
        next = done + PROGRESS_EVERY;
      }
      // A newer request replaces this one: stop reading (end() frees the engine for it).
      if (req.id !== latest) break;
    }
  } finally {
    reader.releaseLock();
  }
  const env = s.end();
  if (req.id !== latest) throw new Error('superseded by a newer request');
  scope.postMessage({ id: req.id, type: 'progress', which, done, total: total ?? done });
  return env;
}

async function open(src: Source): Promise<{ stream: ReadableStream<Uint8Array>; total: number | null }> {
  if (src instanceof Blob) return { stream: src.stream(), total: src.size };
  const res = await fetch(src.url);
  if (!res.ok || !res.body) throw new Error(`cannot read ${src.url}: HTTP ${res.status}`);
  const len = res.headers.get('content-length');
  return { stream: res.body, total: len ? Number(len) : null };
}
