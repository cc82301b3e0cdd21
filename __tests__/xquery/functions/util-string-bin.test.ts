/**
 * BaseX's util: and string: modules and the EXPath Binary Module over REST (functions/util.ts,
 * string.ts, bin.ts). Expected values are those of BaseX's documentation and of the
 * specifications the functions follow (EXPath Binary 1.0, java.util.Formatter).
 */
import { failureBody, queryBody, serverOfFile } from '../../helpers/rest';

const server = serverOfFile();
const ok = (query: string) => queryBody(server(), query);
const fails = (query: string) => failureBody(server(), query);
const error = (code: string, message: string) => `Stopped at ., 1/1:\n[${code}] ${message}`;

describe('util:', () => {
  test('if evaluates the branch its condition chooses, and only that one', async () => {
    expect(await ok("util:if(true(), 123, 456), util:if('', 'wrong!'), util:if((), 1, 2), util:if(0, error(), 'lazy'), util:if(<a/>, 'node')")).toBe('123\n2\nlazy\nnode');
  });

  test('if needs a condition with an effective boolean value', async () => {
    for (const call of ['util:if', 'util:if#2']) {
      expect(await fails(`${call}((1, 2), 1)`)).toBe(error('FORG0006', 'Effective boolean value is not defined for an atomic sequence of length > 1'));
      expect(await fails(`${call}(xs:date('2026-01-01'), 1)`)).toBe(error('FORG0006', 'Effective boolean value is not defined for type xs:date'));
    }
  });

  test('count-within, range and array-member', async () => {
    expect(await ok('util:count-within((1, 2, 3), 2), util:count-within((1, 2, 3), 1, 2), util:count-within((), 0)')).toBe('true\nfalse\ntrue');
    expect(await ok("string-join(util:range(1 to 10, 2.5, 5.5), ' '), string-join(util:range(1 to 5, -3, 2), ' '), count(util:range(1 to 5, xs:double('NaN'), 3)), count(util:range(1 to 5, 4, 2)), string-join(util:range(1 to 5, 4, xs:double('INF')), ' ')")).toBe('3 4 5\n1 2\n0\n0\n4 5');
    expect(await ok("array:size(util:array-member((1, 2))), util:array-member((1, 2))(1) => string-join(','), array:size(util:array-member(())), util:array-member('a') instance of array(xs:string)")).toBe('1\n1,2\n1\ntrue');
  });

  test('root answers the document of each node, once each', async () => {
    expect(await ok('let $d := document { <a x="1"><b/><c/></a> } return (count(util:root(($d//c, $d//b, $d/a/@x))), util:root($d//b) is $d)')).toBe('1\ntrue');
    expect(await ok('let $d := document { <a/> }, $e := document { <b/> } return count(util:root(($e/b, $d/a, $e/b)))')).toBe('2');
    expect(await fails('util:root(<a><b/></a>/b)')).toBe(error('XPDY0050', 'util:root: Value has no document node.'));
  });

  test('strip-namespaces puts the names with the given prefixes (all without) in no namespace', async () => {
    expect(await ok("util:strip-namespaces(<xml xmlns='xuri' xmlns:prefix='uri2' prefix:name='value'><prefix:child/></xml>)")).toBe('<xml name="value"><child/></xml>');
    expect(await ok("<xml xmlns='uri1'><child xmlns='uri2'/><p:x xmlns:p='u' p:y='1'/></xml> => util:strip-namespaces('')")).toBe('<xml><child/><p:x xmlns:p="u" p:y="1"/></xml>');
    expect(await ok("let $d := util:strip-namespaces(document { <p:a xmlns:p='u'/> }, 'p') return ($d instance of document-node(), $d)")).toBe('true\n<a/>');
    expect(await ok("util:strip-namespaces(text { 'x' })")).toBe('x');
    expect(await fails("util:strip-namespaces(<a xmlns:p='u' p:x='1' x='2'/>)")).toBe(error('XQDY0025', 'util:strip-namespaces: Two attributes would have the same name: x.'));
  });
});

