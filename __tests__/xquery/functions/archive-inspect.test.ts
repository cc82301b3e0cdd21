/**
 * BaseX's archive: and inspect: modules over REST (functions/archive.ts, inspect.ts): exact
 * bodies, BaseX's error codes, and archives that would expand beyond the bounds (zip bombs).
 */
import { zipSync } from 'fflate';
import { failureBody, queryBody, serverOfFile } from '../../helpers/rest';

const server = serverOfFile();
const ok = (query: string) => queryBody(server(), query);
const fails = (query: string) => failureBody(server(), query);
const b64 = (bytes: Uint8Array) => `xs:base64Binary('${Buffer.from(bytes).toString('base64')}')`;

/** A ZIP archive of one entry `a.txt` whose central directory record is rewritten by `patch`. */
function patchedZip(content: Uint8Array, patch: (central: Buffer, end: Buffer) => void): Uint8Array {
  const zip = Buffer.from(zipSync({ 'a.txt': content }));
  const end = zip.subarray(zip.length - 22);
  const central = zip.subarray(end.readUInt32LE(16));
  patch(central, end);
  return zip;
}

describe('archive:', () => {
  const TWO = "archive:create(('a.txt', <archive:entry last-modified='2024-03-20T03:30:32' compression-level='0'>dir/b.xml</archive:entry>), ('hello', '<b/>'))";

  test('create, then list the entries with their descriptors', async () => {
    expect(await ok(`archive:entries(${TWO})[2]`)).toBe(
      '<archive:entry xmlns:archive="http://basex.org/modules/archive" size="4" last-modified="2024-03-20T03:30:32" compressed-size="4">dir/b.xml</archive:entry>',
    );
    expect(await ok(`archive:entries(${TWO}) ! string()`)).toBe('a.txt\ndir/b.xml');
    expect(await ok(`archive:options(${TWO}) => serialize(map { 'method': 'adaptive' })`)).toBe('map{"algorithm":"deflate","format":"zip"}');
    expect(await ok("archive:options(archive:create('a', 'b', map { 'algorithm': 'stored' }))?algorithm")).toBe('stored');
  });

  test('extract texts and binaries, all or selected, in archive order', async () => {
    expect(await ok(`archive:extract-text(${TWO})`)).toBe('hello\n<b/>');
    expect(await ok(`archive:extract-text(${TWO}, 'dir/b.xml')`)).toBe('<b/>');
    expect(await ok(`archive:extract-text(${TWO}, <archive:entry>a.txt</archive:entry>)`)).toBe('hello');
    expect(await ok(`archive:extract-binary(${TWO}, 'a.txt') => string()`)).toBe('aGVsbG8=');
    expect(await ok("archive:extract-text(archive:create(<archive:entry encoding='ISO-8859-1'>l.txt</archive:entry>, 'größe'), (), 'ISO-8859-1')")).toBe('größe');
  });

  test('update replaces and adds entries; delete removes them', async () => {
    expect(await ok(`archive:extract-text(archive:update(${TWO}, ('a.txt', 'c.txt'), ('HELLO', 'new')))`)).toBe('<b/>\nHELLO\nnew');
    expect(await ok(`archive:entries(archive:delete(${TWO}, 'a.txt')) ! string()`)).toBe('dir/b.xml');
  });

  test('an archive stored as a binary resource is read like any other', async () => {
    await server().put('/rest/zips').expect(201);
    await server().put('/rest/zips/docs.zip', Buffer.from(zipSync({ 'x.xml': new TextEncoder().encode('<x>1</x>') })), 'application/zip').expect(201);
    expect(await ok("archive:extract-text(db:get-binary('zips', 'docs.zip')) => parse-xml() => data()")).toBe('1');
  });

  test("BaseX's errors", async () => {
    expect(await fails("archive:create('a', ())")).toMatch(/\[archive:number\] Number of entries and contents differs: 1 vs\. 0\.$/);
    expect(await fails("archive:create(<archive:entry/>, '')")).toMatch(/\[archive:descriptor\] Name of ZIP entry must not be empty\.$/);
    expect(await fails("archive:create(<archive:entry compression-level='10'>a</archive:entry>, '')")).toMatch(/\[archive:descriptor\] Invalid compression level: '10'\.$/);
    expect(await fails("archive:create(<archive:entry last-modified='2020'>a</archive:entry>, '')")).toMatch(/\[archive:descriptor\] xs:dateTime value is invalid : '2020'\.$/);
    expect(await fails("archive:create(<archive:entry encoding='bogus'>a</archive:entry>, 'x')")).toMatch(/\[archive:encode\] Unknown encoding 'bogus'\.$/);
    expect(await fails("archive:create('a', 'b', map { 'format': 'tar' })")).toMatch(/\[archive:format\] format not supported: 'tar'\.$/);
    expect(await fails("archive:entries(xs:hexBinary('00'))")).toMatch(/\[archive:error\] Operation failed: no ZIP archive\.$/);
    expect(await fails("archive:extract-text(archive:create('a', xs:hexBinary('ff')))")).toMatch(/\[archive:encode\] String conversion: the input is not valid UTF-8 text\.$/);
    expect(await fails("archive:create('a', 1)")).toMatch(/\[XPTY0004\]/);
  });

  test('a path or URI is not read as an archive: the host files stay out of reach', async () => {
    expect(await fails("archive:entries('/etc/passwd')")).toMatch(/\[XPTY0004\] archive:entries: xs:base64Binary or xs:hexBinary expected, found xs:string\.$/);
  });
});

