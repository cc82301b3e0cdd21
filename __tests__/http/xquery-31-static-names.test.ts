/** Names that XQuery resolves against the query's static context, over REST (QT3 sets beyond the public subset). */
import { failureBody, queryBody, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
});
afterAll(() => s.close());

const ok = (query: string) => queryBody(s, query);

describe('format-number with the default decimal format (F&O 3.1 §4.7)', () => {
  test.each([
    ['format-number(-5, "0")', '-5'],
    ['format-number(12.5, "#.00")', '12.50'],
    ['1, format-number(1234.5, "#,##0.0")', '1\n1,234.5'],
    ['for-each((1, 2), format-number(?, "00"))', '01\n02'],
    ['format-number#2(0.5, "0%")', '50%'],
    ['format-number(<a>1.5</a>, "0.00"), format-number((), "0")', '1.50\nNaN'],
    ['for $i in 1 to 3 return format-number($i div 3, "0.000")', '0.333\n0.667\n1.000'],
  ])('%s', async (query, body) => {
    expect(await ok(query)).toBe(body);
  });

  test('a value that is no number and a wrong picture are refused as they were', async () => {
    expect(await failureBody(s, 'format-number("x", "0")')).toMatch(/^Stopped at \., 1\/1:\n\[XPTY0004\] /);
    expect(await failureBody(s, 'format-number(1, "0.0.0")')).toBe('Stopped at ., 1/1:\n[FODF1310] Invalid picture: more than one decimal separator');
  });

  test('the default format the prolog declares applies to a call with two arguments', async () => {
    expect(await ok('declare default decimal-format decimal-separator = "," grouping-separator = "."; format-number(1234.5, "#.##0,0")')).toBe('1.234,5');
  });
});

describe('format-number resolves a prefixed decimal-format name statically (F&O 3.1 §4.7.2)', () => {
  test.each([
    ['declare namespace n = "urn:n"; declare decimal-format n:eu decimal-separator="," grouping-separator="."; format-number(1234.5, "#.##0,00", "n:eu")', '1.234,50'],
    ['declare decimal-format local:pct percent="%"; format-number(0.25, "#%", "local:pct")', '25%'],
  ])('%s', async (query, body) => {
    expect(await ok(query)).toBe(body);
  });

  test('a prefix of a direct constructor around the call names the format too', async () => {
    expect(await ok('declare decimal-format Q{urn:z}zz zero-digit="٠"; <r xmlns:z="urn:z">{format-number(42, "٠٠٠", "z:zz")}</r>/string()')).toBe('٠٤٢');
  });

  test('an EQName, an unprefixed name and the default format work as before', async () => {
    expect(await ok('declare decimal-format Q{urn:q}f grouping-separator="\'"; format-number(1e6, "#\'##0", "Q{urn:q}f")')).toBe("1'000'000");
    expect(await ok('declare decimal-format plain minus-sign="~"; format-number(-5, "0", "plain")')).toBe('~5');
    expect(await ok('format-number(-5, "0")')).toBe('-5');
  });

  test('an unknown format or an undeclared prefix is FODF1280', async () => {
    expect(await failureBody(s, 'format-number(1, "0", "nope:f")')).toMatch(/\[FODF1280\]/);
    expect(await failureBody(s, 'declare namespace n = "urn:n"; format-number(1, "0", "n:missing")')).toMatch(/\[FODF1280\]/);
  });
});

describe('xs:NOTATION in sequence types (XQuery 3.1 §2.5.4.2)', () => {
  test('a sequence type may name the abstract xs:NOTATION; casts to it stay XPST0080', async () => {
    expect(await ok('("a" instance of xs:NOTATION, () instance of xs:NOTATION?)')).toBe('false\ntrue');
    expect(await failureBody(s, '"a" cast as xs:NOTATION')).toMatch(/\[XPST0080\]/);
    expect(await failureBody(s, '"a" castable as xs:NOTATION')).toMatch(/\[XPST0080\]/);
  });
});

