/**
 * The vocabulary of a database whose store keeps the full-text index (stored-vocabulary.ts): kept
 * per document version, it reads only the documents whose version it does not hold.
 */
import { StoredVocabulary } from '../../../../lib/xquery/accelerators/fulltext-index/stored-vocabulary';

describe('StoredVocabulary', () => {
  const tokensOf: Record<string, string[]> = { 'a.xml@1': ['run', 'walk'], 'b.xml@1': ['walk', 'wonder'], 'b.xml@2': ['whale'], 'c.xml@1': ['running'] };
  let reads: string[][];
  let at: Record<string, string>;
  const read = (paths: readonly string[]) => {
    reads.push([...paths]);
    return paths.map((p) => [p, tokensOf[`${p}@${at[p]}`]] as const);
  };
  const update = (v: StoredVocabulary, versions: Record<string, string>) => {
    at = versions;
    return v.updated(new Map(Object.entries(versions)), read);
  };
  beforeEach(() => (reads = []));

  test('reads the documents it does not hold, drops the tokens of versions gone, keeps those other documents still hold', () => {
    const first = update(StoredVocabulary.empty('{}'), { 'a.xml': '1', 'b.xml': '1' });
    expect([...first.tokens].sort()).toEqual(['run', 'walk', 'wonder']);
    expect(update(first, { 'a.xml': '1', 'b.xml': '1' })).toBe(first);
    // b.xml replaced: 'walk' stays (a.xml holds it), 'wonder' goes; only b.xml is read
    const second = update(first, { 'a.xml': '1', 'b.xml': '2' });
    expect([...second.tokens].sort()).toEqual(['run', 'walk', 'whale']);
    // a.xml deleted, c.xml added
    const third = update(second, { 'b.xml': '2', 'c.xml': '1' });
    expect([...third.tokens].sort()).toEqual(['running', 'whale']);
    expect(reads).toEqual([['a.xml', 'b.xml'], ['b.xml'], ['c.xml']]);
    // a vocabulary once made stays as it was
    expect([...first.tokens].sort()).toEqual(['run', 'walk', 'wonder']);
  });

  test('groups its tokens by stem per language, anew for each version', () => {
    const stem = (w: string) => w.replace(/ning$|s$/, '');
    const first = update(StoredVocabulary.empty('{}'), { 'a.xml': '1', 'c.xml': '1' });
    expect(first.byStem('en', stem).get('run')).toEqual(['run', 'running']);
    const second = update(first, { 'a.xml': '1' });
    expect(second.byStem('en', stem).get('run')).toEqual(['run']);
  });
});
