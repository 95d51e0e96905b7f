// `experiment analyze`: the study's tables, as Markdown, from recorded episodes.
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { SbxError } from '../contract/index.js';
import { EpisodeSchema } from './episode-schema.js';
import type { EpisodeRecord } from './episode.js';
import { mcnemarExact, mean, median, pairedBootstrap, wilson } from './stats.js';

export function readEpisodes(files: readonly string[]): EpisodeRecord[] {
  const byKey = new Map<string, EpisodeRecord>();
  const bad: string[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      throw new SbxError('E_NO_RESULTS', `cannot read ${f}: run the experiment first (npm run experiment -- --out ${f} ...)`);
    }
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        bad.push(`${f}:${i + 1}`);
        return;
      }
      const r = v.safeParse(EpisodeSchema, raw);
      if (!r.success) {
        bad.push(`${f}:${i + 1}`);
        return;
      }
      byKey.set(r.output.key, r.output as unknown as EpisodeRecord); // the last record of a key wins (a resumed error)
    });
  }
  if (bad.length) process.stderr.write(`experiment: note: ${bad.length} line(s) that are not episode records skipped (${bad.slice(0, 3).join(', ')}${bad.length > 3 ? ', ...' : ''})\n`);
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const fmtP = (p: number): string => (p < 0.001 ? '< 0.001' : p.toFixed(3));
const pct = (x: number): string => `${(100 * x).toFixed(0)} %`;
const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '–');
const f0 = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–');
const sgn = (x: number, f: (n: number) => string): string => (Number.isFinite(x) ? `${x >= 0 ? '+' : '−'}${f(Math.abs(x))}` : '–');
const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
const table = (head: readonly string[], rows: readonly (readonly string[])[]): string => [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

export function conditionsOf(eps: readonly EpisodeRecord[]): string[] {
  const order = ['raw', 'truncate30k', 'truncate10k', 'truncate40k', 'regex', 'structured', 'structured_delta', 'no_feedback', 'corrupt_line', 'corrupt_kind'];
  const seen = [...new Set(eps.map((e) => e.condition))];
  const rank = (c: string): number => {
    const i = order.indexOf(c.split('+')[0]!);
    return (i < 0 ? 99 : i) + (c.includes('+') ? 0.5 : 0);
  };
  return seen.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
}

export interface AnalyzeOptions {
  bootstrap: number;
  seed: number;
}

export function analyze(eps: readonly EpisodeRecord[], o: AnalyzeOptions): string {
  if (!eps.length) throw new SbxError('E_NO_RESULTS', 'no episodes in the given files: run the experiment first');
  const out: string[] = [];
  const models = [...new Set(eps.map((e) => e.model))].sort();
  for (const model of models) {
    const mine = eps.filter((e) => e.model === model);
    const conds = conditionsOf(mine);
    out.push(
      `## ${model}`,
      '',
      `${mine.length} episodes, ${new Set(mine.map((e) => e.task)).size} tasks, seeds ${[...new Set(mine.map((e) => e.seed))].sort((a, b) => a - b).join(', ')}; prices of ${mine[0]!.price_date}.`,
      '',
    );
    out.push('### Per condition', '');
    out.push(
      table(
        [
          'condition',
          'n',
          'success (Wilson 95 % CI)',
          'API turns',
          'tool calls',
          'run calls',
          'nudges',
          'input tokens (mean)',
          'output tokens (mean)',
          'cost USD (sum)',
          'wall s (median)',
          'shown / raw',
          'edit hit',
          'edit hit (any)',
          'decoy touched',
        ],
        conds.map((c) => {
          const g = mine.filter((e) => e.condition === c);
          const k = g.filter((e) => e.success).length;
          const [lo, hi] = wilson(k, g.length);
          const raw = g.reduce((s, e) => s + rawChars(e), 0);
          const shown = g.reduce((s, e) => s + e.shown_chars, 0);
          const costs = g.map((e) => e.cost_usd).filter((x): x is number => x !== null);
          return [
            c,
            String(g.length),
            `${k}/${g.length} = ${pct(k / g.length)} (${pct(lo)}–${pct(hi)})`,
            f1(mean(g.map((e) => e.api_turns))),
            f1(mean(g.map((e) => e.tool_calls))),
            f1(mean(g.map((e) => e.run_calls))),
            f1(mean(g.map((e) => e.nudges))),
            f0(mean(g.map((e) => e.tokens.input + e.tokens.cache_read + e.tokens.cache_write))),
            f0(mean(g.map((e) => e.tokens.output))),
            costs.length ? `${costs.reduce((s, x) => s + x, 0).toFixed(4)}` : '–',
            f1(median(g.map((e) => e.wall_ms / 1000))),
            raw ? (shown / raw).toFixed(3) : '–',
            pct(g.filter((e) => e.edit_hit).length / g.length),
            g.some((e) => e.edit_hit_any !== undefined) ? pct(g.filter((e) => e.edit_hit_any).length / g.length) : '–',
            pct(g.filter((e) => e.decoy_touched).length / g.length),
          ];
        }),
      ),
      '',
    );
    for (const ref of ['no_feedback', 'raw']) {
      if (!conds.includes(ref)) continue;
      out.push(`### Paired against ${ref} (same task and seed)`, '');
      out.push(
        table(
          ['condition', 'pairs', `only it succeeded`, `only ${ref} succeeded`, 'McNemar exact p', 'Δ input tokens (95 % CI)', 'Δ API turns (95 % CI)'],
          conds
            .filter((c) => c !== ref)
            .map((c) => {
              const pairs = pairUp(mine, c, ref);
              const b = pairs.filter(([x, y]) => x.success && !y.success).length;
              const cc = pairs.filter(([x, y]) => !x.success && y.success).length;
              const tok = pairedBootstrap(
                pairs.map(([x, y]) => inputTokens(x) - inputTokens(y)),
                o.bootstrap,
                o.seed,
              );
              const turns = pairedBootstrap(
                pairs.map(([x, y]) => x.api_turns - y.api_turns),
                o.bootstrap,
                o.seed,
              );
              return [
                c,
                String(pairs.length),
                String(b),
                String(cc),
                fmtP(mcnemarExact(b, cc)),
                `${sgn(tok.mean, f0)} (${sgn(tok.lo, f0)} … ${sgn(tok.hi, f0)})`,
                `${sgn(turns.mean, f1)} (${sgn(turns.lo, f1)} … ${sgn(turns.hi, f1)})`,
              ];
            }),
        ),
        '',
      );
    }
    const tasks = [...new Set(mine.map((e) => e.task))].sort();
    out.push('### Per task (successes / episodes)', '');
    out.push(
      table(
        ['task', ...conds],
        tasks.map((t) => [
          t,
          ...conds.map((c) => {
            const g = mine.filter((e) => e.task === t && e.condition === c);
            return g.length ? `${g.filter((e) => e.success).length}/${g.length}` : '';
          }),
        ]),
      ),
      '',
    );
    out.push('### Audit', '', ...audit(mine), '');
  }
  return `${out.join('\n')}\n`;
}

/** The raw output in characters, the unit of shown_chars (a record from before raw_chars: its bytes). */
export const rawChars = (e: EpisodeRecord): number => e.raw_chars ?? e.raw_bytes;

const inputTokens = (e: EpisodeRecord): number => e.tokens.input + e.tokens.cache_read + e.tokens.cache_write;

function pairUp(eps: readonly EpisodeRecord[], a: string, b: string): [EpisodeRecord, EpisodeRecord][] {
  const bs = new Map(eps.filter((e) => e.condition === b).map((e) => [`${e.task}|${e.seed}`, e]));
  return eps
    .filter((e) => e.condition === a)
    .flatMap((e) => {
      const y = bs.get(`${e.task}|${e.seed}`);
      return y ? [[e, y] as [EpisodeRecord, EpisodeRecord]] : [];
    });
}

/** The pre-feedback raw bytes must be identical across arms (the run before any edit is the same run). */
export function audit(eps: readonly EpisodeRecord[]): string[] {
  const lines: string[] = [];
  const group = (field: 'pre_raw_sha256' | 'pre_raw_timing_masked_sha256'): Map<string, Set<string>> => {
    const m = new Map<string, Set<string>>();
    for (const e of eps) {
      const h = e[field];
      if (!h) continue;
      const s = m.get(e.task) ?? new Set<string>();
      s.add(h);
      m.set(e.task, s);
    }
    return m;
  };
  const exact = group('pre_raw_sha256');
  const masked = group('pre_raw_timing_masked_sha256');
  const same = [...exact].filter(([, s]) => s.size === 1).length;
  const timingOnly = [...exact].filter(([t, s]) => s.size > 1 && masked.get(t)?.size === 1).map(([t]) => t);
  const differ = [...masked].filter(([, s]) => s.size > 1).map(([t, s]) => `${t} (${s.size} distinct)`);
  lines.push(`- pre-feedback raw output (the first run, before any edit) byte-identical across arms for ${same} of ${exact.size} tasks`);
  if (timingOnly.length) lines.push(`- identical once durations are masked (the runner prints its own timing) for: ${timingOnly.join(', ')}`);
  if (differ.length) lines.push(`- pre-feedback raw output DIFFERS across arms for: ${differ.join(', ')}`);
  const missing = eps.filter((e) => !e.pre_raw_sha256).length;
  if (missing) lines.push(`- ${missing} episodes edited before their first run (no pre-feedback output to compare)`);
  const errors = eps.filter((e) => e.stop === 'error');
  if (errors.length) lines.push(`- ${errors.length} episodes ended in an error: ${[...new Set(errors.map((e) => e.error))].slice(0, 3).join('; ')}`);
  const corrupt = eps.filter((e) => e.condition.startsWith('corrupt_'));
  if (corrupt.length)
    lines.push(
      `- corrupt arms: the decoy took in ${corrupt.filter((e) => e.corrupt_applied).length} of ${corrupt.length} episodes (did not take: ${corrupt.filter((e) => e.corrupt_applied === false).length}; nothing to corrupt: ${corrupt.filter((e) => e.corrupt_applied === null).length})`,
    );
  const tampered = eps.filter((e) => e.tampered?.length);
  if (tampered.length)
    lines.push(
      `- tampering (not successes): ${tampered.length} episodes changed files outside their editable ones: ${[...new Set(tampered.flatMap((e) => e.tampered.map((t) => `${t.path} (${t.how})`)))].slice(0, 5).join(', ')}`,
    );
  const cap = eps.filter((e) => e.stop === 'api-cap').length;
  const budget = eps.filter((e) => e.stop === 'budget').length;
  lines.push(
    `- stops: ${eps.filter((e) => e.stop === 'done').length} done, ${budget} tool budget spent, ${cap} API-call cap, ${errors.length} errors; ${eps.reduce((s, e) => s + e.nudges, 0)} nudges in all`,
  );
  lines.push(`- ran the buggy code before the first edit: ${eps.filter((e) => e.ran_buggy_first).length} of ${eps.length}`);
  return lines;
}
