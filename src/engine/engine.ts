// The Wasm verdict engine, with no Node imports: the same module loads in Node and in a browser.
// Bytes in, bytes out: logs go into the module's memory in chunks, the verdict JSON comes back.
import * as v from 'valibot';
import wasmBytes from '../../build/sbx.wasm';
import { aliasRewriter, throughAlias } from './work-alias.js';
import { SbxError, contract, issueText, type Delta, type RunResult, type Verdict, signalNumber } from '../contract/index.js';

export type { Delta, RunResult, Verdict } from '../contract/index.js';

export interface VerdictOptions {
  /** The command's exit code, when it exited. */
  exit?: number | null;
  /** The signal that killed it (name or number), when one did. */
  signal?: string | number | null;
  timedOut?: boolean;
  /**
   * The caller stopped the run (Ctrl-C to `sbx run`): the status is interrupted, the signal is not a crash,
   * and the run is no baseline for the next one's delta.
   */
  interrupted?: boolean;
  /**
   * sbx's own error when the run's set-up failed before the command ran: the engine then gives the
   * status setup-failed with this as setup_error, whatever the log says.
   */
  setupError?: string | null;
  /** Path of the raw log on disk, recorded in the envelope. */
  log?: string | null;
  /**
   * The work dir's host path, which the sandbox shows besides /work: the log's paths under it read as
   * /work's (work-relative in the verdict), and raw_bytes counts them so; setupError's too: the same run at
   * two host paths gives the same verdict. Taken when the verdict or stream begins.
   */
  workAlias?: string | null;
}

export interface DeltaOptions {
  /** Whether the work tree changed since the previous run (undefined: unknown). */
  treeChanged?: boolean;
  /** Runs in a row, this one included, with the same verdict (from the history). */
  sameRuns?: number;
}

/**
 * A run's end as VerdictStream.end takes it, for the delta and the rendered text in the same call as the
 * verdict: the envelope's outcome, and the previous run of the command as the caller read it before.
 */
export interface RunEnd {
  outcome: RunResult['outcome'];
  /** The previous run's verdict (null: a first run). */
  prev: Verdict | null;
  /** The previous run's streak key (streakKey) and its runs in a row with it, itself included. */
  prevKey: string | null;
  prevRuns: number;
  /** Whether the work tree changed since the previous run (undefined: unknown). */
  treeChanged?: boolean;
}

/**
 * What VerdictStream.end(run) gives: the envelope (its outcome set; its delta left to the caller), its verdict's
 * streak key, and the delta and the text of the envelope with it (null when the previous verdict could not
 * be read: conclude() then says why).
 */
export interface RunEnded {
  env: RunResult;
  key: string;
  delta: Delta | null;
  text: string | null;
}

export interface VerdictStream {
  push(chunk: Uint8Array): void;
  /**
   * The run's exit facts, for a stream begun before they were known (fed while the command runs): they
   * replace the stream's own (exit, signal, timedOut, interrupted, log). True when the verdict end()
   * then gives is the one a stream begun with them gives; false when what was fed already read differently
   * under them (a traceback is fatal unless the command exited 0): the stream must then be ended and
   * the log fed again to a fresh one. Not for a set-up failure (setupError is ignored).
   */
  exitKnown(opts: VerdictOptions): boolean;
  end(): RunResult;
  /**
   * The verdict, its streak key, its delta against run.prev (same_verdict_runs: run.prevRuns + 1 when the
   * keys match, else 1) and its rendered text, in one pass of the engine over the bytes it holds.
   */
  end(run: RunEnd): RunEnded;
}

