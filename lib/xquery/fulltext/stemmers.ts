/**
 * Stemmers by language (§3.4.6 `using stemming`, `using language`): the Snowball algorithms of
 * snowball-stemmers, the ones BaseX ships. snowball-stemmers was chosen over @orama/stemmers: both
 * load in the query worker, but Orama's English stemmer is not Porter2 (`connections` → `connec`,
 * `generously` → `gener`) while Snowball's is; Snowball is slower per word (about 20 µs against
 * 3 µs), which the cache below takes back for text, where the same words recur.
 */
interface SnowballStemmer {
  stem(word: string): string;
}
interface SnowballModule {
  newStemmer(algorithm: string): SnowballStemmer;
}

let snowball: SnowballModule | undefined;

/** snowball-stemmers (which ships no typings), loaded with the first stemmer asked for: most query workers never stem. */
function snowballModule(): SnowballModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (snowball ??= require('snowball-stemmers') as SnowballModule);
}

/** Snowball algorithm by ISO 639-1 code (the `language` option's primary subtag). */
const ALGORITHMS: Readonly<Record<string, string>> = {
  ar: 'arabic', ca: 'catalan', cs: 'czech', da: 'danish', de: 'german', en: 'english', es: 'spanish', eu: 'basque',
  fi: 'finnish', fr: 'french', ga: 'irish', hu: 'hungarian', hy: 'armenian', it: 'italian', nl: 'dutch', no: 'norwegian',
  pt: 'portuguese', ro: 'romanian', ru: 'russian', sl: 'slovene', sv: 'swedish', ta: 'tamil', tr: 'turkish',
};

/** Words kept per stemmer before the cache starts over (bounded memory in a long-lived worker). */
const CACHE_LIMIT = 50_000;

const stemmers = new Map<string, (word: string) => string>();

/** The primary subtag of a language tag, lower case (`en-US` → `en`). */
export function primaryLanguage(language: string | undefined): string {
  return (language ?? 'en').split('-')[0].toLowerCase();
}

/** Whether a stemmer exists for `language`. */
export function hasStemmer(language: string | undefined): boolean {
  return ALGORITHMS[primaryLanguage(language)] !== undefined;
}

/** The stemming function for `language` (English when none is given); undefined when there is none. */
export function stemmerFor(language: string | undefined): ((word: string) => string) | undefined {
  const code = primaryLanguage(language);
  const algorithm = ALGORITHMS[code];
  if (!algorithm) return undefined;
  let stem = stemmers.get(code);
  if (!stem) {
    const s = snowballModule().newStemmer(algorithm);
    const cache = new Map<string, string>();
    stem = (word) => {
      let r = cache.get(word);
      if (r === undefined) {
        if (cache.size >= CACHE_LIMIT) cache.clear();
        r = s.stem(word);
        cache.set(word, r);
      }
      return r;
    };
    stemmers.set(code, stem);
  }
  return stem;
}
