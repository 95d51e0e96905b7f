// Is a JUnit report well-formed XML? A byte scanner over the markup XML 1.0 allows (prolog, elements with
// quoted attributes, text with entity references, CDATA, comments, processing instructions, DOCTYPE),
// checking that every start tag has its end tag, in order, under one root element <testsuites> or
// <testsuite>. It does not validate a schema: a report with unknown elements is fine, one cut short, mixed
// with console output or not XML at all is not. checkXml returns null, or what is wrong and on which line.
import { Char, isAlpha, isDigit } from "./util/chars";
import { decode } from "./util/utf8";

const MAX_DEPTH = 256;

@final
class Scan {
  p: usize;
  end: usize;
  start: usize;
  error: string | null = null;
  errorAt: usize = 0;

  constructor(p: usize, end: usize) { this.p = p; this.start = p; this.end = end; }

  @inline at(k: usize = 0): i32 { let q = this.p + k; return q < this.end ? <i32>load<u8>(q) : -1; }

  match(s: string): bool {
    let n = <usize>s.length;
    if (this.p + n > this.end) return false;
    for (let i: usize = 0; i < n; i++) if (<i32>load<u8>(this.p + i) != s.charCodeAt(<i32>i)) return false;
    return true;
  }

  /** Records the first error at the cursor; always false, so `return s.fail(..)` reads as a rejection. */
  fail(msg: string): bool {
    if (this.error === null) { this.error = msg; this.errorAt = this.p; }
    return false;
  }

  skipSpace(): void {
    while (this.p < this.end) {
      let c = <i32>load<u8>(this.p);
      if (c != Char.SPACE && c != Char.TAB && c != Char.LF && c != Char.CR) return;
      this.p++;
    }
  }

  /** Moves past the next occurrence of s; false (cursor at the end) when there is none. */
  past(s: string): bool {
    let first = s.charCodeAt(0);
    while (this.p < this.end) {
      if (<i32>load<u8>(this.p) == first && this.match(s)) { this.p += <usize>s.length; return true; }
      this.p++;
    }
    return false;
  }

  /** An XML name (ASCII letters, digits, `_:.-`, and any non-ASCII byte); returns it, or "" when none. */
  name(): string {
    let a = this.p;
    let c = this.at();
    if (!(isAlpha(c) || c == Char.UNDERSCORE || c == Char.COLON || c >= 0x80)) return "";
    while (this.p < this.end) {
      c = <i32>load<u8>(this.p);
      if (!(isAlpha(c) || isDigit(c) || c == Char.UNDERSCORE || c == Char.COLON || c == Char.DOT || c == Char.MINUS || c >= 0x80)) break;
      this.p++;
    }
    return decode(a, <i32>(this.p - a));
  }

  /** `&name;`, `&#123;` or `&#x1F;` at the cursor (on the `&`). */
  reference(): bool {
    this.p++;
    let c = this.at();
    if (c == Char.HASH) {
      this.p++;
      let hex = this.at() == Char.x;
      if (hex) this.p++;
      let a = this.p;
      while (this.p < this.end && (hex ? isHexDigit(this.at()) : isDigit(this.at()))) this.p++;
      if (this.p == a) return this.fail("a character reference without digits");
    } else if (this.name().length == 0) return this.fail("a bare '&' (write &amp;)");
    if (this.at() != Char.SEMI) return this.fail("an entity reference without its ';'");
    this.p++;
    return true;
  }

  /** `<!-- ... -->`, `<?pi ... ?>`, `<![CDATA[ ... ]]>`, `<!DOCTYPE ...>` at the cursor; false when it is none of them. */
  special(inElement: bool): bool {
    if (this.match("<!--")) { this.p += 4; return this.past("-->") || this.fail("a comment that never ends"); }
    if (this.match("<?")) { this.p += 2; return this.past("?>") || this.fail("a processing instruction that never ends"); }
    if (inElement && this.match("<![CDATA[")) { this.p += 9; return this.past("]]>") || this.fail("a CDATA section that never ends"); }
    if (!inElement && this.match("<!DOCTYPE")) { return this.past(">") || this.fail("a DOCTYPE that never ends"); }
    return this.fail("unexpected '<!'");
  }

