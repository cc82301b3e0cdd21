import { LocatedQueryError } from '../../../lib/xquery/static-errors';
import { PreparedQueries } from '../../../lib/xquery/engine/prepared';
import * as translate from '../../../lib/xquery/language/translate';

describe('prepared queries', () => {
  test('one text is prepared once: the same analysis and translation objects', () => {
    const cache = new PreparedQueries(8);
    const p = cache.prepare('delete node doc("docs/a.xml")//x');
    expect(cache.prepare('delete node doc("docs/a.xml")//x')).toBe(p);
    expect(p.analysis()).toStrictEqual({ updating: true, permission: 'write', databases: ['docs'] });
    expect(p.analysis()).toBe(p.analysis());
    expect(p.translation('none')).toBe(p.translation('none'));
    expect(p.translation('multi')).not.toBe(p.translation('none'));
  });

  test('the call tried first alone, then the full translation only if asked; a query without that call is translated once', () => {
    const cache = new PreparedQueries(8);
    const full = jest.spyOn(translate, 'translateModule');
    try {
      const flwor = cache.prepare('for $i in 1 to 9 let $x := $i mod 4 order by $x return <r>{$x}</r>');
      const alone = flwor.firstTranslation('none')!;
      expect(alone.xpath?.first).toBeDefined();
      expect(full).not.toHaveBeenCalled();
      expect(flwor.translation('none')).not.toBe(alone);
      expect(full).toHaveBeenCalledTimes(1);
      full.mockClear();
      const path = cache.prepare('count(//*[string-length(local-name()) > 3]) + 7');
      expect(path.firstTranslation('none')).toBeUndefined();
      expect(path.translation('none').xpath?.expression).toContain('string-length');
      expect(full).not.toHaveBeenCalled();
    } finally {
      full.mockRestore();
    }
  });

  test('the stylesheet translation builds nested constructors in place, once; other queries keep their translation', () => {
    const cache = new PreparedQueries(8);
    const nested = cache.prepare('<a><b>{<c/>}</b></a>');
    expect(nested.translation('none').copiesConstructedElements).toBe(true);
    const own = nested.stylesheetTranslation('none');
    expect(own).not.toBe(nested.translation('none'));
    expect(own.copiesConstructedElements).toBe(false);
    expect(own.xslt).not.toContain('lib.element');
    expect(nested.stylesheetTranslation('none')).toBe(own);
    const flat = cache.prepare('<a>{1}</a>');
    expect(flat.stylesheetTranslation('none')).toBe(flat.translation('none'));
  });

  test('a static error is kept and thrown by every step that needs the parse', () => {
    const p = new PreparedQueries(8).prepare('1 +');
    let first: unknown;
    try {
      p.analysis();
    } catch (e) {
      first = e;
    }
    expect(first).toBeInstanceOf(LocatedQueryError);
    expect((first as LocatedQueryError).code).toBe('XPST0003');
    expect(() => p.analysis()).toThrow(first as Error);
    expect(() => p.translation('none')).toThrow((first as Error).message);
  });

  test('the cache is bounded: the least recently used text is prepared again', () => {
    const cache = new PreparedQueries(2);
    // texts of three shapes: a query of a kept shape takes that shape's prepared form (literal-variants.ts)
    const a = cache.prepare('1');
    cache.prepare('2 + 2');
    cache.prepare('3 * 3');
    expect(cache.prepare('1')).not.toBe(a);
  });
});