export interface Engine {
  verdict(bytes: Uint8Array, opts?: VerdictOptions): RunResult;
  stream(opts?: VerdictOptions): VerdictStream;
  /**
   * The envelope as the text sbx prints. One this engine did not make is checked against the contract
   * first (SbxError E_ENVELOPE when it is not an envelope); one it made is rendered as it is.
   */
  render(env: RunResult): string;
  /** What changed from prev (null on a first run) to cur. */
  delta(prev: Verdict | null, cur: Verdict, opts?: DeltaOptions): Delta;
  /**
   * A run's last step in one pass: the delta from prev to env's verdict (as delta()) and env rendered with
   * that delta (as render() of { ...env, delta }). env.delta is left to the caller. A verdict this engine
   * just made (verdict(), stream().end()) is read where the engine still holds it, not sent back in.
   */
  conclude(env: RunResult, prev: Verdict | null, opts?: DeltaOptions): { delta: Delta; text: string };
  /**
   * What makes two verdicts "the same" for a streak (same_verdict_runs, the state's counters): status, crash
   * identity and message, error set, failing tests and how each fails (assembly/streak-key.ts).
   */
  streakKey(verdict: Verdict): string;
  /** Bytes of linear memory the instance holds now (bounded by design). */
  memoryBytes(): number;
  /**
   * Parses a JUnit XML report into the verdict.tests shape (runner "junit"). Throws SbxError
   * E_JUNIT_INVALID when the bytes are not well-formed XML with a <testsuites>/<testsuite> root.
   */
  junit(xml: Uint8Array): Verdict['tests'];
  /**
   * The envelope with a JUnit report's tests in its verdict, the status recomputed by the engine. An
   * invalid report (cut short, mixed with console output, not XML) replaces nothing: SbxError
   * E_JUNIT_INVALID, whose message is one line naming the problem and its line; env is left as it was.
   */
  mergeJunit(env: RunResult, xml: Uint8Array): RunResult;
}

interface Exports {
  memory: WebAssembly.Memory;
  alloc(len: number): number;
  begin(exit: number, hasExit: number, signal: number, stopped: number): void;
  setupFailed(len: number): void;
  feed(len: number): void;
  exitKnown(exit: number, hasExit: number, signal: number, stopped: number): number;
  finish(): number;
  render(len: number): number;
  junit(len: number): number;
  junitMerge(verdictLen: number, xmlLen: number): number;
  delta(prevLen: number, curLen: number, treeChanged: number, sameRuns: number): number;
  conclude(prevLen: number, metaLen: number, curLen: number, treeChanged: number, sameRuns: number): number;
  finishRun(prevLen: number, metaLen: number, keyLen: number, treeChanged: number, prevRuns: number): number;
  streakKey(len: number): number;
  output(): number;
  dispatchFilter(on: number): void;
}

// The most bytes one engine call reads. The engine collects its garbage at the end of a call once 256 KiB of
// input went through it (assembly/index.ts COLLECT_EVERY), so a call's size bounds the garbage: a 1 MiB push read
// as one call held 1 MiB of input's garbage (go-fail-v repeated to 16 MiB in 1 MiB pushes: 8.5 MiB of memory;
// 4 MiB at 512 KiB, 2 MiB at 256 KiB). 512 KiB reads the 20 MB mixed log at 0.97x 1 MiB's speed, 256 KiB at 0.9x
// (three paired runs each, quiet).
const CHUNK = 1 << 19;
const utf8 = new TextEncoder();
let textDecoder: TextDecoder | undefined;
const decodeUtf8 = (b: Uint8Array): string => (textDecoder ??= new TextDecoder('utf-8')).decode(b);

export interface EngineOptions {
  /** The module's bytes or a compiled module; default: the copy bundled with sbx. */
  wasm?: BufferSource | WebAssembly.Module;
  /**
   * @internal The self-check test's switch: false offers every log line to every parser (the dispatcher's
   * first-byte filter off). Verdicts must be the same either way.
   */
  dispatchFilter?: boolean;
  /**
   * @internal UTF-8 to text exactly as TextDecoder('utf-8') makes it (U+FFFD for each invalid subpart, a
   * leading BOM dropped), for the engine's output; default TextDecoder. The host passes one through
   * Node's Buffer (src/host/load-engine.ts), cheaper to start.
   */
  decodeUtf8?: (bytes: Uint8Array) => string;
}

