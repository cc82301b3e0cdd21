/** Builds the console's browser files into `outdir` (default dist/console/ui); answers the bundle's gzipped size. */
export function buildConsole(outdir?: string): Promise<number>;
/** Whether the built files are missing or older than a source file. */
export function consoleBuildStale(outdir?: string): boolean;
