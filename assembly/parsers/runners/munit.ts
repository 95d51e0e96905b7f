// µnit (nemequ/munit), read by the check-script parser. Each test runs in a child process; a line per test, its
// result in brackets, then what the test logged (buffered, printed after the result):
//
//   Running test suite with seed 0x8d932cb9...
//   /example/compare                     [ ERROR ]
//   Error: example.c:51: assertion failed: 'a' == 'b' ('\x61' == '\x62')
//   Error: child killed by signal 6 (Aborted)
//   /example/rand                        [ OK    ] [ 0.00000629 / 0.00000548 CPU ]
//   /example/parameters
//     foo=one, bar=red                   [ OK    ] [ 0.00000432 / 0.00000337 CPU ]
//   10 of 11 (91%) tests successful, 0 (0%) test skipped.
//
// A test with parameters is named by its path and its parameters (`/example/parameters foo=one, bar=red`). A
// failed test (`[ FAIL  ]`, `[ ERROR ]`) is placed at the first `Error: file:line: ` line under it, those lines
// (up to four, without `Error: `) its message; the child's signal is how a failed assertion ends it, not the
// run's crash. The test lines are tests only once the summary closes them.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { normPath } from "../../frames";
import { PendingFailures } from "./pending";


export class MunitReport {
  seen: bool = false;
  private passed: i64 = 0;
  private failed: i64 = 0;
  private skipped: i64 = 0;
  private lines: bool = false;
  /** The path of the test whose parameter lines follow. */
  private base: string = "";
  private pend: PendingFailures = new PendingFailures();
  /** Index in pend of the failed test whose logged lines follow (-1 when none). */
  private open: i32 = -1;

  /** True when the line is µnit's. */
  claim(l: Line, f: Facts): bool {
    let c = l.at(0);
    if (c == Char.SLASH || c == Char.SPACE) {
      let r = l.indexOf("[ ");
      if (r > 0 && this.result(l, r)) return false;
      // A test with parameters: its path alone, each combination's line below it.
      if (c == Char.SLASH && r < 0) {
        let path = l.trimmed(0);
        if (path.indexOf(" ") < 0) { this.base = path; this.open = -1; return false; }
      }
    }
    if (this.open >= 0 && (l.startsWith("Error: ") || l.startsWith("Warning: ") || l.startsWith("Info: "))) return this.logged(l);
    if (isDigit0(c) && l.endsWith(" test skipped.") && l.indexOf(" tests successful, ") > 0) return this.close(f);
    this.open = -1;
    return false;
  }

  /** `name<pad>[ OK    ] ...`, `[ FAIL  ]`, `[ ERROR ]`, `[ SKIP  ]`, `[ TODO  ]` at r. */
  private result(l: Line, r: i32): bool {
    let w = r + 2;
    let ok = l.matchAt("OK    ]", w) || l.matchAt("TODO  ]", w);
    let skip = l.matchAt("SKIP  ]", w);
    let bad = l.matchAt("FAIL  ]", w) || l.matchAt("ERROR ]", w);
    if (!ok && !skip && !bad) return false;
    let name = l.trimmed(0, r);
    if (name.length == 0) return false;
    if (l.at(0) == Char.SPACE) {
      if (this.base.length == 0) return false;
      name = this.base + " " + name;
    } else this.base = "";
    this.lines = true;
    this.open = -1;
    if (ok) { this.passed++; return true; }
    if (skip) { this.skipped++; return true; }
    this.failed++;
    this.open = this.pend.add(name, "");
    return true;
  }

  /** `Error: example.c:51: assertion failed: ...`, `Error: child killed by signal 6 (Aborted)` under a failed test. */
  private logged(l: Line): bool {
    let i = this.open;
    let p = l.indexOf(": ") + 2;
    let s = l.trimmed(p);
    let x = this.pend.at(i);
    if (x.file === null) {
      let k = l.indexOf(": ", p);
      let colon = k > p ? l.lastIndexOfByte(Char.COLON, k) : -1;
      if (colon > p && l.indexOfByte(Char.SPACE, p) > colon) {
        let n = l.readInt(colon + 1);
        if (n >= 0 && l.end == k) {
          x.file = normPath(l.str(p, colon));
          x.line = n;
          s = l.trimmed(k + 2);
        }
      }
    }
    this.pend.addLine(i, s);
    return false;
  }

  /** `10 of 11 (91%) tests successful, 0 (0%) test skipped.`: the tests before it are µnit's. */
  private close(f: Facts): bool {
    this.seen = true;
    this.open = -1;
    this.base = "";
    let t = f.testsFor("munit");
    this.pend.flush(t, t.runner == "munit");
    return true;
  }

  finish(f: Facts): void {
    if (!this.seen) return;
    let t = f.testsFor("munit");
    if (t.runner != "munit") return;
    t.passed = this.lines ? this.passed : -1;
    t.failed = this.failed;
    t.skipped = this.lines ? this.skipped : -1;
  }
}

function isDigit0(c: i32): bool { return c >= Char._0 && c <= Char._9; }
