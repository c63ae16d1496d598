// Näin pelataan: lyhyt sivu jokaisesta pelistä suomeksi, ja esimerkki kohdasta, jossa moni
// erehtyy. Sama sisältö kuin en.js:ssä.
export default {
  slap: {
    title: "Slap",
    goal: "Voita tikkejä lyömällä pöytään ensimmäisenä, kun kahdessa tai useammassa käännetyssä kortissa on sama numero. Eniten kortteja kierroksen lopussa saa eniten pisteitä.",
    parts: [
      ["Valmistelu", [
        "2–4 pelaajaa. Kukin ottaa yhden värin (keltainen, vihreä, pinkki tai sininen) 10 korttia pakaksi kuvapuoli alaspäin.",
        "Aloittaja sanoo ”Nu!”, ja kaikki kääntävät pakkansa päällimmäisen kortin samaan aikaan.",
      ]],
      ["Lyönti", [
        "Kaksi (tai kolme tai neljä) korttia, joissa on sama numero: lyö! Nopein lyöjä saa kaikki pöydän kortit pakkansa pohjalle.",
        "Palvelin ratkaisee jokaisen pelaajan oman reaktioajan mukaan, joten hidas yhteys ei vie voittoa.",
        "Tikin voittaja sanoo seuraavan ”Nu!”. Jos paria ei ole, kortit jäävät pöytään ja sama aloittaja jatkaa.",
        "Lyönti ilman paria pöydällä maksaa 1 sakkopisteen.",
      ]],
      ["Pisteet", [
        "Kierros päättyy, kun jonkun pakka loppuu (tai aikaraja täyttyy).",
        "Eniten kortteja 6 pistettä, toiseksi eniten 4, kolmanneksi 2, neljäs 0; sakkopisteet vähennetään.",
        "Kaksi pelaajaa: kun kortit eivät voi enää vaihtaa omistajaa, enemmän kortteja saa 6 ja vähemmän 2.",
      ]],
    ],
    example: ["lyönti ilman paria", [
      "Analla on vihreä 7, Bolla sininen 7, Cylla keltainen 3. Bo lyö ensin: 7 ja 7 ovat pari, joten Bo saa kaikki kolme korttia.",
      "Seuraava kierto: vihreä 2, sininen 9, keltainen 5. Cy lyö vahingossa. Paria ei ole, joten Cy saa 1 sakkopisteen: jos Cy on kierroksen lopussa kolmas (2 pistettä), hän saa 1 pisteen.",
    ]],
  },
  leekha: {
    title: "Leekha",
    goal: "Tikkipeli neljälle, jossa pisteet ovat pahasta: se, joka ensimmäisenä saavuttaa 101, häviää (pareittain pelatessa koko pari häviää).",
    parts: [
      ["Kortit", [
        "52 korttia punaisena, sinisenä, keltaisena ja vihreänä, 13 kutakin. Arvot pienimmästä suurimpaan: 2–9, 0 (=10), Suunnanvaihto (sotilas), +2 (rouva), Ohitus (kuningas), 1 (ässä). Symbolit eivät tee mitään.",
        "Sakkokortit: sininen +2 on Iso Leekha, 13 pistettä. Keltainen 0 on Pikku Leekha, 10 pistettä. Jokainen punainen kortti on 1 piste. Kierroksessa on 36 pistettä.",
      ]],
      ["Korttien antaminen", [
        "Jaon jälkeen kaikki antavat samaan aikaan 3 korttia oikealla istuvalle.",
        "Viimeistä punaista tai vihreää korttiasi et saa antaa pois. Viimeisen keltaisen saat antaa vain, jos jokainen antamasi keltainen on 0 tai suurempi; viimeisen sinisen vain, jos jokainen antamasi sininen on +2 tai suurempi.",
      ]],
      ["Tikit", [
        "Mikä tahansa kortti käy avaukseksi. Jos sinulla on avattua väriä, sitä on tunnustettava.",
        "Jos et voi tunnustaa ja sinulla on Leekha, sinun on pelattava se; muuten saat pelata minkä tahansa.",
        "Kun keltaista on avattu ja tikissä on jo keltainen 0:aa suurempi, keltaisen nollan haltijan on pelattava se. Sama koskee sinistä +2:ta, kun tikissä on sininen Ohitus tai 1.",
        "Avatun värin suurin kortti vie tikin sakkopisteineen. Vuoro kiertää oikealle.",
        "Jos viet molemmat Leekhat samassa tikissä, saat tasan 37 pistettä, muut 0, ja kierros päättyy.",
        "Omalla vuorollasi voit luovuttaa: kaikki vielä pelissä olevat pisteet (kaikki kädet ja tikki) tulevat sinulle, ja kierros päättyy.",
      ]],
    ],
    example: ["miten sakkokortit lasketaan", [
      "Bo vie tikin, jossa on sininen +2 ja kaksi punaista: 13 + 1 + 1 = 15 pistettä Bolle.",
      "Myöhemmin Cy vie keltaisen 0:n ja yhden punaisen: 10 + 1 = 11. Loput 10 punaista menevät niiden viejille. Yhteensä 13 + 10 + 13 = 36.",
      "Jos Bo olisi vienyt sinisen +2:n ja keltaisen 0:n samassa tikissä, Bo olisi saanut tasan 37 ja muut 0 tältä kierrokselta.",
    ]],
  },
  rummy: {
    title: "Rummy",
    goal: "Pääse korteistasi eroon laskemalla ne yhdistelmiksi pöytään. Vuorosi kestää kaksi minuuttia.",
    parts: [
      ["Kortit ja yhdistelmät", [
        "Numerot 1–13 neljässä värissä, kaksi kutakin, sekä 4 jokeria. Jokainen saa 14 korttia; loput ovat pakka.",
        "Ryhmä: 3 tai 4 samaa numeroa eri väreissä. Sarja: vähintään 3 peräkkäistä numeroa samassa värissä (1 on vain pienin).",
        "Jokeri voi korvata minkä tahansa kortin. Käteen jäänyt jokeri on lopussa 25 miinuspistettä.",
      ]],
      ["Vuorosi", [
        "Laske yhdistelmiä pöytään tai nosta pakasta yksi kortti, jos et voi tai halua pelata.",
        "Ensimmäisen avauksesi on oltava uusia yhdistelmiä omista korteistasi, yhteensä vähintään 40 pistettä (pöytä voi sopia toisen luvun); sitä ennen et saa koskea pöytään.",
        "Avattuasi saat rakentaa koko pöydän uudelleen, myös muiden yhdistelmät, kunhan jokainen yhdistelmä on kelvollinen vuorosi päättyessä eikä yksikään pöydän kortti palaa käteen.",
        "Kun aika loppuu, kelvollinen pöytä jää voimaan; muuten kelvolliset uudet yhdistelmät jäävät, tai pöytä palautetaan ennalleen ja nostat kortin.",
      ]],
      ["Pisteet", [
        "Joka pelaa viimeisen korttinsa, voittaa kierroksen ja saa muiden käsien arvon; muut saavat sen miinuspisteinä.",
        "Sovittujen kierrosten jälkeen suurin yhteispistemäärä voittaa.",
      ]],
    ],
    example: ["ensimmäinen avaus", [
      "Annalla on punaiset 10, 11, 12 ja jokeri. Punainen 10-11-12 on 33 pistettä: ei riitä 40 pisteen avaukseen.",
      "Kun jokeri on punainen 13, sarja on 10-11-12-13 = 46 pistettä: Ana saa avata. Seuraavalla vuorollaan hän saa siirrellä myös muiden laskemia kortteja.",
    ]],
  },
  uffda: {
    title: "UFF-DA!",
    goal: "Pelaa kaikki korttisi oksille. Pienin yhteispistemäärä kymmenen kierroksen jälkeen voittaa. Seuraa kolikoita, vastaa tuplakortteihin ja nappaa unohtuneet huudot.",
    parts: [
      ["Valmistelu", [
        "Dominokortit 0/0–9/9. Keskellä on tupla (0/0 ensimmäisellä kierroksella, sitten 1/1, 2/2 …). Jokaisella pelaajalla on oma oksa, jolla on kolikko, ja lisäksi on yksi yhteinen oksa.",
        "Oksa, jolla on kolikko, on avoin kaikille; oma oksasi on aina avoin sinulle.",
      ]],
      ["Vuorosi", [
        "Pelaa kortti, jonka numero sopii avoimeen päähän, tai nosta toisesta kahdesta pakasta (nostetun kortin saa pelata). Sano sitten SEURAAVA.",
        "Pelasitko omalle oksallesi? Saat ottaa kolikon pois ja sulkea oksan muilta.",
        "Nostitko etkä pelannut mitään? Laita kolikko oksallesi ennen kuin sanot SEURAAVA. Jos unohdat, kuka tahansa voi huutaa KOLIKKO! sinulle, kunnes seuraavan pelaajan vuoro on päättynyt: huutaja antaa sinulle kortin ja kolikkosi palaa.",
        "Tupla asetetaan oksan poikki, ja sen molemmat puolet on täytettävä ennen muita pelejä; joka ei voi täyttää sitä, nostaa (siitä nostosta ei tarvitse laittaa kolikkoa).",
        "Yhteisen oksan voi aloittaa vasta, kun jokaisen pelaajan oksalla on kortti.",
      ]],
      ["UFF-DA!", [
        "Sano UFF-DA!, kun pelaat toiseksi viimeisen korttisi. Jos unohdat, kuka tahansa voi huutaa UFF-DA! sinulle ennen kuin sanot sen itse ja ennen kuin seuraavan pelaajan vuoro päättyy: huutaja antaa sinulle kortin.",
        "Joka pääsee ensimmäisenä korteistaan eroon, vähentää 5 × kierroksen numero (5 … 50). Muut saavat käteen jääneiden korttien silmäluvut.",
      ]],
    ],
    example: ["milloin kolikko on laitettava", [
      "Bolla ei ole korttia mihinkään avoimeen päähän, hän nostaa 4/7 eikä voi pelata sitäkään. Bon kolikko on pois, joten Bon on laitettava kolikko.",
      "Bo sanoo SEURAAVA laittamatta kolikkoa. Cy huutaa KOLIKKO! ennen kuin seuraavan pelaajan vuoro on ohi: Bon kolikko palaa oksalle ja Cy antaa Bolle yhden kortin omasta kädestään.",
      "Jos Bo olisi pelannut nostamansa kortin, kolikkoa ei olisi tarvittu. Avoimen tuplan pakottama nosto ei koskaan vaadi kolikkoa.",
    ]],
  },
  kuuduk: {
    title: "Kuuduk",
    goal: "Saavuta ensimmäisenä 15 pistettä tavaamalla k-u-u-d-u-k edessäsi olevaan riviin.",
    parts: [
      ["Vuorosi", [
        "Nosta ensin kortti, ota poistopakan päällimmäinen d, k tai u (se on laskettava heti) tai passaa.",
        "Laske sitten yksi kortti riviisi tai poista yksi. Kädessäsi saa olla enintään 3 korttia.",
        "Jokaisen laskemasi kortin on oltava rivissäsi jo olevan kortin vieressä, ja sillä on oltava sama väri tai sama määrä pisteitä kuin jokaisella naapurillaan. Voit järjestellä riviäsi ennen laskemista.",
      ]],
      ["Mustat kortit", [
        "Swipe vasen, oikea tai kuka tahansa: poista se ja ota laskettu kortti kyseisen pelaajan rivistä; laske se heti omaan riviisi.",
        "Switch: poista se, pelisuunta kääntyy ja nostat uudelleen.",
      ]],
      ["Voittaminen", [
        "Kierroksen voittaa tavaamalla k-u-u-d-u-k tyhjin käsin.",
        "Pisteet: +1 jokaisesta lasketusta kortista, −1 jokaisesta kädessä olevasta. Ensimmäinen 15 pisteeseen voittaa; tasatilanteessa pelataan vielä yksi kierros.",
      ]],
    ],
    example: ["valmis sana, mutta kortteja kädessä", [
      "Ana laskee viimeisen u:n ja hänen rivinsä on k-u-u-d-u-k, mutta kädessä on vielä d: hän ei ole voittanut. Kierros jatkuu.",
      "Seuraavalla vuorollaan hän jättää nostamatta ja poistaa d:n. Nyt käsi on tyhjä ja sana valmis: hän voittaa kierroksen, +6 pistettä. Eve, jolla on 3 laskettuna ja 2 kädessä, saa +1.",
    ]],
  },
};
