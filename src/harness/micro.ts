export const MICROS = [] as const;
export async function micro(_w: never, _o: string, _r?: number): Promise<string[]> { throw new Error('micro-experiments: not built yet'); }
