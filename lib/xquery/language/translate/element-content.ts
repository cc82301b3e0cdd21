/**
 * The content of a direct element constructor as runs (XQuery 3.1 §3.9.1.3): adjacent character
 * data (element content characters and CDATA sections) makes one text run; boundary whitespace
 * counts only under `declare boundary-space preserve`. Every other item (an enclosed expression,
 * a nested constructor, a comment or PI) stands alone, in order.
 */
import type { DirElemContent } from '../syntax';
import type { Scope } from './scope';

export type ContentRun = { readonly text: string } | { readonly item: Exclude<DirElemContent, { kind: 'DirText' | 'CDataSection' }> };

export function contentRuns(content: readonly DirElemContent[], scope: Scope): ContentRun[] {
  const runs: ContentRun[] = [];
  let text = '';
  const flush = (): void => {
    if (text !== '') runs.push({ text });
    text = '';
  };
  for (const c of content) {
    if (c.kind === 'DirText') {
      if (!c.boundaryWhitespace || scope.ctx.boundarySpace === 'preserve') text += c.value;
    } else if (c.kind === 'CDataSection') {
      text += c.value;
    } else {
      flush();
      runs.push({ item: c });
    }
  }
  flush();
  return runs;
}
