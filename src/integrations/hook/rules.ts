// Which shell commands an agent hook sends through the sandbox. A command line is split into simple
// commands (on unquoted && || ; | & newlines and parentheses); each one's leading words, after
// VAR=value assignments and wrappers such as `time` or `env`, are matched against two tables:
//   sandbox: build, test and run commands (make, cargo test, pytest, ./prog, ...): these run in sbx;
//   host:    commands that need the network, the real home or the user's terminal (git, npm install,
//            pip, curl, sudo, dev servers, ...): a line with any of these is left alone.
// A line is rewritten when one of its commands matches `sandbox` and none matches `host` (the longer
// pattern wins: `npx jest` is sandboxed though `npx` is a host command); anything else
// (cd, ls, cat, grep, editors, echo, ...) passes through untouched. docs/integrations.md has the table;
// a project overrides it in sbx.config.json (config.ts).

/** A pattern is words matched in order against a command's leading words; `*` matches any one word. */
export const SANDBOX: readonly string[] = [
  'make',
  'gmake',
  'cmake',
  'ctest',
  'ninja',
  'meson',
  'bazel test',
  'bazel build',
  'bazel run',
  'gcc',
  'g++',
  'cc',
  'c++',
  'clang',
  'clang++',
  'valgrind',
  'cargo build',
  'cargo test',
  'cargo run',
  'cargo check',
  'cargo clippy',
  'cargo bench',
  'cargo nextest',
  'rustc',
  'go build',
  'go test',
  'go run',
  'go vet',
  'pytest',
  'py.test',
  'python',
  'python3',
  'tox',
  'node',
  'tsc',
  'jest',
  'vitest',
  'mocha',
  'ava',
  'npx jest',
  'npx vitest',
  'npx tsc',
  'npx mocha',
  'npx ava',
  'npm test',
  'npm t',
  'npm run *',
  'yarn test',
  'yarn run *',
  'pnpm test',
  'pnpm run *',
  // A monorepo's runners: each workspace's script at once, read per workspace (relay streams).
  'pnpm -r test',
  'pnpm -r run *',
  'pnpm --recursive test',
  'turbo test',
  'turbo build',
  'turbo run *',
  'npx turbo test',
  'npx turbo build',
  'npx turbo run *',
  'javac',
  'java',
  'ruby',
  'rspec',
  'rake test',
  'rake spec',
  'php',
  'phpunit',
  'bats',
  'prove',
  './*',
];

export const HOST: readonly string[] = [
  'sbx',
  'sbx-exec',
  'git',
  'gh',
  'sudo',
  'su',
  'ssh',
  'scp',
  'curl',
  'wget',
  'docker',
  'podman',
  'kubectl',
  'npm install',
  'npm i',
  'npm ci',
  'npm add',
  'npm update',
  'npm publish',
  'npm start',
  'npm run dev',
  'npm run start',
  'npm run serve',
  'npm run watch',
  'yarn add',
  'yarn install',
  'pnpm add',
  'pnpm install',
  'pnpm run dev',
  'pnpm run start',
  'pnpm run serve',
  'pnpm run watch',
  'turbo dev',
  'turbo watch',
  'turbo run dev',
  'turbo run start',
  'npx turbo dev',
  'npx turbo run dev',
  'npx',
  'composer',
  'pip',
  'pip3',
  'python -m pip',
  'python3 -m pip',
  'python -m venv',
  'python3 -m venv',
  'uv',
  'poetry',
  'conda',
  'cargo install',
  'cargo add',
  'cargo fetch',
  'cargo update',
  'cargo publish',
  'go get',
  'go install',
  'go mod',
  'apt',
  'apt-get',
  'brew',
  'kill',
  'pkill',
];

/** Leading words that wrap the real command; `timeout` and `nice -n` take an argument. */
const WRAPPERS = new Set(['time', 'env', 'command', 'exec', 'nice', 'nohup', 'timeout', 'stdbuf']);
const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*=/;

export interface Rules {
  sandbox: readonly string[];
  host: readonly string[];
}

export type Decision = { action: 'sandbox'; matched: string } | { action: 'pass'; reason: string };

export function classify(line: string, rules: Rules): Decision {
  let matched: string | null = null;
  for (const words of splitCommands(line)) {
    const head = stripWrappers(words);
    if (head.length === 0) continue;
    // The more specific pattern wins (`npx jest` over `npx`); on a tie the host table does.
    const host = longest(rules.host, head);
    const sandbox = longest(rules.sandbox, head);
    if (host && (!sandbox || wordCount(host) >= wordCount(sandbox))) return { action: 'pass', reason: `\`${host}\` runs on the host (host table)` };
    matched ??= sandbox;
  }
  return matched ? { action: 'sandbox', matched } : { action: 'pass', reason: 'no build, test or run command (sandbox table)' };
}

