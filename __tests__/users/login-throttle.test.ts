import { FREE_FAILURES, LoginThrottle } from '../../lib/users/login-throttle';

let now = 0;
let throttle: LoginThrottle;
beforeEach(() => {
  now = 1_000_000;
  throttle = new LoginThrottle(() => now);
});

function fail(keys: string[], times = 1): void {
  for (let i = 0; i < times; i++) {
    throttle.start(keys);
    throttle.finish(keys, false);
  }
}

describe('LoginThrottle', () => {
  test('free failures, then a block that doubles with each further failure, up to a minute', () => {
    fail(['client a'], FREE_FAILURES - 1);
    expect(throttle.retryAfter(['client a'])).toBe(0);
    fail(['client a']);
    expect(throttle.retryAfter(['client a'])).toBe(1);
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      now += 60_000;
      fail(['client a']);
      waits.push(throttle.retryAfter(['client a']));
    }
    expect(waits).toStrictEqual([2, 4, 8, 16, 32, 60, 60, 60]);
  });

  test('keeps the records of the 50,000 keys used last: a flood of names forgets the oldest first', () => {
    fail(['client old'], FREE_FAILURES);
    fail(['client kept'], FREE_FAILURES);
    for (let i = 0; i < 49_998; i++) throttle.start([`user ${i}`]);
    expect(throttle.retryAfter(['client old'])).toBe(1); // read: now the last used
    throttle.start(['user 49998']); // one key more: the oldest record, client kept's, goes
    expect(throttle.retryAfter(['client old'])).toBe(1);
    expect(throttle.retryAfter(['client kept'])).toBe(0);
  });

  test('the block ends with its time', () => {
    fail(['user bob'], FREE_FAILURES + 2);
    expect(throttle.retryAfter(['user bob'])).toBe(4);
    now += 2_500;
    expect(throttle.retryAfter(['user bob'])).toBe(2);
    now += 1_500;
    expect(throttle.retryAfter(['user bob'])).toBe(0);
  });

  test('keys count separately; an attempt is held back by the longest block of its keys', () => {
    fail(['client a', 'user bob'], FREE_FAILURES);
    fail(['client b', 'user bob'], 2);
    expect(throttle.retryAfter(['client c', 'user eve'])).toBe(0);
    expect(throttle.retryAfter(['client a', 'user eve'])).toBe(1);
    expect(throttle.retryAfter(['client c', 'user bob'])).toBe(4);
  });

  test('a success resets its keys', () => {
    fail(['client a', 'user bob'], FREE_FAILURES - 1);
    throttle.start(['client a', 'user bob']);
    throttle.finish(['client a', 'user bob'], true);
    fail(['client a', 'user bob'], FREE_FAILURES - 1);
    expect(throttle.retryAfter(['client a', 'user bob'])).toBe(0);
  });

  test('failures are forgotten after 15 minutes without one', () => {
    fail(['client a'], FREE_FAILURES - 1);
    now += 15 * 60_000 + 1;
    fail(['client a']);
    expect(throttle.retryAfter(['client a'])).toBe(0);
  });

  test('at most 16 attempts of one key are checked at once', () => {
    for (let i = 0; i < 15; i++) throttle.start(['client a']);
    expect(throttle.retryAfter(['client a'])).toBe(0);
    throttle.start(['client a']);
    expect(throttle.retryAfter(['client a'])).toBe(1);
    throttle.finish(['client a'], false);
    expect(throttle.retryAfter(['client a'])).toBe(0);
  });

  test('an attempt sharing a check already running is not held back by the attempts being checked, only by a block', () => {
    for (let i = 0; i < 16; i++) throttle.start(['client a']);
    expect(throttle.retryAfter(['client a'])).toBe(1);
    expect(throttle.retryAfter(['client a'], true)).toBe(0);
    // a shared attempt that ends leaves the count of those being checked as it was
    throttle.finish(['client a'], true, false);
    expect(throttle.retryAfter(['client a'])).toBe(1);
    fail(['client b'], FREE_FAILURES);
    expect(throttle.retryAfter(['client b'], true)).toBe(1);
  });
});
