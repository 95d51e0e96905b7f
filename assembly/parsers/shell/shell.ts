// What a shell or timeout(1) says about the command it ran: fatal-signal messages ("Segmentation fault
// (core dumped)"), "command not found", a package manager refusing the project, and timeout's own notice.
import { Char } from "../../util/chars";
import { Line } from "../../util/line";
import { Facts, signalCrash } from "../../model";
import { Parser } from "../../parser";
import { ByteSet } from "../../util/byte-set";
import { SIGNAL_WORDS, signalWordsAt } from "../../signals";
import { ShellcheckReader } from "./shellcheck";

const LOADER_FAILED = ": error while loading shared libraries: ";
const ANDROID_LIBRARY = ": library \"";
const ANDROID_NOT_FOUND = "\" not found";
// A package manager that refuses the project its package.json's `packageManager` names another for: yarn 1's
// `error This project's package.json defines "packageManager": "yarn@pnpm@9.0.6". However the current global
// version of Yarn is 1.22.22.`, Corepack's `This project is configured to use pnpm because /w/package.json has a
// "packageManager" field`. Nothing ran.
const YARN_PM = "error This project's package.json defines \"packageManager\": ";
const COREPACK_PM = "This project is configured to use ";
const COREPACK_FIELD = " has a \"packageManager\" field";
// A package.json that does not parse, before any script ran: yarn 1's `error SyntaxError: /w/package.json: Expected
// …`, npm's `npm error JSON.parse Invalid package.json: JSONParseError: …` (npm 9: `npm ERR! JSON.parse …`).
const YARN_JSON = "error SyntaxError: ";
const MANIFEST = "package.json: ";
const NPM_JSON = "npm error JSON.parse Invalid package.json: ";
const NPM9_JSON = "npm ERR! JSON.parse Invalid package.json: ";

/**
 * Stateless but for ShellCheck's blocks. A signal message at the key (Segmentation, SIGSEGV, Aborted, Floating, Bus, Illegal, Killed,
 * Terminated, Trace, Bad: signalWordsAt's first bytes), `CANNOT LINK EXECUTABLE`, `timeout: `; every other
 * message holds a colon (bash's `NAME: line N: ` prefix, `: command not found`, the loader's): colonStarts.
 */
const STARTS = new ByteSet().chars("SAFBIKT").chars("Ct");

export class ShellParser extends Parser {
  /** ShellCheck's report (`In run.sh line 2:` blocks): shellcheck.ts. */
  private sc: ShellcheckReader = new ShellcheckReader();

  atRest(): bool { return !this.sc.open(); }
  busy(): bool { return this.sc.open(); }
  starts(): ByteSet | null { return STARTS; }
  colonStarts(): bool { return true; }

  finish(f: Facts): void { this.sc.finish(f); }

  claim(l: Line, f: Facts): bool {
    if (this.sc.open() && this.sc.claim(l, f)) return true;
    if (l.at(0) == Char.I && l.startsWith("In ") && this.sc.begin(l)) return true;
    // bash: "bash: line 1: 12345 Segmentation fault      (core dumped) ./a.out", or just "Segmentation fault (core dumped)".
    // One indexOfByte finds bash's "NAME: line N: PID " prefix; otherwise the message must start the line.
    let first = l.at(0);
    let at = first == Char.SPACE || first == Char.TAB ? l.skipSpaces(0) : 0;
    let prefixed = false;
    let colon = l.indexOfByte(Char.COLON);
    if (colon > 0 && l.matchAt(" line ", colon + 1)) {
      let q = bashJobPrefix(l, colon + 7);
      if (q > 0) { at = q; prefixed = true; }
    }
    let k = signalWordsAt(l, at);
    if (k >= 0) {
      let end = at + SIGNAL_WORDS[k].length;
      // bash pads the message to a column and may run it into the command ("Floating point exception./prog").
      if (prefixed || this.restOk(l, end)) {
        if (f.crash === null) {
          f.setCrash(signalCrash(SIGNAL_WORDS[k + 1], l.trimmed(0)));
        }
        return true;
      }
    }
    // "bash: foo: command not found", "sh: 1: foo: not found", "env: 'foo': No such file or directory"
    if (l.at(l.len - 1) == Char.d &&
        (l.endsWith(": command not found") || (l.startsWith("sh: ") && l.endsWith(": not found")))) {
      if (f.setupFailure === null) f.setupFailure = l.trimmed(0);
      return true;
    }
    if ((first == Char.e && (l.startsWith(YARN_PM) || (l.startsWith(YARN_JSON) && l.indexOf(MANIFEST, YARN_JSON.length) > 0)))
        || (first == Char.T && l.startsWith(COREPACK_PM) && l.endsWith(COREPACK_FIELD))
        || (first == Char.n && (l.startsWith(NPM_JSON) || l.startsWith(NPM9_JSON)))) {
      if (f.setupFailure === null) f.setupFailure = l.trimmed(0);
      return true;
    }
    // The dynamic loader could not start the program: "./prog: error while loading shared libraries: libX.so:
    // cannot open shared object file: No such file or directory" (exit 127). The program never ran.
    let loader = l.at(l.len - 1) == Char.y ? l.indexOf(LOADER_FAILED) : -1;
    if (loader >= 0) {
      let name = loader + LOADER_FAILED.length;
      let end = l.indexOfByte(Char.COLON, name);
      let missing = end > name && l.matchAt(": cannot open shared object file", end);
      setupFailed(f, l, missing ? l.str(name, end) : null);
      return true;
    }
    // Android's linker: 'CANNOT LINK EXECUTABLE "/data/prog": library "libX.so" not found' (the same failure)
    if (first == Char.C && l.startsWith("CANNOT LINK EXECUTABLE ")) {
      let name = l.indexOf(ANDROID_LIBRARY);
      let end = name > 0 ? l.indexOf(ANDROID_NOT_FOUND, name + ANDROID_LIBRARY.length) : -1;
      setupFailed(f, l, end > 0 ? l.str(name + ANDROID_LIBRARY.length, end) : null);
      return true;
    }
    if (first == Char.t && l.startsWith("timeout: ")) {
      // "timeout: sending signal TERM to command 'sleep'" (--verbose) is the timeout itself;
      // "timeout: the monitored command dumped core" is the command crashing under it, not a timeout.
      if (l.matchAt("sending signal ", 9)) { f.timeoutSeen = true; return true; }
      if (l.matchAt("the monitored command dumped core", 9)) return true;
    }
    return false;
  }

  /** After a message that starts the line: nothing, "(core dumped)", or padding then the command. */
  private restOk(l: Line, p: i32): bool {
    if (p >= l.len) return true;
    let c = l.at(p);
    return c == Char.SPACE || c == Char.TAB;
  }
}

/**
 * The dynamic loader could not start the program: the set-up failure is its line, and the library it did not
 * find (what the agent has to build, install or put on LD_LIBRARY_PATH) when it names one. The first such
 * line is the cause.
 */
function setupFailed(f: Facts, l: Line, library: string | null): void {
  if (f.setupFailure !== null) return;
  f.setupFailure = l.trimmed(0);
  f.missingLibrary = library;
}

/** After "NAME: line " at p: "N: PID " (bash) or "N: " then the message; returns the message's position or -1. */
function bashJobPrefix(l: Line, p: i32): i32 {
  if (l.readInt(p) < 0) return -1;
  let q = l.end;
  if (l.at(q) != Char.COLON) return -1;
  q = l.skipSpaces(q + 1);
  if (l.readInt(q) >= 0) q = l.skipSpaces(l.end);
  return q;
}
