// Short rules summaries (our own words, from /work/shared/rules/*.md) and faction powers, in en/de/cs.
import type { Faction } from "./cards";
import type { Lang } from "./i18n";

export const POWERS: Record<Lang, Record<Faction, string>> = {
  en: {
    goblin: "No power. The largest faction: 14 cards, five of them 0s.",
    knight: "A Knight played on a Goblin lead beats it, whatever the values. You may only do this if you hold no Goblin.",
    undead: "Phase 1: every Undead played in a trick goes straight to the winner's score pile instead of being discarded.",
    dwarf: "Phase 2: every Dwarf played in a trick goes to the LOSER's score pile.",
    doppelganger: "Wild when following: you may play one instead of the led faction even if you could follow. It counts as the led faction for winning but never gains its power and always scores as a Doppelganger. If a Doppelganger is led, you must follow with one if you can.",
    gnome: "Phase 2: won Gnomes go to a public row in front of the winner and are scored at the end, unless a Giant smashes them.",
    giant: "Phase 2: each Giant the trick winner collects smashes one opponent Gnome of the same value from their row (removed from the game).",
    dragon: "Both phases: whoever played the last Dragon in a trick leads the next trick, even if they lost it.",
    troll: "Phase 2: played Trolls go to a pool; after each trick the winner takes the single highest Troll from it. The last trick's winner takes all remaining Trolls.",
    seer: "Phase 1: if you win a trick with a Seer, you look at the top card of the deck and choose: keep the prize (your opponent draws the card you saw) or take the top card (your opponent gets the prize).",
  },
  de: {
    goblin: "Keine Fähigkeit. Die größte Fraktion: 14 Karten, davon fünf Nullen.",
    knight: "Ein Ritter auf einen ausgespielten Goblin schlägt ihn, egal welche Werte. Das geht nur, wenn du keinen Goblin hast.",
    undead: "Phase 1: Jeder im Stich gespielte Untote kommt direkt auf den Wertungsstapel des Stichgewinners statt auf den Ablagestapel.",
    dwarf: "Phase 2: Jeder im Stich gespielte Zwerg kommt auf den Wertungsstapel des VERLIERERS.",
    doppelganger: "Joker beim Bedienen: Du darfst ihn statt der ausgespielten Fraktion spielen, auch wenn du bedienen könntest. Er zählt für den Stich als ausgespielte Fraktion, erhält aber nie deren Fähigkeit und wird immer als Doppelgänger gewertet. Wird ein Doppelgänger ausgespielt, musst du mit einem Doppelgänger bedienen, wenn du kannst.",
    gnome: "Phase 2: Gewonnene Gnome liegen offen in einer Reihe vor dem Gewinner und werden am Ende gewertet, sofern kein Riese sie zerschmettert.",
    giant: "Phase 2: Jeder Riese, den der Stichgewinner erhält, zerschmettert einen gegnerischen Gnom gleichen Werts aus dessen Reihe (aus dem Spiel).",
    dragon: "Beide Phasen: Wer den letzten Drachen im Stich gespielt hat, spielt den nächsten Stich aus, auch wenn er ihn verloren hat.",
    troll: "Phase 2: Gespielte Trolle kommen in einen Vorrat; nach jedem Stich nimmt der Gewinner den höchsten Troll daraus. Der Gewinner des letzten Stichs nimmt alle übrigen Trolle.",
    seer: "Phase 1: Gewinnst du einen Stich mit einem Seher, siehst du die oberste Karte des Stapels an und wählst: Preis behalten (der Gegner zieht die gesehene Karte) oder die oberste Karte nehmen (der Gegner erhält den Preis).",
  },
  cs: {
    goblin: "Bez schopnosti. Největší frakce: 14 karet, z toho pět nul.",
    knight: "Rytíř zahraný na vynesené skřeta ho přebije bez ohledu na hodnoty. Smíš to jen tehdy, když nemáš žádného skřeta.",
    undead: "Fáze 1: každý nemrtvý zahraný ve štychu jde rovnou na bodovou hromádku vítěze štychu místo do odhazovacího balíčku.",
    dwarf: "Fáze 2: každý trpaslík zahraný ve štychu jde na bodovou hromádku PORAŽENÉHO.",
    doppelganger: "Žolík při přiznávání: smíš ho zahrát místo vynesené frakce, i když můžeš přiznat. Pro výhru štychu se počítá jako vynesená frakce, ale nikdy nezíská její schopnost a boduje vždy jako dvojník. Když je vynesen dvojník, musíš přiznat dvojníkem, pokud ho máš.",
    gnome: "Fáze 2: vyhraní gnómové leží odkrytě v řadě před vítězem a na konci se započítají, pokud je nerozdrtí obr.",
    giant: "Fáze 2: každý obr, kterého vítěz štychu získá, rozdrtí jednoho soupeřova gnóma stejné hodnoty z jeho řady (jde ze hry).",
    dragon: "Obě fáze: kdo zahrál ve štychu posledního draka, vynáší další štych, i když ho prohrál.",
    troll: "Fáze 2: zahraní trollové jdou do zásoby; po každém štychu si vítěz vezme z ní nejvyššího trolla. Vítěz posledního štychu si vezme všechny zbylé trolly.",
    seer: "Fáze 1: vyhraješ-li štych věštcem, podíváš se na vrchní kartu balíčku a zvolíš: ponechat si odměnu (soupeř si lízne tu vrchní kartu), nebo vzít vrchní kartu (soupeř dostane odměnu).",
  },
};

