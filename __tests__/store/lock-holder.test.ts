/** The record of a data folder's holder and its lease (lock-holder.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { LEASE_MS, LOCK_FILE, leaseLeft, readRecord, renewRecord, thisProcess, writeRecord } from '../../lib/store/file/lock-holder';
import { tempDir } from '../helpers/rest';

const read = (dbPath: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(dbPath, LOCK_FILE), 'utf8'));

test('a renewal renews the record of its holder, and never overwrites the record of another one', async () => {
  const dbPath = tempDir();
  const me = thisProcess();
  fs.writeFileSync(path.join(dbPath, LOCK_FILE), JSON.stringify({ ...me, renewed: 0 }));
  await renewRecord(dbPath, me);
  expect(read(dbPath)).toEqual({ ...me, renewed: expect.any(Number) });
  expect(read(dbPath).renewed).toBeGreaterThan(0);
  const other = { pid: 4242, host: 'elsewhere.example', kernel: 'boot:another-machine', since: me.since, renewed: 1 };
  fs.writeFileSync(path.join(dbPath, LOCK_FILE), JSON.stringify(other));
  await renewRecord(dbPath, me);
  expect(read(dbPath)).toEqual(other);
  expect(fs.readdirSync(dbPath)).toEqual([LOCK_FILE]);
});

test('a lease counts for records of another kernel only, from their last renewal', async () => {
  const dbPath = tempDir();
  await writeRecord(dbPath, { ...thisProcess(), pid: 1 });
  const own = await readRecord(dbPath);
  expect(own && leaseLeft(own)).toBe(0);
  const renewed = 1_000_000;
  const other = { holder: { pid: 1, host: 'elsewhere.example', kernel: 'boot:another-machine', renewed }, mtimeMs: 0 };
  expect(leaseLeft(other, renewed + 1000)).toBe(LEASE_MS - 1000);
  expect(leaseLeft(other, renewed + LEASE_MS)).toBe(0);
  // a record of an earlier version: its host tells, and the file's time is its renewal
  const legacy = { holder: { pid: 1, host: 'elsewhere.example' }, mtimeMs: renewed };
  expect(leaseLeft(legacy, renewed + 1000)).toBe(LEASE_MS - 1000);
});
