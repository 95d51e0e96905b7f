// The part of cli-progress the experiment uses (the package ships no types).
declare module 'cli-progress' {
  export class SingleBar {
    constructor(opts: { format?: string; stream?: NodeJS.WritableStream }, preset?: unknown);
    start(total: number, value: number): void;
    increment(n?: number): void;
    stop(): void;
  }
  export const Presets: { shades_classic: unknown };
  const _default: { SingleBar: typeof SingleBar; Presets: typeof Presets };
  export default _default;
}
