/**
 * Help texts of the string syntax's keywords (HELP, and the `Syntax:` of a malformed command),
 * built from the command table: a command with a keyword of its own carries its help; a keyword
 * that several commands share (CREATE DB, CREATE USER …) has its header here and one detail line
 * from each of its commands. Written for this project; the syntax lines follow spec §15.1
 * (`[x]` required, `(x)` optional).
 */
import type { AnyCommandDef, KeywordHelp, Syntax } from './definition';

/** Keywords that several commands share, with the word after them naming the command. */
export const KEYWORD_FAMILIES: Readonly<Record<string, KeywordHelp>> = {
  ALTER: { syntax: '[BACKUP|DB|PASSWORD|USER] [...]', summary: 'Rename a database, backup or user, or change a password.' },
  BINARY: { syntax: '[GET|PUT] [...]', summary: 'Read or write a binary resource of the opened database.' },
  CREATE: { syntax: '[BACKUP|DB|INDEX|USER] [...]', summary: 'Create a backup, database, index or user.' },
  DROP: { syntax: '[BACKUP|DB|INDEX|USER] [...]', summary: 'Drop a backup, database, index or user.' },
  INFO: { syntax: '([DB|INDEX|STORAGE])', summary: 'Show information on the server or the opened database.' },
  JOBS: { syntax: '[LIST|RESULT|STOP] ([id])', summary: 'List, stop or collect background jobs.' },
  REPO: { syntax: '[DELETE|INSTALL|LIST] [...]', summary: 'Manage the package repository.' },
  SHOW: { syntax: '[BACKUPS|OPTIONS|SESSIONS|USERS] [...]', summary: 'Show backups, options, sessions or users.' },
};

export function isFamily(keyword: string): boolean {
  return Object.prototype.hasOwnProperty.call(KEYWORD_FAMILIES, keyword);
}

export interface HelpTopic {
  readonly help: KeywordHelp;
  /** An older keyword (REPLACE, RETRIEVE, STORE): HELP does not list it. */
  readonly legacy: boolean;
}

/** The first word after a family keyword ('' for the keyword alone, which sorts first). */
function subWord(s: Syntax): string {
  return s.words.length === 1 ? '' : s.words[1][0];
}

/** The help topics of a command table, by upper-case keyword, in alphabetical order. */
export function helpTopics(defs: readonly AnyCommandDef[]): ReadonlyMap<string, HelpTopic> {
  const syntaxes: Syntax[] = defs.flatMap((d) => d.syntax as readonly Syntax[]);
  const topics = new Map<string, HelpTopic>();
  for (const s of syntaxes) {
    if (s.words.length === 1 && s.help !== undefined && !isFamily(s.words[0])) {
      topics.set(s.words[0], { help: s.help, legacy: s.legacy === true });
    }
  }
  for (const [keyword, header] of Object.entries(KEYWORD_FAMILIES)) {
    const members = syntaxes.filter((s) => s.words[0] === keyword).sort((a, b) => (subWord(a) < subWord(b) ? -1 : 1));
    const details = members.flatMap((s) => (s.detail === undefined ? [] : [s.detail]));
    topics.set(keyword, { help: { ...header, details }, legacy: false });
  }
  return new Map([...topics].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * Help text of one keyword: `KEYWORD syntax`, then the summary indented by two spaces; with
 * `detailed`, an empty line and the details follow. Each line ends with a newline.
 */
export function formatHelp(keyword: string, h: KeywordHelp, detailed: boolean): string {
  let s = `${h.syntax ? `${keyword} ${h.syntax}` : keyword}\n  ${h.summary}\n`;
  const details = h.details ?? [];
  if (detailed && details.length > 0) s += `\n${details.map((d) => `${d}\n`).join('')}`;
  return s;
}
