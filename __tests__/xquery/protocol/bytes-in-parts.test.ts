/**
 * Large files from the server to the query host in parts (bytes-in-parts.ts): what the server
 * sends, how the host gathers it, and the handing on to the worker by transfer.
 */
import { Readable } from 'node:stream';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { BytesInParts, PART_BYTES, sendBytesInParts, type PartsView, type ReadPart } from '../../../lib/xquery/protocol/bytes-in-parts';
import { postAnswer, transferable } from '../../../lib/xquery/protocol/store-channel';
import type { ResourceInfo } from '../../../lib/store/types';

/** A view of one file `a.xml`, streamed in chunks of 64 KB; `pulled` counts the chunks read so far. */
function viewOf(bytes: Buffer): PartsView & { pulled: number; opened: number } {
  const view = {
    pulled: 0,
    opened: 0,
    resource: async (_db: string, path: string) => (path === 'a.xml' ? ({ path, bytes: bytes.length } as ResourceInfo) : undefined),
    openStream: () => {
      view.opened++;
      return Readable.from(
        (function* () {
          for (let i = 0; i < bytes.length; i += 65536) {
            view.pulled++;
            yield bytes.subarray(i, i + 65536);
          }
        })(),
      );
    },
  };
  return view;
}

const filled = (length: number) => Buffer.from(Array.from({ length }, (_, i) => (i * 7) % 251));

describe('sending a file in parts', () => {
  test('its size, then parts of at least PART_BYTES (the last may be smaller), then the end; together the file', async () => {
    const bytes = filled(2 * PART_BYTES + 12345);
    const sent: ReadPart[] = [];
    expect(await sendBytesInParts(viewOf(bytes), 'db', 'a.xml', async (m) => void sent.push(m))).toBe(true);
    expect(sent[0]).toEqual({ size: bytes.length });
    expect(sent[sent.length - 1]).toEqual({ end: true });
    const parts = sent.slice(1, -1).map((m) => ('part' in m ? m.part : Buffer.alloc(0)));
    expect(parts.length).toBe(3);
    expect(parts.slice(0, -1).every((p) => p.length >= PART_BYTES)).toBe(true);
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
  });

  test('the next part is read only once the one before is written', async () => {
    const view = viewOf(filled(3 * PART_BYTES));
    const pulledAtSend: number[] = [];
    let release = () => {};
    const sending = sendBytesInParts(view, 'db', 'a.xml', (m) => {
      if (!('part' in m)) return Promise.resolve();
      pulledAtSend.push(view.pulled);
      return new Promise((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // the first part is out, unwritten: the stream is not read further (beyond its own read-ahead)
    expect(pulledAtSend.length).toBe(1);
    const pulled = view.pulled;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(view.pulled).toBe(pulled);
    for (let i = 0; i < 3; i++) {
      release();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await sending).toBe(true);
    // each part is 16 chunks; the stream reads at most one part's worth ahead of what was written
    expect(pulledAtSend.length).toBe(3);
    pulledAtSend.forEach((pulledThen, k) => expect(pulledThen).toBeLessThanOrEqual(16 * (k + 2)));
  });

  test('a smaller file, or none, is not sent in parts: nothing is sent and the file is not opened', async () => {
    for (const [bytes, path] of [[filled(PART_BYTES - 1), 'a.xml'], [filled(10), 'missing.xml']] as const) {
      const view = viewOf(bytes);
      const sent: ReadPart[] = [];
      expect(await sendBytesInParts(view, 'db', path, async (m) => void sent.push(m))).toBe(false);
      expect(sent).toEqual([]);
      expect(view.opened).toBe(0);
    }
  });
});

describe('gathering the parts', () => {
  test('into one buffer of the announced size, of its own', () => {
    const bytes = filled(100_000);
    const gathered = new BytesInParts(bytes.length);
    for (let i = 0; i < bytes.length; i += 30_000) gathered.add(bytes.subarray(i, i + 30_000));
    const done = gathered.done();
    expect(done.equals(bytes)).toBe(true);
    expect([done.byteOffset, done.byteLength, done.buffer.byteLength]).toEqual([0, bytes.length, bytes.length]);
  });

  test('more or fewer bytes than announced: what arrived', () => {
    const more = new BytesInParts(4);
    more.add(Buffer.from('abc'));
    more.add(Buffer.from('defg'));
    expect(more.done().toString()).toBe('abcdefg');
    const fewer = new BytesInParts(10);
    fewer.add(Buffer.from('abc'));
    const done = fewer.done();
    expect(done.toString()).toBe('abc');
    expect(done.buffer.byteLength).toBe(3);
  });
});

describe('handing the bytes to the worker', () => {
  test('gathered bytes go by transfer, other bytes by copy', () => {
    const { port1, port2 } = new MessageChannel();
    const gathered = new BytesInParts(5);
    gathered.add(Buffer.from('hello'));
    const own = gathered.done();
    const other = Buffer.from('world, a longer text');
    postAnswer(port1, { ok: true, bytes: [own, other] }, 1);
    const received = receiveMessageOnPort(port2)?.message as { bytes: Uint8Array[] };
    expect(received.bytes.map((b) => Buffer.from(b).toString())).toEqual(['hello', 'world, a longer text']);
    expect(own.buffer.byteLength).toBe(0);
    expect(other.toString()).toBe('world, a longer text');
    port1.close();
  });

  test('a view of part of a buffer is never transferred', () => {
    const { port1, port2 } = new MessageChannel();
    const whole = Buffer.from('0123456789');
    const part = transferable(whole.subarray(2, 5));
    postAnswer(port1, { ok: true, bytes: [part] }, 1);
    expect(Buffer.from((receiveMessageOnPort(port2)?.message as { bytes: Uint8Array[] }).bytes[0]).toString()).toBe('234');
    expect(whole.toString()).toBe('0123456789');
    port1.close();
  });
});
