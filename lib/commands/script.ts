/**
 * Command scripts (`.bxs` files, EXECUTE, POST `<commands>`): XML syntax when the text starts
 * with `<`, otherwise the string syntax (spec §15.1, §15.2).
 */
import { parseCommands } from './parse';
import type { Command } from './types';
import { parseXmlCommands } from './xml-syntax';

export { parseXmlCommands, elementSyntax } from './xml-syntax';

/** Parses a script in either syntax; an empty script has no commands. */
export function parseScript(text: string): Command[] {
  const input = text.trim();
  return input.startsWith('<') ? parseXmlCommands(input) : parseCommands(input);
}
