// Hand-rolled check scripts and C test programs: `PASS name`, `FAIL name: expected X, got Y`,
// `name: expected: X got: Y`, an optional `(file.c:21)` at the end, and a closing `N failed` /
// `N check(s) failed` line. Runs last among the runners: its line shapes are the most generic.
import { Char, isDigit, isIdent } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { Parser } from "../../parser";
import { normPath } from "../../frames";
import { failureNamed } from "./common";

export class CheckScriptParser extends Parser {
  seen: bool = false;
  passed: i64 = 0; failed: i64 = 0;

  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == 0x50 /* P */ && l.matchAt("PASS ", 0)) {
      let e = identEnd(l, 5);
      if (e == 5 || (e < l.len && l.at(e) != Char.COLON)) return false;
      this.seen = true; this.passed++; f.testsFor("check-script");
      return true;
    }
    if (c == 0x46 /* F */ && l.matchAt("FAIL ", 0)) {
      let e = identEnd(l, 5);
      if (e == 5 || (e < l.len && l.at(e) != Char.COLON)) return false;
      this.fail(l, f, l.str(5, e), e < l.len ? e + 1 : e);
      return true;
    }
    if (isIdentStart(c)) {
      // `add_zero: expected: 3 got: 4`
      let e = identEnd(l, 0);
      if (e > 0 && l.at(e) == Char.COLON && l.matchAt(" expected", e + 1) && l.indexOf(" got", e) > 0) {
        this.fail(l, f, l.str(0, e), e + 1);
        return true;
      }
      return false;
    }
    if (this.seen && isDigit(c)) {
      l.readInt(0);
      let r = l.str(l.end);
      if (r == " failed" || r == " check(s) failed" || r == " checks failed" || r == " test(s) failed" || r == " tests failed" || r == " passed") return true;
    }
    return false;
  }

  private fail(l: Line, f: Facts, name: string, p: i32): void {
    this.seen = true;
    this.failed++;
    let t = failureNamed(f.testsFor("check-script"), name);
    let end = l.len;
    // A trailing `(file.c:21)`.
    if (l.at(end - 1) == Char.RPAREN) {
      let open = l.lastIndexOf(" (");
      let colon = l.lastIndexOfByte(Char.COLON);
      if (open > p && colon > open) {
        let n = l.readInt(colon + 1);
        if (n >= 0 && l.end == end - 1) {
          t.file = normPath(l.str(open + 2, colon));
          t.line = <i32>n;
          end = open;
        }
      }
    }
    let msg = l.trimmed(p, end);
    t.message = msg;
    // `expected X, got Y` / `expected: X got: Y`
    let ex = msg.indexOf("expected");
    let got = msg.lastIndexOf("got");
    if (ex >= 0 && got > ex) {
      let a = ex + 8;
      if (a < msg.length && msg.charCodeAt(a) == Char.COLON) a++;
      let b = got;
      let v = msg.substring(a, b).trim();
      if (v.endsWith(",")) v = v.substring(0, v.length - 1);
      let g = msg.substring(got + 3);
      if (g.startsWith(":")) g = g.substring(1);
      t.expected = v.trim();
      t.actual = g.trim();
    }
  }

  finish(f: Facts): void {
    if (!this.seen) return;
    let t = f.testsFor("check-script");
    if (t.runner != "check-script") return;
    t.passed = this.passed; t.failed = this.failed;
  }
}

function isIdentStart(c: i32): bool { return isIdent(c) && !isDigit(c); }

function identEnd(l: Line, p: i32): i32 {
  let i = p;
  while (i < l.len) {
    let c = l.at(i);
    if (!isIdent(c) && c != Char.MINUS && c != Char.DOT && c != Char.SLASH) break;
    i++;
  }
  return i;
}