export async function createEngine(opts: EngineOptions = {}): Promise<Engine> {
  const mod = opts.wasm instanceof WebAssembly.Module ? opts.wasm : await WebAssembly.compile(opts.wasm ?? wasmBytes);
  const decode = opts.decodeUtf8 ?? decodeUtf8;
  const output = (e: Exports, n: number): string => decode(new Uint8Array(e.memory.buffer, e.output(), n));
  let x: Exports | null = null;
  let busy = false;
  // The verdict the instance's last finish() wrote, which it holds for conclude(): its envelope's verdict.
  let held: Verdict | null = null;

  // Instantiation is synchronous (the module is small), so a trapped instance can be replaced at once.
  const instantiate = (): Exports => {
    let mem: WebAssembly.Memory | null = null;
    const inst = new WebAssembly.Instance(mod, {
      env: {
        abort(msg: number, file: number, line: number, col: number) {
          throw new SbxError('E_ENGINE', `verdict engine aborted: ${readAsString(mem, msg)} at ${readAsString(mem, file)}:${line}:${col}; this is a bug in sbx, please report it with the log`);
        },
      },
    });
    const e = inst.exports as unknown as Exports;
    mem = e.memory;
    if (opts.dispatchFilter === false) e.dispatchFilter(0);
    held = null;
    return e;
  };
  x = instantiate();
  // A trap leaves the instance in an unknown state: the next call gets a fresh one.
  let poisoned = false;
  const fresh = (): Exports => {
    if (poisoned) {
      x = instantiate();
      poisoned = false;
    }
    return x!;
  };
  const guard = <T>(fn: (e: Exports) => T): T => {
    const e = fresh();
    try {
      return fn(e);
    } catch (err) {
      poisoned = true;
      busy = false;
      if (err instanceof SbxError) throw err;
      throw new SbxError('E_ENGINE', `verdict engine failed: ${(err as Error).message}; this is a bug in sbx, please report it with the log`);
    }
  };

  const feedBytes = (e: Exports, bytes: Uint8Array): void => {
    for (let off = 0; off < bytes.length; off += CHUNK) {
      const part = bytes.subarray(off, Math.min(off + CHUNK, bytes.length));
      put(e, part);
      e.feed(part.length);
    }
  };
  /** The alias rewriter's parts, in order (each as feedBytes takes it: the engine reads a stream cut anywhere alike). */
  const feedParts = (e: Exports, ...lists: Uint8Array[][]): void => {
    for (const parts of lists) for (const p of parts) feedBytes(e, p);
  };

  // begin()'s and exitKnown()'s arguments.
  const exitArgs = (o: VerdictOptions): [number, number, number, number] => {
    const sig = signalNumber(o.signal);
    if (sig < 0) throw new SbxError('E_SIGNAL', `unknown signal ${JSON.stringify(o.signal)}: give a name such as SIGSEGV or a number 1-64`);
    const hasExit = typeof o.exit === 'number' && Number.isInteger(o.exit);
    // stopped: bit 1 the host's time limit, bit 2 its caller (assembly/index.ts begin()).
    return [hasExit ? (o.exit as number) | 0 : 0, hasExit ? 1 : 0, sig, (o.timedOut ? 1 : 0) | (o.interrupted ? 2 : 0)];
  };
  const start = (e: Exports, o: VerdictOptions): void => {
    e.begin(...exitArgs(o));
    // sbx's own words read through the alias as the log does: the same set-up error at any host path.
    if (typeof o.setupError === 'string') e.setupFailed(put(e, throughAlias(o.workAlias, utf8.encode(o.setupError))));
  };

  // Envelopes this engine made (verdict(), stream().end()): render() takes them unchecked. The engine's
  // own output is not run through the schema on every run's hot path (a cold start paid ~1 ms for
  // it): that it keeps the contract is what test/engine/contract.test.js checks on every fixture and
  // bench/fuzz.js on a million generated inputs. What sbx sets on one after (its outcome, its delta)
  // is sbx's own too; the renderer takes any JSON without trapping (bench/fuzz.js).
  const made = new WeakSet<RunResult>();
  const end = (e: Exports, o: VerdictOptions): RunResult => made1(JSON.parse(output(e, e.finish())) as Verdict, o);
  const made1 = (verdict: Verdict, o: VerdictOptions): RunResult => {
    const env = envelope(verdict, o.log ?? null);
    made.add(env);
    held = env.verdict;
    return env;
  };
  // finishRun's output: the verdict, its key, then (when the previous verdict could be read) the delta and the text.
  const endRun = (e: Exports, o: VerdictOptions, run: RunEnd): RunEnded => {
    const a = run.prev ? utf8.encode(JSON.stringify(run.prev)) : new Uint8Array(0);
    const meta = utf8.encode(JSON.stringify({ outcome: run.outcome, log: o.log ?? null }));
    const k = utf8.encode(run.prevKey ?? '');
    put(e, a, meta, k);
    const tree = run.treeChanged === undefined ? -1 : run.treeChanged ? 1 : 0;
    const n = e.finishRun(a.length, meta.length, k.length, tree, run.prevRuns);
    const bytes = new Uint8Array(e.memory.buffer, e.output(), n);
    const at = new DataView(bytes.buffer, bytes.byteOffset, n);
    let p = 0;
    const part = (): Uint8Array => {
      const len = at.getUint32(p, true);
      p += 4 + len;
      return bytes.subarray(p - len, p);
    };
    const env = made1(JSON.parse(decode(part())) as Verdict, o);
    env.outcome = run.outcome;
    const key = decode(part());
    if (p === n) return { env, key, delta: null, text: null };
    const delta = JSON.parse(decode(part())) as Delta;
    return { env, key, delta, text: decode(bytes.subarray(p)) };
  };

  return {
    verdict(bytes, o = {}) {
      if (busy) throw new SbxError('E_BUSY', 'the engine is in the middle of a stream: end() it before starting another verdict');
      return guard((e) => {
        start(e, o);
        const rw = aliasRewriter(o.workAlias);
        if (rw) feedParts(e, rw.push(bytes), rw.end());
        else feedBytes(e, bytes);
        return end(e, o);
      });
    },
    stream(o = {}) {
      if (busy) throw new SbxError('E_BUSY', 'the engine is in the middle of a stream: end() it before starting another');
      guard((e) => start(e, o));
      busy = true;
      const rw = aliasRewriter(o.workAlias);
      return {
        push(chunk) {
          guard((e) => (rw ? feedParts(e, rw.push(chunk)) : feedBytes(e, chunk)));
        },
        exitKnown(known) {
          const args = exitArgs(known); // a bad signal throws here, before the stream changes
          o = { ...o, ...known };
          return guard((e) => e.exitKnown(...args) === 1);
        },
        end: ((run?: RunEnd) => {
          const r = guard((e) => {
            if (rw) feedParts(e, rw.end());
            return run ? endRun(e, o, run) : end(e, o);
          });
          busy = false;
          return r;
        }) as VerdictStream['end'],
      };
    },
    render(env) {
      const checked = made.has(env) ? null : v.safeParse(contract().RunResult, env);
      if (checked && !checked.success) throw new SbxError('E_ENVELOPE', `cannot render: not a sbx.run-result/1 envelope (${issueText(checked.issues)})`);
      return guard((e) => output(e, e.render(put(e, utf8.encode(JSON.stringify(env))))));
    },
    delta(prev, cur, o = {}) {
      return guard((e) => {
        const a = prev ? utf8.encode(JSON.stringify(prev)) : new Uint8Array(0);
        const b = utf8.encode(JSON.stringify(cur));
        put(e, a, b);
        const tree = o.treeChanged === undefined ? -1 : o.treeChanged ? 1 : 0;
        const n = e.delta(a.length, b.length, tree, o.sameRuns ?? 1);
        const text = output(e, Math.abs(n));
        if (n < 0) throw new SbxError('E_DELTA', `cannot compute the delta: ${JSON.parse(text).error}`);
        return JSON.parse(text) as Delta; // not schema-checked here: see end() above
      });
    },
    conclude(env, prev, o = {}) {
      return guard((e) => {
        const a = prev ? utf8.encode(JSON.stringify(prev)) : new Uint8Array(0);
        const meta = utf8.encode(JSON.stringify({ outcome: env.outcome, log: env.log }));
        // The verdict the instance holds, when it is this envelope's (the same object, made by this engine).
        const b = env.verdict === held && made.has(env) ? new Uint8Array(0) : utf8.encode(JSON.stringify(env.verdict));
        put(e, a, meta, b);
        const tree = o.treeChanged === undefined ? -1 : o.treeChanged ? 1 : 0;
        const n = e.conclude(a.length, meta.length, b.length, tree, o.sameRuns ?? 1);
        if (n < 0) throw new SbxError('E_DELTA', `cannot compute the delta: ${JSON.parse(output(e, -n)).error}`);
        const bytes = new Uint8Array(e.memory.buffer, e.output(), n);
        const d = 4 + new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
        return { delta: JSON.parse(decode(bytes.subarray(4, d))) as Delta, text: decode(bytes.subarray(d)) };
      });
    },
    streakKey(verdict) {
      return guard((e) => {
        // The verdict the instance holds, when it is that one: not sent back in.
        const n = e.streakKey(verdict === held ? 0 : put(e, utf8.encode(JSON.stringify(verdict))));
        if (n < 0) throw new SbxError('E_ENGINE', `cannot compute the streak key: ${JSON.parse(output(e, -n)).error}; this is a bug in sbx`);
        return output(e, n);
      });
    },
    memoryBytes() {
      return x!.memory.buffer.byteLength;
    },
    junit(xml) {
      const r = guard((e) => {
        const n = e.junit(put(e, xml));
        return { ok: n >= 0, out: JSON.parse(output(e, Math.abs(n))) };
      });
      // Thrown outside guard(): an invalid report is the input's fault, not a trap that poisons the instance.
      if (!r.ok) throw junitInvalid(r.out.error);
      return r.out;
    },
    mergeJunit(env, xml) {
      const r = guard((e): { env: RunResult } | { invalid: string } => {
        const head = utf8.encode(JSON.stringify(env.verdict));
        put(e, head, xml);
        const n = e.junitMerge(head.length, xml.length);
        if (n < 0) return { invalid: String(JSON.parse(output(e, -n)).error) };
        if (n === 0) throw new SbxError('E_ENGINE', 'the verdict engine could not read the verdict to merge a JUnit report into; this is a bug in sbx');
        const merged = JSON.parse(output(e, n));
        const checked = v.safeParse(contract().Verdict, merged);
        if (!checked.success) throw new SbxError('E_ENGINE', `merging the JUnit report gave a verdict outside the contract (${issueText(checked.issues)}); this is a bug in sbx`);
        return { env: { ...env, verdict: checked.output } };
      });
      if ('invalid' in r) throw junitInvalid(r.invalid);
      return r.env;
    },
  };
}

