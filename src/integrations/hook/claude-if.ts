// `sbx hook install --claude --filter`: Claude Code's `if` on a hook (2.1.x; a permission rule such as
// `Bash(*make*)`): the client runs the hook only when some simple command of the line matches, so a call
// the pre-hook would leave alone (`ls`, `cat x`, `git status`) costs no hook process at all. Not the
// default: a line Claude cannot take apart starts one hook per rule (measured: +165 ms for `ls c; echo
// done $?`, against +0 with one hook and no rule), and a build line with a path starts two. What Claude Code 2.1.332 did, driven headless
// (docs/integrations.md): it matches each simple command of a compound line (`cd c && make`, `ls | gcc`),
// quotes removed (`ma"ke"`), with its VAR=value words and wrappers (`time`, `nice -n 5`) as part of the
// text; a line it cannot take apart (`{ make; }`, a heredoc, `$(echo make)`) runs every hook. Each entry
// whose `if` matches runs, the same command twice if two do: so the filters are few, one substring per
// first word of the sandbox table (none that holds another: `*make*` also covers `cmake` and `gmake`),
// and `*/*` for `./prog` and `build/test` (and `/usr/bin/make`).
//
// Fail closed: a line the pre-hook would rewrite (rules.ts: some simple command whose first word, after
// assignments and wrappers, is a sandbox pattern's, the same for `sbx host`) holds that word as a substring
// of its simple command, so one `if` matches it. A pattern whose first word this cannot be sure of (`*`,
// characters of the rule syntax) gives no filter: the hook then runs for every call, as without `if`.

/** The `if` rules that cover the sandbox table's patterns, or null when some pattern cannot be covered so. */
export function claudeIfs(sandbox: readonly string[]): string[] | null {
  const words = new Set<string>();
  for (const pattern of sandbox) {
    const first = pattern.trim().split(/\s+/)[0] ?? '';
    // `./*`, and a first word naming a path (matched only as a local program: rules.ts).
    if (first === './*' || first.includes('/')) words.add('/');
    else if (/^[A-Za-z0-9._+-]+$/.test(first)) words.add(first);
    else return null;
  }
  if (words.size === 0) return null;
  // Shortest first; a word holding a kept one as a substring is already covered by it.
  const kept: string[] = [];
  for (const w of [...words].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))) if (!kept.some((k) => w.includes(k))) kept.push(w);
  return kept.map((w) => `Bash(*${w}*)`);
}
