/** Version declaration, prolog declarations and their ordering and uniqueness rules. */
import { prolog, testFail, testParse } from './helpers';

describe('prolog', () => {
  testParse([
    ['xquery version "3.1"; 1', '[]'],
    ['xquery version "3.0" encoding "utf-8"; 1', '[]'],
    ['xquery encoding "UTF-8"; 1', '[]'],
    ['declare default element namespace "urn:e"; declare default function namespace "urn:f"; 1', '[(DefaultNamespaceDecl target=element uri=urn:e) (DefaultNamespaceDecl target=function uri=urn:f)]'],
    ['declare namespace p = "urn:p"; 1', '[(NamespaceDecl prefix=p uri=urn:p)]'],
    ['declare boundary-space preserve; declare default collation "urn:c"; declare base-uri "urn:b"; 1', '[(BoundarySpaceDecl mode=preserve) (DefaultCollationDecl uri=urn:c) (BaseURIDecl uri=urn:b)]'],
    ['declare construction strip; declare ordering unordered; declare default order empty greatest; 1', '[(ConstructionDecl mode=strip) (OrderingModeDecl mode=unordered) (EmptyOrderDecl order=greatest)]'],
    ['declare copy-namespaces no-preserve, inherit; 1', '[(CopyNamespacesDecl inherit)]'],
    ['declare decimal-format d decimal-separator = "," grouping-separator = "."; declare default decimal-format NaN = "x"; 1', '[(DecimalFormatDecl name=d [{name=decimal-separator ","} {name=grouping-separator "."}]) (DecimalFormatDecl [{name=NaN "x"}])]'],
    ['import schema namespace s = "urn:s" at "a.xsd", "b.xsd"; import schema default element namespace "urn:t"; import schema "urn:u"; 1', '[(SchemaImport prefix=s uri=urn:s ["a.xsd" "b.xsd"]) (SchemaImport defaultElementNamespace uri=urn:t) (SchemaImport uri=urn:u)]'],
    ['import module namespace m = "urn:m" at "m.xq"; import module "urn:n"; 1', '[(ModuleImport prefix=m uri=urn:m ["m.xq"]) (ModuleImport uri=urn:n)]'],
    ['declare context item as element() := <a/>; 1', '[(ContextItemDecl (ElementTest) (DirElemConstructor name=a))]'],
    ['declare context item external := 1; 1', '[(ContextItemDecl external (IntegerLiteral "1"))]'],
    ['declare variable $x := 1; declare variable $y as xs:integer external; declare variable $z external := 2; 1', '[(VarDecl name=x (IntegerLiteral "1")) (VarDecl name=y (SequenceType (AtomicOrUnionType name=xs:integer)) external) (VarDecl name=z external (IntegerLiteral "2"))]'],
    ['declare %private %public variable $v := 1; 1', '[(VarDecl [(Annotation name=private) (Annotation name=public)] name=v (IntegerLiteral "1"))]'],
    ['declare function local:f($a as xs:integer, $b) as xs:integer { $a + $b }; local:f(1, 2)', '[(FunctionDecl name=local:f [(Param name=a (SequenceType (AtomicOrUnionType name=xs:integer))) (Param name=b)] (SequenceType (AtomicOrUnionType name=xs:integer)) (EnclosedExpr (AdditiveExpr op=+ (VarRef name=a) (VarRef name=b))))]'],
    ['declare %updating function local:u($n) { delete node $n }; 1', '[(FunctionDecl [(Annotation name=updating)] name=local:u [(Param name=n)] (EnclosedExpr (DeleteExpr (VarRef name=n))))]'],
    ['declare updating function local:u() external; 1', '[(FunctionDecl [(Annotation name=updating)] name=local:u)]'],
    ['declare option output:method "xml"; 1', '[(OptionDecl name=output:method "xml")]'],
    ['declare revalidation skip; 1', '[(RevalidationDecl mode=skip)]'],
    ['declare function local:let() { 1 }; local:let()', '[(FunctionDecl name=local:let (EnclosedExpr (IntegerLiteral "1")))]'],
    ['declare', '[]'],
  ], prolog);

  testFail([
    ['xquery version "2.0"; 1', 'XQST0031 1:16'],
    ['xquery version "3.1" encoding "_x"; 1', 'XQST0087 1:31'],
    ['declare variable $x := 1; declare namespace p = "urn:p"; 1', '1:27'],
    ['declare variable $x := 1; import module "urn:m"; 1', '1:27'],
    ['declare boundary-space strip; declare boundary-space strip; 1', 'XQST0068 1:31'],
    ['declare default element namespace "a"; declare default element namespace "b"; 1', 'XQST0066 1:40'],
    ['declare default collation "a"; declare default collation "b"; 1', 'XQST0038 1:32'],
    ['declare default order empty least; declare default order empty least; 1', 'XQST0069 1:36'],
    ['declare ordering ordered; declare ordering ordered; 1', 'XQST0065 1:27'],
    ['declare construction strip; declare construction strip; 1', 'XQST0067 1:29'],
    ['declare copy-namespaces preserve, inherit; declare copy-namespaces preserve, inherit; 1', 'XQST0055 1:44'],
    ['declare base-uri "a"; declare base-uri "b"; 1', 'XQST0032 1:23'],
    ['declare decimal-format d NaN = "a" NaN = "b"; 1', 'XQST0114 1:36'],
    ['declare decimal-format d NaN = "a"; declare decimal-format d NaN = "b"; 1', 'XQST0111 1:37'],
    ['declare context item := 1; declare context item := 2; 1', 'XQST0099 1:28'],
    ['declare function if() { 1 }; 1', '1:18'],
    ['declare variable $x := 1;', '1:26'],
    ['declare variable $x := 1 1', '1:26'],
    ['module namespace m = "urn:m"; declare function m:f() { 1 };', '1:1'],
    ['declare namespace p = "urn:p";\n\n  declare variable $x = 1; 1', '3:23'],
  ]);
});
