/** The `Server-Timing` header of a query response, as the console shows it. */
export interface Timing {
  readonly name: string;
  readonly ms: number;
}

/** `parse;dur=0.1, compile;dur=2.0, …` → the metrics with a duration, in order. */
export function parseServerTiming(header: string | null): Timing[] {
  if (!header) return [];
  const out: Timing[] = [];
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().split(';');
    const dur = params.map((p) => /^\s*dur=([\d.]+)\s*$/.exec(p)).find((m) => m !== null);
    if (name && dur) out.push({ name: name.trim(), ms: Number(dur[1]) });
  }
  return out;
}

export function timingText(timings: readonly Timing[], roundTripMs: number): string {
  const parts = timings.map((t) => `${t.name} ${t.ms.toFixed(1)} ms`);
  parts.push(`round trip ${roundTripMs.toFixed(0)} ms`);
  return parts.join(' · ');
}
