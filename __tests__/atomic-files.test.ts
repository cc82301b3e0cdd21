import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  AtomicWriter,
  isTempName,
  linkTemp,
  pruneEmptyDirs,
  sweepTemps,
  tempName,
  writeFileAtomic,
  writeNewFileSync,
  writeTemp,
  writeTempSync,
} from '../lib/atomic-files';
import { tempFolder } from './store/helpers';

const dir = tempFolder();

describe('atomic writes', () => {
  test('temp names are unique and recognisable, never resource names', () => {
    const names = new Set(Array.from({ length: 1000 }, tempName));
    expect(names.size).toBe(1000);
    for (const name of names) {
      expect(isTempName(name)).toBe(true);
      expect(name.endsWith('.')).toBe(true);
    }
    expect(isTempName('a.tmp')).toBe(false);
  });

  test('writeFileAtomic replaces the file and leaves no temp behind', async () => {
    const file = path.join(dir.path, 'f.json');
    await writeFileAtomic(file, 'one');
    await writeFileAtomic(file, Buffer.from('two'));
    expect(await fs.readFile(file, 'utf8')).toBe('two');
    expect(await fs.readdir(dir.path)).toEqual(['f.json']);
  });

  test('a failed write leaves the old content and no temp', async () => {
    const file = path.join(dir.path, 'missing-folder', 'f.json');
    await expect(writeFileAtomic(file, 'x')).rejects.toThrow();
    expect(await fs.readdir(dir.path)).toEqual([]);
  });

  test('one writer per path: concurrent writes settle with the latest data on disk', async () => {
    const writer = new AtomicWriter();
    const file = path.join(dir.path, 'w.txt');
    await Promise.all(Array.from({ length: 20 }, (_, i) => writer.write(file, String(i))));
    expect(await fs.readFile(file, 'utf8')).toBe('19');
    expect(await fs.readdir(dir.path)).toEqual(['w.txt']);
  });

  test('writer reports failures to the callers of that write', async () => {
    const writer = new AtomicWriter();
    await expect(writer.write(path.join(dir.path, 'no', 'x'), 'x')).rejects.toThrow();
    await writer.write(path.join(dir.path, 'ok'), 'y');
    expect(await fs.readFile(path.join(dir.path, 'ok'), 'utf8')).toBe('y');
  });

  test('writeTempSync puts the bytes under a new temp name in the folder', async () => {
    const file = writeTempSync(dir.path, Buffer.from('bytes'));
    expect(path.dirname(file)).toBe(dir.path);
    expect(isTempName(path.basename(file))).toBe(true);
    expect(await fs.readFile(file, 'utf8')).toBe('bytes');
    const other = writeTempSync(dir.path, 'text é');
    expect(other).not.toBe(file);
    expect(await fs.readFile(other, 'utf8')).toBe('text é');
  });

  test('writeNewFileSync never replaces a file, and fails without a trace where its folder is missing', async () => {
    const file = path.join(dir.path, 'taken');
    await fs.writeFile(file, 'first');
    expect(() => writeNewFileSync(file, 'second')).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(await fs.readFile(file, 'utf8')).toBe('first');
    expect(() => writeTempSync(path.join(dir.path, 'missing'), 'x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(await fs.readdir(dir.path)).toEqual(['taken']);
  });

  test('writeNewFileSync removes the file when its content could not be written', async () => {
    const file = path.join(dir.path, tempName());
    const spy = jest.spyOn(fsSync, 'writeSync').mockImplementation(() => {
      throw Object.assign(new Error('no space left'), { code: 'ENOSPC' });
    });
    try {
      expect(() => writeNewFileSync(file, 'x')).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    } finally {
      spy.mockRestore();
    }
    expect(await fs.readdir(dir.path)).toEqual([]);
  });

  test('linkTemp gives the same bytes a temp name', async () => {
    const source = path.join(dir.path, 's');
    await fs.writeFile(source, 'bytes');
    const temp = await linkTemp(source, dir.path);
    expect(isTempName(path.basename(temp))).toBe(true);
    expect(await fs.readFile(temp, 'utf8')).toBe('bytes');
  });

  test('sweepTemps removes temps at any depth and nothing else', async () => {
    await fs.mkdir(path.join(dir.path, 'a', 'b'), { recursive: true });
    await writeTemp(dir.path, 'x');
    await writeTemp(path.join(dir.path, 'a', 'b'), 'y');
    await fs.writeFile(path.join(dir.path, 'a', 'keep.xml'), '<a/>');
    expect(await sweepTemps(dir.path)).toBe(2);
    expect(await sweepTemps(path.join(dir.path, 'none'))).toBe(0);
    expect(await fs.readdir(path.join(dir.path, 'a'))).toEqual(['b', 'keep.xml']);
  });

  test('pruneEmptyDirs stops at the first non-empty folder and never removes the root', async () => {
    await fs.mkdir(path.join(dir.path, 'a', 'b', 'c'), { recursive: true });
    await fs.writeFile(path.join(dir.path, 'a', 'f'), '');
    await pruneEmptyDirs(path.join(dir.path, 'a', 'b', 'c'), dir.path);
    expect(await fs.readdir(path.join(dir.path, 'a'))).toEqual(['f']);
    await fs.rm(path.join(dir.path, 'a', 'f'));
    await pruneEmptyDirs(path.join(dir.path, 'a'), dir.path);
    expect(await fs.readdir(dir.path)).toEqual([]);
  });
});
