#!/usr/bin/env node
/** `xmldb-rest`: the standalone server (see server.ts for flags and environment variables). */
import { main } from './server';

main().catch((e: unknown) => {
  console.error(`xmldb-rest: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
