/**
 * Reads the public QT3 subset (`../shared/qt3`, see helpers/shared-data.ts) with plain regular expressions: the test sets in
 * tools/qt3/public-sets.txt, each test case's query text and the error codes its result allows.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sharedPath } from '../../../helpers/shared-data';

/** What the QT3 suites need from `../shared`. */
export const QT3_NEEDS = ['qt3/catalog.xml', 'tools/qt3/public-sets.txt'];
export const QT3_ROOT = sharedPath('qt3');
const PUBLIC_SETS = sharedPath('tools/qt3/public-sets.txt');

export interface Qt3Case {
  set: string;
  name: string;
  query: string;
  /** Error codes any alternative of the expected result names. */
  errors: string[];
  /** True when every alternative of the expected result is an error. */
  errorOnly: boolean;
}

/** XML text → characters: line ends normalized, CDATA kept, references resolved. */
function xmlText(raw: string): string {
  const norm = raw.replace(/\r\n?/g, '\n');
  let out = '';
  const re = /<!\[CDATA\[([\s\S]*?)\]\]>/g;
  let last = 0;
  for (let m = re.exec(norm); m; m = re.exec(norm)) {
    out += unescape(norm.slice(last, m.index)) + m[1];
    last = re.lastIndex;
  }
  return out + unescape(norm.slice(last));
}

function unescape(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#x[0-9a-fA-F]+|#[0-9]+);/g, (_, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[e];
  });
}

/** Does a `spec` dependency value include XQuery 3.1? */
function specApplies(value: string): boolean {
  return value.split(/\s+/).some((t) => ['XQ10+', 'XQ30+', 'XQ31+', 'XQ31'].includes(t));
}

function applies(deps: string): boolean {
  for (const m of deps.matchAll(/<dependency\s+([^>]*?)\/?>/g)) {
    const attrs = m[1];
    const type = /type="([^"]*)"/.exec(attrs)?.[1];
    const value = /value="([^"]*)"/.exec(attrs)?.[1] ?? '';
    const satisfied = /satisfied="([^"]*)"/.exec(attrs)?.[1] ?? 'true';
    if (type === 'spec' && !specApplies(value)) return false;
    if (type === 'xml-version' && value.includes('1.1') && !value.includes('1.0')) return false;
    if (satisfied === 'false') return false;
  }
  return true;
}

export function loadQt3Cases(): Qt3Case[] {
  const sets = readFileSync(PUBLIC_SETS, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const catalog = readFileSync(join(QT3_ROOT, 'catalog.xml'), 'utf8');
  const cases: Qt3Case[] = [];
  for (const set of sets) {
    const m = new RegExp(`<test-set\\s+name="${set}"\\s+file="([^"]+)"`).exec(catalog);
    if (!m) throw new Error(`test set ${set} not in catalog`);
    const file = join(QT3_ROOT, m[1]);
    const xml = readFileSync(file, 'utf8');
    for (const tc of xml.matchAll(/<test-case\s+name="([^"]+)"[^>]*>([\s\S]*?)<\/test-case>/g)) {
      const [, name, body] = tc;
      const beforeTest = body.split(/<test[\s>]/)[0];
      if (!applies(beforeTest)) continue;
      let query: string;
      const fileRef = /<test\s+file="([^"]+)"\s*\/>/.exec(body);
      if (fileRef) {
        query = readFileSync(join(dirname(file), fileRef[1]), 'utf8').replace(/^\uFEFF/, '');
      } else {
        const t = /<test>([\s\S]*?)<\/test>/.exec(body);
        if (!t) continue;
        query = xmlText(t[1]);
      }
      const result = /<result>([\s\S]*?)<\/result>/.exec(body)?.[1] ?? '';
      const errors = [...result.matchAll(/<error\s+code="([^"]+)"/g)].map((e) => e[1]);
      const anyOf = /^\s*<any-of>([\s\S]*)<\/any-of>\s*$/.exec(result);
      const alternatives = anyOf ? [...anyOf[1].matchAll(/<([a-z-]+)[\s>/]/g)].length : 1;
      const errorOnly = errors.length > 0 && errors.length >= alternatives && !/<(assert|all-of|not)/.test(result);
      cases.push({ set, name, query, errors, errorOnly });
    }
  }
  return cases;
}
