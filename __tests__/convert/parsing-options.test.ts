import { parsingOptions } from '../../lib/convert';

describe('parsing options', () => {
  test('STRIPWS and STRIPNS; CHOP is the legacy name of STRIPWS, which wins', () => {
    expect(parsingOptions(new Map())).toStrictEqual({ stripws: false, stripns: false });
    expect(parsingOptions(new Map([['STRIPWS', true], ['STRIPNS', true]]))).toStrictEqual({ stripws: true, stripns: true });
    expect(parsingOptions(new Map([['CHOP', true]]))).toStrictEqual({ stripws: true, stripns: false });
    expect(parsingOptions(new Map([['CHOP', true], ['STRIPWS', false]]))).toStrictEqual({ stripws: false, stripns: false });
  });
});
