// go test -json: one JSON event a line. The `Output` text of each event is decoded and fed, line by line,
// through the text parser in go-test.ts (which holds all the state), so both formats give the same facts.
// A `-race` report inside the events (`WARNING: DATA RACE` to its closing rule) goes to the race parser instead,
// as its text lines would: the crash, and the place of the test's `race detected during execution of test`.
// The runtime's `fatal error: …` (a deadlock under -timeout 0, concurrent map writes) and its goroutines go to the
// Go panic parser, as the text lines do (go test reads no `fatal error:` itself; its `panic:` lines it reads).
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { GoTestParser } from "./go-test";
import { GoRaceParser } from "../go/go-race";
import { GoPanicParser } from "../go/go-panic";
import { decodeJsonString, jsonBuf } from "../../util/json-string";

/** Stateless (its state is the text parser's, ParserSet refreshes that one): `{"Time":`/`{"Action":` at column 0. */
const STARTS = new ByteSet().chars("{");

export class GoTestJsonParser extends Parser {
  go: GoTestParser;
  race: GoRaceParser;
  panic: GoPanicParser;
  view: Line = new Line();

  constructor(go: GoTestParser, race: GoRaceParser, panic: GoPanicParser) { super(); this.go = go; this.race = race; this.panic = panic; }

  atRest(): bool { return true; }
  starts(): ByteSet | null { return STARTS; }

  claim(l: Line, f: Facts): bool {
    if (l.at(0) != Char.LBRACE || l.at(1) != Char.QUOTE) return false;
    if (!l.matchAt("{\"Time\":", 0) && !l.matchAt("{\"Action\":", 0)) return false;
    if (l.indexOf("\"Action\":") < 0) return false;
    this.go.seen = true;
    f.testsFor("go-test");
    let at = l.indexOf("\"Output\":\"");
    if (at < 0) return true;
    this.decode(l, at + 10, f);
    return true;
  }

  /** Unescapes the JSON string starting at p and feeds each line of it to the text parser. */
  private decode(l: Line, p: i32, f: Facts): void {
    let n = decodeJsonString(l, p, false);
    let b = jsonBuf();
    let s = 0;
    for (let i = 0; i < n; i++) {
      if (load<u8>(b + <usize>i) != Char.LF) continue;
      this.emit(b + <usize>s, i - s, f);
      s = i + 1;
    }
    if (n > s) this.emit(b + <usize>s, n - s, f);
  }

  private emit(at: usize, n: i32, f: Facts): void {
    let v = this.view;
    v.set(at, n); // resets the line's cached head colon too
    let r = this.race;
    if ((r.busy() || (n > 0 && v.at(0) == Char.W)) && r.claim(v, f)) return;
    let g = this.panic;
    if ((g.busy() || (n > 13 && v.at(0) == Char.f && v.startsWith("fatal error: "))) && g.claim(v, f)) return;
    this.go.text(v, f);
  }
}
