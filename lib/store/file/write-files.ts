/**
 * The files of a write outside the catalog: the temp files and folders it leaves behind
 * (`Leftovers`), where a resource's temp file goes, and joining resource paths.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { errorCode, pruneEmptyDirs } from '../../atomic-files';

/** Files and folders a write created; removed when it ends, whether committed or not. */
export class Leftovers {
  private files: { file: string; root: string }[] = [];
  private dirs: string[] = [];

  addFile(file: string, root: string): void {
    this.files.push({ file, root });
  }

  addDir(dir: string): void {
    this.dirs.push(dir);
  }

  /** Forgets files a commit has renamed into place: nothing is left of them to clean. */
  consumed(files: ReadonlySet<string>): void {
    this.files = this.files.filter((f) => !files.has(f.file));
  }

  /** Removes what is left (committed temps were renamed away), pruning emptied folders. */
  async clean(): Promise<void> {
    for (const { file, root } of this.files) {
      await fs.rm(file, { force: true });
      await pruneEmptyDirs(path.dirname(file), root);
    }
    for (const dir of this.dirs) await fs.rm(dir, { recursive: true, force: true });
    this.files = [];
    this.dirs = [];
  }
}

/**
 * The folder for a temp file that will become `file`: the file's own folder (created as needed),
 * or the database folder where a resource file still stands in its way (removed by the commit).
 */
export async function tempFolder(file: string, root: string): Promise<string> {
  const dir = path.dirname(file);
  try {
    await fs.mkdir(dir, { recursive: true });
    return dir;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOTDIR' || code === 'EEXIST') return root;
    throw error;
  }
}
