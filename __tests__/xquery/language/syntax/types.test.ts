/** Sequence types, item types, kind tests, occurrence indicators. */
import { testFail, testParse } from './helpers';

describe('sequence types', () => {
  testParse([
    ['$x instance of empty-sequence()', '(InstanceofExpr (VarRef name=x) (SequenceType))'],
    ['$x instance of item()*', '(InstanceofExpr (VarRef name=x) (SequenceType (AnyItemType) occurrence=*))'],
    ['$x instance of xs:integer?', '(InstanceofExpr (VarRef name=x) (SequenceType (AtomicOrUnionType name=xs:integer) occurrence=?))'],
    ['$x instance of node()+', '(InstanceofExpr (VarRef name=x) (SequenceType (AnyKindTest) occurrence=+))'],
    ['$x instance of document-node()', '(InstanceofExpr (VarRef name=x) (SequenceType (DocumentTest)))'],
    ['$x instance of document-node(schema-element(a))', '(InstanceofExpr (VarRef name=x) (SequenceType (DocumentTest (SchemaElementTest name=a))))'],
    ['$x instance of element(a, t)', '(InstanceofExpr (VarRef name=x) (SequenceType (ElementTest name=a type=t)))'],
    ['$x instance of attribute()', '(InstanceofExpr (VarRef name=x) (SequenceType (AttributeTest)))'],
    ['$x instance of schema-attribute(a)', '(InstanceofExpr (VarRef name=x) (SequenceType (SchemaAttributeTest name=a)))'],
    ['$x instance of processing-instruction("pi")', '(InstanceofExpr (VarRef name=x) (SequenceType (PITest target=pi)))'],
    ['$x instance of comment()', '(InstanceofExpr (VarRef name=x) (SequenceType (CommentTest)))'],
    ['$x instance of text()', '(InstanceofExpr (VarRef name=x) (SequenceType (TextTest)))'],
    ['$x instance of namespace-node()', '(InstanceofExpr (VarRef name=x) (SequenceType (NamespaceNodeTest)))'],
    ['$x instance of function(*)', '(InstanceofExpr (VarRef name=x) (SequenceType (AnyFunctionTest)))'],
    ['$x instance of %a function(*)', '(InstanceofExpr (VarRef name=x) (SequenceType (AnyFunctionTest [(Annotation name=a)])))'],
    ['$x instance of function(xs:int, item()*) as xs:string?', '(InstanceofExpr (VarRef name=x) (SequenceType (TypedFunctionTest [(SequenceType (AtomicOrUnionType name=xs:int)) (SequenceType (AnyItemType) occurrence=*)] (SequenceType (AtomicOrUnionType name=xs:string) occurrence=?))))'],
    ['$x instance of function() as empty-sequence()', '(InstanceofExpr (VarRef name=x) (SequenceType (TypedFunctionTest (SequenceType))))'],
    ['$x instance of map(*)', '(InstanceofExpr (VarRef name=x) (SequenceType (AnyMapTest)))'],
    ['$x instance of map(xs:string, array(*))', '(InstanceofExpr (VarRef name=x) (SequenceType (TypedMapTest (AtomicOrUnionType name=xs:string) (SequenceType (AnyArrayTest)))))'],
    ['$x instance of array(*)', '(InstanceofExpr (VarRef name=x) (SequenceType (AnyArrayTest)))'],
    ['$x instance of array(xs:int+)', '(InstanceofExpr (VarRef name=x) (SequenceType (TypedArrayTest (SequenceType (AtomicOrUnionType name=xs:int) occurrence=+))))'],
    ['$x instance of (function() as item())?', '(InstanceofExpr (VarRef name=x) (SequenceType (ParenthesizedItemType (TypedFunctionTest (SequenceType (AnyItemType)))) occurrence=?))'],
    ['$x instance of Q{http://www.w3.org/2001/XMLSchema}integer', '(InstanceofExpr (VarRef name=x) (SequenceType (AtomicOrUnionType name=Q{http://www.w3.org/2001/XMLSchema}integer)))'],
    ['$x instance of xs:integer* * 2', '(MultiplicativeExpr op=* (InstanceofExpr (VarRef name=x) (SequenceType (AtomicOrUnionType name=xs:integer) occurrence=*)) (IntegerLiteral "2"))'],
  ]);

  testFail([
    ['$x instance of empty-sequence()?', '1:32'],
    ['$x instance of map(*, item())', '1:21'],
    ['$x instance of function(*) as item()', '1:28'],
    ['$x cast as xs:integer+', '1:23'],
    ['$x instance of element(*:a)', '1:24'],
  ]);
});
