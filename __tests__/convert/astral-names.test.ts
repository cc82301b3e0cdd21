import { hasAstralCharacters, spellAstralNames, unspell } from '../../lib/convert/astral-names';

describe('names beyond the BMP spelled for saxon-js', () => {
  test('only names are spelled, reversibly, in BMP name characters', () => {
    const xml = '<a:𐀀 xmlns:a="urn:𐀀" 😀="𐀁"><?𐀂 𐀃?><!--𐀄--><\uFDCF>𐀅</\uFDCF></a:𐀀>';
    const spelled = spellAstralNames(xml);
    expect(spelled).toBe('<a:\uFDCF10000 xmlns:a="urn:𐀀" \uFDCF1f600="𐀁"><?\uFDCF10002 𐀃?><!--𐀄--><\uFDCFg>𐀅</\uFDCFg></a:\uFDCF10000>');
    expect(['a:\uFDCF10000', '\uFDCF1f600', '\uFDCF10002', '\uFDCFg', 'x\uFDCFgy\uFDCF10000'].map(unspell)).toEqual(['a:𐀀', '😀', '𐀂', '\uFDCF', 'x\uFDCFy𐀀']);
  });

  test('the cheap test looks for any character beyond the BMP', () => {
    expect(hasAstralCharacters('<a>𐀀</a>')).toBe(true);
    expect(hasAstralCharacters('<ä>中</ä>')).toBe(false);
  });
});