function longest(patterns: readonly string[], head: string[]): string | null {
  let best: string | null = null;
  for (const p of patterns) if (matches(p, head) && (!best || wordCount(p) > wordCount(best))) best = p;
  return best;
}

const wordCount = (p: string) => p.split(/\s+/).length;

function matches(pattern: string, words: string[]): boolean {
  const p = pattern.split(/\s+/);
  if (p.length === 1 && p[0] === './*') return isLocalProgram(words[0]!);
  if (p.length > words.length) return false;
  return p.every((w, i) => w === '*' || w === (i === 0 ? commandName(words[0]!) : words[i]));
}

/** `./prog`, `build/test_all`: a program of the work tree (an absolute path is a system one). */
function isLocalProgram(word: string): boolean {
  return word.includes('/') && !word.startsWith('/') && !word.startsWith('~');
}

/** `/usr/bin/make` is `make`. */
function commandName(word: string): string {
  return word.startsWith('/') ? word.slice(word.lastIndexOf('/') + 1) : word;
}

function stripWrappers(words: string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    if (ASSIGN.test(w)) {
      i++;
      continue;
    }
    if (!WRAPPERS.has(w)) break;
    i++;
    // Options of the wrapper (`env -i`, `nice -n 5`, `timeout 30`), then its argument when it takes one.
    while (i < words.length && words[i]!.startsWith('-')) i += words[i] === '-n' ? 2 : 1;
    if (w === 'timeout' && i < words.length && /^[0-9.]+[smhd]?$/.test(words[i]!)) i++;
  }
  return words.slice(i);
}

/**
 * The simple commands of a shell line as word lists, quotes removed. Not a shell parser: enough to find
 * each command's leading words (quoted operators stay inside their word; `$(...)` is one word).
 */
export function splitCommands(line: string): string[][] {
  const out: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  let depth = 0; // inside $( ... )
  const heredocs: { delim: string; tabs: boolean }[] = []; // bodies to skip after the next newline
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length) out.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
      continue;
    }
    if (depth > 0) {
      word += c;
      if (c === '(') depth++;
      else if (c === ')') depth--;
      continue;
    }
    switch (c) {
      case "'":
      case '"':
        quote = c;
        inWord = true;
        break;
      case '\\':
        if (i + 1 < line.length) {
          word += line[++i];
          inWord = true;
        }
        break;
      case '$':
        if (line[i + 1] === '(') {
          word += '$(';
          i++;
          depth = 1;
        } else word += c;
        inWord = true;
        break;
      case ' ':
      case '\t':
        endWord();
        break;
      case '\n':
        endCommand();
        i = skipHeredocBodies(i);
        break;
      case ';':
      case '&':
      case '|':
      case '(':
      case ')':
      case '{':
      case '}':
      case '!':
        endCommand();
        break;
      case '#':
        if (!inWord) {
          while (i + 1 < line.length && line[i + 1] !== '\n') i++;
        } else word += c;
        break;
      case '<':
        endWord();
        if (line[i + 1] === '<' && line[i + 2] === '<')
          i += 2; // here-string: its word is data
        else if (line[i + 1] === '<') i = readHeredoc(i + 2);
        else skipRedirectTarget();
        break;
      case '>':
        endWord();
        skipRedirectTarget();
        break;
      default:
        word += c;
        inWord = true;
    }
  }
  endCommand();
  return out;

  // `> out.log`, `2>&1`, `< in`: the target is not a word of the command. (The fd digit before `>`
  // was already pushed as a word; drop it.)
  function skipRedirectTarget() {
    if (/^\d$/.test(words[words.length - 1] ?? '')) words.pop();
  }

  // `<<EOF`, `<<-'EOF'`, `<< "EOF"`: note the delimiter; the body (text, not commands) starts at the
  // next newline. Returns the index of the delimiter's last character.
  function readHeredoc(j: number): number {
    const tabs = line[j] === '-';
    if (tabs) j++;
    while (line[j] === ' ' || line[j] === '\t') j++;
    const m = /^(?:'([^']*)'|"([^"]*)"|([^\s;&|<>()]+))/.exec(line.slice(j));
    if (!m) return j - 1;
    heredocs.push({ delim: m[1] ?? m[2] ?? (m[3] ?? '').replace(/\\/g, ''), tabs });
    return j + m[0].length - 1;
  }

  // At a newline: skip the bodies of the heredocs opened on the line that ends here.
  function skipHeredocBodies(nl: number): number {
    let j = nl;
    for (const h of heredocs.splice(0)) {
      for (;;) {
        if (j >= line.length) return line.length;
        const end = line.indexOf('\n', j + 1);
        const text = line.slice(j + 1, end < 0 ? line.length : end);
        j = end < 0 ? line.length : end;
        if ((h.tabs ? text.replace(/^\t+/, '') : text) === h.delim) break;
      }
    }
    return j;
  }
}
