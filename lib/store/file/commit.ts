/**
 * Applies the drafts of a write, all or nothing. New resource bytes are first written to temp
 * files beside their targets; the journal of the commit lists the renames and deletes that put
 * them in place and the new content of the catalog files (shards, meta) it changes, and is
 * appended to the commit log (commit-log.ts), which is the commit point: before it nothing was
 * changed, after it a crash is finished by replaying the log. Small contents travel in the journal
 * itself, so their temps need no flush of their own, and the catalog files are written in place
 * once it is durable (journal.ts `write`: no temp, no rename); other temps (large resources, a
 * new database's folder) are flushed before the journal is logged. The files the operations write
 * are flushed later, together, by the log's checkpoint.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { flushFiles, linkOrCopy, linkTemp } from '../../atomic-files';
import { backupFolder, backupsFolder, type BackupRecord } from './backups';
import { Catalog, metaFile, type CatalogEntry, type DatabaseMeta } from './catalog';
import { randomId } from '../random-id';
import type { DbDraft } from './draft';
import type { CommitLog } from './commit-log';
import { applyOps, journalPath, type JournalOp } from './journal';
import { databaseFolder, inside, resourceFile } from './disk-paths';
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
  const plan: Plan = { ops: [], unflushed: [], apply: [] };
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
    await ctx.log.append(ops);
    try {
      await applyOps(ctx.dbPath, ops);
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

/** Stages new files beside their targets, and the new catalog shards and meta; deletes come first. */
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
  const shards = base.catalog.stage(draft.changes);
  const meta = { ...finalMeta(draft, now, base.record.meta.generation), shards: shards.count };
  const write = (file: string, text: string): JournalOp => ({ op: 'write', file: rel(file), data: Buffer.from(text, 'utf8').toString('base64') });
  plan.ops.push(
    ...deletes,
    ...renames,
    ...shards.files.map((s) => write(s.file, s.text)),
    write(metaFile(folder), JSON.stringify(meta)),
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
