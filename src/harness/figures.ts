// `experiment figures`: the study's figures as SVG, rendered in Node by vega-lite → vega (headless
// View, no browser, no canvas): success with CIs, tokens, turns, shown vs raw, the task matrix, and
// the steering figure (where the first edits landed against the fix locus, the decoy and the crash line).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EpisodeRecord } from './episode.js';
import { conditionsOf, rawChars } from './analyze.js';
import { mean, wilson } from './stats.js';

type Spec = Record<string, unknown>;

export async function svgOf(spec: Spec): Promise<string> {
  const vl = await import('vega-lite');
  const vega = await import('vega');
  const compiled = vl.compile(spec as never).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

const base = (title: string): Spec => ({ $schema: 'https://vega.github.io/schema/vega-lite/v6.json', title, config: { font: 'sans-serif', view: { stroke: null } }, background: 'white' });

export function figureSpecs(eps: readonly EpisodeRecord[]): Record<string, Spec> {
  const conds = conditionsOf(eps);
  const models = [...new Set(eps.map((e) => e.model))].sort();
  const per = conds
    .flatMap((c) =>
      models.map((m) => {
        const g = eps.filter((e) => e.condition === c && e.model === m);
        const k = g.filter((e) => e.success).length;
        const [lo, hi] = wilson(k, g.length);
        return {
          condition: c,
          model: m,
          n: g.length,
          success: g.length ? k / g.length : 0,
          lo,
          hi,
          input_tokens: mean(g.map((e) => e.tokens.input + e.tokens.cache_read + e.tokens.cache_write)),
          turns: mean(g.map((e) => e.api_turns)),
          runs: mean(g.map((e) => e.run_calls)),
        };
      }),
    )
    .filter((r) => r.n > 0);
  const x = { field: 'condition', type: 'nominal', sort: conds, axis: { labelAngle: -35 } };
  const success: Spec = {
    ...base('Success rate by condition (Wilson 95 % CI)'),
    data: { values: per },
    width: 420,
    height: 240,
    layer: [
      {
        mark: { type: 'point', filled: true, size: 60 },
        encoding: {
          x,
          xOffset: { field: 'model' },
          y: { field: 'success', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '%' }, title: 'success' },
          color: { field: 'model', type: 'nominal' },
        },
      },
      { mark: 'rule', encoding: { x, xOffset: { field: 'model' }, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color: { field: 'model', type: 'nominal' } } },
    ],
  };
  const bar = (field: string, title: string): Spec => ({
    ...base(title),
    data: { values: per },
    width: 420,
    height: 240,
    mark: 'bar',
    encoding: { x, xOffset: { field: 'model' }, y: { field, type: 'quantitative', title }, color: { field: 'model', type: 'nominal' } },
  });
  const scatter: Spec = {
    ...base('Characters shown vs raw characters produced (per episode)'),
    data: { values: eps.filter((e) => rawChars(e) > 0).map((e) => ({ condition: e.condition, raw: rawChars(e), shown: Math.max(1, e.shown_chars), task: e.task })) },
    width: 420,
    height: 300,
    mark: { type: 'point', opacity: 0.7 },
    encoding: {
      x: { field: 'raw', type: 'quantitative', scale: { type: 'log' }, title: 'raw chars' },
      y: { field: 'shown', type: 'quantitative', scale: { type: 'log' }, title: 'chars shown' },
      color: { field: 'condition', type: 'nominal', sort: conds },
      tooltip: [{ field: 'task' }],
    },
  };
  const tasks = [...new Set(eps.map((e) => e.task))].sort();
  const matrix: Spec = {
    ...base('Success by task and condition'),
    data: {
      values: models
        .flatMap((m) =>
          tasks.flatMap((t) =>
            conds.map((c) => {
              const g = eps.filter((e) => e.model === m && e.task === t && e.condition === c);
              return { model: m, task: t, condition: c, success: g.length ? g.filter((e) => e.success).length / g.length : null };
            }),
          ),
        )
        .filter((r) => r.success !== null),
    },
    facet: { column: { field: 'model', type: 'nominal', title: null } },
    spec: {
      mark: 'rect',
      width: { step: 22 },
      height: { step: 16 },
      encoding: { x, y: { field: 'task', type: 'nominal', title: null }, color: { field: 'success', type: 'quantitative', scale: { domain: [0, 1], scheme: 'blues' }, legend: { format: '%' } } },
    },
  };
  // Steering: per task (one panel each, its own line axis), the fix locus, the decoy and the crash line,
  // and where each arm's first edit of the fix file landed.
  const refs = tasks.flatMap((t) => {
    const e = eps.find((x) => x.task === t)!;
    const rows = [{ task: t, row: 'task', what: 'fix locus', line: e.fix.lines[0] }];
    if (e.decoy) rows.push({ task: t, row: 'task', what: 'decoy', line: e.decoy.line });
    const f = eps.find((x) => x.task === t && x.fault)?.fault;
    if (f && f.file === e.fix.file) rows.push({ task: t, row: 'task', what: 'crash line', line: f.line });
    return rows;
  });
  const edits = eps.flatMap((e) =>
    e.first_edit && e.first_edit.file === e.fix.file && e.first_edit.lines.length ? [{ task: e.task, row: e.condition, what: 'first edit', line: e.first_edit.lines[0]! }] : [],
  );
  const steering: Spec = {
    ...base('Steering: first edits against the fix locus, the decoy and the crash line'),
    data: { values: [...refs, ...edits] },
    facet: { row: { field: 'task', type: 'nominal', title: null, header: { labelAngle: 0, labelAlign: 'left' } } },
    spec: {
      width: 360,
      height: { step: 12 },
      mark: { type: 'point', filled: true, size: 60, opacity: 0.85 },
      encoding: {
        y: { field: 'row', type: 'nominal', title: null, sort: ['task', ...conds] },
        x: { field: 'line', type: 'quantitative', title: 'line in the fix file', scale: { zero: false } },
        shape: { field: 'what', type: 'nominal', scale: { domain: ['fix locus', 'decoy', 'crash line', 'first edit'], range: ['diamond', 'cross', 'triangle-up', 'circle'] } },
        color: { field: 'what', type: 'nominal', scale: { domain: ['fix locus', 'decoy', 'crash line', 'first edit'], range: ['#2ca02c', '#d62728', '#ff7f0e', '#1f77b4'] } },
      },
    },
    resolve: { scale: { x: 'independent', y: 'independent' } },
  };
  return {
    success,
    tokens: bar('input_tokens', 'Mean input tokens per episode'),
    turns: bar('turns', 'Mean API turns per episode'),
    'shown-vs-raw': scatter,
    'task-matrix': matrix,
    steering,
  };
}

export async function figures(eps: readonly EpisodeRecord[], outDir: string): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const files: string[] = [];
  for (const [name, spec] of Object.entries(figureSpecs(eps))) {
    const f = join(outDir, `${name}.svg`);
    writeFileSync(f, await svgOf(spec));
    files.push(f);
  }
  return files;
}
