import { DocumentBudget, choose, databaseOf } from '../../../lib/xquery/host/document-budget';
import type { Task } from '../../../lib/xquery/protocol/protocol';

const on = (db?: string): { task: Task } => ({
  task: { kind: 'run', id: 1, xpath: '1', baseUri: 'file:///', ...(db === undefined ? {} : { context: { kind: 'database', db } }) },
});

describe('one budget of parsed documents across the workers', () => {
  test('drops the least recently used (worker, database) pairs until the total fits, never the one just used', () => {
    const budget = new DocumentBudget<string>(100);
    expect(budget.report('w1', [['a', 40]], 'a')).toEqual([]);
    expect(budget.report('w2', [['b', 40]], 'b')).toEqual([]);
    expect(budget.report('w1', [['a', 40], ['c', 30]], 'c')).toEqual([['w1', 'a']]);
    expect([budget.total, budget.holds('w1', 'a'), budget.holds('w1', 'c'), budget.holds('w2', 'b')]).toEqual([70, false, true, true]);
    // a database larger than the budget stays with the worker that just used it, alone
    expect(budget.report('w2', [['b', 40], ['big', 150]], 'big')).toEqual([['w2', 'b'], ['w1', 'c']]);
    expect([budget.total, budget.holds('w2', 'big')]).toEqual([150, true]);
  });

  test('a task that read no database keeps the pair used last, even when it alone is over the budget', () => {
    const budget = new DocumentBudget<string>(100);
    budget.report('w1', [['a', 30]], 'a');
    expect(budget.report('w2', [['big', 150]], 'big')).toEqual([['w1', 'a']]);
    // a compilation on w1, then a query without a database on w2: big stays where it is
    expect(budget.report('w1', [], undefined)).toEqual([]);
    expect(budget.report('w2', undefined, undefined)).toEqual([]);
    expect([budget.holds('w2', 'big'), budget.total]).toEqual([true, 150]);
  });

  test('a report without holdings keeps the last ones and refreshes the database used', () => {
    const budget = new DocumentBudget<string>(100);
    budget.report('w1', [['a', 50]], 'a');
    budget.report('w2', [['b', 40]], 'b');
    budget.report('w1', undefined, 'a');
    expect(budget.report('w2', [['b', 40], ['c', 20]], 'c')).toEqual([['w2', 'b']]);
    budget.forget('w1');
    expect([budget.total, budget.heldAnywhere('a')]).toEqual([20, false]);
  });

  test('a task goes to an idle holder of its database; else to the idle worker holding least', () => {
    const budget = new DocumentBudget<string>(100);
    budget.report('w1', [['a', 30]], 'a');
    budget.report('w2', [['b', 10]], 'b');
    expect(choose(budget, [on('a')], ['w1', 'w2'])).toEqual({ index: 0, slot: 'w1' });
    expect(choose(budget, [on('a')], ['w2'])).toEqual({ index: 0, slot: 'w2' }); // a second copy fits
    expect(choose(budget, [on('new')], ['w1', 'w2'])).toEqual({ index: 0, slot: 'w2' });
    expect(choose(budget, [on()], ['w1', 'w2'])).toEqual({ index: 0, slot: 'w1' });
    expect(choose(budget, [on()], [])).toBeUndefined();
  });

  test('a task waits for a busy holder when another copy would not fit; later tasks go first', () => {
    const budget = new DocumentBudget<string>(100);
    budget.report('w1', [['a', 60]], 'a');
    expect(choose(budget, [on('a')], ['w2'])).toBeUndefined();
    expect(choose(budget, [on('a'), on('b'), on()], ['w2'])).toEqual({ index: 1, slot: 'w2' });
  });

  test('a worker that starts loading a database counts as its holder (size unknown) until it reports', () => {
    const budget = new DocumentBudget<string>(1000);
    expect(choose(budget, [on('a')], ['w1', 'w2'])).toEqual({ index: 0, slot: 'w1' });
    expect(budget.holds('w1', 'a')).toBe(true);
    expect(choose(budget, [on('a')], ['w2'])).toBeUndefined();
    // nothing was loaded (an empty database): the expectation goes
    budget.report('w1', undefined, 'a');
    expect(budget.holds('w1', 'a')).toBe(false);
    expect(choose(budget, [on('a')], ['w2'])).toEqual({ index: 0, slot: 'w2' });
    budget.report('w2', [['a', 10]], 'a');
    expect(choose(budget, [on('a')], ['w1'])).toEqual({ index: 0, slot: 'w1' });
  });

  test('the database of a task: its database context or the database of its URL', () => {
    expect(databaseOf(on('a').task)).toBe('a');
    expect(databaseOf({ kind: 'run', id: 1, xpath: '1', baseUri: '', database: { db: 'b', path: '' } })).toBe('b');
    expect(databaseOf({ kind: 'run', id: 1, xpath: '1', baseUri: '', context: { xml: ['<a/>'] } })).toBeUndefined();
    expect(databaseOf({ kind: 'compile', id: 1, xslt: '', options: {} })).toBeUndefined();
    expect(databaseOf(undefined)).toBeUndefined();
  });
});
