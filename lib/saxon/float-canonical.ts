/**
 * The canonical string of an xs:float (F&O 3.1 §19.1.2.2): the shortest decimal that maps back
 * to the same float32 value, in decimal notation for 1e-6 <= |x| < 1e6 (no trailing zeros, no
 * point for integral values), otherwise as mantissa `E` exponent with at least one fractional
 * digit (`1.0E11`, `1.2345E-7`).
 */
export function floatCanonical(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'INF' : '-INF';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const f = Math.fround(value);
  let shortest = f;
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(f.toPrecision(digits));
    if (Math.fround(candidate) === f) {
      shortest = candidate;
      break;
    }
  }
  const abs = Math.abs(shortest);
  if (abs >= 1e-6 && abs < 1e6) return String(shortest);
  const [mantissa, exponent] = shortest.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}
