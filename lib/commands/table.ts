/**
 * Text tables of command output (spec §15.3; LIST, DIR, SHOW USERS, SHOW BACKUPS …), laid out as
 * the reference server does:
 *
 *     Name   Resources  Size  Input Path␠␠
 *     ----------------------------------
 *     acc_a  2          5012  ␠␠␠␠␠␠␠␠␠␠␠␠
 *
 *     1 database(s).
 *
 * Every cell of the header and of the rows is padded to its column's width plus two spaces (the
 * last column too, so lines carry trailing spaces); the dashes line spans every column with its
 * two spaces except the last, i.e. the header line without its trailing padding. Widths count
 * UTF-8 bytes, as the reference server does. Then an empty line and the summary.
 */

const GAP = 2;

export interface TableInput {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** The summary line without its final `.`; `%` takes the row count: `% database(s)`. */
  readonly summary?: string;
  /** Columns aligned right (numbers in some listings); others are left-aligned. */
  readonly alignRight?: readonly boolean[];
}

function width(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function pad(s: string, w: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, w - width(s)));
  return right ? fill + s : s + fill;
}

/** Sorts rows by their first cell, case-insensitively (the listings' order). */
export function sortRows(rows: readonly (readonly string[])[]): string[][] {
  return rows.map((r) => [...r]).sort((a, b) => {
    const x = (a[0] ?? '').toLowerCase();
    const y = (b[0] ?? '').toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** Formats a table; the text ends with a newline. */
export function formatTable(t: TableInput): string {
  const n = t.header.length;
  const widths = t.header.map((h, i) => Math.max(width(h), ...t.rows.map((r) => width(r[i] ?? ''))));
  const spaces = ' '.repeat(GAP);
  const lines: string[] = [];
  lines.push(t.header.map((h, i) => pad(h, widths[i], false) + spaces).join(''));
  lines.push('-'.repeat(widths.reduce((sum, w, i) => sum + w + (i + 1 < n ? GAP : 0), 0)));
  for (const r of t.rows) {
    lines.push(t.header.map((_, i) => pad(r[i] ?? '', widths[i], t.alignRight?.[i] === true) + spaces).join(''));
  }
  let out = lines.map((l) => `${l}\n`).join('');
  if (t.summary !== undefined) out += `\n${t.summary.replace('%', String(t.rows.length))}.\n`;
  return out;
}
