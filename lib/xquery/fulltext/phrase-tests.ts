/**
 * The query side of matching one query string (matcher.ts): the phrases it stands for (itself and
 * its thesaurus expansions, §3.4.5), each as the term tests of its query tokens (terms.ts), and the
 * stop words of the match options (§3.4.7).
 *
 * The tests depend on the string and the match options only, never on the searched text, so a
 * `contains text` over many items makes them once instead of once per item: they are kept per
 * options object (the parsed description's, shared by every item) and per run, since stop-word
 * lists and thesauri are read per run (resources.ts). A string whose tests cannot be made (an
 * unknown language, a missing thesaurus) is not kept, so every item raises the error as before.
 */
import { activeDocumentSource } from '../worker/documents/source';
import { expand, stopWordList, thesaurus } from './resources';
import { termTest, type TermTest } from './terms';
import { normalizeToken, wildcardWords, words } from './tokens';
import type { FTMatchOptions } from './selection';

/** The term tests of each phrase of a query string, phrases without tokens left out. */
export type PhraseTests = readonly (readonly TermTest[])[];

/** The stop words of the options, as folded query tokens (§3.4.7: lists joined in order by union and except). */
export function stopWords(o: FTMatchOptions): Set<string> {
  const set = new Set<string>();
  for (const step of o.stopWords) {
    const list = step.words ?? (step.at !== undefined ? stopWordList(step.at) : []);
    for (const w of list) {
      const key = normalizeToken(w, { case: 'insensitive', diacritics: o.diacritics });
      if (step.op === 'except') set.delete(key);
      else set.add(key);
    }
  }
  return set;
}

/** The phrases a query string stands for: itself and its thesaurus expansions (§3.4.5). */
function phrases(s: string, o: FTMatchOptions): string[] {
  const out = [s];
  for (const ref of o.thesauri) {
    if (ref.at === undefined) continue; // no default thesaurus is configured: `thesaurus default` adds nothing
    out.push(...expand(thesaurus(ref.at), s, ref.relationship, ref.levels?.min ?? 0, ref.levels?.max ?? Infinity));
  }
  return out;
}

function compile(s: string, o: FTMatchOptions): PhraseTests {
  const out: TermTest[][] = [];
  let stops: Set<string> | undefined;
  const tests = new Map<string, TermTest>();
  for (const p of phrases(s, o)) {
    const qs = o.wildcards ? wildcardWords(p) : words(p);
    if (qs.length === 0) continue;
    stops ??= stopWords(o);
    out.push(
      qs.map((q) => {
        const stop = stops!.has(normalizeToken(q, { case: 'insensitive', diacritics: o.diacritics }));
        const key = `${stop}\u0000${q}`;
        let t = tests.get(key);
        if (!t) tests.set(key, (t = termTest(q, o, stop)));
        return t;
      }),
    );
  }
  return out;
}

/** Strings kept per options object before its cache starts over (computed strings may vary per item). */
const STRINGS_MAX = 1024;

const perRun = new WeakMap<object, WeakMap<FTMatchOptions, Map<string, PhraseTests>>>();

/** The tests of the phrases of query string `s` under the options `o`. */
export function phraseTests(s: string, o: FTMatchOptions): PhraseTests {
  const run = activeDocumentSource() as object;
  let byOptions = perRun.get(run);
  if (!byOptions) perRun.set(run, (byOptions = new WeakMap()));
  let byString = byOptions.get(o);
  if (!byString) byOptions.set(o, (byString = new Map()));
  let tests = byString.get(s);
  if (tests === undefined) {
    tests = compile(s, o);
    if (byString.size >= STRINGS_MAX) byString.clear();
    byString.set(s, tests);
  }
  return tests;
}
