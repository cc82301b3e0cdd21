/**
 * The three functions BaseX's json: and csv: modules share (docs.basex.org, JSON and CSV Modules):
 * `parse($value, $options)`, `doc($href, $options)` (the text of a stored resource, or a host file
 * under the file-access rule, guards/resource-guard.ts) and `serialize($input, $options)`.
 */
import { registerFunctions, stringValue, type XdmValue } from '../../../saxon';
import { readOptions, type OptionSpec, type OptionValues } from './option-maps';
import { MODULE_NAMESPACES } from '../../module-namespaces';
import { readResourceText } from '../../worker/guards/resource-guard';

export interface TextFormat {
  readonly parseOptions: OptionSpec;
  readonly serializeOptions: OptionSpec;
  parse(text: string, options: OptionValues): XdmValue;
  serialize(input: XdmValue, options: OptionValues): string;
}

const text = (v: XdmValue): string => String(v[0]);

/** Registers parse, doc and serialize of the module `prefix`. */
export function registerTextFormat(prefix: 'json' | 'csv', format: TextFormat): void {
  registerFunctions(MODULE_NAMESPACES[prefix], {
    parse: {
      sig: '1F r[*] a[?AS,?FM]',
      arity: [1, 2],
      impl: ([value, options]) => (value.length === 0 ? [] : format.parse(text(value), readOptions(options, format.parseOptions))),
    },
    doc: {
      sig: '1F r[*] a[?AS,?FM]',
      arity: [1, 2],
      impl: ([href, options]) => {
        if (href.length === 0) return [];
        const parsed = readOptions(options, format.parseOptions);
        return format.parse(readResourceText(text(href)), parsed);
      },
    },
    serialize: {
      sig: '1F r[1AS] a[*,?FM]',
      arity: [1, 2],
      impl: ([input, options]) => [stringValue(format.serialize(input, readOptions(options, format.serializeOptions)))],
    },
  });
}