describe('archive: zip bombs are refused before anything is inflated', () => {
  test('an entry that declares more bytes than the bound', async () => {
    const zip = patchedZip(new TextEncoder().encode('x'), (central) => central.writeUInt32LE(300 * 1024 * 1024, 24));
    expect(await fails(`archive:entries(${b64(zip)})`)).toMatch(/\[archive:error\] Operation failed: the entries would expand to more than 268435456 bytes\.$/);
  });

  test('more entries than the bound', async () => {
    const zip = patchedZip(new TextEncoder().encode('x'), (_central, end) => end.writeUInt16LE(10_001, 10));
    expect(await fails(`archive:extract-text(${b64(zip)})`)).toMatch(/\[archive:error\] Operation failed: the archive has more than 10000 entries\.$/);
  });

  test('an entry that would grow more than 1,000 times', async () => {
    const zip = patchedZip(new TextEncoder().encode('x'), (central) => {
      central.writeUInt32LE(2 * 1024 * 1024, 24); // declared size 2 MiB ...
      central.writeUInt32LE(1024, 20); // ... from 1 KiB
    });
    expect(await fails(`archive:extract-binary(${b64(zip)})`)).toMatch(/\[archive:error\] Operation failed: entry 'a\.txt' would expand more than 1000 times\.$/);
  });

  test('an entry that inflates to more than it declares stops at its declared size', async () => {
    const zip = patchedZip(new Uint8Array(100_000), (central) => central.writeUInt32LE(10, 24));
    expect(await fails(`archive:extract-binary(${b64(zip)})`)).toMatch(/\[archive:error\] Operation failed: entry 'a\.txt' is not of its declared size\.$/);
  });

  test('a damaged entry fails its CRC check', async () => {
    const zip = patchedZip(new TextEncoder().encode('hello'), (central) => central.writeUInt32LE(0x12345678, 16));
    expect(await fails(`archive:extract-text(${b64(zip)})`)).toMatch(/\[archive:error\] Operation failed: entry 'a\.txt' fails its CRC-32 check\.$/);
  });
});

const MODULE = `(:~
 : Sample functions.
 : @author BaseX Team
 : @version 1.0
 :)
module namespace samples = 'http://basex.org/modules/samples';

(:~ A sample string. :)
declare variable $samples:test-string as xs:string := 'abc';

(:~
 : Returns the given number.
 : @param $number number to return
 : @return specified number
 :)
declare %private function samples:same($number as xs:integer) as xs:integer {
  $number
};
`;

