/** XQuery Update Facility 3.0 expressions. */
import { testFail, testParse } from './helpers';

describe('XQuery Update Facility', () => {
  testParse([
    ['insert node <a/> into /r', '(InsertExpr (DirElemConstructor name=a) position=into (PathExpr root=/ [(child::r)]))'],
    ['insert nodes (<a/>, <b/>) as first into /r', '(InsertExpr (ParenthesizedExpr (SequenceExpr [(DirElemConstructor name=a) (DirElemConstructor name=b)])) position=first (PathExpr root=/ [(child::r)]))'],
    ['insert node <a/> as last into /r', '(InsertExpr (DirElemConstructor name=a) position=last (PathExpr root=/ [(child::r)]))'],
    ['insert node <a/> before /r/x', '(InsertExpr (DirElemConstructor name=a) position=before (PathExpr root=/ [(child::r) (child::x)]))'],
    ['insert node <a/> after /r/x', '(InsertExpr (DirElemConstructor name=a) position=after (PathExpr root=/ [(child::r) (child::x)]))'],
    ['delete node /r/x', '(DeleteExpr (PathExpr root=/ [(child::r) (child::x)]))'],
    ['delete nodes //x', '(DeleteExpr (PathExpr root=/ [(descendant-or-self::(AnyKindTest)) (child::x)]))'],
    ['replace node /r/x with <y/>', '(ReplaceExpr (PathExpr root=/ [(child::r) (child::x)]) (DirElemConstructor name=y))'],
    ['replace value of node /r/x with "v"', '(ReplaceExpr valueOf (PathExpr root=/ [(child::r) (child::x)]) (StringLiteral "v"))'],
    ['rename node /r/x as "y"', '(RenameExpr (PathExpr root=/ [(child::r) (child::x)]) (StringLiteral "y"))'],
    ['copy $c := /r, $d := /s modify (delete node $c/x, rename node $d as "t") return ($c, $d)', '(CopyModifyExpr [(LetBinding name=c (PathExpr root=/ [(child::r)])) (LetBinding name=d (PathExpr root=/ [(child::s)]))] (ParenthesizedExpr (SequenceExpr [(DeleteExpr (PathExpr [(VarRef name=c) (child::x)])) (RenameExpr (VarRef name=d) (StringLiteral "t"))])) (ParenthesizedExpr (SequenceExpr [(VarRef name=c) (VarRef name=d)])))'],
    ['/r transform with { insert node <a/> into . }', '(TransformWithExpr (PathExpr root=/ [(child::r)]) (InsertExpr (DirElemConstructor name=a) position=into (ContextItemExpr)))'],
    ['/r transform with { }', '(TransformWithExpr (PathExpr root=/ [(child::r)]))'],
  ]);

  testFail([
    ['insert node <a/> /r', '1:20'],
    ['replace value node /r with 1', '1:9'],
    ['copy $c := /r return $c', '1:15'],
    ['rename node /r "x"', '1:16'],
  ]);
});