/** Copies parts, one after another, into a fresh input buffer of the instance; returns their length. */
function put(e: Exports, ...parts: Uint8Array[]): number {
  const len = parts.reduce((n, p) => n + p.length, 0);
  const ptr = e.alloc(len); // first: alloc may grow memory, which replaces memory.buffer
  const mem = new Uint8Array(e.memory.buffer, ptr, len);
  let at = 0;
  for (const p of parts) {
    mem.set(p, at);
    at += p.length;
  }
  return len;
}

/** The first n bytes of the instance's output, as text. */

/** The engine's word on an invalid report, as the one-line error the CLI prints (exit 2). */
function junitInvalid(what: unknown): SbxError {
  return new SbxError('E_JUNIT_INVALID', `${String(what)}; give the XML file the test run wrote (e.g. pytest --junitxml=report.xml), not its console output`);
}

export function envelope(verdict: Verdict, log: string | null): RunResult {
  return { schema: 'sbx.run-result/1', outcome: null, verdict, delta: null, log };
}

function readAsString(mem: WebAssembly.Memory | null, ptr: number): string {
  if (!mem || !ptr) return '?';
  const u32 = new Uint32Array(mem.buffer);
  const len = u32[(ptr - 4) >>> 2]! >>> 1;
  return String.fromCharCode(...new Uint16Array(mem.buffer, ptr, Math.min(len, 500)));
}
