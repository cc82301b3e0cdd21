/** The operator chain from Expr down to SimpleMapExpr, with precedence and associativity. */
import { testFail, testParse } from './helpers';

describe('operators', () => {
  testParse([
    ['1, 2, 3', '(SequenceExpr [(IntegerLiteral "1") (IntegerLiteral "2") (IntegerLiteral "3")])'],
    ['1 or 2 and 3', '(OrExpr (IntegerLiteral "1") (AndExpr (IntegerLiteral "2") (IntegerLiteral "3")))'],
    ['1 = 2', '(ComparisonExpr op== (IntegerLiteral "1") (IntegerLiteral "2"))'],
    ['1 != 2', '(ComparisonExpr op=!= (IntegerLiteral "1") (IntegerLiteral "2"))'],
    ['1 <= 2', '(ComparisonExpr op=<= (IntegerLiteral "1") (IntegerLiteral "2"))'],
    ['$a eq $b', '(ComparisonExpr op=eq (VarRef name=a) (VarRef name=b))'],
    ['$a is $b', '(ComparisonExpr op=is (VarRef name=a) (VarRef name=b))'],
    ['$a << $b', '(ComparisonExpr op=<< (VarRef name=a) (VarRef name=b))'],
    ['$a >> $b', '(ComparisonExpr op=>> (VarRef name=a) (VarRef name=b))'],
    ['"a" || "b" || "c"', '(StringConcatExpr (StringConcatExpr (StringLiteral "a") (StringLiteral "b")) (StringLiteral "c"))'],
    ['1 to 10', '(RangeExpr (IntegerLiteral "1") (IntegerLiteral "10"))'],
    ['1 + 2 * 3 - 4', '(AdditiveExpr op=- (AdditiveExpr op=+ (IntegerLiteral "1") (MultiplicativeExpr op=* (IntegerLiteral "2") (IntegerLiteral "3"))) (IntegerLiteral "4"))'],
    ['10 div 3 idiv 2 mod 5', '(MultiplicativeExpr op=mod (MultiplicativeExpr op=idiv (MultiplicativeExpr op=div (IntegerLiteral "10") (IntegerLiteral "3")) (IntegerLiteral "2")) (IntegerLiteral "5"))'],
    ['a | b union c', '(UnionExpr (UnionExpr (child::a) (child::b)) (child::c))'],
    ['a intersect b except c', '(IntersectExceptExpr op=except (IntersectExceptExpr op=intersect (child::a) (child::b)) (child::c))'],
    ['1 instance of xs:integer', '(InstanceofExpr (IntegerLiteral "1") (SequenceType (AtomicOrUnionType name=xs:integer)))'],
    ['$x treat as item()+', '(TreatExpr (VarRef name=x) (SequenceType (AnyItemType) occurrence=+))'],
    ['4 treat as item() + - 5', '(AdditiveExpr op=- (TreatExpr (IntegerLiteral "4") (SequenceType (AnyItemType) occurrence=+)) (IntegerLiteral "5"))'],
    ['"1" castable as xs:integer?', '(CastableExpr (StringLiteral "1") (SingleType name=xs:integer optional))'],
    ['"1" cast as xs:integer', '(CastExpr (StringLiteral "1") (SingleType name=xs:integer))'],
    ['-1', '(UnaryExpr op=- (IntegerLiteral "1"))'],
    ['- - +1', '(UnaryExpr op=- (UnaryExpr op=- (UnaryExpr op=+ (IntegerLiteral "1"))))'],
    ['1--1', '(AdditiveExpr op=- (IntegerLiteral "1") (UnaryExpr op=- (IntegerLiteral "1")))'],
    ['$x ! string() ! upper-case(.)', '(SimpleMapExpr [(VarRef name=x) (FunctionCall name=string) (FunctionCall name=upper-case [(ContextItemExpr)])])'],
    ['"a" => upper-case() => concat("b")', '(ArrowExpr (ArrowExpr (StringLiteral "a") function=upper-case) function=concat [(StringLiteral "b")])'],
    ['$s => $f(1)', '(ArrowExpr (VarRef name=s) (VarRef name=f) [(IntegerLiteral "1")])'],
    ['$s => (f#1)()', '(ArrowExpr (VarRef name=s) (ParenthesizedExpr (NamedFunctionRef name=f arity=1)))'],
    ['1 => function($a) { $a + 1 }()', '(ArrowExpr (IntegerLiteral "1") (InlineFunctionExpr [(Param name=a)] (EnclosedExpr (AdditiveExpr op=+ (VarRef name=a) (IntegerLiteral "1")))))'],
    ['$x transform with { delete node a }', '(TransformWithExpr (VarRef name=x) (DeleteExpr (child::a)))'],
  ]);

  testFail([
    ['1 = 2 = 3', '1:7'],
    ['1 to 2 to 3', '1:8'],
    ['1 +', '1:4'],
    ['1 instance xs:integer', '1:3'],
    ['$a => 1', '1:7'],
  ]);
});
