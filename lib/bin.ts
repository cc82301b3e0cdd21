#!/usr/bin/env node
/** `xmldb-rest`: the standalone server (see command-line.ts for flags and environment variables). */
import { main } from './server';

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`xmldb-rest: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
