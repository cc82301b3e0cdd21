/** if, switch, typeswitch and try/catch. */
import { testFail, testParse } from './helpers';

describe('conditional expressions', () => {
  testParse([
    ['if (1) then 2 else 3', '(IfExpr (IntegerLiteral "1") (IntegerLiteral "2") (IntegerLiteral "3"))'],
    ['if (1, 2) then if (3) then 4 else 5 else 6', '(IfExpr (SequenceExpr [(IntegerLiteral "1") (IntegerLiteral "2")]) (IfExpr (IntegerLiteral "3") (IntegerLiteral "4") (IntegerLiteral "5")) (IntegerLiteral "6"))'],
    ['switch ($x) case 1 case 2 return "a" case 3 return "b" default return "c"', '(SwitchExpr (VarRef name=x) [(SwitchCaseClause [(IntegerLiteral "1") (IntegerLiteral "2")] (StringLiteral "a")) (SwitchCaseClause [(IntegerLiteral "3")] (StringLiteral "b"))] (StringLiteral "c"))'],
    ['typeswitch ($x) case xs:integer return 1 case $s as xs:string | xs:untypedAtomic return 2 default return 3', '(TypeswitchExpr (VarRef name=x) [(TypeswitchCaseClause [(SequenceType (AtomicOrUnionType name=xs:integer))] (IntegerLiteral "1")) (TypeswitchCaseClause variable=s [(SequenceType (AtomicOrUnionType name=xs:string)) (SequenceType (AtomicOrUnionType name=xs:untypedAtomic))] (IntegerLiteral "2"))] (IntegerLiteral "3"))'],
    ['typeswitch ($x) case element(a)* return 1 default $d return $d', '(TypeswitchExpr (VarRef name=x) [(TypeswitchCaseClause [(SequenceType (ElementTest name=a) occurrence=*)] (IntegerLiteral "1"))] defaultVar=d (VarRef name=d))'],
    ['try { 1 div 0 } catch * { $err:code }', '(TryCatchExpr (EnclosedExpr (MultiplicativeExpr op=div (IntegerLiteral "1") (IntegerLiteral "0"))) [(CatchClause [*] (EnclosedExpr (VarRef name=err:code)))])'],
    ['try { 1 } catch err:FOAR0001 | err:XPTY0004 { 2 } catch p:* | *:local | Q{urn:x}* | Q{urn:x}e { 3 }', '(TryCatchExpr (EnclosedExpr (IntegerLiteral "1")) [(CatchClause [err:FOAR0001 err:XPTY0004] (EnclosedExpr (IntegerLiteral "2"))) (CatchClause [p:* *:local Q{urn:x}* Q{urn:x}e] (EnclosedExpr (IntegerLiteral "3")))])'],
    ['try { } catch * { }', '(TryCatchExpr (EnclosedExpr) [(CatchClause [*] (EnclosedExpr))])'],
  ]);

  testFail([
    ['if (1) then 2', '1:14'],
    ['if 1 then 2 else 3', '1:4'],
    ['switch ($x) default return 1', '1:13'],
    ['try { 1 }', '1:10'],
    ['try { 1 } catch { 2 }', '1:17'],
    ['typeswitch ($x) case xs:int return 1', '1:37'],
  ]);
});