export interface RulesText { intro: string; sections: { h: string; p: string[] }[] }

const CORE: Record<Lang, { h: string; p: string[] }[]> = {
  en: [
    { h: "Goal", p: ["Win the votes of at least 3 of the 5 factions. At the end, for each faction, the player with more cards of it in their score pile wins its vote; equal counts go to the player with the highest card (then the next highest). If nobody has 3 votes, more votes win, then more cards in the factions that voted for you."] },
    { h: "Tricks", p: ["52 cards, 13 each. The leader plays any card; the other player must follow the led faction if they can, otherwise plays anything. The higher card of the led faction wins; a tie goes to the leader; an off-faction card always loses."] },
    { h: "Phase 1: recruit followers", p: ["Each trick is played for the face-up prize card. The winner takes the prize, the loser draws the top deck card face down (the loser may look at it, the opponent does not see it); both go to your follower pile, which becomes your hand in phase 2. Played cards are discarded (except for powers)."] },
    { h: "Phase 2: win supporters", p: ["Play your 13 followers. The winner of each trick puts both cards in their score pile. Only the score piles count at the end."] },
  ],
  de: [
    { h: "Ziel", p: ["Gewinne die Stimmen von mindestens 3 der 5 Fraktionen. Am Ende gewinnt bei jeder Fraktion, wer mehr Karten von ihr im Wertungsstapel hat; bei Gleichstand entscheidet die höchste Karte (dann die nächsthöchste). Hat niemand 3 Stimmen, gewinnen mehr Stimmen, dann mehr Karten in den Fraktionen, die für dich gestimmt haben."] },
    { h: "Stiche", p: ["52 Karten, je 13. Wer ausspielt, spielt eine beliebige Karte; der andere muss die ausgespielte Fraktion bedienen, wenn er kann, sonst spielt er eine beliebige Karte. Die höhere Karte der ausgespielten Fraktion gewinnt; bei Gleichstand gewinnt, wer ausgespielt hat; eine fremde Fraktion verliert immer."] },
    { h: "Phase 1: Gefolgsleute anwerben", p: ["Jeder Stich geht um die offene Preiskarte. Der Gewinner nimmt den Preis, der Verlierer zieht verdeckt die oberste Karte (er darf sie ansehen, der Gegner sieht sie nicht); beide kommen auf den eigenen Gefolgsstapel, der in Phase 2 die Hand wird. Gespielte Karten werden abgelegt (außer durch Fähigkeiten)."] },
    { h: "Phase 2: Unterstützer gewinnen", p: ["Spiele deine 13 Gefolgsleute. Der Stichgewinner legt beide Karten auf seinen Wertungsstapel. Am Ende zählen nur die Wertungsstapel."] },
  ],
  cs: [
    { h: "Cíl", p: ["Získej hlasy alespoň 3 z 5 frakcí. Na konci získá hlas každé frakce ten, kdo má na bodové hromádce víc jejích karet; při shodě rozhoduje nejvyšší karta (pak další nejvyšší). Nemá-li nikdo 3 hlasy, vyhrává víc hlasů, pak víc karet ve frakcích, které hlasovaly pro tebe."] },
    { h: "Štychy", p: ["52 karet, každý 13. Vynášející zahraje libovolnou kartu; druhý musí přiznat vynesenou frakci, pokud může, jinak hraje cokoli. Vyhrává vyšší karta vynesené frakce; při shodě vynášející; karta jiné frakce vždy prohrává."] },
    { h: "Fáze 1: verbování stoupenců", p: ["Každý štych se hraje o odkrytou odměnu. Vítěz si vezme odměnu, poražený si lízne vrchní kartu balíčku lícem dolů (smí se na ni podívat, soupeř ji nevidí; český text pravidel to zakazuje, my se řídíme anglickými pravidly); obě jdou na hromádku stoupenců, která se ve fázi 2 stane rukou. Zahrané karty se odhazují (pokud schopnost neříká jinak)."] },
    { h: "Fáze 2: získávání příznivců", p: ["Hraj svých 13 stoupenců. Vítěz každého štychu dá obě karty na svou bodovou hromádku. Na konci se počítají jen bodové hromádky."] },
  ],
};

