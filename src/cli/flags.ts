// A command's flags, checked by sbx and read by citty's parseArgs. citty ignores a flag it does not know
// (`--timout 1` would run with no timeout at all) and reads some of sbx's otherwise than sbx means them
// (`--no-seccomp` as seccomp=false, the first of `--no-json --json`, `--work -x`), so each flag is checked
// here first, the same one-line errors as before, and handed to citty in one plain form: `--name=value`,
// the last of a switch's forms, the positional args after `--`.
// Stops at `--`: what follows is the sandboxed command's, not ours. Help (--help, -h) is start.ts's.
import { parseArgs, type ArgsDef, type ParsedArgs } from 'citty';
import { SbxError } from '../contract/index.js';
import { closest } from './closest.js';

/**
 * The args a command's run() gets: `--name=V` and `--name V` for a string flag (the last one given wins),
 * `--name`, `--name=true|false` and `--no-name` for a switch (the last one wins), and in `_` every
 * argument that is not a flag, those after `--` included; positional args take `_` in order.
 * command: "sbx run"; usage: the usage line, for the hint after a stray argument.
 */
export function readFlags<T extends ArgsDef>(command: string, defs: T, rawArgs: readonly string[], usage?: string): ParsedArgs<T> {
  const { argv, given, values, args } = checkFlags(command, defs, rawArgs, usage);
  if (Object.values(defs).every((def) => def.type === 'positional' || def.type === 'string' || def.type === 'boolean')) return citty(defs, values, args) as ParsedArgs<T>;
  // citty reads the flags given (and the positional args), not every flag the command has: its work is per flag defined.
  const read = Object.fromEntries(Object.entries(defs).filter(([name, def]) => def.type === 'positional' || given.has(name)));
  // A plain copy: citty's Proxy would try two case conversions for each flag run() reads that was not given.
  return { ...parseArgs(argv, read) } as ParsedArgs<T>;
}

/**
 * What citty's parseArgs makes of the checked flags when they are strings, switches and positional args
 * (every command's now; an enum, with its own check, still goes through citty): each flag under its name
 * and its camelCase name, `_` and the positional args in order. citty reads through node:util's
 * parseArgs, whose first call in a process costs ~0.6 ms (its module loaded and compiled), every cold
 * `sbx run`; test/e2e/flags.test.js holds the two to the same answers.
 */
function citty(defs: ArgsDef, values: Map<string, string | boolean>, args: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { _: args };
  for (const [name, value] of values) out[name] = out[camel(name)] = value;
  let p = 0;
  for (const [name, def] of Object.entries(defs)) if (def.type === 'positional') out[name] = args[p++] ?? def.default;
  return out;
}

/**
 * name.replace(/-(\w)/g, (_, c) => c.toUpperCase()) (citty's camelCase of a flag), without the regex's
 * compile at a cold run's first flag: a '-' before a letter, digit or _ goes, the letter upper-cased.
 */
function camel(name: string): string {
  if (!name.includes('-')) return name;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i + 1);
    const word = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (name[i] === '-' && word) out += name[++i]!.toUpperCase();
    else out += name[i];
  }
  return out;
}

/** rawArgs checked against the command's flags, in the form citty reads as sbx means it, and the flags given; else the E_USAGE error. */
function checkFlags(command: string, defs: ArgsDef, rawArgs: readonly string[], usage?: string): { argv: string[]; given: Set<string>; values: Map<string, string | boolean>; args: string[] } {
  const strings = new Set<string>();
  const booleans = new Set<string>();
  const positional: string[] = [];
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === 'positional') positional.push(name);
    else if (def.type === 'boolean') booleans.add(name);
    else strings.add(name);
  }
  const hint = `(${command} --help)`;
  const unexpected = (arg: string) => {
    const how = usage ? `usage: ${usage}` : `${command} takes ${positional.length === 0 ? 'no arguments' : `${positional.length} argument${positional.length > 1 ? 's' : ''}`} besides flags`;
    return new SbxError('E_USAGE', `unexpected argument ${JSON.stringify(arg)} for ${command}: ${how} ${hint}`);
  };
  const values = new Map<string, string | boolean>();
  const args: string[] = [];
  let seen = 0;
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    if (arg === '--') {
      // A command with arguments takes them after `--` too (a name that starts with "-"); for one
      // without, like run, what follows is the sandboxed command, in rawArgs.
      for (const rest of rawArgs.slice(i + 1)) {
        if (positional.length > 0 && ++seen > positional.length) throw unexpected(rest);
        args.push(rest);
      }
      break;
    }
    if (arg === '-h') continue;
    if (!arg.startsWith('-') || arg === '-') {
      if (++seen > positional.length) throw unexpected(arg);
      args.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    const name = flag.startsWith('--') ? flag.slice(2) : '';
    if (strings.has(name)) {
      if (eq >= 0) {
        values.set(name, arg.slice(eq + 1));
        continue;
      }
      const value = rawArgs[i + 1];
      if (value === undefined || value === '--' || (value.startsWith('--') && isKnown(value, strings, booleans)))
        throw new SbxError('E_USAGE', `${arg} needs a value: give ${arg} VALUE or ${arg}=VALUE ${hint}`);
      values.set(name, value);
      i++;
    } else if (booleans.has(name)) {
      const value = eq >= 0 ? arg.slice(eq + 1) : 'true';
      if (value !== 'true' && value !== 'false') throw new SbxError('E_USAGE', `${arg}: ${flag} is a switch, it takes no value: give ${flag}, or ${flag}=false to turn it off ${hint}`);
      values.set(name, value === 'true');
    } else if (eq < 0 && name.startsWith('no-') && booleans.has(name.slice(3))) {
      values.set(name.slice(3), false);
    } else {
      const known = [...strings, ...booleans];
      const near = closest(name || flag.replace(/^-+/, ''), known);
      throw new SbxError('E_USAGE', `unknown flag ${flag} for ${command}: ${near ? `did you mean --${near}?` : `it takes ${known.map((k) => `--${k}`).join(', ') || 'no flags'}`} ${hint}`);
    }
  }
  // What must be there (the flag's description says what to give).
  let p = 0;
  for (const [name, def] of Object.entries(defs)) {
    if (def.type === 'positional') {
      if (args[p++] === undefined && def.required !== false) throw missing(command, name.toUpperCase(), def.description, hint);
    } else if (def.required === true && !values.has(name)) throw missing(command, `--${name}`, def.description, hint);
  }
  // citty reads `--no-x` as x=false: a flag whose own name starts with no- goes by its camelCase name, which citty also knows.
  const asCitty = (name: string) => (name.startsWith('no-') ? camel(name) : name);
  const argv = [...[...values].map(([name, value]) => (value === true ? `--${asCitty(name)}` : `--${asCitty(name)}=${String(value)}`)), '--', ...args];
  return { argv, given: new Set(values.keys()), values, args };
}

const missing = (command: string, what: string, description: string | undefined, hint: string) => new SbxError('E_USAGE', `missing ${what} for ${command}: ${description ?? 'see the help'} ${hint}`);

function isKnown(arg: string, strings: Set<string>, booleans: Set<string>): boolean {
  const name = arg.split('=')[0]!.slice(2);
  return strings.has(name) || booleans.has(name);
}
