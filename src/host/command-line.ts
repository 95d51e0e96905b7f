// Shell quoting, one rule for sbx: a command's argv as one shell-readable line (what history shows and
// what keys "the same command"), and each word the hooks write into a client's command line.
/**
 * A word that needs no quotes: only A-Z a-z 0-9 _ @ % + = : , . / - (as /^[A-Za-z0-9_@%+=:,./-]+$/ told,
 * whose compile, at a cold run's first command line, cost more than this scan).
 */
function plain(word: string): boolean {
  if (word === '') return false;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    const ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 43 && c <= 58) || c === 95 || c === 64 || c === 37 || c === 61;
    if (!ok) return false;
  }
  return true;
}

/** POSIX shell quoting: plain words stay bare; else the word in single quotes, each ' written as '\''. */
export function shellQuote(word: string): string {
  return plain(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function commandLine(argv: string[]): string {
  return argv.map(shellQuote).join(' ');
}