const INTRO: Record<Lang, Record<string, string>> = {
  en: {
    claim: "Claim: a two-phase trick-taking game for 2 with Goblins, Knights, Undead, Dwarves and Doppelgangers.",
    claim2: "Claim 2: the same game with Gnomes, Giants, Dragons, Trolls and Seers.",
    "claim-mix": "Claim mix: build your own 52-card deck from both games: exactly one pair (Knights + Goblins, or Gnomes + Giants; a pair is never split) plus three of the six singles (Undead, Dwarves, Doppelgangers, Dragons, Trolls, Seers). All rules and powers stay the same.",
  },
  de: {
    claim: "Claim: ein Stichspiel in zwei Phasen für 2 mit Goblins, Rittern, Untoten, Zwergen und Doppelgängern.",
    claim2: "Claim 2: dasselbe Spiel mit Gnomen, Riesen, Drachen, Trollen und Sehern.",
    "claim-mix": "Claim-Mix: Stelle dein eigenes 52-Karten-Deck aus beiden Spielen zusammen: genau ein Paar (Ritter + Goblins oder Gnome + Riesen; ein Paar wird nie getrennt) plus drei der sechs Einzelfraktionen (Untote, Zwerge, Doppelgänger, Drachen, Trolle, Seher). Alle Regeln und Fähigkeiten bleiben gleich.",
  },
  cs: {
    claim: "Claim: štychová hra pro 2 ve dvou fázích se skřety, rytíři, nemrtvými, trpaslíky a dvojníky.",
    claim2: "Claim 2: stejná hra s gnómy, obry, draky, trolly a věštci.",
    "claim-mix": "Claim mix: sestav si vlastní balíček 52 karet z obou her: právě jednu dvojici (Rytíři + Skřeti, nebo Gnómové + Obři; dvojice se nikdy nerozděluje) a tři ze šesti samostatných frakcí (nemrtví, trpaslíci, dvojníci, draci, trollové, věštci). Všechna pravidla a schopnosti zůstávají stejné.",
  },
};

