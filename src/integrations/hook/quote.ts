// POSIX shell quoting: a word in single quotes, each ' written as '\'' (the only character that cannot
// appear inside them). Plain words (letters, digits, -_./:=@%+,) stay bare so commands read naturally.
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_\-./:=@%+,]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
