/**
 * Limits of duration values (F&O 3.1 §10.1, §19.1.1: "implementations may impose limits on the
 * range of values"; overflow is FODT0002). saxon-js 2.7 keeps duration components in doubles and
 * has no limit, so `"P768614336404564651Y" cast as xs:duration` succeeded (with the years
 * rounded). Like BaseX and Saxon-J, a duration here holds at most 2^63 - 1 months and
 * 2^63 - 1 seconds. Only casts from strings and untyped values can exceed that; their lexical
 * components are summed as xs:decimal (exact in saxon-js) before the cast.
 */
import { NS, xpathError, xpathString } from './names';
import { braced } from './emit';

const F = braced(NS.fn);
const XS = braced(NS.xs);
const DURATION_TYPES = new Set(['duration', 'yearMonthDuration', 'dayTimeDuration']);
const LEXICAL = '^-?P(?:([0-9]+)Y)?(?:([0-9]+)M)?(?:([0-9]+)D)?(?:T(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+)(?:\\.[0-9]*)?S)?)?$';
const MAX = `${XS}decimal("9223372036854775807")`;

/** Whether `local` (an xs: type) is a duration type. */
export function isDurationType(local: string): boolean {
  return DURATION_TYPES.has(local);
}

/** Whether a translated single type (`Q{…}duration?`) is a duration type. */
export function isDurationSingleType(type: string): boolean {
  return type.startsWith(XS) && isDurationType(type.slice(XS.length).replace(/\?$/, ''));
}

/** XPath that is true when atomic value `v` (a variable reference) is a duration too large to hold. */
function overflows(v: string, id: number): string {
  const s = `$${braced(NS.vars)}duration-text.${id}`;
  const part = (n: number) => `${XS}decimal(${F}concat("0", ${F}replace(${s}, ${xpathString(LEXICAL)}, "$${n}")))`;
  return (
    `(${v} instance of ${XS}string or ${v} instance of ${XS}untypedAtomic) and ` +
    `(let ${s} := ${F}normalize-space(${v}) return ${F}matches(${s}, ${xpathString(LEXICAL)}) and ` +
    `(${part(1)} * 12 + ${part(2)} gt ${MAX} or ${part(3)} * 86400 + ${part(4)} * 3600 + ${part(5)} * 60 + ${part(6)} gt ${MAX}))`
  );
}

/** `value cast as type` (`type` an EQName with its `?`), FODT0002 for a duration beyond the limits. */
export function checkedDurationCast(value: string, type: string, id: number): string {
  const v = `$${braced(NS.vars)}duration.${id}`;
  const error = xpathError('FODT0002', 'Duration overflow.');
  return `(let ${v} := ${value} return if (${F}exists(${v}) and (${overflows(`${F}head(${v})`, id)})) then ${error} else (${v} cast as ${type}))`;
}

/** `value castable as type`, false for a duration beyond the limits. */
export function checkedDurationCastable(value: string, type: string, id: number): string {
  const v = `$${braced(NS.vars)}duration.${id}`;
  return `(let ${v} := ${value} return (${v} castable as ${type}) and ${F}not(${F}exists(${v}) and (${overflows(`${F}head(${v})`, id)})))`;
}
