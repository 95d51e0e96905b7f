// One engine instance per process, created on first use.
import { createEngine, type Engine } from '../engine/engine.js';

let engine: Promise<Engine> | null = null;

export function loadEngine(): Promise<Engine> {
  engine ??= createEngine();
  return engine;
}
