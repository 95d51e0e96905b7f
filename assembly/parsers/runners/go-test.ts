// go test (text, with and without -v): `=== RUN X`, `--- FAIL: X (0.00s)` / PASS / SKIP (indented for
// subtests), the `    x_test.go:20: msg` log lines of a test, `FAIL pkg`/`ok pkg`, and a panic inside a test
// (its goroutine stack becomes the crash; the running test fails there). Only leaf tests are counted.
// go-test-json.ts feeds the decoded `Output` of `go test -json` through the same `text()`.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, Frame } from "../../model";
import { Parser } from "../../parser";
import { classify, normPath, firstUser } from "../../frames";
import { failureNamed, foreignLine } from "./common";

const enum Res { PASS, FAIL, SKIP }
const MAX_PARENTS = 32;
const MAX_MARKED = 4096;

export class GoTestParser extends Parser {
  seen: bool = false;
  names: string[] = [];
  res: Res[] = [];
  index: Map<string, i32> = new Map<string, i32>();
  parents: Set<string> = new Set<string>();
  logName: string[] = [];
  logFile: string[] = [];
  logLine: i32[] = [];
  logMsg: string[] = [];
  current: string | null = null;
  /** `=== RUN` seen (-v or -json): every test reports. Without it only failures do: passed/skipped unknown. */
  verbose: bool = false;
  panic: Crash | null = null;
  panicTest: string | null = null;
  inPanic: bool = false;
  pendingFn: string | null = null;
  frameNo: i32 = 0;

  busy(): bool { return this.inPanic; }

  claim(l: Line, f: Facts): bool {
    return this.text(l, f);
  }

  text(l: Line, f: Facts): bool {
    if (this.inPanic) {
      if (foreignLine(l)) { this.inPanic = false; return false; }
      if (this.panicLine(l)) return true;
      this.inPanic = false;
    }
    let p = l.skipSpaces(0);
    let c = l.at(p);
    if (c == Char.EQ) {
      if (!l.matchAt("=== ", p)) return false;
      let q = p + 4;
      if (l.matchAt("RUN ", q) || l.matchAt("CONT ", q) || l.matchAt("NAME ", q) || l.matchAt("PAUSE ", q)) {
        let sp = l.indexOfByte(Char.SPACE, q);
        let name = l.trimmed(sp);
        if (!l.matchAt("PAUSE ", q)) this.current = name;
        this.verbose = true;
        this.mark(name);
        this.seen = true;
        f.testsFor("go-test");
        return true;
      }
      return false;
    }
    if (c == Char.MINUS) {
      if (!l.matchAt("--- ", p)) return false;
      let q = p + 4;
      let r: Res;
      if (l.matchAt("FAIL: ", q)) r = Res.FAIL;
      else if (l.matchAt("PASS: ", q)) r = Res.PASS;
      else if (l.matchAt("SKIP: ", q)) r = Res.SKIP;
      else return false;
      let a = q + 6;
      let e = l.lastIndexOf(" (");
      if (e < a) e = l.len;
      let name = l.trimmed(a, e);
      this.result(name, r);
      if (r == Res.FAIL) this.current = name;
      this.seen = true;
      f.testsFor("go-test");
      return true;
    }
    if (p == 0) {
      if (l.startsWith("panic: ") && (this.seen || l.contains("[recovered]"))) { this.startPanic(l, f); return true; }
      if (l.len == 4 && (l.startsWith("FAIL") || l.startsWith("PASS"))) { if (this.seen || l.startsWith("PASS")) { this.seen = true; f.testsFor("go-test"); return true; } return false; }
      if (l.startsWith("FAIL\t") || l.startsWith("ok  \t") || l.startsWith("?   \t")) { this.seen = true; f.testsFor("go-test"); return true; }
      if (this.seen && l.startsWith("exit status ")) return true;
      return false;
    }
    // `    price_test.go:20: message` (a t.Log/t.Error line), indented under its test.
    if (!this.seen || this.current === null) return false;
    let colon = l.indexOf(".go:", p);
    if (colon < 0) return l.len > p && (l.at(0) == Char.SPACE) && this.continuation(l, p);
    let n = l.readInt(colon + 4);
    if (n < 0 || !l.matchAt(": ", l.end)) return false;
    let name = this.current!;
    let have = false;
    for (let i = 0; i < this.logName.length; i++) if (this.logName[i] == name) { have = true; break; }
    if (!have) {
      this.logName.push(name);
      this.logFile.push(normPath(l.str(p, colon + 3)));
      this.logLine.push(<i32>n);
      this.logMsg.push(l.trimmed(l.end + 2));
    }
    return true;
  }

  /** A further line of a multi-line t.Error message (indented deeper than the log line). */
  private continuation(l: Line, p: i32): bool {
    return p >= 8 && this.logName.length > 0;
  }

  private mark(name: string): void {
    // Each parent is a copy of a prefix: a name with thousands of '/' (one long garbled line) would cost
    // memory quadratic in its length (a 64 KiB line took 128 MiB, found by bench/fuzz.js). Real subtests
    // nest a few levels: the deepest MAX_PARENTS are marked, and names past MAX_MARKED chars not at all.
    if (name.length > MAX_MARKED) return;
    let s = name.lastIndexOf("/");
    for (let k = 0; s > 0 && k < MAX_PARENTS; k++) {
      let parent = name.substring(0, s);
      this.parents.add(parent);
      s = parent.lastIndexOf("/");
    }
  }

