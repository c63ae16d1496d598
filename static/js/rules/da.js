// Sådan spiller du: en kort side pr. spil på dansk, med et gennemregnet eksempel på det, folk
// oftest tager fejl af. Samme indhold som en.js.
export default {
  slap: {
    title: "Slap",
    goal: "Vind stik ved at banke først i bordet, når to eller flere vendte kort viser samme tal. Flest kort ved rundens slutning giver flest point.",
    parts: [
      ["Forberedelse", [
        "2 til 4 spillere. Hver tager de 10 kort i én farve (gul, grøn, lyserød eller blå) som en bunke med bagsiden opad.",
        "Starteren siger “Nu!”, og alle vender det øverste kort i deres bunke på samme tid.",
      ]],
      ["Bank i bordet", [
        "To (eller tre eller fire) kort med samme tal: bank! Den hurtigste tager alle kortene på bordet og lægger dem under sin bunke.",
        "Serveren dømmer efter hver spillers egen reaktionstid, så en langsom forbindelse ikke koster dig stikket.",
        "Den, der vinder stikket, siger næste “Nu!”. Uden par bliver kortene liggende, og samme starter fortsætter.",
        "Banker du, uden at der ligger et par, får du 1 strafpoint.",
      ]],
      ["Point", [
        "Runden slutter, når en spillers bunke er tom (eller ved tidsgrænsen).",
        "Flest kort 6 point, næstflest 4, tredjeflest 2, fjerde 0; strafpoint trækkes fra.",
        "To spillere: når ingen kort længere kan skifte ejer, får den med flest kort 6 point og den anden 2.",
      ]],
    ],
    example: ["at banke uden par", [
      "Ana vender grøn 7, Bo blå 7, Cy gul 3. Bo banker først: 7 og 7 er et par, så Bo tager alle tre kort.",
      "Næste vending: grøn 2, blå 9, gul 5. Cy banker ved en fejl. Der er intet par, så Cy får 1 strafpoint: slutter Cy runden som nummer tre (2 point), får Cy 1 point.",
    ]],
  },
  leekha: {
    title: "Leekha",
    goal: "Stikspil for fire, hvor point er dårlige: den, der først når 101, taber (i 2 mod 2 taber hele holdet).",
    parts: [
      ["Kortene", [
        "52 kort i rød, blå, gul og grøn, 13 af hver. Fra lav til høj: 2–9, 0 (=10), Retur (knægt), +2 (dame), Stop (konge), 1 (es). Symbolerne gør ingenting.",
        "Strafkort: Blå +2 er Store Leekha, 13 point. Gul 0 er Lille Leekha, 10 point. Hvert rødt kort er 1 point. En runde rummer 36 point.",
      ]],
      ["Kort videre", [
        "Efter given sender alle samtidig 3 kort til spilleren til højre.",
        "Du må ikke give dit sidste røde eller grønne kort væk. Dit sidste gule må du kun give, hvis hvert gult kort du giver er 0 eller højere; dit sidste blå kun, hvis hvert blåt er +2 eller højere.",
      ]],
      ["Stik", [
        "Du må spille ud med et hvilket som helst kort. Har du den udspillede farve, skal du bekende kulør.",
        "Kan du ikke bekende og har en Leekha, skal du lægge den; ellers må du lægge hvad som helst.",
        "Er der spillet gult ud, og ligger der et højere gult kort i stikket, skal den, der har Gul 0, lægge den. Det samme gælder Blå +2, når en blå Stop eller 1 ligger i stikket.",
        "Det højeste kort i udspillets farve tager stikket med dets strafpoint. Der spilles til højre.",
        "Tager du begge Leekhaer i samme stik, får du præcis 37 point, alle andre 0, og runden slutter.",
        "Når det er din tur, kan du kaste kortene: alle point, der stadig er i spil (alle hænder og stikket), bliver dine, og runden slutter.",
      ]],
    ],
    example: ["sådan tæller strafkortene", [
      "Bo tager et stik med Blå +2 og to røde kort: 13 + 1 + 1 = 15 point til Bo.",
      "Senere tager Cy Gul 0 og et rødt: 10 + 1 = 11. De andre 10 røde går til dem, der tager dem. I alt 13 + 10 + 13 = 36.",
      "Havde Bo taget Blå +2 og Gul 0 i samme stik, fik Bo præcis 37 og alle andre 0 i denne runde.",
    ]],
  },
  rummy: {
    title: "Rummy",
    goal: "Kom af med dine kort ved at lægge dem i serier på bordet. Din tur varer to minutter.",
    parts: [
      ["Kort og serier", [
        "Tallene 1 til 13 i fire farver, to af hver, plus 4 jokere. Alle får 14 kort; resten er bunken.",
        "En gruppe: 3 eller 4 kort med samme tal i forskellige farver. En række: 3 eller flere tal i træk i samme farve (1 er kun lav).",
        "En joker kan stå for et hvilket som helst kort. En joker, der er tilbage på hånden til sidst, tæller 25.",
      ]],
      ["Din tur", [
        "Læg serier ud, eller træk ét kort fra bunken, hvis du ikke kan eller vil spille.",
        "Din første udlægning skal være nye serier af dine egne kort til mindst 40 point (bordet kan vælge et andet tal); indtil da må du ikke røre bordet.",
        "Når du har meldt ud, må du bygge hele bordet om, også andres serier, så længe hver serie er gyldig, når du slutter din tur, og intet kort fra bordet kommer tilbage på hånden.",
        "Løber tiden ud, tæller et gyldigt bord; ellers bliver gyldige nye serier liggende, eller bordet sættes tilbage, og du trækker.",
      ]],
      ["Point", [
        "Den, der lægger sit sidste kort, vinder runden og får værdien af alle andres hænder; de andre får den som minuspoint.",
        "Efter de aftalte runder vinder den højeste sum.",
      ]],
    ],
    example: ["den første udlægning", [
      "Ana har rød 10, 11, 12 og en joker. Rød 10-11-12 er 33 point: ikke nok til at melde ud med 40.",
      "Med jokeren som rød 13 bliver rækken 10-11-12-13 = 46 point: Ana må melde ud. Næste tur må hun også flytte kort, som andre har lagt.",
    ]],
  },
  uffda: {
    title: "UFF-DA!",
    goal: "Spil alle dine kort ud på grenene. Lavest samlet sum efter ti runder vinder. Hold øje med mønterne, svar på dobbelte og fang glemte råb.",
    parts: [
      ["Forberedelse", [
        "Dominokort fra 0/0 til 9/9. En dobbelt ligger i midten (0/0 i runde 1, derefter 1/1, 2/2 …). Hver spiller har en gren med en mønt på, og der er én fælles gren.",
        "En gren med mønten på er åben for alle; din egen gren er altid åben for dig.",
      ]],
      ["Din tur", [
        "Læg et kort med et tal, der passer til en åben ende, eller træk fra en af de to bunker (du må spille det trukne kort). Sig så NÆSTE.",
        "Spillede du på din egen gren? Så må du tage mønten af og lukke grenen for de andre.",
        "Trak du og spillede intet? Læg mønten på din gren, før du siger NÆSTE. Glemmer du det, kan alle råbe MØNT! til dig, indtil næste spillers tur er slut: råberen giver dig et kort, og din mønt kommer på.",
        "En dobbelt lægges på tværs af en gren og skal fyldes på begge sider, før der spilles andet; den, der ikke kan fylde den, trækker (det træk koster ingen mønt).",
        "Den fælles gren kan først startes, når alle spilleres grene har et kort.",
      ]],
      ["UFF-DA!", [
        "Sig UFF-DA!, når du spiller dit næstsidste kort. Glemmer du det, kan alle råbe UFF-DA! til dig, før du selv siger det og før næste spillers tur er slut: råberen giver dig et kort.",
        "Den, der først går ud, trækker 5 × rundens nummer fra (5 … 50). Alle andre får øjnene på de kort, de har tilbage.",
      ]],
    ],
    example: ["hvornår man skylder en mønt", [
      "Bo har intet kort, der passer til en åben ende, trækker 4/7 og kan heller ikke spille det. Bos mønt er af, så Bo skylder en mønt.",
      "Bo siger NÆSTE uden at lægge mønten. Cy råber MØNT!, før næste spillers tur er slut: Bos mønt kommer på, og Cy giver Bo et kort fra sin egen hånd.",
      "Havde Bo spillet det trukne kort, skyldte Bo ingen mønt. Et træk, som en åben dobbelt tvinger frem, koster aldrig en mønt.",
    ]],
  },
  kuuduk: {
    title: "Kuuduk",
    goal: "Vær den første til 15 point ved at stave k-u-u-d-u-k i rækken foran dig.",
    parts: [
      ["Din tur", [
        "Træk først et kort, tag det øverste d, k eller u fra bunken med kasserede kort (det skal lægges med det samme), eller stå over.",
        "Læg så ét kort i din række eller kassér ét. Du må aldrig have mere end 3 kort på hånden.",
        "Hvert kort, du lægger, skal ligge ved siden af et kort i din række og have samme farve eller samme antal prikker som hver nabo. Du må flytte rundt på din række, før du lægger.",
      ]],
      ["Sorte kort", [
        "Swipe venstre, højre eller hvem som helst: kassér det og tag et lagt kort fra den spillers række; læg det straks i din egen.",
        "Switch: kassér det, spilleretningen vender, og du trækker igen.",
      ]],
      ["Sådan vinder du", [
        "En runde vindes ved at stave k-u-u-d-u-k med en tom hånd.",
        "Point: +1 for hvert lagt kort, −1 for hvert kort på hånden. Først til 15 vinder; står det lige, spilles én runde mere.",
      ]],
    ],
    example: ["et færdigt ord med kort på hånden", [
      "Ana lægger det sidste u, og hendes række staver k-u-u-d-u-k, men hun har stadig et d på hånden: hun har ikke vundet. Runden fortsætter.",
      "I sin næste tur står hun over med at trække og kasserer d'et. Nu er hånden tom, og ordet står: hun vinder runden, +6 point. Eve, med 3 lagt og 2 på hånden, får +1.",
    ]],
  },
};
