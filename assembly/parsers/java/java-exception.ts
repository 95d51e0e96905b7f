// An uncaught Java exception, as the JVM prints it and as Jazzer (the JVM's libFuzzer) reports it:
//   Exception in thread "main" java.lang.IllegalStateException: not ready
//   == Java Exception: java.lang.IllegalStateException: mustNeverBeCalled has been called
//   	at ExampleFuzzer.mustNeverBeCalled(ExampleFuzzer.java:51)
//   	at ExampleFuzzer.fuzzerTestOneInput(ExampleFuzzer.java:43)
//   Caused by: com.google.gson.JsonSyntaxException: ...
//   	at com.google.gson.Gson.fromJson(Gson.java:947)
//   	... 4 more
// The crash is tool "java", kind the exception's class, message its text; the frames are the thrown
// exception's followed by its causes' (what a fleet groups Jazzer findings by).
import { Char, isDigit } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, Crash, Frame } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { setLocation } from "../../frames";
import { commitCrash, pushFrame, renumber } from "../runtime-common";

const JAZZER = "== Java Exception: ";
const THREAD = "Exception in thread \"";
const CAUSED = "Caused by: ";
/** Android's runtime: "FATAL EXCEPTION: main", "Process: com.x, PID: 1", then the exception's line. */
const ANDROID_FATAL = "FATAL EXCEPTION: ";

/** Packages of the JDK and the Android runtime: not the user's code. */
const RUNTIME_PACKAGES: string[] = [
  "java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.", "scala.", "android.", "androidx.", "dalvik.",
  "com.android.internal.", "libcore.", "com.code_intelligence.jazzer.", "org.junit.",
];

/** At rest: `== Java Exception: ` and `Exception in thread "` at column 0; Android's `FATAL EXCEPTION: ` anywhere (colonStarts). */
const STARTS = new ByteSet().chars("=E");

@final
export class JavaExceptionParser extends Parser {
  private active: bool = false;
  private crash: Crash | null = null;
  /** After Android's "FATAL EXCEPTION:" line: the exception's own line is near. */
  private android: i32 = 0;
  private androidLine: string = "";

  busy(): bool { return this.active; }
  atRest(): bool { return !this.active && this.android == 0; }
  starts(): ByteSet | null { return STARTS; }
  colonStarts(): bool { return true; }

  finish(f: Facts): void { this.close(); }

  claim(l: Line, f: Facts): bool {
    if (this.active) {
      if (this.more(l)) return true;
      this.close();
    }
    let p = -1;
    if (this.android > 0) {
      this.android--;
      if (l.startsWith("Process: ")) return true;
      if (isClassAt(l, 0)) p = 0;
    }
    let k = l.indexOf(ANDROID_FATAL);
    if (k >= 0) { this.android = 2; this.androidLine = l.trimmed(k); return true; }
    if (p == 0) {}
    else if (l.startsWith(JAZZER)) p = JAZZER.length;
    else if (l.startsWith(THREAD)) {
      let q = l.indexOf("\" ", THREAD.length);
      if (q > 0) p = q + 2;
    }
    if (p < 0 || !isClassAt(l, p)) return false;
    this.active = true;
    this.crash = null;
    if (f.crash !== null) { f.crashCount++; return true; }
    let c = new Crash();
    c.tool = "java";
    c.summary = p == 0 && this.android >= 0 && this.androidLine.length > 0 ? this.androidLine : l.trimmed(0);
    this.androidLine = "";
    let colon = l.indexOf(": ", p);
    c.kind = l.trimmed(p, colon > 0 ? colon : l.len);
    c.message = colon > 0 ? l.trimmed(colon + 2) : c.kind;
    this.crash = c;
    // A JVM that printed it and exited 0 only logged it (a caught exception's printStackTrace()).
    commitCrash(f, c);
    return true;
  }

  /** A frame ("\tat pkg.Cls.m(File.java:12)"), a cause, an elision ("\t... 4 more"). */
  private more(l: Line): bool {
    let p = l.skipSpaces(0);
    if (p > 0 && l.matchAt("at ", p)) {
      let c = this.crash;
      if (c !== null) pushFrame(c.frames, javaFrame(l, p + 3));
      return true;
    }
    if (p > 0 && l.matchAt("... ", p) && l.endsWith(" more")) return true;
    if (p == 0 && l.startsWith(CAUSED)) return true;
    return false;
  }

  private close(): void {
    if (!this.active) return;
    this.active = false;
    let c = this.crash;
    this.crash = null;
    if (c === null) return;
    renumber(c.frames);
  }
}

/** "pkg.Cls.method(File.java:51)", "dalvik.system.VMRuntime.newNonMovableArray(Native Method)". */
function javaFrame(l: Line, p: i32): Frame {
  let fr = new Frame();
  let open = l.indexOfByte(Char.LPAREN, p);
  let end = l.len;
  while (end > p && l.at(end - 1) == Char.SPACE) end--;
  fr.fn = l.str(p, open > 0 ? open : end);
  if (open > 0 && l.at(end - 1) == Char.RPAREN) setLocation(fr, l.str(open + 1, end - 1));
  let fn = fr.fn!;
  let user = true;
  for (let i = 0; i < RUNTIME_PACKAGES.length; i++) if (fn.startsWith(RUNTIME_PACKAGES[i])) { user = false; break; }
  fr.user = user;
  return fr;
}

/** A class name at p: a letter, then letters, digits, '.', '$', '_' up to ':' or the end. */
function isClassAt(l: Line, p: i32): bool {
  let c = l.at(p);
  if (!((c >= Char.a && c <= Char.z) || (c >= Char.A && c <= Char.Z))) return false;
  let dots = 0;
  let i = p;
  while (i < l.len) {
    c = l.at(i);
    if (c == Char.COLON || c == Char.SPACE) break;
    if (c == Char.DOT) dots++;
    else if (!((c >= Char.a && c <= Char.z) || (c >= Char.A && c <= Char.Z) || isDigit(c) || c == Char.DOLLAR || c == Char.UNDERSCORE)) return false;
    i++;
  }
  return i > p && (dots > 0 || l.matchAt(": ", i) || i == l.len);
}
