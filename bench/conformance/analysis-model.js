// jenkinsci/analysis-model's parser tests as a conformance suite: per (parser, log) the issues their Java test
// asserts. An asserted issue with a file and a line is found when the verdict has a diagnostic (or a note under
// one) at the same file and line; the file matches when one path ends with the other ("./" dropped). A false
// error is an error diagnostic that none of the log's asserted issues explains: at a place where they assert
// only a warning, or, when every parser test of the log that reads that kind of line lists all its issues,
// at a place they do not list. An issue asserted without a file or line explains the error with its message.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const norm = (p) => String(p ?? '').replace(/\\/g, '/').replace(/^(\.\/)+/, '');
export const sameFile = (a, b) => {
  const x = norm(a); const y = norm(b);
  return x.length > 0 && y.length > 0 && (x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`));
};
const located = (i) => i.file && i.file !== '-' && i.line > 0;

export function analysisModelCases(dir) {
  const rows = readFileSync(join(dir, 'expectations.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const byLog = new Map();
  for (const r of rows) {
    if (!r.resource) continue;
    const name = r.resource.split('/').pop();
    const e = byLog.get(name) ?? { name, rows: [] };
    e.rows.push(r);
    byLog.set(name, e);
  }
  return [...byLog.values()].map((e) => ({ ...e, log: readFileSync(join(dir, 'resources', e.name)) }));
}

function allDiags(v) {
  const out = [];
  for (const d of v.diagnostics) { out.push(d); for (const n of d.notes ?? []) out.push(n); }
  return out;
}

/** Per log: per parser row the asserted located issues found / missed, and the false errors. */
export function scoreAnalysisModel(engine, c) {
  const v = engine.verdict(c.log, { exit: 1 }).verdict;
  const diags = allDiags(v);
  const rows = [];
  const expected = [];
  for (const r of c.rows) {
    const issues = r.issues.filter(located);
    expected.push(...issues);
    const missed = issues.filter((i) => !diags.some((d) => d.line === i.line && sameFile(d.file, i.file)));
    rows.push({ parser: r.parser, asserted: issues.length, unlocated: r.issues.length - issues.length, missed });
  }
  const all = c.rows.flatMap((r) => r.issues);
  const falseErrors = v.diagnostics.filter((d) => d.severity === 'error').filter((d) => {
    const here = expected.filter((i) => i.line === d.line && sameFile(d.file, i.file));
    if (here.length > 0) return here.every((i) => i.severity === 'warning');
    // An issue the test asserts without a file or line (`foo.so: undefined reference to 'x'`, `cannot find
    // -lMyLib`, or a line it does not check) is the error with the same message (and file, when both have one).
    if (all.some((i) => !located(i) && i.severity === 'error' && sameMessage(i.message, d.message)
      && (!i.file || i.file === '-' || !d.file || sameFile(d.file, i.file) || d.line == null))) return false;
    // Unlisted: false when every parser test of the log that reads this kind of line lists all its issues.
    const readers = c.rows.filter((r) => reads(r.parser, d));
    return readers.length > 0 && readers.every((r) => r.size === r.issues.length);
  });
  return { rows, falseErrors };
}

const unescape = (s) => String(s ?? '').replace(/&apos;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const squash = (s) => unescape(s).replace(/[`'‘’]/g, "'").replace(/\s+/g, ' ').trim();
const sameMessage = (a, b) => { const x = squash(a); const y = squash(b); return x.length > 0 && y.length > 0 && (x.includes(y) || y.includes(x)); };

/**
 * Whether a parser reads the line a diagnostic came from, so that its test's full list of issues says
 * something about it: the gcc4 compiler parser and the clang parsers read no linker lines (the GCC parser
 * and the gcc4 linker parser do); the clang-tidy parser reads only lines that end in a check name
 * (`[readability-x]`), not the compiler's (`[-Wflag]` or none); the go and cargo parsers only their tool's.
 */
function reads(parser, d) {
  const linker = d.tool === 'ld';
  switch (parser) {
    case 'GccParser': return !['go', 'golint', 'go-vet', 'rustc', 'clippy'].includes(d.tool);
    case 'Gcc4LinkerParser': return linker;
    case 'Gcc4CompilerParser': case 'ClangParser': return !linker && ['gcc', 'clang'].includes(d.tool);
    case 'ClangTidyParser': return ['gcc', 'clang'].includes(d.tool) && /\[[a-z][\w.-]*\]$/.test(d.message ?? '');
    case 'GoVetParser': case 'GoLintParser': return ['go', 'golint', 'go-vet'].includes(d.tool);
    case 'CargoClippyParser': return ['rustc', 'clippy'].includes(d.tool);
    default: return true;
  }
}
