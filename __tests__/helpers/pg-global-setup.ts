/**
 * Jest global setup: names the state folder in which the first test file that needs PostgreSQL
 * starts the run's cluster (pg-cluster.ts). Nothing is started here: runs without such files
 * pay nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PG_STATE_ENV } from './pg-cluster';

export default function setup(): void {
  process.env[PG_STATE_ENV] = fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-pgtest-'));
}
