/**
 * The parsing options of a request or a command session that the input conversions understand,
 * read from its options by canonical upper-case name. `CHOP` is the legacy name of `STRIPWS`
 * (BaseX options; spec §2.4): `STRIPWS` wins when both are given.
 */
export interface ParsingOptions {
  readonly stripws: boolean;
  readonly stripns: boolean;
}

export function parsingOptions(options: ReadonlyMap<string, unknown>): ParsingOptions {
  return { stripws: (options.get('STRIPWS') ?? options.get('CHOP')) === true, stripns: options.get('STRIPNS') === true };
}
