// The experiment apparatus as a library (dist/harness.js), for tests and for scripts that drive it.
export { loadTasks, loadTask, materialize, protectedChanged, changedLines, defaultTasksDir } from './tasks.js';
export type { Task } from './tasks.js';
export { validateTask } from './validate.js';
export { ALL_CONDITIONS, BASE_CONDITIONS, parseCondition, show, truncateMiddle, truncateHeadTail, runToolDescription } from './conditions.js';
export { compress } from './compress.js';
export { corruptLine, corruptKind, faultOf } from './corrupt.js';
export { runEpisode, episodeKey, maskTimings } from './episode.js';
export type { EpisodeRecord, EpisodeOptions } from './episode.js';
export { createBackend } from './backends/index.js';
export { scriptedBackend, namedLines } from './backends/scripted.js';
export { recording, replaying } from './backends/record.js';
export { plan, parseShard, shardOf, recordedKeys } from './plan.js';
export { experiment } from './experiment.js';
export { analyze, readEpisodes } from './analyze.js';
export { wilson, mcnemarExact, pairedBootstrap, prng } from './stats.js';
export { figures, figureSpecs, svgOf } from './figures.js';
export { costUsd } from './cost.js';
