// How to play, in English: a short page per game (from the rule specs and the seed texts), with a
// worked example of the point people most often get wrong. da.js and fi.js say the same.
export default {
  slap: {
    title: "Slap",
    goal: "Win tricks by slapping first when two or more face-up cards show the same number. Most cards at the end of a round scores best.",
    parts: [
      ["Setup", [
        "2 to 4 players. Each takes the 10 cards of one colour (yellow, green, pink or blue) as a face-down pile.",
        "The starter calls “Nu!” and everyone turns the top card of their pile at the same moment.",
      ]],
      ["Slapping", [
        "Two (or three, or four) cards with the same number: slap! The fastest slap takes every card on the table under its pile.",
        "The server judges by each player's own reaction time, so a slow connection does not lose you the race.",
        "Whoever wins a trick calls the next “Nu!”. With no pair, the cards stay and the same starter goes on.",
        "A slap with no pair on the table costs 1 penalty point.",
      ]],
      ["Scoring", [
        "The round ends when someone's pile runs out (or at the time limit).",
        "Most cards 6 points, second 4, third 2, fourth 0; penalty points are taken off.",
        "Two players: when no cards can change hands any more, more cards scores 6 and fewer 2.",
      ]],
    ],
    example: ["a slap without a pair", [
      "Ana shows green 7, Bo blue 7, Cy yellow 3. Bo slaps first: 7 and 7 are a pair, Bo takes all three cards.",
      "Next flip: green 2, blue 9, yellow 5. Cy slaps by mistake. No pair, so Cy gets 1 penalty point: if Cy finishes the round third (2 points), Cy scores 1.",
    ]],
  },
  leekha: {
    title: "Leekha",
    goal: "A trick-taking game for four where points are bad: whoever reaches 101 first loses (in 2 vs 2, their team loses).",
    parts: [
      ["Cards", [
        "52 cards in red, blue, yellow and green, 13 of each. Ranks low to high: 2–9, 0 (=10), Reverse (jack), +2 (queen), Skip (king), 1 (ace). The symbols do nothing.",
        "Penalty cards: Blue +2 is Big Leekha, 13 points. Yellow 0 is Small Leekha, 10 points. Every red card is 1 point. A round holds 36 points.",
      ]],
      ["Passing", [
        "After the deal everyone passes 3 cards to the right at the same time.",
        "You may not give away your last red or green card. You may give your last yellow only if every yellow you give is the 0 or higher, your last blue only if every blue you give is the +2 or higher.",
      ]],
      ["Tricks", [
        "Any card may lead. If you hold the led colour you must follow it.",
        "If you cannot follow and you hold a Leekha, you must play it; otherwise play anything.",
        "Yellow led and a higher yellow already in the trick: the holder of Yellow 0 must play it. The same for Blue +2 when a blue Skip or 1 is in.",
        "The highest card of the led colour takes the trick with its penalty points. Play goes to the right.",
        "Take both Leekhas in one trick and you get exactly 37 points, everyone else 0, and the round ends.",
        "On your turn you may throw in: every point still in play (all hands and the trick) becomes yours and the round ends.",
      ]],
    ],
    example: ["how the penalty cards score", [
      "Bo takes a trick holding Blue +2 and two red cards: 13 + 1 + 1 = 15 points for Bo.",
      "Later Cy takes Yellow 0 and one red: 10 + 1 = 11. The other 10 red cards go to whoever takes them. 13 + 10 + 13 = 36 in all.",
      "If Bo had taken Blue +2 and Yellow 0 in the same trick, Bo would score exactly 37 and everyone else 0 this round.",
    ]],
  },
  rummy: {
    title: "Rummy",
    goal: "Get rid of your cards by laying them in sets on the table. Your turn lasts two minutes.",
    parts: [
      ["Cards and sets", [
        "Numbers 1 to 13 in four colours, two of each, plus 4 jokers. Everyone gets 14 cards; the rest is the pool.",
        "A group: 3 or 4 cards of the same number in different colours. A run: 3 or more numbers in a row in one colour (1 is low only).",
        "A joker stands for any card. A joker left in your hand at the end counts 25.",
      ]],
      ["Your turn", [
        "Lay out sets, or draw one card from the pool if you cannot or will not play.",
        "Your first play must be new sets of your own cards worth at least 40 points (the table may set another number); until then you may not touch the table.",
        "Once you have opened you may rebuild the whole table, others' sets too, as long as every set is valid when you end your turn and no table card goes back to your hand.",
        "When time runs out, a valid table counts; otherwise valid new sets stay, or the table goes back as it was and you draw.",
      ]],
      ["Scoring", [
        "Whoever plays their last card wins the round and collects the value of every other hand; the others score it as minus points.",
        "After the agreed rounds the highest total wins.",
      ]],
    ],
    example: ["the first play", [
      "Ana holds red 10, 11, 12 and a joker. Red 10-11-12 is 33 points: not enough to open with 40.",
      "With the joker as red 13 the run is 10-11-12-13 = 46 points: Ana may open. Next turn she may also move cards that others laid.",
    ]],
  },
  uffda: {
    title: "UFF-DA!",
    goal: "Play all your cards onto branches. Lowest total after ten rounds wins. Watch the coins, answer doubles and catch missed calls.",
    parts: [
      ["Setup", [
        "Domino cards 0/0 to 9/9. A double lies in the centre (0/0 in round 1, then 1/1, 2/2 …). Each player has a branch with a coin on it, plus one community branch.",
        "A branch with its coin on is open to everyone; your own branch is always open to you.",
      ]],
      ["Your turn", [
        "Match a number in your hand to an open end and play it, or draw from one of the two piles (you may play the card you drew). Then say NEXT.",
        "Played on your own branch? You may take your coin off, closing it to others.",
        "Drew and played nothing? Put your coin on your branch before NEXT. Forget it and anyone may call COIN! on you until the next player's turn ends: the caller gives you a card and your coin goes on.",
        "A double is laid across a branch and must be filled on both sides before anything else is played; whoever cannot fill it draws (no coin owed for that draw).",
        "The community branch starts only when every player's branch has a card.",
      ]],
      ["UFF-DA!", [
        "Say UFF-DA! as you play your next-to-last card. If you forget, anyone may call UFF-DA! on you before you say it yourself and before the next player's turn ends: the caller gives you a card.",
        "Whoever plays out first subtracts 5 × the round number (5 … 50). Everyone else scores the pips left in hand.",
      ]],
    ],
    example: ["when a coin is owed", [
      "Bo has no card matching an open end, draws 4/7, and cannot play it either. Bo's coin is off, so Bo owes a coin.",
      "Bo says NEXT without putting the coin on. Cy calls COIN! before the next player's turn is over: Bo's coin goes on and Cy gives Bo one card from Cy's hand.",
      "Had Bo played the drawn card, no coin would be owed. A draw forced by an open double never owes a coin.",
    ]],
  },
  kuuduk: {
    title: "Kuuduk",
    goal: "Be the first to reach 15 points by spelling k-u-u-d-u-k in the row in front of you.",
    parts: [
      ["Your turn", [
        "First draw a card, pick up the top d, k or u of the discard pile (lay it at once), or pass.",
        "Then lay one card in your row or discard one. You may never hold more than 3 cards.",
        "Each card you lay must sit next to a card already in your row and share its colour or its number of dots with every neighbour. You may rearrange your row before laying.",
      ]],
      ["Black cards", [
        "Swipe left, right or any: discard it and take a laid card from that player's row; lay it in your row at once.",
        "Switch: discard it, play turns the other way, and you draw again.",
      ]],
      ["Winning", [
        "A round is won by spelling k-u-u-d-u-k with an empty hand.",
        "Scores: +1 for each card laid, −1 for each card still held. First to 15 wins; a tie plays one more round.",
      ]],
    ],
    example: ["a finished word with cards in hand", [
      "Ana lays the last u and her row reads k-u-u-d-u-k, but she still holds a d: she has not won. The round goes on.",
      "On her next turn she skips the draw and discards the d. Now her hand is empty and the word stands: she wins the round, +6 points. Eve, with 3 laid and 2 held, scores +1.",
    ]],
  },
};
