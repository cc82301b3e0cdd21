import { engineFixture } from './helpers';

const e = engineFixture();

describe('translate: switch', () => {
  it.each([
    ['switch (2) case 1 return "a" case 2 case 3 return "b" default return "c"', '"b"'],
    ['switch (4) case 1 return "a" default return "c"', '"c"'],
    ['switch ("a") case "A" return 1 case "a" return 2 default return 3', '2'],
    ['switch (xs:double("NaN")) case 1 return "a" case xs:float("NaN") return "nan" default return "c"', '"nan"'],
    ['switch (()) case 1 return "a" case () return "empty" default return "c"', '"empty"'],
    ['switch (<a>1</a>) case 1 return "int" case "1" return "string" default return "c"', '"string"'],
    ['switch (1) case "1" return "string" case 1.0 return "decimal" default return "c"', '"decimal"'],
    ['for $x in (1, 2) return switch ($x) case 1 return "one" default return "other"', '"one"\n"other"'],
  ])('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it.each([
    ['switch ((1, 2)) case 1 return "a" default return "c"'],
    ['switch (1) case (1, 2) return "a" default return "c"'],
  ])('XPTY0004: %s', async (query) => {
    expect((await e.error(query)).code).toBe('XPTY0004');
  });
});

describe('translate: typeswitch', () => {
  it.each([
    ['typeswitch (1) case xs:string return "s" case xs:integer return "i" default return "d"', '"i"'],
    ['typeswitch (1) case $x as xs:string | xs:integer return $x + 1 default $d return $d', '2'],
    ['typeswitch ("x") case $x as xs:integer return $x default $d return $d || "!"', '"x!"'],
    ['typeswitch (<a/>) case element(b) return 1 case $e as element() return name($e) default return 0', '"a"'],
    ['typeswitch ((1, 2)) case xs:integer return "one" case xs:integer+ return "many" default return "d"', '"many"'],
    ['typeswitch (()) case empty-sequence() return "empty" default return "d"', '"empty"'],
    ['for $x in (1, "a", 2.5) return typeswitch ($x) case xs:integer return "i" case xs:decimal return "dec" default return "o"', '"i"\n"o"\n"dec"'],
    ['let $x := 5 return typeswitch ($x) case $y as xs:integer return <a>{$x + $y}</a> default return ()', '<a>10</a>'],
  ])('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });
});

describe('translate: try/catch', () => {
  it.each([
    ['try { 1 div 0 } catch * { "caught" }', '"caught"'],
    ['try { 1 } catch * { "caught" }', '1'],
    ['try { 1 div 0 } catch err:FOAR0001 { $err:description }', '"Division by zero"'],
    ['try { 1 div 0 } catch * { $err:code }', 'Q{http://www.w3.org/2005/xqt-errors}FOAR0001'],
    ['try { 1 div 0 } catch * { prefix-from-QName($err:code) }', '"err"'],
    ['try { error(xs:QName("err:FOO"), "d", 42) } catch err:FOO { $err:value }', '42'],
    ['try { error(QName("urn:x", "x:E")) } catch Q{urn:x}* { "ns" }', '"ns"'],
    ['try { error(QName("urn:x", "x:E")) } catch *:E { "local" }', '"local"'],
    ['try { error(QName("urn:x", "x:E")) } catch err:* { "err" } catch * { "any" }', '"any"'],
    ['try { 1 div 0 } catch err:XPTY0004 | err:FOAR0001 { "union" }', '"union"'],
    ['try { try { 1 div 0 } catch err:XPTY0004 { 1 } } catch *:FOAR0001 { "outer" }', '"outer"'],
    ['try { try { 1 div 0 } catch * { error($err:code, "again") } } catch * { $err:description }', '"again"'],
    ['for $i in 1 to 3 return try { if ($i = 2) then error() else $i } catch * { "e" }', '1\n"e"\n3'],
    ['try { <a>{1 div 0}</a> } catch * { "in constructor" }', '"in constructor"'],
    ['let $x := 0 return try { 1 div $x } catch * { $x }', '0'],
    ['try { 1 div 0 } catch * { ($err:module, $err:line-number, $err:column-number) ! (. instance of xs:anyAtomicType) }', 'true()\ntrue()\ntrue()'],
    ['try { 1 div 0 } catch * { empty($err:additional) }', 'true()'],
    // the position of the try body in the query, not a line of the generated code (BaseX's too: line 1 for a one-line query)
    ['try { 1 div 0 } catch * { $err:line-number, $err:column-number }', '1\n7'],
    ['declare function local:f() { error() };\nlet $x := 1\nreturn try {\n   local:f() } catch * { $err:line-number, $err:column-number }', '4\n4'],
  ])('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it('lets uncaught errors through', async () => {
    expect((await e.error('try { 1 div 0 } catch err:XPTY0004 { 1 }')).code).toBe('FOAR0001');
  });

  it('maps XSLT type-error codes to XPTY0004 in catch clauses', async () => {
    // a declared decimal format keeps the query's stylesheet, so the function stays an
    // xsl:function, whose parameter raises XSLT's code
    const q = 'declare decimal-format local:d decimal-separator = ","; declare function local:f($x as xs:integer) { $x }; try { local:f(<a>x</a>) } catch err:XPTY0004 { local-name-from-QName($err:code) }';
    expect(await e.adaptive(q)).toBe('"XPTY0004"');
  });

  it('an untyped value that does not cast to a parameter type of a function item is FORG0001 (XPath 3.1 §3.1.5.2)', async () => {
    expect(await e.adaptive('declare function local:f($x as xs:integer) { $x }; try { local:f(<a>x</a>) } catch err:FORG0001 { local-name-from-QName($err:code) }')).toBe('"FORG0001"');
  });

  it('unwraps the error envelope of fn:error into $err:code and $err:value', async () => {
    const q = 'try { error(QName("urn:x", "x:E"), "d", (1, 2)) } catch * { prefix-from-QName($err:code), count($err:value) }';
    expect(await e.adaptive(q)).toBe('"x"\n2');
    // a map given as the value is a value, not an envelope
    expect(await e.adaptive('try { error(QName("urn:x", "x:E"), "d", map { "code": 1 }) } catch * { $err:value?code }')).toBe('1');
  });

  it('fn:error with a description keeps the whole value and the code prefix', async () => {
    expect(await e.adaptive('try { error(QName("urn:x", "x:E"), "d", ("v", 3, <a/>, true())) } catch * { count($err:value), $err:value[2] }')).toBe('4\n3');
    expect(await e.adaptive('try { error(QName("urn:x", "x:E"), "d") } catch Q{urn:x}E { prefix-from-QName($err:code), empty($err:value), $err:description }')).toBe(
      '"x"\ntrue()\n"d"',
    );
    expect(await e.adaptive('try { error((), "d", 1) } catch err:FOER0000 { local-name-from-QName($err:code), $err:value }')).toBe('"FOER0000"\n1');
    expect(await e.adaptive('try { error#3(QName("urn:x", "x:E"), "d", 5) } catch * { $err:value }')).toBe('5');
  });

  it('an uncaught fn:error still reports [CODE] description', async () => {
    const err = await e.error('error(xs:QName("err:FOER0000"), "boom", (1, 2))');
    expect(err.code).toBe('FOER0000');
    expect(err.body).toContain('[FOER0000] boom');
    expect((await e.error('error(QName("urn:x", "x:E"), "boom")')).body).toContain('boom');
  });
});
