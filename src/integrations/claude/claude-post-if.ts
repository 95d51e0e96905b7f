// Claude Code (2.1.85 and later) starts a hook handler only when its `if`, one permission rule such as
// `Bash(make *)`, matches the call; since 2.1.89 it matches each simple command of a compound line, past
// `VAR=x` prefixes. sbx's post-hook has work only for a sandbox-table command that ran on the host
// (claude.ts, claudePost), so it is installed as one handler per rule below: a call such as `ls`, or a
// line the pre-hook rewrote (it starts with sbx's own client), starts no post-hook at all. The pre-hook
// keeps no `if`: it is what decides what is sandboxed, and must see every call.
//
// What the rules were checked against, with Claude Code 2.1.332 (test/integrations/claude-post-if): a rule
// matches `cd c && make`, `X=1 make`, a bare `make` and a failing call (PostToolUseFailure); it does not
// see through a wrapper (`time make`) nor an absolute path (`/usr/bin/make`), and a rule holds one pattern
// (`Bash(make *|gcc *)` matches nothing). A line Claude cannot judge (some with `$…` expansions, `{ …; }`)
// starts every handler: claim.ts lets one of them answer.
import { WRAPPERS } from '../hook/rules.js';

/**
 * The `if` rules covering the sandbox table `sandbox` (rules.ts patterns, the project's first): one per
 * leading word (`cargo build` and `cargo test` are both `Bash(cargo *)`: fewer handlers, and a host
 * command such as `cargo install` only starts a post-hook that answers nothing), `./*` as `Bash(./*)` and
 * `Bash(../*)`, and one per wrapper rules.ts looks past (`Bash(time *)`). Not covered: a program named by
 * an absolute path, or a relative one without `./` (`build/test_all`): no rule can match those without
 * matching sbx's own rewritten line, which starts with the absolute path of sbx's client.
 */
export function postIfs(sandbox: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of sandbox) {
    const first = p.trim().split(/\s+/)[0]!;
    if (first === './*') {
      out.add('Bash(./*)');
      out.add('Bash(../*)');
    } else if (first === '*')
      return ['Bash(*)']; // a pattern that matches any command: every call
    else out.add(`Bash(${first} *)`);
  }
  for (const w of WRAPPERS) out.add(`Bash(${w} *)`);
  return [...out];
}
