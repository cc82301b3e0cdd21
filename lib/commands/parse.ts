/**
 * The string syntax of commands (spec §15.1). Keywords are case-insensitive; several commands are
 * separated by `;` or, in scripts, by newlines; lines starting with `#` are comments. Arguments:
 *
 * - names (databases, users, options): database-name characters only (`.` not first or last);
 *   glob patterns add `*`, `?` and `,`;
 * - strings (paths, files, passwords): up to the next space or `;`, or enclosed in double quotes
 *   (which may hold spaces and `;`);
 * - the rest of the line (XQUERY, ADD, PUT, CREATE DB input, BINARY PUT, SET value, EXECUTE, FIND):
 *   everything up to the end of the line, `;` included; except for XQUERY, one leading and one
 *   trailing double quote are removed.
 *
 * There is no multi-line form: in a script each line is parsed on its own (use the XML syntax for
 * multi-line queries). A single command (`parseSingleCommand`) is one "line", newlines included.
 * Each command's keywords and arguments are in its entry of the command table (registry.ts).
 */
import type { ArgReader, Syntax } from './definition';
import { commandError } from './messages';
import { ParseCursor } from './parse-cursor';
import { DOCUMENTED_KEYWORDS, KEYWORDS } from './registry';
import type { Command } from './types';
import { parseXmlCommands } from './xml-syntax';

export { similarKeyword } from './parse-cursor';

/** Top-level keywords, including the legacy names that map to newer commands. */
const ALL_KEYWORDS = [...KEYWORDS.keys()];

/** The words that may follow each shared keyword (CREATE: BACKUP, DATABASE, DB …), sorted. */
const NEXT_WORDS = new Map([...KEYWORDS].map(([k, s]) => [k, [...s.next.keys()].sort()]));

/** Parses the commands of one line (or of a whole single-command input). */
class LineParser extends ParseCursor {
  /** Parses the "Line" rule: commands separated by `;`. */
  parseLine(out: Command[]): void {
    while (this.more()) {
      const keyword = this.parseKeyword(ALL_KEYWORDS, DOCUMENTED_KEYWORDS, undefined);
      if (keyword !== undefined) out.push(this.parseCommand(keyword));
      this.skipWs();
      if (this.more()) {
        if (this.curr() !== ';') throw this.syntax(keyword ?? '');
        this.pos++;
      }
    }
  }

  /** Parses the "Command" rule: the word naming a command of a shared keyword, then the arguments. */
  private parseCommand(keyword: string): Command {
    const entry = KEYWORDS.get(keyword);
    if (entry === undefined) throw commandError('UNKNOWN_TRY_X', keyword);
    let syntax: Syntax | undefined = entry.alone;
    if (entry.next.size > 0) {
      const words = NEXT_WORDS.get(keyword) ?? [];
      const next = this.parseKeyword(words, words, keyword, entry.alone !== undefined);
      if (next !== undefined) syntax = entry.next.get(next);
    }
    if (syntax === undefined) throw this.syntax(keyword);
    return syntax.parse(this.args(keyword));
  }

  /** The argument parsers for the command of `parent` (whose help a syntax error shows). */
  private args(parent: string): ArgReader {
    return {
      name: (glob = false) => this.parseName(parent, glob),
      reqName: (glob = false) => this.reqName(parent, glob),
      string: () => this.parseString(),
      reqString: () => this.reqString(parent),
      rest: (quotes) => this.parseRest(quotes),
      reqRest: (quotes) => this.req(this.parseRest(quotes), parent),
      key: (word, required) => this.parseKey(word, parent, required),
      keyword: (choices, optional) => this.parseKeyword(choices, choices, parent, optional),
      number: () => this.parseNumber(parent),
    };
  }
}

/** Parses a script in string syntax: one or more commands per line, `#` comment lines. */
export function parseCommands(text: string): Command[] {
  const out: Command[] = [];
  for (const raw of text.split(/\r\n?|\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    new LineParser(line).parseLine(out);
  }
  return out;
}

/**
 * Parses exactly one command, in string syntax or (input starting with `<`) XML syntax: the
 * REST `command` operation. No command, or more than one, is an error.
 */
export function parseSingleCommand(text: string): Command {
  const input = text.trim();
  let cmds: Command[];
  if (input.startsWith('<')) {
    cmds = parseXmlCommands(input);
  } else {
    cmds = [];
    if (input !== '' && !input.startsWith('#')) new LineParser(input).parseLine(cmds);
  }
  if (cmds.length !== 1) throw commandError('SINGLE_CMD');
  return cmds[0];
}
