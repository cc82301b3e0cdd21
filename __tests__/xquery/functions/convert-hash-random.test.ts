/**
 * BaseX's convert:, hash: and random: modules over REST (functions/convert.ts, hash.ts, random.ts).
 * The expected values are BaseX's answers to the same queries (BaseX 9.7.2).
 */
import { failureBody, queryBody, serverOfFile } from '../../helpers/rest';

const server = serverOfFile();
const ok = (query: string) => queryBody(server(), query);
const fails = (query: string) => failureBody(server(), query);

describe('convert:', () => {
  test('integers to and from bases, as 64-bit numbers', async () => {
    expect(await ok("convert:integer-to-base(-1, 16), convert:integer-to-base(22, 5), convert:integer-from-base('ffffffffffffffff', 16), convert:integer-from-base('CAFEBABE', 16)")).toBe(
      'ffffffffffffffff\n42\n-1\n3405691582',
    );
    expect(await ok('convert:integer-from-base(convert:integer-to-base(123, 7), 7)')).toBe('123');
  });

  test('a base outside 2 to 36 and a foreign digit are errors with BaseX codes', async () => {
    expect(await fails('convert:integer-to-base(1, 1)')).toMatch(/\[convert:base\] Unsupported base: 1\.$/);
    expect(await fails("convert:integer-from-base('12', 2)")).toMatch(/\[convert:integer\] Invalid digit for base 2: 2\.$/);
  });

  test('strings to binaries and back, in several encodings', async () => {
    expect(
      await ok(
        "convert:binary-to-string(xs:hexBinary('48656c6c6f')), string(convert:string-to-base64('Hello')), string(convert:string-to-hex('Hello')), string(convert:string-to-base64('ä', 'ISO-8859-1'))",
      ),
    ).toBe('Hello\nSGVsbG8=\n48656C6C6F\n5A==');
    expect(await ok("convert:binary-to-string(convert:string-to-hex('größe', 'UTF-16'), 'UTF-16BE')")).toBe('größe');
    expect(await ok("convert:binary-to-string(xs:base64Binary('5A=='), 'ISO-8859-1')")).toBe('ä');
  });

  test('undecodable bytes fail unless the fallback is asked for; unknown encodings fail', async () => {
    expect(await fails("convert:binary-to-string(xs:hexBinary('ff'))")).toMatch(/\[convert:string\] The input is not valid UTF-8 text\.$/);
    expect(await ok("convert:binary-to-string(xs:hexBinary('41ff'), 'UTF-8', true())")).toBe('A\uFFFD');
    expect(await fails("convert:binary-to-string(xs:hexBinary('41'), 'bla')")).toMatch(/\[convert:encoding\] Unknown encoding 'bla'\.$/);
    expect(await fails("convert:string-to-base64('€', 'US-ASCII')")).toMatch(/\[convert:binary\] The string cannot be encoded as US-ASCII\.$/);
    expect(await fails("convert:binary-to-string('41')")).toMatch(/\[XPTY0004\] convert:binary-to-string: xs:base64Binary or xs:hexBinary expected, found xs:string\.$/);
  });

  test('integers to binaries and back', async () => {
    expect(
      await ok(
        "string(convert:integers-to-base64((65, 66, -1, 256))), string(convert:integers-to-hex((65, 66, -1, 256))), convert:binary-to-integers(xs:hexBinary('41ff')), convert:binary-to-bytes(xs:hexBinary('41ff'))",
      ),
    ).toBe('QUL/AA==\n4142FF00\n65\n255\n65\n-1');
  });

  test('milliseconds to dates and durations and back', async () => {
    expect(
      await ok(
        "convert:integer-to-dateTime(0), convert:integer-to-dateTime(1234567890123), convert:dateTime-to-integer(xs:dateTime('1970-01-02T00:00:00Z')), convert:dateTime-to-integer(xs:dateTime('1970-01-02T02:00:00+02:00')), convert:integer-to-dayTime(1234), convert:dayTime-to-integer(xs:dayTimeDuration('PT1.5S')), convert:integer-to-dayTime(-90061001), convert:dayTime-to-integer(xs:dayTimeDuration('-P1DT1H1M1.001S'))",
      ),
    ).toBe('1970-01-01T00:00:00Z\n2009-02-13T23:31:30.123Z\n86400000\n86400000\nPT1.234S\n1500\n-P1DT1H1M1.001S\n-90061001');
    expect(await ok("convert:integer-to-dateTime(convert:dateTime-to-integer(xs:dateTime('2026-11-25T18:00:00.5Z')))")).toBe('2026-11-25T18:00:00.5Z');
  });

  test('keys to element names and back', async () => {
    expect(await ok("convert:encode-key('a b_c'), convert:decode-key('a_0020b__c'), convert:encode-key('1a', true()), convert:decode-key('_')")).toBe('a_0020b__c\na b_c\n_1a\n');
  });
});

describe('hash:', () => {
  test('md5, sha1, sha256 and hash answer base64 binaries of the UTF-8 bytes or the binary bytes', async () => {
    expect(
      await ok(
        "string(hash:md5('abc')), string(hash:sha1('abc')), string(hash:sha256('abc')), string(hash:hash('abc', 'SHA-256')), string(hash:hash('abc', 'sha512')), hash:md5('abc') instance of xs:base64Binary, string(hash:md5(xs:hexBinary('616263')))",
      ),
    ).toBe(
      [
        'kAFQmDzST7DWlj99KOF/cg==',
        'qZk+NkcGgWq6PiVxeFDCbJzQ2J0=',
        'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=',
        'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=',
        '3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==',
        'true',
        'kAFQmDzST7DWlj99KOF/cg==',
      ].join('\n'),
    );
    expect(await ok("xs:hexBinary(hash:md5(''))")).toBe('D41D8CD98F00B204E9800998ECF8427E');
  });

  test('an unknown algorithm is hash:algorithm', async () => {
    expect(await fails("hash:hash('abc', 'foo')")).toMatch(/\[hash:algorithm\] Algorithm not supported: 'foo'\.$/);
  });
});

describe('random:', () => {
  test('seeded functions give the numbers BaseX gives for the same seed', async () => {
    expect(await ok('random:seeded-double(1, 3), random:seeded-integer(1, 3), random:seeded-integer(1, 3, 10)')).toBe(
      '0.7308781907032909\n0.41008081149220166\n0.20771484130971707\n-1155869325\n431529176\n1761283695\n5\n8\n7',
    );
    expect(await ok('string-join(random:seeded-permutation(1, 1 to 10), " ")')).toBe('7 9 1 3 6 8 2 5 10 4');
    expect(await ok('random:seeded-double(1, 0), count(random:seeded-integer(5, -1))')).toBe('0');
  });

  test('unseeded functions answer values in their ranges', async () => {
    expect(
      await ok(
        'let $d := random:double(), $i := random:integer(5), $g := random:gaussian(4) return ($d ge 0 and $d lt 1, $i ge 0 and $i lt 5, count($g), $g[1] instance of xs:double, random:integer() instance of xs:integer)',
      ),
    ).toBe('true\ntrue\n4\ntrue\ntrue');
    expect(await ok("matches(random:uuid(), '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'), random:uuid() ne random:uuid()")).toBe('true\ntrue');
  });

  test('a maximum that is not positive is random:bounds', async () => {
    expect(await fails('random:integer(0)')).toMatch(/\[random:bounds\] Maximum value is out of bounds: 0\.$/);
    expect(await fails('random:seeded-integer(1, 3, -2)')).toMatch(/\[random:bounds\] Maximum value is out of bounds: -2\.$/);
  });
});
