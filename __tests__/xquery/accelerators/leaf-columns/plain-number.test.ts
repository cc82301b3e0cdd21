/**
 * The plain number of an untyped leaf (accelerators/leaf-columns/leaf-values.ts `plainNumber`),
 * read from its characters: exactly the forms and the values the rule names.
 */
import { plainNumber } from '../../../../lib/xquery/accelerators/leaf-columns/leaf-values';

/** The plain form as the rule states it (a regular expression), read by Number: what `plainNumber` must answer. */
const PLAIN = /^[ \t\r\n]*-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\r\n]*$/;
const expected = (s: string) => (PLAIN.test(s) ? Number(s) : undefined);

describe('plainNumber', () => {
  const texts = [
    '0', '-0', '-0.0', '5', '5.', '.5', '-.5', '007', '12.50', ' 42 ', '\n\t-3.25\n', '1e3', '1E-3', '-2.5e+2', '.5e1',
    '123456789012345', '1234567890123456', '12345678901234567890', '0.1', '0.3', '2.675', '1.005', '9007199254740993',
    '0.0000000000000000000001', '1.0000000000000000000001', '3.14159265358979', '179769313486231570000000000000000',
    '\r\n7\r', '', ' ', '-', '.', '-.', '+5', '5-', '1 2', '1e', '1e+', 'e5', '0x10', 'INF', 'NaN', '1.2.3', '--1', '5a', '١٢',
  ];

  test.each(texts.map((t) => [JSON.stringify(t), t]))('%s as Number reads a plain number', (_name, t) => {
    const v = plainNumber(`<p>${t}</p>`, 3, 3 + t.length);
    expect(v === undefined ? 'none' : Object.is(v, -0) ? '-0' : v).toEqual(expected(t) === undefined ? 'none' : Object.is(expected(t), -0) ? '-0' : expected(t));
  });

  test('random decimals of up to 24 digits read exactly as Number reads them', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const digits = (k: number) => Array.from({ length: k }, () => Math.floor(random() * 10)).join('');
    for (let i = 0; i < 20000; i++) {
      const t = `${random() < 0.3 ? '-' : ''}${digits(Math.floor(random() * 12))}${random() < 0.7 ? `.${digits(Math.floor(random() * 12))}` : ''}`;
      const v = plainNumber(t);
      const e = expected(t);
      if (!Object.is(v, e)) throw new Error(`${t}: ${v} against ${e}`);
    }
  });
});