describe('the abstract atomic types have no constructor function (XQuery 3.1 §3.18.5)', () => {
  test.each(['xs:NOTATION("a")', 'exists(xs:NOTATION#1)', 'xs:anyAtomicType("a")', 'exists(xs:anyAtomicType#1)'])('%s is XPST0017', async (query) => {
    expect(await failureBody(s, query)).toMatch(/\[XPST0017\]/);
  });

  test('the other constructor functions are there, as calls and as references', async () => {
    expect(await ok('xs:integer#1("12") + xs:untypedAtomic#1(1), xs:numeric("2") instance of xs:double')).toBe('13\ntrue');
  });
});

describe('annotations of function tests (XQuery 3.1 §2.5.5.7)', () => {
  test.each([
    '() instance of %xs:a function(*)',
    '() instance of %fn:a("x", 1) function(xs:integer) as xs:string',
    '() instance of %Q{http://www.w3.org/2005/xpath-functions/math}a function(*)',
    'declare function local:f($g as %xml:a function(*)) { 1 }; local:f(abs#1)',
  ])('%s: an annotation in a reserved namespace is XQST0045', async (query) => {
    expect(await failureBody(s, query)).toMatch(/\[XQST0045\]/);
  });

  test('other annotations are accepted and do not change the test', async () => {
    expect(await ok('declare namespace e = "urn:e"; (abs#1 instance of %e:a %e:b(1) function(*), () instance of %Q{urn:q}x function(*))')).toBe('true\nfalse');
    expect(await failureBody(s, '() instance of %nope:a function(*)')).toMatch(/\[XPST0081\]/);
  });
});

describe('an array atomizes to all its members (XQuery 3.1 §2.4.2)', () => {
  test.each(['[1, 2] || "x"', 'concat("x", [1, 2])', 'xs:string([1, 2])', '[1, 2] cast as xs:string', '[[1], [2]] || 1'])('%s is XPTY0004', async (query) => {
    expect(await failureBody(s, query)).toMatch(/\[XPTY0004\]/);
  });

  test('arrays of one member, empty arrays and other values are unchanged', async () => {
    expect(await ok('[1] || "x", [] || "y", concat([["a"]], [], "b"), xs:integer(["7"]) + 1, [1, 2] castable as xs:string, <a>3</a> cast as xs:integer')).toBe(
      '1x\ny\nab\n8\nfalse\n3',
    );
  });
});

describe('durations hold at most 2^63 - 1 months and 2^63 - 1 seconds (F&O 3.1 §10.1)', () => {
  test.each([
    '"P768614336404564651Y" cast as xs:duration',
    '"-P768614336404564651Y" cast as xs:yearMonthDuration',
    'xs:dayTimeDuration("P106751991167301D")',
    'xs:duration(<d>PT9223372036854775808S</d>)',
  ])('%s is FODT0002', async (query) => {
    expect(await failureBody(s, query)).toMatch(/^Stopped at .*\n\[FODT0002\] Duration overflow\.$/);
  });

  test('castable is false beyond the limits; values up to them, and every other cast, are unchanged', async () => {
    expect(await ok('"P11768614336404564651D" castable as xs:dayTimeDuration, "P768614336404564650Y" castable as xs:duration, "P1Y2M" castable as xs:duration')).toBe('false\ntrue\ntrue');
    expect(await ok('xs:yearMonthDuration("P768614336404564650Y") instance of xs:yearMonthDuration, "PT90M" cast as xs:dayTimeDuration, () cast as xs:duration?')).toBe('true\nPT1H30M');
    expect(await ok('xs:dayTimeDuration(xs:duration("P1DT1H")), "x" castable as xs:duration')).toBe('P1DT1H\nfalse');
    expect(await failureBody(s, '"x" cast as xs:duration')).toMatch(/\[FORG0001\]/);
  });
});
