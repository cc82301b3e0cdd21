/**
 * A compact s-expression rendering of the AST, for tests and debugging:
 * `(Kind field=value … child …)`. Offsets are omitted, null/false/empty fields are skipped,
 * names print as written (`p:local`, `Q{uri}local`), steps as `axis::test`.
 */
import type { EQName } from './ast';

type Obj = Record<string, unknown>;

export function printAst(node: unknown): string {
  return print(node);
}

function isEQName(v: unknown): v is EQName {
  return typeof v === 'object' && v !== null && !('kind' in v) && typeof (v as Obj).local === 'string';
}

export function printName(n: EQName): string {
  if (n.uri !== undefined) return `Q{${n.uri}}${n.local}`;
  return n.prefix !== undefined ? `${n.prefix}:${n.local}` : n.local;
}

function print(v: unknown): string {
  if (v === null || v === undefined) return '()';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(print).join(' ')}]`;
  if (isEQName(v)) return printName(v);
  const o = v as Obj;
  const kind = o.kind as string | undefined;
  if (kind === 'NameTest') return printName(o.name as EQName);
  if (kind === 'Wildcard') {
    if (o.uri !== undefined) return `Q{${o.uri as string}}*`;
    if (o.prefix !== undefined) return `${o.prefix as string}:*`;
    if (o.local !== undefined) return `*:${o.local as string}`;
    return '*';
  }
  if (kind === 'AxisStep') {
    const preds = (o.predicates as unknown[]).map((p) => ` ${print(p)}`).join('');
    return `(${o.axis as string}::${print(o.test)}${preds})`;
  }
  const parts: string[] = [];
  for (const [k, val] of Object.entries(o)) {
    if (k === 'kind' || k === 'start' || k === 'end') continue;
    if (val === null || val === undefined || val === false || val === '' || (Array.isArray(val) && val.length === 0)) continue;
    if (val === true) parts.push(k);
    else if (k === 'value' && typeof val === 'string') parts.push(JSON.stringify(val));
    else if (typeof val === 'string' || typeof val === 'number') parts.push(`${k}=${typeof val === 'string' ? val : String(val)}`);
    else if (isEQName(val)) parts.push(`${k}=${printName(val)}`);
    else parts.push(print(val));
  }
  if (kind === undefined) return `{${parts.join(' ')}}`;
  return parts.length ? `(${kind} ${parts.join(' ')})` : `(${kind})`;
}