// Claim for 3 and 4 players: the deck and our rulings (docs/rulings.md, claim-combined.md M3-M7).
export const MULTI_RULINGS: Record<Lang, string[]> = {
  en: [
    "Deck: one pair plus five singles, 72 cards. 3 players: 12 cards each, everyone for themselves. 4 players: 9 cards each, partners sit diagonally opposite and must not show each other their cards.",
    "Tricks go clockwise. The highest card of the led faction wins; equal values go to the card played first. On a Goblin lead the highest Knight wins, also against Doppelgangers.",
    "Phase 1: the winner takes the prize, every other player draws one card unseen, clockwise from the winner's left. Seers: the card the winner does not take goes to the player on the winner's left.",
    "Dwarves go to the player of the lowest card among those of the side that lost the trick (with 4 players: the other team's lower card, never the winner's partner; of two equal cards the later one). A Giant smashes a matching Gnome of an opponent (never the partner): when several opponents have one, the winner chooses whose.",
    "Scoring, 3 players: the most cards win each faction (ties: highest cards); the most factions win; then more cards in your factions; still equal: a shared win. 4 players: partners' piles are added up and the team with more factions wins.",
  ],
  de: [
    "Deck: ein Paar plus fünf Einzelfraktionen, 72 Karten. 3 Spieler: je 12 Karten, jeder für sich. 4 Spieler: je 9 Karten, die Partner sitzen diagonal gegenüber und dürfen einander keine Karten zeigen.",
    "Es wird im Uhrzeigersinn gespielt. Die höchste Karte der ausgespielten Fraktion gewinnt; bei gleichem Wert die zuerst gespielte. Auf einen ausgespielten Goblin gewinnt der höchste Ritter, auch gegen Doppelgänger.",
    "Phase 1: Der Gewinner nimmt den Preis, jeder andere zieht verdeckt eine Karte, im Uhrzeigersinn links vom Gewinner beginnend. Seher: Die Karte, die der Gewinner nicht nimmt, erhält der Spieler links von ihm.",
    "Zwerge gehen an den Spieler mit der niedrigsten Karte der Seite, die den Stich verloren hat (zu viert: die niedrigere Karte des anderen Teams, nie der Partner des Gewinners; bei zwei gleichen Karten die spätere). Ein Riese zerschmettert einen passenden Gnom eines Gegners (nie des Partners): Haben mehrere Gegner einen, wählt der Gewinner.",
    "Wertung, 3 Spieler: Die meisten Karten gewinnen jede Fraktion (Gleichstand: höchste Karten); die meisten Fraktionen gewinnen; dann mehr Karten in deinen Fraktionen; sonst geteilter Sieg. 4 Spieler: Die Stapel der Partner werden zusammengezählt, das Team mit mehr Fraktionen gewinnt.",
  ],
  cs: [
    "Balíček: jedna dvojice a pět samostatných frakcí, 72 karet. 3 hráči: každý 12 karet, každý sám za sebe. 4 hráči: každý 9 karet, partneři sedí úhlopříčně naproti a nesmějí si ukazovat karty.",
    "Hraje se po směru hodinových ručiček. Vyhrává nejvyšší karta vynesené frakce; při stejné hodnotě karta zahraná dřív. Na vyneseného skřeta vyhrává nejvyšší rytíř, i proti dvojníkům.",
    "Fáze 1: vítěz si vezme odměnu, každý další hráč si lízne jednu kartu naslepo, po směru od hráče vlevo od vítěze. Věštci: kartu, kterou si vítěz nevezme, dostane hráč po jeho levici.",
    "Trpaslíci jdou hráči s nejnižší kartou strany, která štych prohrála (ve čtyřech: nižší karta druhého týmu, nikdy partner vítěze; ze dvou stejných karet ta pozdější). Obr rozdrtí odpovídajícího gnóma soupeře (nikdy partnera): má-li ho víc soupeřů, vybere vítěz.",
    "Bodování, 3 hráči: každou frakci získá nejvíc karet (při shodě nejvyšší karty); vyhrává nejvíc frakcí; pak víc karet ve vlastních frakcích; jinak sdílené vítězství. 4 hráči: hromádky partnerů se sčítají a vyhrává tým s více frakcemi.",
  ],
};

