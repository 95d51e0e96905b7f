// Shell quoting, one rule for sbx: a command's argv as one shell-readable line (what history shows and
// what keys "the same command"), and each word the hooks write into a client's command line.
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** POSIX shell quoting: plain words stay bare; else the word in single quotes, each ' written as '\''. */
export function shellQuote(word: string): string {
  return word !== '' && PLAIN.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function commandLine(argv: string[]): string {
  return argv.map(shellQuote).join(' ');
}
