/** Lexical rules: literals, names, comments, references, line ends, terminal delimitation. */
import { testFail, testParse } from './helpers';

describe('lexical rules', () => {
  testParse([
    ['42', '(IntegerLiteral "42")'],
    ['3.14', '(DecimalLiteral "3.14")'],
    ['.5', '(DecimalLiteral ".5")'],
    ['1.', '(DecimalLiteral "1.")'],
    ['1.e2', '(DoubleLiteral "1.e2")'],
    ['1E-3', '(DoubleLiteral "1E-3")'],
    ['"a""b"', '(StringLiteral "a\\"b")'],
    ['\'it\'\'s\'', '(StringLiteral "it\'s")'],
    ['"&lt;&#x20;&#65;&amp;"', '(StringLiteral "< A&")'],
    ['"(: not a comment :)"', '(StringLiteral "(: not a comment :)")'],
    ['"a\r\nb\rc"', '(StringLiteral "a\\nb\\nc")'],
    ['"a&#xD;b"', '(StringLiteral "a\\rb")'],
    ['1 (: outer (: nested :) :) + 2', '(AdditiveExpr op=+ (IntegerLiteral "1") (IntegerLiteral "2"))'],
    ['(: leading :) 1 (: trailing :)', '(IntegerLiteral "1")'],
    ['a-b', '(child::a-b)'],
    ['a -b', '(AdditiveExpr op=- (child::a) (child::b))'],
    ['a - b', '(AdditiveExpr op=- (child::a) (child::b))'],
    ['$a-b', '(VarRef name=a-b)'],
    ['$ a', '(VarRef name=a)'],
    ['Q{http://x}local', '(child::Q{http://x}local)'],
    ['p:local', '(child::p:local)'],
    ['for', '(child::for)'],
    ['let', '(child::let)'],
    ['element(for)', '(child::(ElementTest name=for))'],
    ['<for/>', '(DirElemConstructor name=for)'],
    ['Q{}if', '(child::Q{}if)'],
    ['$Q{urn:x}v', '(VarRef name=Q{urn:x}v)'],
  ]);

  testFail([
    ['1div 2', '1:2'],
    ['10 div3', '1:4'],
    ['"abc', '1:1'],
    ['&lt;', '1:1'],
    ['"&bogus;"', '1:2'],
    ['"&#xFFFE;"', 'XQST0090 1:2'],
    ['1 (: unterminated', '1:3'],
    ['1 + §', '1:5'],
    ['1.2.3', '1:4'],
    ['\n\n  1 +\n  ]', '4:3'],
  ]);
});
