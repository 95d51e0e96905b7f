// A strict reader for the Starlark subset that Codex's `.rules` files are written in: top-level calls
// with literal arguments, as Codex documents them (developers.openai.com/codex/rules, the execpolicy
// README):
//   prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "prompt", justification = "…",
//               match = [["git", "push"], "git fetch origin"], not_match = ["git status"])
// Values are strings ("…" or '…', r-prefixed too), lists, True/False/None; comments run from # to the end
// of the line. Anything else (assignments, loops, variables, f-strings, arithmetic) is a statement this
// reader cannot evaluate: it is skipped with a note, reading resumes at the next line that starts a call,
// and nothing is guessed. Only prefix_rule is kept; other calls (host_executable, network_rule) are read
// and ignored.

export type Value = string | boolean | null | Value[];

export interface PrefixRule {
  /** Each position: the words it accepts. */
  pattern: string[][];
  decision: 'allow' | 'prompt' | 'forbidden';
  justification?: string;
  /** `file:line`, for notes and refusals. */
  at: string;
}

const PREFIX_RULE_ARGS = ['pattern', 'decision', 'match', 'not_match', 'justification'] as const;
const CALL_START = /\n(?=[A-Za-z_][A-Za-z0-9_]*[ \t]*\()/g;

class Unreadable extends Error {}

/** The prefix rules of one file, and a note for each statement that was skipped. */
export function parseRules(text: string, file: string): { rules: PrefixRule[]; notes: string[] } {
  const rules: PrefixRule[] = [];
  const notes: string[] = [];
  const r = new Reader(text);
  for (;;) {
    r.skipBlank();
    if (r.done()) break;
    const line = r.line();
    const start = r.pos();
    try {
      const call = r.call();
      if (call.name !== 'prefix_rule') continue;
      const rule = prefixRule(call.args, `${file}:${line}`);
      if (typeof rule === 'string') notes.push(`${file}:${line}: ${rule}; this rule is skipped`);
      else rules.push(rule);
    } catch (err) {
      if (!(err instanceof Unreadable)) throw err;
      notes.push(`${file}:${line}: cannot read this statement (${err.message}); skipped up to the next call`);
      r.resync(start);
    }
  }
  return { rules, notes };
}

/** Checks prefix_rule's arguments the way Codex does; a string says why the rule is refused. */
function prefixRule(args: { positional: Value[]; named: Map<string, Value> }, at: string): PrefixRule | string {
  const named = new Map(args.named);
  for (const [i, v] of args.positional.entries()) {
    const key = PREFIX_RULE_ARGS[i];
    if (!key) return 'prefix_rule takes at most 5 arguments';
    if (named.has(key)) return `prefix_rule got ${key} twice`;
    named.set(key, v);
  }
  for (const k of named.keys()) if (!(PREFIX_RULE_ARGS as readonly string[]).includes(k)) return `prefix_rule has no argument ${k}`;
  const pattern = named.get('pattern');
  if (!Array.isArray(pattern) || pattern.length === 0) return 'pattern must be a non-empty list';
  const tokens: string[][] = [];
  for (const t of pattern) {
    if (typeof t === 'string') tokens.push([t]);
    else if (Array.isArray(t) && t.length > 0 && t.every((a) => typeof a === 'string')) tokens.push(t as string[]);
    else return 'each pattern element must be a string or a non-empty list of strings';
  }
  const decision = named.get('decision') ?? 'allow';
  if (decision !== 'allow' && decision !== 'prompt' && decision !== 'forbidden') return `decision must be "allow", "prompt" or "forbidden" (got ${JSON.stringify(decision)})`;
  const justification = named.get('justification');
  if (justification !== undefined && (typeof justification !== 'string' || !justification.trim())) return 'justification must be a non-empty string';
  return { pattern: tokens, decision, at, ...(justification ? { justification } : {}) };
}

class Reader {
  private i = 0;
  constructor(private readonly s: string) {}

  done(): boolean {
    return this.i >= this.s.length;
  }
  pos(): number {
    return this.i;
  }
  line(): number {
    let n = 1;
    for (let j = 0; j < this.i; j++) if (this.s[j] === '\n') n++;
    return n;
  }

  /** Spaces, newlines and comments. */
  skipBlank(): void {
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') this.i++;
      else if (c === '#') {
        while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
      } else break;
    }
  }

  /** After an unreadable statement that began at start: the next line that starts a call, or the end. */
  resync(start: number): void {
    CALL_START.lastIndex = start;
    const m = CALL_START.exec(this.s);
    this.i = m ? m.index + 1 : this.s.length;
  }

  call(): { name: string; args: { positional: Value[]; named: Map<string, Value> } } {
    const name = this.ident();
    if (!name) throw new Unreadable('expected a call such as prefix_rule(...)');
    this.skipBlank();
    this.expect('(');
    const positional: Value[] = [];
    const named = new Map<string, Value>();
    for (;;) {
      this.skipBlank();
      if (this.eat(')')) break;
      const save = this.i;
      const key = this.ident();
      this.skipBlank();
      if (key && this.s[this.i] === '=' && this.s[this.i + 1] !== '=') {
        this.i++;
        if (named.has(key)) throw new Unreadable(`argument ${key} given twice`);
        named.set(key, this.value());
      } else {
        this.i = save;
        if (named.size) throw new Unreadable('a positional argument after a named one');
        positional.push(this.value());
      }
      this.skipBlank();
      if (this.eat(')')) break;
      this.expect(',');
    }
    // A statement ends at the end of its line (or a comment, or `;`).
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t' || this.s[this.i] === '\r') this.i++;
    if (this.s[this.i] === ';') this.i++;
    else if (!this.done() && this.s[this.i] !== '\n' && this.s[this.i] !== '#') throw new Unreadable('more after the call on its line');
    return { name, args: { positional, named } };
  }

  private value(): Value {
    this.skipBlank();
    const c = this.s[this.i];
    if (c === '[') {
      this.i++;
      const out: Value[] = [];
      for (;;) {
        this.skipBlank();
        if (this.eat(']')) return out;
        out.push(this.value());
        this.skipBlank();
        if (this.eat(']')) return out;
        this.expect(',');
      }
    }
    if (c === '"' || c === "'") return this.string(false);
    if ((c === 'r' || c === 'R') && (this.s[this.i + 1] === '"' || this.s[this.i + 1] === "'")) {
      this.i++;
      return this.string(true);
    }
    const word = this.ident();
    if (word === 'True') return true;
    if (word === 'False') return false;
    if (word === 'None') return null;
    throw new Unreadable(word ? `${word} is not a literal` : `unexpected ${JSON.stringify(c ?? 'end of file')}`);
  }

  private string(raw: boolean): string {
    const q = this.s[this.i]!;
    if (this.s.startsWith(q.repeat(3), this.i)) throw new Unreadable('triple-quoted strings are not read');
    this.i++;
    let out = '';
    for (;;) {
      const c = this.s[this.i++];
      if (c === undefined || c === '\n') throw new Unreadable('a string that does not end on its line');
      if (c === q) return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.s[this.i++];
      if (raw) {
        out += `\\${e ?? ''}`;
        continue;
      }
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", '0': '\0' };
      const ch = e === undefined ? undefined : simple[e];
      if (ch === undefined) throw new Unreadable(`escape \\${e ?? ''} is not read`);
      out += ch;
    }
  }

  private ident(): string {
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i, this.i + 256));
    if (!m) return '';
    this.i += m[0].length;
    return m[0];
  }

  private eat(c: string): boolean {
    if (this.s[this.i] !== c) return false;
    this.i++;
    return true;
  }

  private expect(c: string): void {
    if (!this.eat(c)) throw new Unreadable(`expected ${JSON.stringify(c)}, found ${JSON.stringify(this.s[this.i] ?? 'end of file')}`);
  }
}