describe('string:', () => {
  test('format formats as java.util.Formatter does', async () => {
    expect(await ok("string:format('%06d', 256), string:format('%s and %s', 'a', 1.5), string:format('%2$s %1$s', 'a', 'b')")).toBe('000256\na and 1.5\nb a');
    expect(await ok("string:format('%.2f|%e|%g|%x|%,d|%-5s|%5s|%b|%c', 1.005, 12345.678, 0.0001234, -1, 1234567, 'ab', 'cd', 'x', xs:int(65))")).toBe(
      '1.01|1.234568e+04|0.000123400|ffffffffffffffff|1,234,567|ab   |   cd|true|A',
    );
    expect(await ok("string:format('%.1f %s %S %08.3f %+d %(d %x %#x %o %X %h %c %%', 0.25e0, 1e10, 'abc', -3.14159, 5, -5, xs:unsignedLong(18446744073709551615), 255, 8, 255, 'a', xs:unsignedShort(66))")).toBe(
      '0.3 1.0E10 ABC -003.142 +5 (5) ffffffffffffffff 0xff 10 FF 61 B %',
    );
  });

  test('format errors are string:format, with the exception Java raises', async () => {
    expect(await fails("string:format('%d', 'x')")).toBe(error('string:format', 'IllegalFormatConversionException: d != java.lang.String.'));
    expect(await fails("string:format('%c', 65)")).toBe(error('string:format', 'IllegalFormatConversionException: c != java.lang.Long.'));
    expect(await fails("string:format('%d', 1.5e0)")).toBe(error('string:format', 'IllegalFormatConversionException: d != java.lang.Double.'));
    expect(await fails("string:format('%q', 1)")).toBe(error('string:format', "UnknownFormatConversionException: Conversion = 'q'."));
    expect(await fails("string:format('%s')")).toBe(error('string:format', "MissingFormatArgumentException: Format specifier '%s'."));
    expect(await fails("string:format('%-s', 'a')")).toBe(error('string:format', 'MissingFormatWidthException: %-s.'));
    expect(await fails("string:format('%.2d', 1)")).toBe(error('string:format', 'IllegalFormatPrecisionException: 2.'));
    expect(await fails("string:format('%.1000001f', 1.0)")).toBe("[XPDY0130] Format width or precision too large in '%.1000001f' (at most 1000000).");
    expect(await fails("string:format('%s', ())")).toBe(error('XPTY0004', 'string:format: value 1 must be one item, found an empty sequence.'));
  });

  test('similarity measures and phonetic codes', async () => {
    expect(await ok("string:levenshtein('flower', 'flowers'), string:levenshtein('ab', 'ba'), string:levenshtein('', ''), string:jaro-winkler('MARTHA', 'MARHTA'), string:jaro-winkler('abc', 'xyz')")).toBe(
      '0.8571428571428571\n0.5\n1\n0.96\n0',
    );
    expect(await ok("string:soundex('Robert'), string:soundex('Tymczak'), string:soundex('Ashcraft'), string:soundex('Pfister'), string:soundex('')")).toBe('R163\nT522\nA261\nP236\n0000');
    expect(await ok("string:cologne-phonetic('Müller-Lüdenscheidt'), string:cologne-phonetic('Wikipedia'), string:cologne-phonetic('Xaver')")).toBe('65752682\n3412\n4837');
    expect(await fails("string:levenshtein(string-join((1 to 10001) ! 'a'), 'a')")).toBe(error('string:bounds', 'String exceeds the maximum length of 10000 characters.'));
  });
});