describe('inspect:', () => {
  beforeAll(async () => {
    await server().put('/rest/code').expect(201);
    await server().put('/rest/code/sample.xqm', MODULE, 'text/plain').expect(201);
  });

  test('inspect:module describes a stored library module with its xqDoc comments', async () => {
    expect(await ok("inspect:module('code/sample.xqm')")).toBe(
      '<module prefix="samples" uri="http://basex.org/modules/samples">' +
        '<description>Sample functions.</description><author>BaseX Team</author><version>1.0</version>' +
        '<variable name="samples:test-string" uri="http://basex.org/modules/samples" type="xs:string" external="false"><description>A sample string.</description></variable>' +
        '<function name="samples:same" uri="http://basex.org/modules/samples" external="false">' +
        '<argument name="number" type="xs:integer">number to return</argument>' +
        '<annotation name="private" uri="http://www.w3.org/2012/xquery"/>' +
        '<description>Returns the given number.</description>' +
        '<return type="xs:integer">specified number</return></function></module>',
    );
  });

  test('inspect:xqdoc gives the xqDoc document', async () => {
    const body = await ok("inspect:xqdoc('code/sample.xqm')");
    expect(body.replace(/<xqdoc:date>[^<]*<\/xqdoc:date>/, '<xqdoc:date/>')).toBe(
      '<xqdoc:xqdoc xmlns:xqdoc="http://www.xqdoc.org/1.0"><xqdoc:control><xqdoc:date/><xqdoc:version>1.1</xqdoc:version></xqdoc:control>' +
        '<xqdoc:module type="library"><xqdoc:uri>http://basex.org/modules/samples</xqdoc:uri><xqdoc:name>sample.xqm</xqdoc:name>' +
        '<xqdoc:comment><xqdoc:description>Sample functions.</xqdoc:description><xqdoc:author>BaseX Team</xqdoc:author><xqdoc:version>1.0</xqdoc:version></xqdoc:comment></xqdoc:module>' +
        '<xqdoc:imports/><xqdoc:namespaces><xqdoc:namespace prefix="samples" uri="http://basex.org/modules/samples"/></xqdoc:namespaces>' +
        '<xqdoc:variables><xqdoc:variable><xqdoc:name>samples:test-string</xqdoc:name><xqdoc:comment><xqdoc:description>A sample string.</xqdoc:description></xqdoc:comment><xqdoc:type>xs:string</xqdoc:type></xqdoc:variable></xqdoc:variables>' +
        '<xqdoc:functions><xqdoc:function arity="1"><xqdoc:comment><xqdoc:description>Returns the given number.</xqdoc:description><xqdoc:param>$number number to return</xqdoc:param><xqdoc:return>specified number</xqdoc:return></xqdoc:comment>' +
        '<xqdoc:name>samples:same</xqdoc:name><xqdoc:annotations><xqdoc:annotation name="private"/></xqdoc:annotations>' +
        '<xqdoc:signature>declare %private function samples:same($number as xs:integer) as xs:integer</xqdoc:signature>' +
        '<xqdoc:parameters><xqdoc:parameter><xqdoc:name>number</xqdoc:name><xqdoc:type>xs:integer</xqdoc:type></xqdoc:parameter></xqdoc:parameters>' +
        '<xqdoc:return><xqdoc:type>xs:integer</xqdoc:type></xqdoc:return></xqdoc:function></xqdoc:functions></xqdoc:xqdoc>',
    );
  });

  test('inspect:function names a function item', async () => {
    expect(await ok('inspect:function(count#1)')).toBe('<function name="count" uri="http://www.w3.org/2005/xpath-functions" external="false"><argument/></function>');
  });

  test('a module that does not parse, or is not there, is an error; host files are refused', async () => {
    await server().put('/rest/code/bad.xqm', 'module namespace x = "x"; declare function', 'text/plain').expect(201);
    expect(await fails("inspect:module('code/bad.xqm')")).toMatch(/\[XPST0003\] code\/bad\.xqm, 1\/\d+: /);
    expect(await fails("inspect:module('code/none.xqm')")).toMatch(/\[FODC0002\] Resource 'code\/none\.xqm' does not exist\.$/);
    expect(await fails("inspect:xqdoc('file:///etc/passwd')")).toMatch(/\[FODC0002\] Access to 'file:\/\/\/etc\/passwd' is denied\.$/);
  });
});
