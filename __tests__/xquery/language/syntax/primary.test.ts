/** Primary expressions: calls, function items, maps, arrays, string constructors, pragmas, validate. */
import { testFail, testParse } from './helpers';

describe('primary expressions', () => {
  testParse([
    ['f()', '(FunctionCall name=f)'],
    ['fn:concat("a", "b")', '(FunctionCall name=fn:concat [(StringLiteral "a") (StringLiteral "b")])'],
    ['Q{http://www.w3.org/2005/xpath-functions}true()', '(FunctionCall name=Q{http://www.w3.org/2005/xpath-functions}true)'],
    ['let(1)', '(FunctionCall name=let [(IntegerLiteral "1")])'],
    ['f(?, 1, ?)', '(FunctionCall name=f [(ArgumentPlaceholder) (IntegerLiteral "1") (ArgumentPlaceholder)])'],
    ['concat#3', '(NamedFunctionRef name=concat arity=3)'],
    ['Q{urn:x}f#0', '(NamedFunctionRef name=Q{urn:x}f arity=0)'],
    ['function() { 1 }', '(InlineFunctionExpr (EnclosedExpr (IntegerLiteral "1")))'],
    ['function($a as xs:integer, $b) as xs:integer+ { $a + $b }', '(InlineFunctionExpr [(Param name=a (SequenceType (AtomicOrUnionType name=xs:integer))) (Param name=b)] (SequenceType (AtomicOrUnionType name=xs:integer) occurrence=+) (EnclosedExpr (AdditiveExpr op=+ (VarRef name=a) (VarRef name=b))))'],
    ['%private %ann("x", 1, 2.5) function($a) { $a }', '(InlineFunctionExpr [(Annotation name=private) (Annotation name=ann [(StringLiteral "x") (IntegerLiteral "1") (DecimalLiteral "2.5")])] [(Param name=a)] (EnclosedExpr (VarRef name=a)))'],
    ['map { }', '(MapConstructor)'],
    ['map { "a": 1, "b": map { 1: 2 } }', '(MapConstructor [(MapConstructorEntry (StringLiteral "a") (IntegerLiteral "1")) (MapConstructorEntry (StringLiteral "b") (MapConstructor [(MapConstructorEntry (IntegerLiteral "1") (IntegerLiteral "2"))]))])'],
    ['map { $k : $v }', '(MapConstructor [(MapConstructorEntry (VarRef name=k) (VarRef name=v))])'],
    ['map{\'a\':1}?a', '(Lookup (MapConstructor [(MapConstructorEntry (StringLiteral "a") (IntegerLiteral "1"))]) {type=name name=a})'],
    ['[]', '(SquareArrayConstructor)'],
    ['[1, (2, 3), ()]', '(SquareArrayConstructor [(IntegerLiteral "1") (ParenthesizedExpr (SequenceExpr [(IntegerLiteral "2") (IntegerLiteral "3")])) (ParenthesizedExpr)])'],
    ['array { }', '(CurlyArrayConstructor)'],
    ['array { 1, 2 }', '(CurlyArrayConstructor (SequenceExpr [(IntegerLiteral "1") (IntegerLiteral "2")]))'],
    ['ordered { a }', '(OrderedExpr (child::a))'],
    ['unordered { a }', '(UnorderedExpr (child::a))'],
    ['``[Hello `{$name}`!]``', '(StringConstructor [(StringConstructorChars "Hello ") (StringConstructorInterpolation (VarRef name=name)) (StringConstructorChars "!")])'],
    ['``[a`{}`b]``', '(StringConstructor [(StringConstructorChars "a") (StringConstructorInterpolation) (StringConstructorChars "b")])'],
    ['``[line1\r\nline2]``', '(StringConstructor [(StringConstructorChars "line1\\nline2")])'],
    ['(# ns:pragma contents here #) { 1 }', '(ExtensionExpr [(Pragma name=ns:pragma contents=contents here )] (IntegerLiteral "1"))'],
    ['(# ns:a #) (# Q{urn:x}b x #) { }', '(ExtensionExpr [(Pragma name=ns:a) (Pragma name=Q{urn:x}b contents=x )])'],
    ['validate { <a/> }', '(ValidateExpr (DirElemConstructor name=a))'],
    ['validate strict { $x }', '(ValidateExpr mode=strict (VarRef name=x))'],
    ['validate type xs:integer { 1 }', '(ValidateExpr type=xs:integer (IntegerLiteral "1"))'],
    ['invoke updating $f(1, 2)', '(UpdatingFunctionCall (VarRef name=f) [(IntegerLiteral "1") (IntegerLiteral "2")])'],
  ]);

  testFail([
    ['``[no interpolation ]`` ]``', '1:25'],
    ['if(1)', '1:6'],
    ['item()', '1:1'],
    ['map(1)', '1:1'],
    ['switch#1', '1:1'],
    ['f(1,)', '1:5'],
    ['map { "a" }', '1:11'],
    ['[1, 2', '1:6'],
    ['``[abc', '1:1'],
    ['``[a `{1} b]``', '1:10'],
    ['(# #) {1}', '1:4'],
    ['(# ns:a{1}', '1:8'],
    ['%private 1', '1:10'],
  ]);
});
