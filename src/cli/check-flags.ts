// Rejects what a command does not define before it runs: citty ignores unknown flags, so `--timout 1`
// would run with no timeout at all. Suggests the nearest known flag. Stops at `--`: what follows is
// the sandboxed command's, not ours.
import type { ArgsDef } from 'citty';
import { SbxError } from '../contract/errors.js';
import { closest } from './closest.js';

/** command: "sbx run"; usage: the usage line, for the hint after a stray argument. */
export function checkFlags(command: string, defs: ArgsDef, rawArgs: readonly string[], usage?: string): void {
  const strings = new Set<string>();
  const booleans = new Set<string>(['help']);
  let positionals = 0;
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === 'positional') positionals++;
    else if (def.type === 'boolean') booleans.add(name);
    else strings.add(name);
  }
  const known = [...strings, ...booleans];
  const hint = `(${command} --help)`;
  let seen = 0;
  const given = new Set<string>();
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    if (arg === '--') break;
    if (arg === '-h') continue;
    if (!arg.startsWith('-') || arg === '-') {
      if (++seen > positionals) {
        const how = usage ? `usage: ${usage}` : `${command} takes ${positionals === 0 ? 'no arguments' : `${positionals} argument${positionals > 1 ? 's' : ''}`} besides flags`;
        throw new SbxError('E_USAGE', `unexpected argument ${JSON.stringify(arg)} for ${command}: ${how} ${hint}`);
      }
      continue;
    }
    const eq = arg.indexOf('=');
    const name = (eq >= 0 ? arg.slice(0, eq) : arg).replace(/^--?/, '');
    if (strings.has(name)) {
      given.add(name);
      if (eq >= 0) continue;
      const value = rawArgs[i + 1];
      if (value === undefined || value === '--' || (value.startsWith('--') && isKnown(value, strings, booleans)))
        throw new SbxError('E_USAGE', `${arg} needs a value: give ${arg} VALUE or ${arg}=VALUE ${hint}`);
      i++;
      continue;
    }
    if (booleans.has(name) || (name.startsWith('no-') && booleans.has(name.slice(3)))) continue;
    const near = closest(name, known);
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    throw new SbxError('E_USAGE', `unknown flag ${flag} for ${command}: ${near ? `did you mean --${near}?` : `it takes ${known.filter((k) => k !== 'help').map((k) => `--${k}`).join(', ') || 'no flags'}`} ${hint}`);
  }
  // What must be there (citty's own message would not say what to give).
  let positional = 0;
  for (const [name, def] of Object.entries(defs)) {
    const missing = def.type === 'positional' ? def.required !== false && ++positional > seen : def.required === true && !given.has(name);
    if (missing) throw new SbxError('E_USAGE', `missing ${def.type === 'positional' ? name.toUpperCase() : `--${name}`} for ${command}: ${def.description ?? 'see the help'} ${hint}`);
  }
}

function isKnown(arg: string, strings: Set<string>, booleans: Set<string>): boolean {
  const name = arg.split('=')[0]!.slice(2);
  return strings.has(name) || booleans.has(name);
}