describe('bin:', () => {
  test('binaries from digits, octets and strings', async () => {
    expect(await ok("bin:hex('11223F4E'), string(bin:hex('1223F4E')), string(bin:bin('1101000111010101')), xs:hexBinary(bin:bin('1000111010101')), string(bin:octal('11223047')), count(bin:hex(())), string(bin:hex(''))")).toBe(
      'ESI/Tg==\nASI/Tg==\n0dU=\n11D5\nJSYn\n0\n',
    );
    expect(await ok("bin:to-octets(xs:hexBinary('0aff')), string(bin:from-octets((1, 2, 255))), bin:length(bin:hex('010203')), bin:hex('01') instance of xs:base64Binary")).toBe('10\n255\nAQL/\n3\ntrue');
    expect(await ok("bin:decode-string(bin:hex('48656c6c6f')), bin:decode-string(bin:hex('48656c6c6f'), 'UTF-8', 1, 3), string(bin:encode-string('Hé', 'ISO-8859-1')), xs:hexBinary(bin:encode-string('A', 'UTF-16'))")).toBe(
      'Hello\nell\nSOk=\n0041',
    );
  });

  test('parts, joins, padding and search', async () => {
    expect(
      await ok(
        "xs:hexBinary(bin:part(bin:hex('0102030405'), 1, 2)), xs:hexBinary(bin:part(bin:hex('0102030405'), 3)), xs:hexBinary(bin:join((bin:hex('01'), xs:hexBinary('02'), bin:hex('')))), xs:hexBinary(bin:insert-before(bin:hex('0104'), 1, bin:hex('0203')))",
      ),
    ).toBe('0203\n0405\n0102\n01020304');
    expect(await ok("xs:hexBinary(bin:pad-left(bin:hex('01'), 2)), xs:hexBinary(bin:pad-right(bin:hex('01'), 2, 255)), bin:find(bin:hex('0102030102'), 1, bin:hex('0102')), count(bin:find(bin:hex('01'), 0, bin:hex('02')))")).toBe(
      '000001\n01FFFF\n3\n0',
    );
  });

  test('numbers packed and unpacked in both octet orders', async () => {
    expect(await ok("xs:hexBinary(bin:pack-integer(-2, 2)), xs:hexBinary(bin:pack-integer(258, 2, 'LE')), bin:unpack-integer(bin:hex('fffe'), 0, 2), bin:unpack-unsigned-integer(bin:hex('fffe'), 0, 2), bin:unpack-integer(bin:hex('0201'), 0, 2, 'little-endian')")).toBe(
      'FFFE\n0201\n-2\n65534\n258',
    );
    expect(await ok("xs:hexBinary(bin:pack-double(1.5)), bin:unpack-double(bin:pack-double(1.5), 0), xs:hexBinary(bin:pack-float(xs:float(1), 'LE')), bin:unpack-float(bin:hex('3f800000'), 0), bin:unpack-unsigned-integer(bin:hex('ffffffffffffffffff'), 0, 9), xs:hexBinary(bin:pack-double(xs:double('-INF'))), bin:unpack-double(bin:hex('7ff0000000000000'), 0)")).toBe(
      '3FF8000000000000\n1.5\n0000803F\n1\n4722366482869645213695\nFFF0000000000000\nINF',
    );
  });

  test('integers are truncated or sign-extended to their size, also in a million octets', async () => {
    expect(await ok("xs:hexBinary(bin:pack-integer(256, 1)), xs:hexBinary(bin:pack-integer(-129, 1)), xs:hexBinary(bin:pack-integer(1, 3, 'LE')), xs:hexBinary(bin:pack-integer(-2, 3, 'LE'))")).toBe('00\n7F\n010000\nFEFFFF');
    expect(await ok('let $b := bin:pack-integer(-1, 1000000) return (bin:length($b), bin:unpack-integer($b, 0, 1000000), bin:length(bin:shift($b, 3)))')).toBe('1000000\n-1\n1000000');
  });

  test('bitwise operations and shifts', async () => {
    expect(
      await ok(
        "xs:hexBinary(bin:and(bin:hex('0f0f'), bin:hex('ff00'))), xs:hexBinary(bin:or(bin:hex('0f0f'), bin:hex('ff00'))), xs:hexBinary(bin:xor(bin:hex('0f0f'), bin:hex('ff00'))), xs:hexBinary(bin:not(bin:hex('0f'))), count(bin:and((), bin:hex('01')))",
      ),
    ).toBe('0F00\nFF0F\nF00F\nF0\n0');
    expect(await ok("xs:hexBinary(bin:shift(bin:hex('0180'), 1)), xs:hexBinary(bin:shift(bin:hex('0180'), -1)), xs:hexBinary(bin:shift(bin:hex('01'), 9))")).toBe('0300\n00C0\n00');
  });

  test('errors are the EXPath codes', async () => {
    expect(await fails("bin:part(bin:hex('0102'), 3)")).toBe(error('bin:index-out-of-range', "Index '3' is out of range (0-2)."));
    expect(await fails("bin:part(bin:hex('0102'), 1, 2)")).toBe(error('bin:index-out-of-range', "Index '3' is out of range (0-2)."));
    expect(await fails("bin:part(bin:hex('0102'), 1, -1)")).toBe(error('bin:negative-size', "Size '-1' is negative."));
    expect(await fails('bin:from-octets(256)')).toBe(error('bin:octet-out-of-range', "Octet '256' is out of range."));
    expect(await fails("bin:bin('102')")).toBe(error('bin:non-numeric-character', 'Invalid character in constructor string.'));
    expect(await fails("bin:decode-string(bin:hex('41'), 'bla')")).toBe(error('bin:unknown-encoding', "Unknown encoding 'bla'."));
    expect(await fails("bin:decode-string(bin:hex('ff'))")).toBe(error('bin:conversion-error', 'The input is not valid UTF-8 text.'));
    expect(await fails("bin:encode-string('€', 'US-ASCII')")).toBe(error('bin:conversion-error', 'The string cannot be encoded as US-ASCII.'));
    expect(await fails("bin:xor(bin:hex('01'), bin:hex('0102'))")).toBe(error('bin:differing-length-arguments', 'Inputs are of different length (1/2).'));
    expect(await fails("bin:pack-integer(1, 2, 'middle')")).toBe(error('bin:unknown-significance-order', "Unknown octet-order value: 'middle'."));
    expect(await fails("bin:pad-left(bin:hex('01'), 1000000000)")).toBe('[XPDY0130] Binary too large: 1000000001 octets (at most 268435456).');
    expect(await fails("bin:length('abc')")).toBe(error('XPTY0004', 'bin:length: xs:base64Binary or xs:hexBinary expected, found xs:string.'));
  });
});

