/**
 * Elements the module functions return (archive:entries, user:list-details, index:texts, ...),
 * built from XML text the module wrote with escaped values (xml/escape.ts): the element of a
 * document parsed by saxon-js, as fn:parse-xml would give it.
 */
import { parseToSaxonDocument, type XdmNode } from '../../../saxon';

export function elementFromXml(xml: string): XdmNode {
  return (parseToSaxonDocument(xml) as unknown as { documentElement: XdmNode }).documentElement;
}
