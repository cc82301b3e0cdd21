// The twenty XMark queries (Schmidt et al., VLDB 2002) in their standard XQuery form, run with the
// auction document as the context item (`let $auction := . return`, where the published texts read
// `doc("auction.xml")`). Q8-Q12 are the value joins: Q8 and Q9 equality joins of people with
// closed auctions (Q9 a second one per auction, with European items), Q10 people grouped per
// interest category, Q11 and Q12 theta joins of incomes with initial prices.
'use strict';

const A = 'let $auction := . return\n';

const XMARK = {
  Q1: `${A}for $b in $auction/site/people/person[@id = "person0"] return $b/name/text()`,
  Q2: `${A}for $b in $auction/site/open_auctions/open_auction
return <increase>{$b/bidder[1]/increase/text()}</increase>`,
  Q3: `${A}for $b in $auction/site/open_auctions/open_auction
where zero-or-one($b/bidder[1]/increase/text()) * 2 <= $b/bidder[last()]/increase/text()
return <increase first="{$b/bidder[1]/increase/text()}" last="{$b/bidder[last()]/increase/text()}"/>`,
  Q4: `${A}for $b in $auction/site/open_auctions/open_auction
where some $pr1 in $b/bidder/personref[@person = "person20"],
           $pr2 in $b/bidder/personref[@person = "person51"]
      satisfies $pr1 << $pr2
return <history>{$b/reserve/text()}</history>`,
  Q5: `${A}count(for $i in $auction/site/closed_auctions/closed_auction
      where $i/price/text() >= 40
      return $i/price)`,
  Q6: `${A}for $b in $auction//site/regions return count($b//item)`,
  Q7: `${A}for $p in $auction/site
return count($p//description) + count($p//annotation) + count($p//emailaddress)`,
  Q8: `${A}for $p in $auction/site/people/person
let $a := for $t in $auction/site/closed_auctions/closed_auction
          where $t/buyer/@person = $p/@id
          return $t
return <item person="{$p/name/text()}">{count($a)}</item>`,
  Q9: `${A}let $ca := $auction/site/closed_auctions/closed_auction return
let $ei := $auction/site/regions/europe/item
for $p in $auction/site/people/person
let $a := for $t in $ca
          where $p/@id = $t/buyer/@person
          return let $n := for $t2 in $ei where $t/itemref/@item = $t2/@id return $t2
                 return <item>{$n/name/text()}</item>
return <person name="{$p/name/text()}">{$a}</person>`,
  Q10: `${A}for $i in distinct-values($auction/site/people/person/profile/interest/@category)
let $p := for $t in $auction/site/people/person
          where $t/profile/interest/@category = $i
          return <personne>
                   <statistiques>
                     <sexe>{$t/profile/gender/text()}</sexe>
                     <age>{$t/profile/age/text()}</age>
                     <education>{$t/profile/education/text()}</education>
                     <revenu>{fn:data($t/profile/@income)}</revenu>
                   </statistiques>
                   <coordonnees>
                     <nom>{$t/name/text()}</nom>
                     <rue>{$t/address/street/text()}</rue>
                     <ville>{$t/address/city/text()}</ville>
                     <pays>{$t/address/country/text()}</pays>
                     <reseau>
                       <courrier>{$t/emailaddress/text()}</courrier>
                       <pagePerso>{$t/homepage/text()}</pagePerso>
                     </reseau>
                   </coordonnees>
                   <cartePaiement>{$t/creditcard/text()}</cartePaiement>
                 </personne>
return <categorie>{<id>{$i}</id>, $p}</categorie>`,
  Q11: `${A}for $p in $auction/site/people/person
let $l := for $i in $auction/site/open_auctions/open_auction/initial
          where $p/profile/@income > 5000 * exactly-one($i/text())
          return $i
return <items name="{$p/name/text()}">{count($l)}</items>`,
  Q12: `${A}for $p in $auction/site/people/person
let $l := for $i in $auction/site/open_auctions/open_auction/initial
          where $p/profile/@income > 5000 * exactly-one($i/text())
          return $i
where $p/profile/@income > 50000
return <items person="{$p/profile/@income}">{count($l)}</items>`,
  Q13: `${A}for $i in $auction/site/regions/australia/item
return <item name="{$i/name/text()}">{$i/description}</item>`,
  Q14: `${A}for $i in $auction/site//item
where contains(string(exactly-one($i/description)), "gold")
return $i/name/text()`,
  Q15: `${A}for $a in $auction/site/closed_auctions/closed_auction/annotation/description/parlist/listitem/parlist/listitem/text/emph/keyword/text()
return <text>{$a}</text>`,
  Q16: `${A}for $a in $auction/site/closed_auctions/closed_auction
where not(empty($a/annotation/description/parlist/listitem/parlist/listitem/text/emph/keyword/text()))
return <person id="{$a/seller/@person}"/>`,
  Q17: `${A}for $p in $auction/site/people/person
where empty($p/homepage/text())
return <person name="{$p/name/text()}"/>`,
  Q18: `declare function local:convert($v as xs:decimal?) as xs:decimal? {
  2.20371 * $v (: convert Dfl to Euro :)
};
${A}for $i in $auction/site/open_auctions/open_auction
return local:convert(zero-or-one($i/reserve))`,
  Q19: `${A}for $b in $auction/site/regions//item
let $k := $b/name/text()
order by zero-or-one($b/location) ascending empty greatest
return <item name="{$k}">{$b/location/text()}</item>`,
  Q20: `${A}<result>
  <preferred>{count($auction/site/people/person/profile[@income >= 100000])}</preferred>
  <standard>{count($auction/site/people/person/profile[@income < 100000 and @income >= 30000])}</standard>
  <challenge>{count($auction/site/people/person/profile[@income < 30000])}</challenge>
  <na>{count(for $p in $auction/site/people/person where empty($p/profile/@income) return $p)}</na>
</result>`,
};

module.exports = { XMARK };
