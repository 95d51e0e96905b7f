// A command's argv as one shell-readable line: what history shows and what keys "the same command".
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function commandLine(argv: string[]): string {
  return argv.map((a) => (a !== '' && PLAIN.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
