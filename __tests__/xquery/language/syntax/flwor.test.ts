/** FLWOR clauses (for, let, window, where, group by, order by, count) and quantified expressions. */
import { testFail, testParse } from './helpers';

describe('FLWOR and quantified expressions', () => {
  testParse([
    ['for $x in 1 to 3 return $x', '(FLWORExpr [(ForClause [(ForBinding name=x (RangeExpr (IntegerLiteral "1") (IntegerLiteral "3")))])] (VarRef name=x))'],
    ['for $x as xs:integer allowing empty at $i in () return $i', '(FLWORExpr [(ForClause [(ForBinding name=x (SequenceType (AtomicOrUnionType name=xs:integer)) allowingEmpty positionalVar=i (ParenthesizedExpr))])] (VarRef name=i))'],
    ['for $x in a, $y in b return ($x, $y)', '(FLWORExpr [(ForClause [(ForBinding name=x (child::a)) (ForBinding name=y (child::b))])] (ParenthesizedExpr (SequenceExpr [(VarRef name=x) (VarRef name=y)])))'],
    ['let $x := 1, $y as xs:int := 2 return $x + $y', '(FLWORExpr [(LetClause [(LetBinding name=x (IntegerLiteral "1")) (LetBinding name=y (SequenceType (AtomicOrUnionType name=xs:int)) (IntegerLiteral "2"))])] (AdditiveExpr op=+ (VarRef name=x) (VarRef name=y)))'],
    ['for $x in 1 to 10 let $y := $x where $y > 2 count $c return $c', '(FLWORExpr [(ForClause [(ForBinding name=x (RangeExpr (IntegerLiteral "1") (IntegerLiteral "10")))]) (LetClause [(LetBinding name=y (VarRef name=x))]) (WhereClause (ComparisonExpr op=> (VarRef name=y) (IntegerLiteral "2"))) (CountClause name=c)] (VarRef name=c))'],
    ['for $p in //p group by $k := $p/@k, $j collation "http://c" return $k', '(FLWORExpr [(ForClause [(ForBinding name=p (PathExpr root=/ [(descendant-or-self::(AnyKindTest)) (child::p)]))]) (GroupByClause [(GroupingSpec name=k (PathExpr [(VarRef name=p) (attribute::k)])) (GroupingSpec name=j collation=http://c)])] (VarRef name=k))'],
    ['for $p in //p group by $k as xs:string := $p/@k return $k', '(FLWORExpr [(ForClause [(ForBinding name=p (PathExpr root=/ [(descendant-or-self::(AnyKindTest)) (child::p)]))]) (GroupByClause [(GroupingSpec name=k (SequenceType (AtomicOrUnionType name=xs:string)) (PathExpr [(VarRef name=p) (attribute::k)]))])] (VarRef name=k))'],
    ['for $x in 1 to 3 order by $x descending empty greatest, $x ascending empty least collation "c" return $x', '(FLWORExpr [(ForClause [(ForBinding name=x (RangeExpr (IntegerLiteral "1") (IntegerLiteral "3")))]) (OrderByClause [(OrderSpec (VarRef name=x) descending emptyOrder=greatest) (OrderSpec (VarRef name=x) emptyOrder=least collation=c)])] (VarRef name=x))'],
    ['for $x in 1 to 3 stable order by $x return $x', '(FLWORExpr [(ForClause [(ForBinding name=x (RangeExpr (IntegerLiteral "1") (IntegerLiteral "3")))]) (OrderByClause stable [(OrderSpec (VarRef name=x))])] (VarRef name=x))'],
    ['for tumbling window $w in 1 to 10 start $s at $i previous $p next $n when $s > 1 return $w', '(FLWORExpr [(WindowClause window=tumbling name=w (RangeExpr (IntegerLiteral "1") (IntegerLiteral "10")) (WindowCondition current=s positional=i previous=p next=n (ComparisonExpr op=> (VarRef name=s) (IntegerLiteral "1"))))] (VarRef name=w))'],
    ['for sliding window $w as xs:integer* in 1 to 10 start when true() only end $e at $j when $j - $i = 2 return $w', '(FLWORExpr [(WindowClause window=sliding name=w (SequenceType (AtomicOrUnionType name=xs:integer) occurrence=*) (RangeExpr (IntegerLiteral "1") (IntegerLiteral "10")) (WindowCondition (FunctionCall name=true)) (WindowCondition only current=e positional=j (ComparisonExpr op== (AdditiveExpr op=- (VarRef name=j) (VarRef name=i)) (IntegerLiteral "2"))))] (VarRef name=w))'],
    ['for tumbling window $w in 1 to 10 start when true() end when false() return $w', '(FLWORExpr [(WindowClause window=tumbling name=w (RangeExpr (IntegerLiteral "1") (IntegerLiteral "10")) (WindowCondition (FunctionCall name=true)) (WindowCondition (FunctionCall name=false)))] (VarRef name=w))'],
    ['some $x in 1 to 3 satisfies $x > 2', '(QuantifiedExpr quantifier=some [(QuantifiedBinding name=x (RangeExpr (IntegerLiteral "1") (IntegerLiteral "3")))] (ComparisonExpr op=> (VarRef name=x) (IntegerLiteral "2")))'],
    ['every $x as xs:integer in (1, 2), $y in (3) satisfies $x < $y', '(QuantifiedExpr quantifier=every [(QuantifiedBinding name=x (SequenceType (AtomicOrUnionType name=xs:integer)) (ParenthesizedExpr (SequenceExpr [(IntegerLiteral "1") (IntegerLiteral "2")]))) (QuantifiedBinding name=y (ParenthesizedExpr (IntegerLiteral "3")))] (ComparisonExpr op=< (VarRef name=x) (VarRef name=y)))'],
    ['for $x in 1 return $x, 2', '(SequenceExpr [(FLWORExpr [(ForClause [(ForBinding name=x (IntegerLiteral "1"))])] (VarRef name=x)) (IntegerLiteral "2")])'],
  ]);

  testFail([
    ['for $x in 1', '1:12'],
    ['for $x at 1 in 1 return 1', '1:11'],
    ['let $x = 1 return $x', '1:8'],
    ['for sliding window $w in 1 to 10 start when true() return $w', '1:52'],
    ['for $x in 1 order $x return $x', '1:19'],
    ['some $x in 1 return $x', '1:14'],
    ['for $x in 1 group by $x + 1 return $x', '1:25'],
  ]);
});