describe('as function items', () => {
  test('named references, partial applications and arrows call the module functions', async () => {
    expect(await ok("for-each(('Robert', 'Rupert'), string:soundex#1), string:soundex(?)('Tymczak'), string-join((1 to 5) => util:range(2, 3), ' '), bin:length#1(bin:hex('0102')), util:if#3(false(), 1, 2), random:double#0() lt 1")).toBe(
      'R163\nR163\nT522\n2 3\n2\n2\ntrue',
    );
    expect(await ok("count(function-lookup(xs:QName('string:soundex'), 1)), count(function-lookup(xs:QName('bin:hex'), 1)), exists(function-lookup(xs:QName('fn:count'), 1))")).toBe('0\n0\ntrue');
    expect(await ok("let $f := bin:pad-left(?, 1, 255) return xs:hexBinary($f(bin:hex('01'))), sort(('Rupert', 'Ashcraft'), (), string:soundex#1)")).toBe('FF01\nAshcraft\nRupert');
  });
});

describe('out: (BaseX 9, removed in BaseX 10)', () => {
  test('cr, nl, tab and format answer as BaseX 9 did, format as string:format', async () => {
    expect(await ok("string-to-codepoints(out:cr() || out:nl() || out:tab()), out:format('%03d|%s', 7, 'x'), out:nl#0() = '&#10;'")).toBe('13\n10\n9\n007|x\ntrue');
    expect(await fails("out:format('%d', 'x')")).toBe(await fails("string:format('%d', 'x')"));
  });
});