  /** The attributes and the end of a start tag; returns 1 for `>`, 2 for `/>`, 0 on an error. */
  attributes(): i32 {
    while (true) {
      let before = this.p;
      this.skipSpace();
      let c = this.at();
      if (c == Char.GT) { this.p++; return 1; }
      if (c == Char.SLASH) {
        if (this.at(1) != Char.GT) { this.fail("'/' not followed by '>' in a tag"); return 0; }
        this.p += 2; return 2;
      }
      if (c < 0) { this.fail("the report ends inside a tag"); return 0; }
      if (this.p == before) { this.fail("attributes not separated by a space"); return 0; }
      if (this.name().length == 0) { this.fail("unexpected '" + String.fromCharCode(c) + "' in a tag"); return 0; }
      this.skipSpace();
      if (this.at() != Char.EQ) { this.fail("an attribute without '=\"value\"'"); return 0; }
      this.p++;
      this.skipSpace();
      let q = this.at();
      if (q != Char.QUOTE && q != Char.APOS) { this.fail("an attribute value without quotes"); return 0; }
      this.p++;
      while (true) {
        let v = this.at();
        if (v < 0) { this.fail("the report ends inside an attribute value"); return 0; }
        if (v == q) { this.p++; break; }
        if (v == Char.LT) { this.fail("'<' inside an attribute value"); return 0; }
        if (v == Char.AMP) { if (!this.reference()) return 0; continue; }
        this.p++;
      }
    }
  }

  /** The line (1-based) of the first error. */
  errorLine(): i32 {
    let n = 1;
    for (let q = this.start; q < this.errorAt && q < this.end; q++) if (load<u8>(q) == Char.LF) n++;
    return n;
  }
}

function isHexDigit(c: i32): bool { return isDigit(c) || <u32>((c | 0x20) - Char.a) < 6; }

/**
 * null when the bytes are a well-formed XML document whose root is <testsuites> or <testsuite> (or `other`, when
 * given: doctest's <doctest>); else the problem.
 */
export function checkXml(ptr: usize, len: i32, other: string = ""): string | null {
  let s = new Scan(ptr, ptr + <usize>max(len, 0));
  if (s.at() == 0xEF && s.at(1) == 0xBB && s.at(2) == 0xBF) s.p += 3; // a UTF-8 byte order mark
  let stack = new Array<string>(0);
  let root = "";
  let closed = false;
  while (s.error === null) {
    if (stack.length == 0) {
      s.skipSpace();
      let c = s.at();
      if (c < 0) break;
      if (c != Char.LT) { s.fail(closed ? "text after the root element ends" : "text before the root element"); break; }
      if (s.at(1) == Char.BANG || s.at(1) == Char.QUESTION) { s.special(false); continue; }
      if (closed) { s.fail("a second root element"); break; }
    } else {
      // Content: text up to the next '<', references checked.
      let c = s.at();
      if (c < 0) { s.fail("the report ends inside <" + stack[stack.length - 1] + ">"); break; }
      if (c == Char.AMP) { s.reference(); continue; }
      if (c != Char.LT) { s.p++; continue; }
      if (s.at(1) == Char.BANG || s.at(1) == Char.QUESTION) { s.special(true); continue; }
    }
    // A tag: the cursor is on '<'.
    if (s.at(1) == Char.SLASH) {
      s.p += 2;
      let name = s.name();
      s.skipSpace();
      if (s.at() != Char.GT) { s.fail("an end tag without its '>'"); break; }
      s.p++;
      if (stack.length == 0) { s.fail("</" + name + "> with no element open"); break; }
      let open = stack.pop();
      if (name != open) { s.fail("<" + open + "> closed by </" + name + ">"); break; }
      if (stack.length == 0) closed = true;
      continue;
    }
    s.p++;
    let name = s.name();
    if (name.length == 0) { s.fail("a '<' that starts no tag (write &lt;)"); break; }
    if (stack.length == 0) root = name;
    let kind = s.attributes();
    if (kind == 0) break;
    if (kind == 2) { if (stack.length == 0) closed = true; continue; }
    if (stack.length >= MAX_DEPTH) { s.fail("elements nested deeper than " + MAX_DEPTH.toString()); break; }
    stack.push(name);
  }
  if (s.error === null && root.length == 0) return "no XML element in it";
  if (s.error !== null) return "line " + s.errorLine().toString() + ": " + s.error!;
  if (root != "testsuites" && root != "testsuite" && (other.length == 0 || root != other)) return "its root element is <" + root + ">, not <testsuites> or <testsuite>";
  return null;
}
