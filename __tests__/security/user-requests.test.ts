/** One user's requests in progress at once (lib/http/user-requests.ts). */
import { XmldbError } from '../../lib/xmldb-error';
import { UserRequests } from '../../lib/http/user-requests';

test('a user past the limit waits for a turn, in order; other users do not wait', async () => {
  const limit = new UserRequests(2, 60_000);
  const order: string[] = [];
  const a1 = await limit.enter('a');
  const a2 = await limit.enter('a');
  const a3 = limit.enter('a').then((leave) => (order.push('a3'), leave));
  const a4 = limit.enter('a').then((leave) => (order.push('a4'), leave));
  const b1 = await limit.enter('b');
  order.push('b1');
  a2();
  a2(); // a second call ends nothing more
  (await a3)();
  a1();
  (await a4)();
  b1();
  expect(order).toEqual(['b1', 'a3', 'a4']);
  // every turn ended: the user starts afresh with the whole limit
  const again = [await limit.enter('a'), await limit.enter('a')];
  again.forEach((leave) => leave());
});

test('a request that waits longer than the limit answers 503 with Retry-After, and gives up its place', async () => {
  const limit = new UserRequests(1, 20);
  const first = await limit.enter('a');
  const late = await limit.enter('a').catch((error: unknown) => error);
  expect(late).toBeInstanceOf(XmldbError);
  expect([(late as XmldbError).status, (late as XmldbError).message, (late as XmldbError).headers]).toEqual([
    503,
    "Server busy: too many requests of user 'a' are in progress. Try again later.",
    { 'Retry-After': '1' },
  ]);
  first();
  (await limit.enter('a'))();
});
