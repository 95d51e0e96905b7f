// A JUnit XML report printed into the log itself (`vitest run --reporter=junit` with no output file,
// `jest --reporters=jest-junit` to stdout, go-junit-report in a pipe): from the line that opens its root
// (`<testsuites`, `<testsuite`, possibly after `<?xml ...?>` on the same line) to the one that closes it, the
// lines are kept as bytes and then read by the same JUnit reader `sbx verdict --junit` uses. A report that
// is not well-formed XML gives no tests (its lines stay claimed: they are the report, not the program's output).
// A later report in the same log (libtest's `--format=junit`: one per test binary) adds its tests to the first's.
// doctest's own XML reporter (`-r=xml`, root `<doctest>`) is buffered the same way and read by parseDoctestXml, and
// Boost.Test's XML log (`--log_format=XML --log_sink=stdout`, root `<TestLog>`) by parseBoostXml.
// Catch2's JUnit reporter (`-r junit`) writes `<testsuites` and leaves the tag open until its first child, after
// the run: what the tests print meanwhile lands inside it (`<testsuites[2026-12-08 01:12:49] [test] [info] …`), and a
// line `>` closes it. Those lines are the program's output, not the report's: left to the tail.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Tests, MAX_FAILURES } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { parseJunit, parseDoctestXml, parseBoostXml } from "../../junit";
import { checkXml } from "../../xml-check";

/** A report larger than this is not buffered further (and then not read). */
const MAX_BYTES = 8 << 20;

const enum Root { SUITES, SUITE, DOCTEST, BOOST, CATCH2 }

/** Outside a report: its `<?xml`/`<testsuite` line (after blanks). */
const STARTS = new ByteSet().chars("<");

@final
export class JunitLogParser extends Parser {
  private inside: bool = false;
  private root: Root = Root.SUITES;
  private buf: ArrayBuffer = new ArrayBuffer(0);
  private len: i32 = 0;
  private overflow: bool = false;
  /** The root's start tag was cut by the program's own output; its `>` comes on a line of its own. */
  private glued: bool = false;
  /** Catch2's XML root: `Catch2TestRun` (v3) or `Catch` (v2). */
  private catchName: string = "Catch2TestRun";
  /** The tests of the first report read here (f.tests), which later reports in the log add to. */
  private mine: Tests | null = null;

  busy(): bool { return this.inside; }
  atRest(): bool { return !this.inside; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    let p = l.skipSpaces(0);
    if (!this.inside) {
      if (l.at(p) != Char.LT || (f.tests !== null && f.tests !== this.mine)) return false;
      // `<?xml ...?><testsuites ...>` (one line) or the root's own line: the declaration alone, on a line
      // of its own, is left to the tail (the checker does not need it; other XML may follow it).
      let s = l.indexOf("<testsuites", p);
      let t = s >= 0 ? s : l.indexOf("<testsuite", p);
      // doctest's XML reporter (`-r=xml`): `<doctest binary="..." version="2.4.9">` as the root, read alike.
      let d = t < 0 ? l.indexOf("<doctest ", p) : -1;
      if (d >= 0) t = d;
      // Catch2's XML reporter (`-r xml`): `<Catch2TestRun name="…" rng-seed=…>` (v3), `<Catch name="…">` (v2).
      let k = t < 0 ? l.indexOf("<Catch2TestRun ", p) : -1;
      let k2 = t < 0 && k < 0 ? l.indexOf("<Catch name=", p) : -1;
      if (k >= 0) t = k; else if (k2 >= 0) t = k2;
      // Boost.Test's XML log: `<TestLog><TestSuite` opens its line (the whole log is one line). At the default
      // --log_level=error it holds no suite or case tags, only the failed checks: no test is named; left to the tail.
      let bt = t < 0 && l.matchAt("<TestLog><TestSuite ", p);
      if (bt) t = p;
      if (t < 0 || (t != p && !l.matchAt("<?xml ", p))) return false;
      this.inside = true;
      this.root = bt ? Root.BOOST : d >= 0 ? Root.DOCTEST : k >= 0 || k2 >= 0 ? Root.CATCH2 : s >= 0 ? Root.SUITES : Root.SUITE;
      this.catchName = k2 >= 0 ? "Catch" : "Catch2TestRun";
      this.len = 0;
      this.overflow = false;
      this.glued = false;
      // `<testsuites` then the program's output on the same line: the tag alone is the report's.
      if (s == t) {
        let q = s + 11;
        let c = l.at(q);
        if (q < l.len && c != Char.SPACE && c != Char.GT && c != Char.SLASH && c != Char.TAB) {
          this.glued = true;
          this.appendBytes(l.ptr, q);
          return true;
        }
      }
    } else if (this.glued) {
      // The program's output inside the open tag, up to the `>` that closes it.
      if (l.at(p) != Char.GT) return false;
      this.glued = false;
    }
    this.append(l);
    let r = this.root;
    let done = l.indexOf(r == Root.SUITES ? "</testsuites>" : r == Root.DOCTEST ? "</doctest>" : r == Root.BOOST ? "</TestLog>" :
      r == Root.CATCH2 ? "</" + this.catchName + ">" : "</testsuite>") >= 0;
    if (done) this.read(f);
    return true;
  }

  finish(f: Facts): void {
    if (this.inside) this.read(f); // cut short: checkXml refuses it
  }

  private append(l: Line): void { this.appendBytes(l.ptr, l.len); }

  private appendBytes(ptr: usize, n: i32): void {
    if (this.overflow) return;
    let need = this.len + n + 1;
    if (need > MAX_BYTES) { this.overflow = true; return; }
    if (need > this.buf.byteLength) {
      let next = new ArrayBuffer(max(need, this.buf.byteLength << 1));
      memory.copy(changetype<usize>(next), changetype<usize>(this.buf), <usize>this.len);
      this.buf = next;
    }
    let at = changetype<usize>(this.buf) + <usize>this.len;
    memory.copy(at, ptr, <usize>n);
    store<u8>(at + <usize>n, Char.LF);
    this.len = need;
  }

  private read(f: Facts): void {
    this.inside = false;
    if (this.overflow || (f.tests !== null && f.tests !== this.mine)) return;
    let ptr = changetype<usize>(this.buf);
    let r = this.root;
    if (checkXml(ptr, this.len, r == Root.DOCTEST ? "doctest" : r == Root.BOOST ? "TestLog" : r == Root.CATCH2 ? this.catchName : "") !== null) return;
    let bt = r == Root.BOOST ? parseBoostXml(ptr, this.len) : null;
    if (r == Root.BOOST && bt === null) return;
    let t = r == Root.BOOST ? bt! : r == Root.DOCTEST || r == Root.CATCH2 ? parseDoctestXml(ptr, this.len, r == Root.CATCH2) : parseJunit(ptr, this.len);
    this.buf = new ArrayBuffer(0);
    this.len = 0;
    let m = this.mine;
    if (m === null) { f.tests = t; this.mine = t; return; }
    // A later report of the same run (libtest's `--format=junit` prints one per test binary: the unit tests',
    // then the doc-tests'): its tests are the run's too.
    m.passed += t.passed; m.failed += t.failed; m.errors += t.errors; m.skipped += t.skipped;
    for (let i = 0; i < t.failures.length && m.failures.length < MAX_FAILURES; i++) m.failures.push(t.failures[i]);
    m.passedSet = null;
  }
}