// The five powers the 3-4 player versions change (the Claim 2 text): what we do and why (docs/rulings.md).
export const MULTI_POWERS: Record<Lang, { faction: Faction; what: string; why: string }[]> = {
  en: [
    { faction: "knight", what: "On a Goblin lead the highest Knight wins, also against Doppelgangers counting as Goblins; equal Knights: the earlier one.", why: "Several Knights and Doppelgangers can meet one Goblin lead; this applies the 2-player power to every card." },
    { faction: "doppelganger", what: "Unchanged from 2 players.", why: "We found no source for a change; equal values between followers go to the card played first, as for every card." },
    { faction: "seer", what: "The card the Seer winner does not take goes to the player on the winner's left; the others draw unseen.", why: "With one opponent it is \"the other player\"; the left neighbour draws next anyway." },
    { faction: "dwarf", what: "To the lowest card of the side that lost: with 3 players the lowest card of the trick, with 4 the other team's lower card, never the winner's partner.", why: "The loser takes the Dwarves in every version; with partners the lowest card could be the winner's partner's." },
    { faction: "giant", what: "When several opponents have a matching Gnome, the winner chooses whose is smashed (never the partner's).", why: "The rule says the winner smashes an opponent's Gnome; with several opponents the choice is the winner's, like the Seer's." },
  ],
  de: [
    { faction: "knight", what: "Auf einen ausgespielten Goblin gewinnt der höchste Ritter, auch gegen Doppelgänger, die als Goblins zählen; bei gleichen Rittern der frühere.", why: "Mehrere Ritter und Doppelgänger können auf einen Goblin treffen; so gilt die Fähigkeit aus dem Spiel zu zweit für jede Karte." },
    { faction: "doppelganger", what: "Unverändert wie zu zweit.", why: "Wir fanden keine Quelle für eine Änderung; bei gleichen Werten zweier Bedienender gewinnt wie bei jeder Karte die zuerst gespielte." },
    { faction: "seer", what: "Die Karte, die der Seher-Gewinner nicht nimmt, erhält der Spieler links von ihm; die anderen ziehen verdeckt.", why: "Zu zweit ist es „der andere“; der linke Nachbar zieht ohnehin als Nächster." },
    { faction: "dwarf", what: "An die niedrigste Karte der Seite, die verloren hat: zu dritt die niedrigste Karte des Stichs, zu viert die niedrigere Karte des anderen Teams, nie der Partner des Gewinners.", why: "In jeder Fassung nimmt der Verlierer die Zwerge; mit Partnern konnte die niedrigste Karte die des Partners sein." },
    { faction: "giant", what: "Haben mehrere Gegner einen passenden Gnom, wählt der Gewinner, wessen zerschmettert wird (nie der des Partners).", why: "Laut Regel zerschmettert der Gewinner einen gegnerischen Gnom; bei mehreren Gegnern wählt er, wie beim Seher." },
  ],
  cs: [
    { faction: "knight", what: "Na vyneseného skřeta vyhrává nejvyšší rytíř, i proti dvojníkům, kteří se počítají jako skřeti; při stejných rytířích ten dřívější.", why: "Na jednoho skřeta může přijít víc rytířů a dvojníků; schopnost ze hry dvou hráčů tak platí pro každou kartu." },
    { faction: "doppelganger", what: "Beze změny oproti hře dvou hráčů.", why: "Nenašli jsme zdroj žádné změny; při stejných hodnotách dvou přiznávajících vyhrává jako u každé karty ta zahraná dřív." },
    { faction: "seer", what: "Kartu, kterou si vítěz s věštcem nevezme, dostane hráč po jeho levici; ostatní si líznou naslepo.", why: "Ve dvou je to „ten druhý“; levý soused si stejně lízá jako další." },
    { faction: "dwarf", what: "Nejnižší kartě strany, která prohrála: ve třech nejnižší karta štychu, ve čtyřech nižší karta druhého týmu, nikdy partner vítěze.", why: "V každé verzi bere trpaslíky poražený; s partnery mohla být nejnižší karta partnerova." },
    { faction: "giant", what: "Má-li odpovídajícího gnóma víc soupeřů, vybere vítěz, čí se rozdrtí (nikdy partnerův).", why: "Podle pravidla vítěz drtí soupeřova gnóma; při více soupeřích volí on, jako u věštce." },
  ],
};

export const KIND_FACTIONS: Record<string, Faction[]> = {
  claim: ["goblin", "knight", "undead", "dwarf", "doppelganger"],
  claim2: ["gnome", "giant", "dragon", "troll", "seer"],
  "claim-mix": ["goblin", "knight", "gnome", "giant", "undead", "dwarf", "doppelganger", "dragon", "troll", "seer"],
};

export function rulesFor(kind: string, lang: Lang): RulesText {
  return { intro: INTRO[lang][kind] ?? INTRO[lang].claim, sections: CORE[lang] };
}
