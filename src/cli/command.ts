// What a command is: citty's CommandDef (its meta and args also make the --help text). Commands are
// defined here rather than with citty's defineCommand so that a cold `sbx run` does not load citty:
// start.ts reads the flags (flags.ts) and calls run() itself; citty renders help when asked.
import type { ArgsDef, CommandDef } from 'citty';

export type { CommandDef };

export const defineCommand = <T extends ArgsDef>(def: CommandDef<T>): CommandDef<T> => def;
