import { compileKey } from '../../../lib/xquery/compile-key';
import { SharedCompilations, UnknownCompileKey, type Compiled } from '../../../lib/xquery/host/shared-compilations';
import { QueryError, timeoutError } from '../../../lib/xquery/query-error';

/** A compiler whose compilations end when the test says so. */
function fakeCompiler() {
  const started: { xslt: string; finish(result: Compiled): void; fail(e: Error): void }[] = [];
  const compile = (xslt: string) =>
    new Promise<Compiled>((resolve, reject) => {
      started.push({ xslt, finish: resolve, fail: reject });
    });
  return { started, compile };
}

const sef = (xslt: string): Compiled => ({ sefText: `sef of ${xslt}`, baseUri: 'urn:base' });

describe('compilations started ahead', () => {
  it('compiles one stylesheet ahead at a time, and a run finds it compiled', async () => {
    const { started, compile } = fakeCompiler();
    const shared = new SharedCompilations(16, compile);
    expect(shared.compiledOrAhead('a', {}, 1000)).toBe(false);
    expect(shared.compiledOrAhead('b', {}, 1000)).toBe(false); // while 'a' compiles: not started
    expect(shared.compiledOrAhead('a', {}, 1000)).toBe(false);
    expect(started.map((c) => c.xslt)).toEqual(['a']);
    started[0].finish(sef('a'));
    await shared.aheadSettled();
    expect(shared.compiledOrAhead('a', {}, 1000)).toBe(true);
    expect(started.map((c) => c.xslt)).toEqual(['a']);
    await expect(shared.compile('a', {}, 1000)).resolves.toMatchObject({ compiled: sef('a'), cached: true });
    expect(shared.compilations).toBe(1);
    // the next one may start now
    expect(shared.compiledOrAhead('b', {}, 1000)).toBe(false);
    expect(started.map((c) => c.xslt)).toEqual(['a', 'b']);
  });

  it('does not start a compilation ahead again once one ran out of time', async () => {
    const { started, compile } = fakeCompiler();
    const shared = new SharedCompilations(16, compile);
    expect(shared.compiledOrAhead('slow', {}, 1000)).toBe(false);
    started[0].fail(timeoutError(1000));
    await shared.aheadSettled();
    expect(shared.compiledOrAhead('slow', {}, 1000)).toBe(false);
    expect(started.map((c) => c.xslt)).toEqual(['slow']);
    // a run that needs it still compiles it
    const run = shared.compile('slow', {}, 5000);
    started[1].finish(sef('slow'));
    await expect(run).resolves.toMatchObject({ compiled: sef('slow'), cached: false });
  });

  it('keeps a compile error for the runs that follow, and tries again after any other failure', async () => {
    const { started, compile } = fakeCompiler();
    const shared = new SharedCompilations(16, compile);
    expect(shared.compiledOrAhead('bad', {}, 1000)).toBe(false);
    started[0].finish({ error: { code: 'XPST0003', message: 'Syntax error.', status: 400, phase: 'compile' } });
    await shared.aheadSettled();
    expect(shared.compiledOrAhead('bad', {}, 1000)).toBe(true);
    await expect(shared.compile('bad', {}, 1000)).rejects.toBeInstanceOf(QueryError);

    expect(shared.compiledOrAhead('busy', {}, 1000)).toBe(false);
    started[1].fail(new Error('pool busy'));
    await shared.aheadSettled();
    expect(shared.compiledOrAhead('busy', {}, 1000)).toBe(false);
    expect(started.map((c) => c.xslt)).toEqual(['bad', 'busy', 'busy']);
  });
});

describe('compilations named by key (a job whose stylesheet text the server left out)', () => {
  it('answers the kept compilation, rejects with a kept compile error, and throws UnknownCompileKey for a key it does not hold', async () => {
    const { started, compile } = fakeCompiler();
    const shared = new SharedCompilations(16, compile);
    const run = shared.compile('a', {}, 1000);
    started[0].finish(sef('a'));
    const { key } = await run;
    expect(shared.kept(key)).toStrictEqual({ key, compiled: sef('a'), cached: true });

    const bad = shared.compile('bad', {}, 1000);
    started[1].finish({ error: { code: 'XPST0003', message: 'Syntax error.', status: 400, phase: 'compile' } });
    await expect(bad).rejects.toBeInstanceOf(QueryError);
    expect(() => shared.kept(compileKey('bad'))).toThrow(QueryError);

    expect(() => shared.kept(compileKey('never'))).toThrow(new UnknownCompileKey(compileKey('never')));
    expect(started).toHaveLength(2);
  });

  it('a key the cache evicted is unknown', async () => {
    const { started, compile } = fakeCompiler();
    const shared = new SharedCompilations(1, compile);
    const first = shared.compile('a', {}, 1000);
    started[0].finish(sef('a'));
    await first;
    const second = shared.compile('b', {}, 1000);
    started[1].finish(sef('b'));
    await second;
    expect(() => shared.kept(compileKey('a'))).toThrow(UnknownCompileKey);
    expect(shared.kept(compileKey('b')).compiled).toStrictEqual(sef('b'));
  });
});
