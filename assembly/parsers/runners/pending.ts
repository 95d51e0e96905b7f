// Failed tests a runner printed before the summary that makes them its own (Acutest, µnit): held apart until
// then (their lines stay unclaimed, in the tail, if no summary comes), then made the run's failures.
import { Tests, TestFailure } from "../../model";
import { failureNamed } from "./common";

const MAX_PENDING = 500;
const MAX_LINES = 4;

export class PendingFailures {
  private list: TestFailure[] = [];

  /** A failed test with its message so far: its index, or -1 when the list is full. */
  add(name: string, message: string): i32 {
    if (this.list.length >= MAX_PENDING) return -1;
    let x = new TestFailure();
    x.name = name;
    x.message = message;
    this.list.push(x);
    return this.list.length - 1;
  }

  at(i: i32): TestFailure { return this.list[i]; }

  /** How many are held. */
  get length(): i32 { return this.list.length; }

  /** One more line of test i's message (at most MAX_LINES). */
  addLine(i: i32, s: string): void {
    let x = this.list[i];
    let msg = x.message;
    if (msg.split("\n").length < MAX_LINES) x.message = msg.length == 0 ? s : msg + "\n" + s;
  }

  /** Into t's failures when mine (the summary was the runner's), then none are held. */
  flush(t: Tests, mine: bool): void {
    if (mine) {
      for (let i = 0; i < this.list.length; i++) {
        let p = this.list[i];
        let x = failureNamed(t, p.name);
        if (p.file !== null) { x.file = p.file; x.line = p.line; }
        x.message = p.message;
      }
    }
    this.list = [];
  }
}
