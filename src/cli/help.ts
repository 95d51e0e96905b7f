// `--help`: citty's usage text, plain unless stdout is a terminal that wants colour (NO_COLOR, TERM=dumb
// and pipes get no escape codes), with the command's own usage line when it has one (`-- CMD ARGS...`).
import { isatty } from 'node:tty';
import { renderUsage, type CommandDef } from 'citty';
import { writeOut } from './closed-pipe.js';

/** Extra fields sbx commands put in their meta: a usage line citty cannot derive from the args. */
export interface HelpMeta {
  usage?: string;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

export function colourWanted(fd = 1): boolean {
  return isatty(fd) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
}

export async function helpText(cmd: CommandDef<any>, parent?: CommandDef<any>): Promise<string> {
  const colour = colourWanted();
  let text = await renderUsage(cmd, parent);
  if (!colour) text = text.replace(ANSI, '');
  const meta = (typeof cmd.meta === 'function' ? await cmd.meta() : await cmd.meta) as HelpMeta | undefined;
  if (meta?.usage) {
    const usage = colour ? `\u001b[4m\u001b[1mUSAGE\u001b[22m\u001b[24m \u001b[36m${meta.usage}\u001b[39m` : `USAGE ${meta.usage}`;
    text = text.replace(/^.*USAGE.*$/m, usage);
  }
  return `${text.replace(/[ \t]+$/gm, '')}\n`;
}

export async function showHelp(cmd: CommandDef<any>, parent?: CommandDef<any>): Promise<void> {
  writeOut(`${await helpText(cmd, parent)}\n`);
}
