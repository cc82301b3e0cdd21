/**
 * Applies the drafts of a write, all or nothing. New bytes are first written to temp files (data,
 * catalog shards, meta) beside their targets; the journal of the commit lists the renames and
 * deletes that put them in place, and is appended to the commit log (commit-log.ts), which is the
 * commit point: before it nothing was changed, after it a crash is finished by replaying the log.
 * Small contents travel in the journal itself, so their temps need no flush of their own (the
 * catalog's are even written while the journal is logged); other temps (large resources, a new
 * database's folder) are flushed before the journal is logged. The files the operations write
 * are flushed later, together, by the log's checkpoint.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { flushFiles, linkOrCopy, linkTemp, tempName, writeNewFile } from './atomic';
import { backupFolder, backupsFolder, type BackupRecord } from './backups';
import { Catalog, catalogFolder, metaFile, randomId, type CatalogEntry, type DatabaseMeta } from './catalog';
import type { DbDraft } from './draft';
import type { CommitLog } from './commit-log';
import { applyOps, journalPath, type JournalOp } from './journal';
import { databaseFolder, inside, resourceFile } from './paths';
import { DbRecord } from './views';
import { tempFolder, type Leftovers } from './write-view';

/** What a commit needs of the store. */
export interface CommitContext {
  readonly dbPath: string;
  /** The committed databases; changed in memory once the commit is on disk. */
  readonly committed: Map<string, DbRecord>;
  readonly leftovers: Leftovers;
  readonly log: CommitLog;
}

