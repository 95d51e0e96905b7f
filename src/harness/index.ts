// The experiment apparatus as a library (dist/harness.js), for tests and for scripts that drive it.
export { loadTasks, loadTask, materialize, protectedChanged, changedLines, defaultTasksDir, editableFiles, sourceTree } from './tasks.js';
export { prepareTask, prepareTasks } from './setup.js';
export { pristineWithEdits, changedDuringRerun, tampering } from './judge.js';
export type { Tamper } from './judge.js';
export { workPath } from './workpath.js';
export type { Task } from './tasks.js';
export { validateTask } from './validate.js';
export { ALL_CONDITIONS, BASE_CONDITIONS, parseCondition, show, runToolDescription, TOOL_RESULTS } from './conditions.js';
export { claudeBash, codexExec, geminiShell } from './client-truncation.js';
export { compress } from './compress.js';
export { corruptLine, corruptKind, faultOf } from './corrupt.js';
export { runEpisode, episodeKey, maskTimings } from './episode.js';
export type { EpisodeRecord, EpisodeOptions } from './episode.js';
export { createBackend } from './backends/index.js';
export { limitParam } from './backends/openai.js';
export { scriptedBackend, namedLines, POLICIES } from './backends/scripted.js';
export { CHEATS } from './backends/cheats.js';
export { recording, replaying } from './backends/record.js';
export { plan, parseShard, shardOf, recordedKeys } from './plan.js';
export { experiment } from './experiment.js';
export { analyze, readEpisodes } from './analyze.js';
export { wilson, mcnemarExact, pairedBootstrap, prng } from './stats.js';
export { figures, figureSpecs, svgOf } from './figures.js';
export { costUsd } from './cost.js';
/** For `sbx tasks`: the task loader and validator, loaded on first use (the CLI bundles nothing else of the harness). */
export const harnessTasks = async () => {
  const [t, v] = await Promise.all([import('./tasks.js'), import('./validate.js')]);
  return { loadTasks: t.loadTasks, defaultTasksDir: t.defaultTasksDir, validateTask: v.validateTask };
};
