import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Utf8Output } from '../../lib/convert/utf8-output';
import { XmlWriter } from '../../lib/convert/writer';

/** The next message on `port`. */
const nextMessage = (port: MessagePort): Promise<unknown> => new Promise((resolve) => port.once('message', resolve));

describe('Utf8Output', () => {
  test('encodes what is written, across growth in place and past its reserved size', () => {
    // expected 10 bytes: 1 MiB and 10 bytes made, 1 MiB and 20 reserved; 3.5 MB of text grows past both
    const out = new Utf8Output(10);
    const pieces = ['a', 'é', '€', '𝄞', 'x'.repeat(1 << 20), '<\u00e9>'.repeat(300_000), 'end'];
    for (const piece of pieces) out.write(piece);
    const bytes = out.bytes();
    const expected = Buffer.from(pieces.join(''), 'utf8');
    expect(bytes.length).toBe(expected.length);
    expect(bytes.equals(expected)).toBe(true);
  });

  test('answers bytes that own their memory exactly, so that they can be moved to another thread', async () => {
    const out = new Utf8Output(1000);
    out.write('<r>größe</r>');
    const bytes = out.bytes();
    expect([bytes.byteOffset, bytes.buffer.byteLength]).toEqual([0, bytes.length]);
    const { port1, port2 } = new MessageChannel();
    const arrived = nextMessage(port2);
    port1.postMessage(bytes, [bytes.buffer as ArrayBuffer]);
    const moved = (await arrived) as Uint8Array;
    port1.close();
    expect(bytes.buffer.byteLength).toBe(0);
    expect(Buffer.from(moved).toString('utf8')).toBe('<r>größe</r>');
  });

  test('nothing written: no bytes', () => {
    expect(new Utf8Output(100).bytes().length).toBe(0);
  });
});

describe('XmlWriter output', () => {
  const write = (w: XmlWriter) => {
    w.startElement('r', [['a', 'x"y']]);
    w.characters('1 < 2 & ü');
    w.endElement();
  };

  test('as bytes is the text, encoded', () => {
    const text = new XmlWriter();
    write(text);
    const bytes = new XmlWriter({ utf8: new Utf8Output(0) });
    write(bytes);
    const written = bytes.finishBytes();
    expect(written.bytes.toString('utf8')).toBe('<r a="x&quot;y">1 &lt; 2 &amp; ü</r>');
    expect({ ...text.finish(), xml: undefined }).toEqual({ ...written, bytes: undefined, xml: undefined });
  });

  test('is either text or bytes', () => {
    const bytes = new XmlWriter({ utf8: new Utf8Output(0) });
    write(bytes);
    expect(() => bytes.finish()).toThrow('XmlWriter: the output is bytes (finishBytes)');
    const text = new XmlWriter();
    write(text);
    expect(() => text.finishBytes()).toThrow('XmlWriter: the output is text (finish)');
  });
});
