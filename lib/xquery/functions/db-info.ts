/**
 * BaseX's Database Module, descriptive functions (BaseX 13 names), in namespace
 * `http://basex.org/modules/db`:
 *
 *   db:system() as element(system)                 the engine's general information and index defaults
 *   db:info($db) as element(database)               what INFO DB shows, as elements (store/database-properties.ts)
 *   db:property($db, $name) as xs:anyAtomicType     one of those properties, by lower-case name
 *   db:list-details() as element(database)*         every database: resources, modified-date, size
 *   db:list-details($db[, $path]) as element(resource)*   resources: type, content-type, modified-date, size
 *
 * Property values are typed as BaseX types them: booleans as xs:boolean, counts as xs:integer,
 * everything else (sizes such as `4 kB`, timestamps) as xs:string.
 * Errors: db:open (unknown database), db:property `Unknown database property: x.`
 */
import { databaseProperties, INDEX_KINDS, VALUE_INDEX_KINDS, type PropertyValue } from '../../store';
import { escapeAttribute, escapeText } from '../../xml/escape';
import { castString, parseToSaxonDocument, registerFunctions, stringValue, type XdmNode, type XdmValue } from '../../saxon';
import { activeDatabases, dbError } from '../worker/documents/database-access';
import { DB_NS } from './db';

const str = (v: XdmValue | undefined): string => (v && v.length > 0 ? String(v[0]) : '');

/** The elements of an XML fragment (built from escaped text, so it always parses). */
export function elements(xml: string): XdmNode[] {
  const root = parseToSaxonDocument(`<_>${xml}</_>`) as XdmNode & { firstChild: { childNodes: ArrayLike<XdmNode> } };
  return Array.from(root.firstChild.childNodes);
}

export function element(name: string, content: string, attributes: Readonly<Record<string, string | number>> = {}): string {
  const attrs = Object.entries(attributes).map(([k, v]) => ` ${k}="${escapeAttribute(String(v))}"`).join('');
  return `<${name}${attrs}>${content}</${name}>`;
}

function sectionsOf(db: string) {
  const access = activeDatabases();
  return databaseProperties(access.databaseInfo(db), access.resources(db));
}

function info([db]: XdmValue[]): XdmValue {
  const sections = sectionsOf(str(db));
  const body = sections.map((s) => element(s.element, s.properties.map(([n, v]) => element(n.toLowerCase(), escapeText(String(v)))).join(''))).join('');
  return elements(element('database', body));
}

function typed(value: PropertyValue): XdmValue {
  if (typeof value === 'boolean') return [castString(String(value), 'boolean')];
  if (typeof value === 'number') return [castString(String(value), 'integer')];
  return [stringValue(value)];
}

function property([db, name]: XdmValue[]): XdmValue {
  const wanted = str(name);
  for (const section of sectionsOf(str(db))) {
    for (const [n, v] of section.properties) if (n.toLowerCase() === wanted) return typed(v);
  }
  throw dbError('property', `Unknown database property: ${wanted}.`);
}

function system(): XdmValue {
  const access = activeDatabases();
  const general = element('generalinformation', element('databases', String(access.databaseNames().length)));
  const defaults = VALUE_INDEX_KINDS.map((k) => element(INDEX_KINDS[k].option.toLowerCase(), 'true')).join('');
  return elements(element('system', general + element('options', defaults)));
}

function listDetails([db, path]: XdmValue[]): XdmValue {
  const access = activeDatabases();
  if (db === undefined) {
    return elements(
      access
        .databaseNames()
        .map((name) => {
          const d = access.databaseInfo(name);
          return element('database', escapeText(name), { resources: d.resources, 'modified-date': new Date(d.modified).toISOString(), size: d.size });
        })
        .join(''),
    );
  }
  const resources = access.resources(str(db), path && path.length > 0 ? str(path) : '');
  return elements(
    resources
      .map((r) => element('resource', escapeText(r.path), { type: r.type, 'content-type': r.contentType, 'modified-date': new Date(r.modified).toISOString(), size: r.size }))
      .join(''),
  );
}

/** Registers db:system, db:info, db:property and db:list-details with saxon-js (the list in extension-functions.ts). */
export function registerDbInfoFunctions(): void {
  registerFunctions(DB_NS, {
    system: { sig: '1F r[1NE] a[]', impl: system },
    info: { sig: '1F r[1NE] a[1AS]', impl: info },
    property: { sig: '1F r[1A] a[1AS,1AS]', impl: property },
    'list-details': { sig: '1F r[*NE] a[1AS,1AS]', arity: [0, 1, 2], impl: listDetails },
  });
}
