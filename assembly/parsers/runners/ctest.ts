// CTest: `Test project DIR`, `N/M Test #k: name ....   Passed 0.00 sec` / `***Failed` / `***Exception: ...` /
// `***Not Run`, the output a failing test printed (--output-on-failure; a gtest binary's lines are kept
// here as that test's message, not as gtest results), `NN% tests passed, K tests failed out of M`, and
// `The following tests FAILED:` list.
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, TestFailure } from "../../model";
import { Parser } from "../../parser";
import { failureNamed, joinLines, foreignLine } from "./common";

export class CtestParser extends Parser {
  seen: bool = false;
  cur: TestFailure | null = null;
  out: string[] = [];
  passed: i64 = 0; failed: i64 = 0; skipped: i64 = 0;
  total: i64 = -1; totFailed: i64 = -1;
  inList: bool = false;

  busy(): bool { return this.cur !== null; }

  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (!this.seen) {
      if (l.startsWith("Test project ")) { this.seen = true; f.testsFor("ctest"); return true; }
      if (l.startsWith("Internal ctest changing into directory")) return true;
      return false;
    }
    let p = l.skipSpaces(0);
    if (l.matchAt("Start ", p) && isDigit(l.at(p + 6))) { this.endOut(); return true; }
    if (isDigit(c)) {
      let slash = l.indexOfByte(Char.SLASH);
      let at = l.indexOf(" Test ", 0);
      if (slash > 0 && at > slash && at < slash + 12) { this.endOut(); this.result(l, f, at + 6); return true; }
      let pct = l.indexOf("% tests passed, ");
      if (pct > 0) {
        this.endOut();
        let s = l.toString();
        let k = s.indexOf(", ") + 2;
        let e = k;
        while (e < s.length && isDigit(s.charCodeAt(e))) e++;
        if (e > k) this.totFailed = I64.parseInt(s.substring(k, e));
        let o = s.lastIndexOf(" out of ");
        if (o > 0) this.total = I64.parseInt(s.substring(o + 8));
        return true;
      }
    }
    if (l.startsWith("The following tests FAILED:") || l.startsWith("The following tests did not run:")) { this.endOut(); this.inList = true; return true; }
    if (this.inList && c == Char.TAB) {
      // `\t  1 - ring_test (Failed)`
      let dash = l.indexOf(" - ");
      if (dash > 0) {
        let paren = l.lastIndexOf(" (");
        let name = l.trimmed(dash + 3, paren > dash ? paren : l.len);
        let status = paren > dash ? l.trimmed(paren + 2, l.len - 1) : "";
        if (status != "Not Run" && status != "Disabled" && status != "Skipped") {
          let t = f.testsFor("ctest");
          failureNamed(t, name);
        }
      }
      return true;
    }
    if (l.startsWith("Total Test time") || l.startsWith("Errors while running CTest") || l.startsWith("Output from these tests are in:")
      || l.startsWith("Use \"--rerun-failed") || l.startsWith("Internal ctest changing")) { this.endOut(); this.inList = false; return true; }
    if (this.cur !== null) {
      if (foreignLine(l)) return false;
      if (this.out.length < 200) this.out.push(l.toString());
      return true;
    }
    return false;
  }

  private result(l: Line, f: Facts, p: i32): void {
    // `#1: ring_test ........***Failed    0.00 sec`
    let colon = l.indexOf(": ", p);
    if (colon < 0) return;
    let a = colon + 2;
    let dots = l.indexOf(" .", a);
    let stat = -1;
    if (dots < 0) { dots = l.indexOf("***", a); stat = dots; }
    if (dots < 0) return;
    let name = l.trimmed(a, dots);
    let s = dots;
    while (s < l.len && (l.at(s) == Char.DOT || l.at(s) == Char.SPACE)) s++;
    let rest = l.trimmed(s);
    if (rest.startsWith("Passed")) { this.passed++; return; }
    if (rest.includes("Not Run") || rest.includes("Disabled") || rest.startsWith("Skipped")) { this.skipped++; return; }
    this.failed++;
    let t = failureNamed(f.testsFor("ctest"), name);
    let st = rest.startsWith("***") ? rest.substring(3) : rest;
    let sec = st.lastIndexOf("  ");
    if (sec > 0) st = st.substring(0, sec).trim();
    t.message = st;
    this.cur = t;
    this.out = [];
  }

  /** The captured output: its first few lines that are not gtest framing become the message. */
  private endOut(): void {
    let t = this.cur;
    if (t !== null && this.out.length > 0) {
      let keep = new Array<string>(0);
      for (let i = 0; i < this.out.length && keep.length < 4; i++) {
        let s = this.out[i].trim();
        if (s.length == 0 || s.startsWith("[") || s.startsWith("Running main() from")) continue;
        keep.push(s);
      }
      if (keep.length > 0) t.message = joinLines(keep, 4);
    }
    this.cur = null;
    this.out = [];
  }

  finish(f: Facts): void {
    this.endOut();
    if (!this.seen) return;
    let t = f.testsFor("ctest");
    if (t.runner != "ctest") return;
    t.failed = this.totFailed >= 0 ? this.totFailed : this.failed;
    t.skipped = this.skipped;
    t.passed = this.total >= 0 ? max<i64>(this.total - t.failed - this.skipped, 0) : this.passed;
    if (this.total >= 0) t.totals = true;
  }
}