/** A commit whose journal is on disk but could not be performed: the store must restart. */
export class CommitFailure extends Error {
  constructor(override readonly cause: unknown) {
    super(`Commit failed after its journal was written: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'CommitFailure';
  }
}

interface Plan {
  readonly ops: JournalOp[];
  /** Staged files written without a flush; flushed together with the journal. */
  readonly unflushed: string[];
  /**
   * Writes of temp files whose content the journal carries (renames with `data`): they run while
   * the journal is logged, since a replay writes that content again from the journal.
   */
  readonly temps: (() => Promise<void>)[];
  /** In-memory changes, run after the operations. */
  readonly apply: (() => void)[];
}

/**
 * Commits the drafts and the staged backup changes; answers the names of the databases that
 * changed. Throws CommitFailure if the journal was written but could not be applied (it is
 * replayed at the next start).
 */
export async function commitDrafts(
  ctx: CommitContext,
  drafts: ReadonlyMap<string, DbDraft | null>,
  backups: ReadonlyMap<string, BackupRecord | null> = new Map(),
): Promise<string[]> {
  const plan: Plan = { ops: [], unflushed: [], temps: [], apply: [] };
  const changed: string[] = [];
  const now = Date.now();
  for (const [name, draft] of drafts) {
    const before = plan.ops.length + plan.apply.length;
    if (draft === null) planDrop(ctx, name, plan);
    else if (draft.mode === 'fresh') await planFresh(ctx, draft, now, plan);
    else await planEdit(ctx, draft, now, plan);
    if (plan.ops.length + plan.apply.length > before) changed.push(name);
  }
  // After the drafts: a restored database's files were linked from its backup while planning.
  await planBackups(ctx, backups, plan);
  const ops = plan.ops;
  if (ops.length > 0) {
    await flushFiles(plan.unflushed);
    const tempsWritten = await logWhileWriting(ctx.log, ops, plan.temps);
    try {
      // A temp that failed is written again from the journal, as a replay does.
      await applyOps(ctx.dbPath, ops, !tempsWritten);
    } catch (error) {
      ctx.log.abandoned(error);
      throw new CommitFailure(error);
    }
    try {
      await ctx.log.applied(ops);
    } catch (error) {
      throw new CommitFailure(error);
    }
    const root = path.resolve(ctx.dbPath);
    ctx.leftovers.consumed(new Set(ops.flatMap((op) => (op.op === 'rename' ? [inside(root, op.from)] : []))));
  }
  for (const apply of plan.apply) apply();
  return changed;
}

/**
 * Appends the journal to the commit log while the temps of `temps` are written; answers whether
 * they all were. If the append fails, nothing was committed (the temps are the write's
 * leftovers, and the error is thrown); a temp that fails does not undo the commit, since the
 * journal holds its content.
 */
async function logWhileWriting(log: CommitLog, ops: readonly JournalOp[], temps: readonly (() => Promise<void>)[]): Promise<boolean> {
  const written = Promise.all(temps.map((write) => write())).then(
    () => true,
    () => false,
  );
  try {
    await log.append(ops);
  } finally {
    await written;
  }
  return written;
}

function planDrop(ctx: CommitContext, name: string, plan: Plan): void {
  if (!ctx.committed.has(name)) return;
  const rel = (abs: string) => journalPath(ctx.dbPath, abs);
  plan.ops.push({ op: 'dropDir', target: rel(databaseFolder(ctx.dbPath, name)), trash: rel(trashFolder(ctx.dbPath)) });
  plan.apply.push(() => ctx.committed.delete(name));
}

/** Builds the new database folder in a staging folder, swapped in by the journal. */
async function planFresh(ctx: CommitContext, draft: DbDraft, now: number, plan: Plan): Promise<void> {
  const stage = path.join(ctx.dbPath, `.stage-${randomId()}.`);
  await fs.mkdir(stage);
  ctx.leftovers.addDir(stage);
  const entries = new Map<string, CatalogEntry>();
  for (const [p, entry] of draft.changes) {
    if (!entry) continue;
    const target = inside(stage, p);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await linkOrCopy(sourceOf(draft, p), target);
    if (draft.owns(p)) plan.unflushed.push(sourceOf(draft, p));
    entries.set(p, entry);
  }
  const previous = ctx.committed.get(draft.name)?.meta.generation ?? 0;
  const meta = finalMeta(draft, now, previous);
  const folder = databaseFolder(ctx.dbPath, draft.name);
  const catalog = Catalog.of(folder, entries, meta.shards);
  await catalog.write(stage, meta);
  const rel = (abs: string) => journalPath(ctx.dbPath, abs);
  plan.ops.push({ op: 'swapDir', stage: rel(stage), target: rel(folder), trash: rel(trashFolder(ctx.dbPath)) });
  plan.apply.push(() => ctx.committed.set(draft.name, new DbRecord(ctx.dbPath, draft.name, folder, meta, catalog)));
}

/**
 * Backup changes as folder operations: the dropped backups go, then every new or renamed backup
 * (always a staging folder of this write: write-view.ts) is swapped into place, replacing one of
 * its name. A name is either dropped or put, so a replay never undoes a later operation.
 */
async function planBackups(
  ctx: CommitContext,
  backups: ReadonlyMap<string, BackupRecord | null>,
  plan: Plan,
): Promise<void> {
  if (backups.size === 0) return;
  const rel = (abs: string) => journalPath(ctx.dbPath, abs);
  const drops: JournalOp[] = [];
  const puts: JournalOp[] = [];
  for (const [name, backup] of backups) {
    const target = rel(backupFolder(ctx.dbPath, name));
    const trash = rel(trashFolder(ctx.dbPath));
    if (backup === null) drops.push({ op: 'dropDir', target, trash });
    else puts.push({ op: 'swapDir', stage: rel(backup.folder), target, trash });
  }
  await fs.mkdir(backupsFolder(ctx.dbPath), { recursive: true });
  plan.ops.push(...drops, ...puts);
}

/** Stages new files, catalog shards and meta beside their targets; deletes come first. */
async function planEdit(ctx: CommitContext, draft: DbDraft, now: number, plan: Plan): Promise<void> {
  if (draft.changes.size === 0 && !draft.metaChanged) return;
  const base = draft.base;
  if (!base) throw new Error('An edit draft needs its committed database.');
  const folder = base.record.folder;
  const rel = (abs: string) => journalPath(ctx.dbPath, abs);
  const deletes: JournalOp[] = [];
  const renames: JournalOp[] = [];
  for (const [p, entry] of draft.changes) {
    const target = resourceFile(ctx.dbPath, draft.name, p);
    if (!entry) {
      deletes.push({ op: 'delete', file: rel(target), root: rel(folder) });
      continue;
    }
    const from = await stagedFile(ctx, draft, p, target, folder);
    const source = draft.sources.get(p);
    if (source?.owned && source.bytes !== undefined) {
      renames.push({ op: 'rename', from: rel(from), to: rel(target), data: source.bytes.toString('base64') });
      continue;
    }
    if (source?.owned) plan.unflushed.push(source.file);
    renames.push({ op: 'rename', from: rel(from), to: rel(target), ...(source?.digest ? { digest: source.digest } : {}) });
  }
  const meta = finalMeta(draft, now, base.record.meta.generation);
  const metaText = JSON.stringify(meta);
  const shards = base.catalog.stage(draft.changes);
  const metaTemp = path.join(catalogFolder(folder), tempName());
  for (const file of [...shards.renames.map((r) => r.from), metaTemp]) ctx.leftovers.addFile(file, folder);
  plan.temps.push(
    () => shards.write(),
    () => writeNewFile(metaTemp, metaText),
  );
  const inline = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  plan.ops.push(
    ...deletes,
    ...renames,
    ...shards.renames.map((r): JournalOp => ({ op: 'rename', from: rel(r.from), to: rel(r.to), data: inline(r.text) })),
    { op: 'rename', from: rel(metaTemp), to: rel(metaFile(folder)), data: inline(metaText) },
  );
  plan.apply.push(() => {
    shards.apply();
    base.record.meta = meta;
  });
}

/** A temp file beside `target` holding the bytes of `p`: its own staged temp, or a new link. */
async function stagedFile(ctx: CommitContext, draft: DbDraft, p: string, target: string, root: string): Promise<string> {
  const source = sourceOf(draft, p);
  if (draft.owns(p) && path.dirname(source) === path.dirname(target)) return source;
  const temp = await linkTemp(source, await tempFolder(target, root));
  ctx.leftovers.addFile(temp, root);
  return temp;
}

function sourceOf(draft: DbDraft, p: string): string {
  const source = draft.sources.get(p);
  if (!source) throw new Error(`No staged bytes for '${p}'.`);
  return source.file;
}

function finalMeta(draft: DbDraft, now: number, previousGeneration: number): DatabaseMeta {
  return {
    ...draft.meta,
    generation: previousGeneration + 1,
    modified: now,
    resources: draft.count,
    size: draft.bytes,
  };
}

function trashFolder(dbPath: string): string {
  return path.join(dbPath, `.trash-${randomId()}.`);
}
