#!/usr/bin/env node
// The experiment's command line (dist/experiment.js):
//   run [flags]            episodes → JSONL (the default when the first argument is a flag)
//   analyze FILE...        the study's tables as Markdown
//   figures FILE... --out DIR   SVG figures
//   micro startup|determinism|localization [--out DIR]
import { parseArgs } from 'node:util';
import { SbxError } from '../contract/index.js';

const USAGE = `usage: experiment [run] --model M[,M] [--conditions all|A,B] [--tasks all|ID,ID] [--seeds N] [--out FILE]
         [--budget N] [--max-api-calls N] [--run-before-edit] [--workers K] [--shard I/N]
         [--record DIR | --replay DIR] [--base-url URL] [--api-key KEY] [--temperature T] [--tasks-dir DIR]
       experiment analyze FILE... [--bootstrap N] [--seed S]
       experiment figures FILE... --out DIR
       experiment micro startup|determinism|localization [--out DIR] [--runs N]`;

async function main(argv: string[]): Promise<number> {
  const sub = argv[0] && !argv[0].startsWith('-') ? argv[0] : 'run';
  const rest = argv[0] === sub ? argv.slice(1) : argv;
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (sub === 'run') {
    const { values: v } = parseArgs({
      args: rest,
      strict: true,
      options: {
        model: { type: 'string' },
        conditions: { type: 'string', default: 'all' },
        tasks: { type: 'string', default: 'all' },
        seeds: { type: 'string', default: '1' },
        out: { type: 'string', default: 'results/episodes.jsonl' },
        budget: { type: 'string', default: '12' },
        'max-api-calls': { type: 'string' },
        'run-before-edit': { type: 'boolean', default: false },
        workers: { type: 'string', default: '1' },
        shard: { type: 'string' },
        record: { type: 'string' },
        replay: { type: 'string' },
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        temperature: { type: 'string' },
        'tasks-dir': { type: 'string' },
        'max-tokens': { type: 'string', default: '4096' },
        'no-progress': { type: 'boolean', default: false },
      },
    });
    if (!v.model)
      throw new SbxError('E_USAGE', 'no --model given: e.g. --model scripted:oracle, anthropic:claude-sonnet-4-20250514, openai:gpt-4.1 (with --base-url for vLLM or llama.cpp), ollama:qwen2.5-coder');
    const int = (name: string, s: string | undefined, min: number): number => {
      const n = Number(s);
      if (!Number.isInteger(n) || n < min) throw new SbxError('E_USAGE', `--${name} ${s}: give an integer >= ${min}`);
      return n;
    };
    const budget = int('budget', v.budget, 1);
    const { experiment } = await import('./experiment.js');
    const r = await experiment({
      models: v.model.split(',').filter(Boolean),
      conditions: v.conditions!.split(',').filter(Boolean),
      tasks: v.tasks === 'all' ? 'all' : v.tasks!.split(',').filter(Boolean),
      seeds: int('seeds', v.seeds, 1),
      out: v.out!,
      tasksDir: v['tasks-dir'],
      shard: v.shard,
      workers: int('workers', v.workers, 1),
      record: v.record,
      replay: v.replay,
      net: { apiKey: v['api-key'], baseURL: v['base-url'], temperature: v.temperature === undefined ? undefined : Number(v.temperature) },
      episode: {
        budget,
        maxApiCalls: v['max-api-calls'] ? int('max-api-calls', v['max-api-calls'], 1) : 2 * budget + 4,
        runBeforeEdit: Boolean(v['run-before-edit']),
        maxTokens: int('max-tokens', v['max-tokens'], 1),
      },
      progress: !v['no-progress'],
    });
    for (const [why, n] of r.setup) process.stderr.write(`experiment: note: ${n} episode(s) of ${why}\n`);
    process.stderr.write(`experiment: ${r.ran} episodes run, ${r.skipped} already recorded, ${r.failed} ended in an error → ${v.out}\n`);
    return r.failed ? 1 : 0;
  }
  if (sub === 'analyze') {
    const { values: v, positionals } = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: true,
      options: { bootstrap: { type: 'string', default: '2000' }, seed: { type: 'string', default: '1' } },
    });
    if (!positionals.length) throw new SbxError('E_USAGE', 'analyze needs the episode files: experiment analyze results/episodes.jsonl');
    const { analyze, readEpisodes } = await import('./analyze.js');
    process.stdout.write(analyze(readEpisodes(positionals), { bootstrap: Number(v.bootstrap), seed: Number(v.seed) }));
    return 0;
  }
  if (sub === 'figures') {
    const { values: v, positionals } = parseArgs({ args: rest, strict: true, allowPositionals: true, options: { out: { type: 'string', default: 'results/figures' } } });
    if (!positionals.length) throw new SbxError('E_USAGE', 'figures needs the episode files: experiment figures results/episodes.jsonl --out DIR');
    const { readEpisodes } = await import('./analyze.js');
    const { figures } = await import('./figures.js');
    const files = await figures(readEpisodes(positionals), v.out!);
    process.stdout.write(files.map((f) => `${f}\n`).join(''));
    return 0;
  }
  if (sub === 'micro') {
    const { values: v, positionals } = parseArgs({ args: rest, strict: true, allowPositionals: true, options: { out: { type: 'string', default: 'results/micro' }, runs: { type: 'string' } } });
    const which = positionals[0];
    const { micro, MICROS } = await import('./micro.js');
    if (!which || !(MICROS as readonly string[]).includes(which)) throw new SbxError('E_USAGE', `micro needs one of ${MICROS.join(', ')}: experiment micro startup`);
    const files = await micro(which as (typeof MICROS)[number], v.out!, v.runs ? Number(v.runs) : undefined);
    process.stdout.write(files.map((f) => `${f}\n`).join(''));
    return 0;
  }
  throw new SbxError('E_USAGE', `unknown experiment command ${JSON.stringify(sub)}: use run, analyze, figures or micro (--help)`);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  const e = err as { code?: string; message?: string };
  const usage = e.code === 'E_USAGE' || e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' || e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL';
  process.stderr.write(`experiment: ${(e.message ?? String(err)).split('\n')[0]}${usage && !(err instanceof SbxError) ? ' (--help)' : ''}\n`);
  process.exitCode = usage ? 2 : 1;
}
