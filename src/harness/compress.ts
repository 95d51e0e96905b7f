// A line-level output compressor in the style of the output-shrinking tools agents put in front of
// their shell (drop noise lines, collapse repeats): no parsing, only lines and regular expressions.
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const NOISE = [
  /^\s*$/,
  /^\s*#\d+ 0x[0-9a-f]+ in (?:__libc_start|_start|__interceptor_|__asan_|__ubsan_)/, // runtime frames
  /^\s*#\d+ 0x[0-9a-f]+ +\(\/(?:lib|usr)\//, // frames in shared libraries without symbols
  /^\s*(?:=>)?0x[0-9a-f]+: (?:[0-9a-f]{2} |fa|fd|f[1-8] )/i, // ASan shadow bytes
  /^\s*(?:Addressable|Partially addressable|Heap left redzone|Freed heap region|Stack (?:left|mid|right) redzone|Stack after return|Stack use after scope|Global redzone|Global init order|Poisoned by user|Container overflow|Array cookie|Intra object redzone|ASan internal|Left alloca redzone|Right alloca redzone|Heap right redzone)\b/,
  /^Shadow byte(?:s around| legend)/,
  /^\s*(?:Compiling|Downloading|Finished|Fresh|Checking) /,
  /^-{10,}$|^={10,}$/,
];

export function compress(text: string): string {
  const lines = text
    .replace(ANSI, '')
    .split('\n')
    .filter((l) => !NOISE.some((re) => re.test(l)));
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const shape = mask(lines[i]!);
    let j = i + 1;
    while (j < lines.length && mask(lines[j]!) === shape) j++;
    out.push(lines[i]!);
    if (j - i > 1) out.push(`  ... (${j - i - 1} more similar line${j - i - 1 > 1 ? 's' : ''})`);
    i = j;
  }
  return out.join('\n');
}

const mask = (l: string): string => l.replace(/0x[0-9a-f]+/gi, 'H').replace(/\d+/g, 'N');
