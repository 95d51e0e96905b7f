// Named character codes for the scanners: no bare byte values in parser code.
export const enum Char {
  TAB = 0x09, LF = 0x0A, CR = 0x0D, ESC = 0x1B, BEL = 0x07,
  SPACE = 0x20, BANG = 0x21, QUOTE = 0x22, HASH = 0x23, DOLLAR = 0x24, PERCENT = 0x25, AMP = 0x26,
  APOS = 0x27, LPAREN = 0x28, RPAREN = 0x29, STAR = 0x2A, PLUS = 0x2B, COMMA = 0x2C, MINUS = 0x2D,
  DOT = 0x2E, SLASH = 0x2F, _0 = 0x30, _9 = 0x39, COLON = 0x3A, SEMI = 0x3B, LT = 0x3C, EQ = 0x3D,
  GT = 0x3E, QUESTION = 0x3F, AT = 0x40, A = 0x41, F = 0x46, X = 0x58, Z = 0x5A, LBRACKET = 0x5B,
  BACKSLASH = 0x5C, RBRACKET = 0x5D, CARET = 0x5E, UNDERSCORE = 0x5F, BACKTICK = 0x60, a = 0x61,
  f = 0x66, x = 0x78, z = 0x7A, LBRACE = 0x7B, PIPE = 0x7C, RBRACE = 0x7D, TILDE = 0x7E,
}

export function isDigit(c: i32): bool { return <u32>(c - Char._0) < 10; }
export function isHex(c: i32): bool {
  return <u32>(c - Char._0) < 10 || <u32>((c | 0x20) - Char.a) < 6;
}
export function isAlpha(c: i32): bool { return <u32>((c | 0x20) - Char.a) < 26; }
export function isIdent(c: i32): bool { return isAlpha(c) || isDigit(c) || c == Char.UNDERSCORE; }
export function isSpace(c: i32): bool { return c == Char.SPACE || c == Char.TAB; }