  private result(name: string, r: Res): void {
    this.mark(name);
    if (this.index.has(name)) { this.res[this.index.get(name)] = r; return; }
    this.index.set(name, this.names.length);
    this.names.push(name);
    this.res.push(r);
  }

  private startPanic(l: Line, f: Facts): void {
    let c = new Crash();
    c.tool = "go-panic";
    let msg = l.trimmed(7);
    if (msg.endsWith(" [recovered]")) msg = msg.substring(0, msg.length - 12);
    c.message = msg;
    let k = msg;
    let b = k.indexOf(" [");
    if (b > 0) k = k.substring(0, b);
    c.kind = k;
    c.summary = "panic: " + msg;
    this.panic = c;
    this.panicTest = this.current;
    this.inPanic = true;
    this.pendingFn = null;
    this.frameNo = 0;
    f.setCrash(c);
  }

  /** The goroutine dump: `goroutine 7 [running]:`, `pkg.fn(args)` then `\tfile.go:10 +0x1d`. */
  private panicLine(l: Line): bool {
    let c = this.panic!;
    if (l.isBlank()) return true;
    // Tab-indented; spaces when the log went through a CI system or expand(1).
    let c0 = l.at(0);
    if (c0 == Char.TAB || (c0 == Char.SPACE && (this.pendingFn !== null || l.contains("panic: ")))) {
      let p = 0;
      while (l.at(p) == Char.TAB || l.at(p) == Char.SPACE) p++;
      if (l.matchAt("panic: ", p)) return true;
      let fn = this.pendingFn;
      if (fn === null) return true;
      let fr = new Frame();
      fr.index = this.frameNo++;
      fr.fn = fn;
      let end = l.lastIndexOf(" +0x");
      if (end < 0) end = l.len;
      let colon = l.lastIndexOfByte(Char.COLON, end);
      if (colon > p) {
        fr.file = normPath(l.str(p, colon));
        let n = l.readInt(colon + 1);
        if (n >= 0) fr.line = <i32>n;
      }
      classify(fr);
      // Frames above a `panic(...)` frame are a deferred function that recovered the panic and panicked
      // again: the fault is below it (as in go-panic.ts).
      if (fn == "panic") { fr.user = false; for (let i = 0; i < c.frames.length; i++) c.frames[i].user = false; }
      c.frames.push(fr);
      this.pendingFn = null;
      return true;
    }
    if (l.startsWith("goroutine ")) { if (c.frames.length > 0) return false; c.thread = l.trimmed(0, l.len - 1); return true; }
    if (l.startsWith("[signal ")) return true;
    if (l.startsWith("exit status ") || l.startsWith("FAIL\t") || l.startsWith("FAIL") && l.len == 4) return false;
    if (l.startsWith("created by ")) {
      let s = l.trimmed(11);
      let g = s.indexOf(" in goroutine ");
      if (g > 0) s = s.substring(0, g);
      this.pendingFn = s;
      return true;
    }
    // pkg.(*T).Method(0xc00...) or pkg.fn(...)
    if (l.at(l.len - 1) == Char.RPAREN) {
      let open = l.lastIndexOfByte(Char.LPAREN);
      this.pendingFn = open > 0 ? l.str(0, open) : l.toString();
      return true;
    }
    return false;
  }

  finish(f: Facts): void {
    if (!this.seen) return;
    let t = f.testsFor("go-test");
    if (t.runner != "go-test") return;
    let passed: i64 = 0; let failed: i64 = 0; let skipped: i64 = 0;
    for (let i = 0; i < this.names.length; i++) {
      let name = this.names[i];
      if (this.parents.has(name)) continue;
      let r = this.res[i];
      if (r == Res.PASS) passed++;
      else if (r == Res.SKIP) skipped++;
      else {
        failed++;
        let tf = failureNamed(t, name);
        for (let k = 0; k < this.logName.length; k++) {
          if (this.logName[k] != name) continue;
          tf.file = this.logFile[k]; tf.line = this.logLine[k]; tf.message = this.logMsg[k];
          break;
        }
        // `testing.go:1319: race detected during execution of test`: the testing package's own report, not
        // a line of the user's; the race (the crash) says where in the user's code it happened.
        if (tf.file !== null && tf.file! == "testing.go") {
          let u = f.crash !== null ? firstUser(f.crash!.frames) : null;
          tf.file = u !== null ? u.file : null;
          tf.line = u !== null ? u.line : -1;
        }
      }
    }
    let c = this.panic;
    if (c !== null) {
      let name = this.panicTest !== null ? this.panicTest! : "(panic)";
      if (this.parents.has(name)) name = name; // a parent named by the dump keeps its name
      let isNew = true;
      for (let i = 0; i < t.failures.length; i++) if (t.failures[i].name == name) { isNew = false; break; }
      let tf = failureNamed(t, name);
      if (isNew) failed++;
      tf.message = c.message !== null ? c.message! : c.kind;
      for (let i = 0; i < c.frames.length; i++) {
        if (c.frames[i].user) { tf.file = c.frames[i].file; tf.line = c.frames[i].line; break; }
      }
    }
    t.passed = passed; t.failed = failed; t.skipped = skipped;
    // Without -v, go test names only the tests that failed: the passing and skipped ones are not counted
    // anywhere in the log, so their counts are unknown (null), not 0.
    if (!this.verbose) { t.passed = -1; t.skipped = -1; }
  }
}
