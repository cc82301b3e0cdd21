/** Path expressions: axes, abbreviations, node tests, predicates, lookups, leading-lone-slash. */
import { testFail, testParse } from './helpers';

describe('paths', () => {
  testParse([
    ['/', '(PathExpr root=/)'],
    ['/a', '(PathExpr root=/ [(child::a)])'],
    ['//a', '(PathExpr root=/ [(descendant-or-self::(AnyKindTest)) (child::a)])'],
    ['a/b//c', '(PathExpr [(child::a) (child::b) (descendant-or-self::(AnyKindTest)) (child::c)])'],
    ['(/) * 5', '(MultiplicativeExpr op=* (ParenthesizedExpr (PathExpr root=/)) (IntegerLiteral "5"))'],
    ['5 * /', '(MultiplicativeExpr op=* (IntegerLiteral "5") (PathExpr root=/))'],
    ['child::a/descendant::b/attribute::c/self::d', '(PathExpr [(child::a) (descendant::b) (attribute::c) (self::d)])'],
    ['descendant-or-self::node()/following-sibling::*/following::p:*/namespace::*', '(PathExpr [(descendant-or-self::(AnyKindTest)) (following-sibling::*) (following::p:*) (namespace::*)])'],
    ['parent::a/ancestor::*:b/preceding-sibling::Q{urn:x}*/preceding::text()/ancestor-or-self::comment()', '(PathExpr [(parent::a) (ancestor::*:b) (preceding-sibling::Q{urn:x}*) (preceding::(TextTest)) (ancestor-or-self::(CommentTest))])'],
    ['@id', '(attribute::id)'],
    ['@*', '(attribute::*)'],
    ['..', '(parent::(AnyKindTest))'],
    ['../a', '(PathExpr [(parent::(AnyKindTest)) (child::a)])'],
    ['.', '(ContextItemExpr)'],
    ['./a', '(PathExpr [(ContextItemExpr) (child::a)])'],
    ['a[1][@b = 2]', '(child::a (IntegerLiteral "1") (ComparisonExpr op== (attribute::b) (IntegerLiteral "2")))'],
    ['(a, b)[1]', '(FilterExpr (ParenthesizedExpr (SequenceExpr [(child::a) (child::b)])) (IntegerLiteral "1"))'],
    ['attribute(id)', '(attribute::(AttributeTest name=id))'],
    ['namespace-node()', '(namespace::(NamespaceNodeTest))'],
    ['document-node(element(a))', '(child::(DocumentTest (ElementTest name=a)))'],
    ['element(a, xs:string?)', '(child::(ElementTest name=a type=xs:string nillable))'],
    ['element(*)', '(child::(ElementTest name=*))'],
    ['attribute(*, xs:ID)', '(attribute::(AttributeTest name=* type=xs:ID))'],
    ['schema-element(a)', '(child::(SchemaElementTest name=a))'],
    ['processing-instruction(pi)', '(child::(PITest target=pi))'],
    ['processing-instruction(\'  pi  \')', '(child::(PITest target=pi))'],
    ['$m?name', '(Lookup (VarRef name=m) {type=name name=name})'],
    ['$m?1', '(Lookup (VarRef name=m) {type=integer "1"})'],
    ['$m?(1 + 1)', '(Lookup (VarRef name=m) {type=expr (ParenthesizedExpr (AdditiveExpr op=+ (IntegerLiteral "1") (IntegerLiteral "1")))})'],
    ['$m?*', '(Lookup (VarRef name=m) {type=wildcard})'],
    ['$a?b?c', '(Lookup (Lookup (VarRef name=a) {type=name name=b}) {type=name name=c})'],
    ['?key', '(UnaryLookup {type=name name=key})'],
    ['$m ? key', '(Lookup (VarRef name=m) {type=name name=key})'],
    ['$f(1)(2)', '(DynamicFunctionCall (DynamicFunctionCall (VarRef name=f) [(IntegerLiteral "1")]) [(IntegerLiteral "2")])'],
    ['$f[1](2)?x', '(Lookup (DynamicFunctionCall (FilterExpr (VarRef name=f) (IntegerLiteral "1")) [(IntegerLiteral "2")]) {type=name name=x})'],
    ['/<a/>', '(PathExpr root=/ [(DirElemConstructor name=a)])'],
    ['a/"x"', '(PathExpr [(child::a) (StringLiteral "x")])'],
  ]);

  testFail([
    ['/ * 5', '1:5'],
    ['/ union /', '1:10'],
    ['unknown::a', '1:1'],
    ['a/', '1:3'],
    ['a//', '1:4'],
    ['@', '1:2'],
    ['a[1', '1:4'],
  ]);
});
