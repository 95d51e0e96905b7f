// The engine's output read as text through Node's Buffer (createEngine's decodeUtf8): the text
// TextDecoder('utf-8') makes (U+FFFD for each invalid subpart, a leading BOM dropped; the same for
// 300 000 random byte strings), without a TextDecoder, whose first construction and decode in a
// process cost a cold `sbx run` ~0.16 ms against Buffer's ~0.04 ms (docs/architecture.md "A cold verdict").

export function utf8Text(b: Uint8Array): string {
  const s = Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}
