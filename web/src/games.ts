// The seven games on the home page: names, the options offered, and their rules in both languages
// (summaries of docs/rules.md, the project's rules text).
import type { Lang } from './i18n';

export interface GameInfo {
  preset: string;
  name: Record<Lang, string>;
  blurb: Record<Lang, string>;
  rules: Record<Lang, string[]>;
  options: string[]; // option names shown on the home page
}

export const games: GameInfo[] = [
  {
    preset: 'kalah',
    name: { en: 'Kalah', fr: 'Kalah' },
    blurb: { en: 'The classic: six houses, a store at each end.', fr: 'Le classique : six cases, un grenier à chaque bout.' },
    rules: {
      en: [
        'Each player owns the row of houses nearest to him and the store on his right.',
        'Take every seed of one of your houses and sow them one by one, counter-clockwise, into the next pits: your own store included, your opponent’s skipped.',
        'Last seed in your store: play again.',
        'Last seed in one of your empty houses, facing seeds: capture both into your store.',
        'When a row is empty, each player keeps the seeds left on his side. Most seeds in store wins.',
      ],
      fr: [
        'Chaque joueur possède la rangée la plus proche de lui et le grenier à sa droite.',
        'Prenez toutes les graines d’une de vos cases et semez-les une à une, dans le sens inverse des aiguilles d’une montre : dans votre grenier, jamais dans celui de l’adversaire.',
        'Dernière graine dans votre grenier : vous rejouez.',
        'Dernière graine dans une de vos cases vide, face à des graines : vous prenez les deux.',
        'Quand une rangée est vide, chacun garde les graines de son côté. Le plus gros grenier gagne.',
      ],
    },
    options: ['houses', 'seeds', 'capture', 'end', 'pie'],
  },
  {
    preset: 'kalah-club',
    name: { en: 'Kalah, club rules', fr: 'Kalah, règles du club' },
    blurb: { en: 'Kalah where the game ends only when the player to move is empty.', fr: 'Le Kalah où la partie ne finit que quand le joueur au trait n’a plus rien.' },
    rules: {
      en: [
        'Everything as in Kalah, except the end.',
        'The game ends only when the player to move finds all his houses empty; the other player then adds his remaining seeds to his store.',
        'So a player who empties his own row may still be fed by his opponent.',
      ],
      fr: [
        'Tout comme au Kalah, sauf la fin.',
        'La partie ne finit que lorsque le joueur au trait trouve toutes ses cases vides ; l’autre ajoute alors ses graines à son grenier.',
        'Un joueur qui vide sa rangée peut donc encore être nourri par l’adversaire.',
      ],
    },
    options: ['houses', 'seeds', 'capture', 'pie'],
  },
  {
    preset: 'mangala',
    name: { en: 'Mangala', fr: 'Mangala' },
    blurb: { en: 'Turkish Mangala: even counts capture, a match of five sets.', fr: 'Le Mangala turc : les nombres pairs prennent, un match en cinq manches.' },
    rules: {
      en: [
        'Six houses, four seeds, the store on your right.',
        'With two seeds or more, the first goes back into the house you took them from, the rest one by one onward. A single seed moves to the next pit.',
        'Last seed in your store: play again.',
        'Last seed in an opponent house making it even (2, 4, 6…): take that house.',
        'Last seed in your own empty house, facing seeds: take both.',
        'When a player’s houses are empty, he takes every seed left on the other side. A match is five sets.',
      ],
      fr: [
        'Six cases, quatre graines, le grenier à votre droite.',
        'Avec deux graines ou plus, la première retourne dans la case de départ, les autres une à une ensuite. Une graine seule passe à la case suivante.',
        'Dernière graine dans votre grenier : vous rejouez.',
        'Dernière graine dans une case adverse qui devient paire (2, 4, 6…) : vous la prenez.',
        'Dernière graine dans votre case vide, face à des graines : vous prenez les deux.',
        'Quand un joueur n’a plus de graines, il prend toutes celles de l’autre côté. Un match se joue en cinq manches.',
      ],
    },
    options: ['seeds', 'sets'],
  },
  {
    preset: 'mangala-castle',
    name: { en: 'Mangala, castle rule', fr: 'Mangala, règle du château' },
    blurb: { en: 'Mangala where three seeds build a castle.', fr: 'Le Mangala où trois graines bâtissent un château.' },
    rules: {
      en: [
        'As Mangala, but sowing skips both stores and there is no empty-house capture.',
        'Last seed in an opponent house making it exactly three: it becomes your castle (one per set, never his house six). Its seeds go to your store, and every seed later sown into it too.',
        'Even counts still capture. The set ends when either row is empty; each keeps his own side.',
      ],
      fr: [
        'Comme le Mangala, mais on ne sème pas dans les greniers et la prise sur case vide n’existe pas.',
        'Dernière graine dans une case adverse qui arrive à trois : elle devient votre château (un par manche, jamais sa case six). Ses graines vont dans votre grenier, comme toutes celles semées ensuite dedans.',
        'Les nombres pairs prennent toujours. La manche finit quand une rangée est vide ; chacun garde son côté.',
      ],
    },
    options: ['seeds', 'sets'],
  },
  {
    preset: 'al-manqala',
    name: { en: 'Al-manqala', fr: 'Al-manqala' },
    blurb: { en: 'Galilee: no stores, twos and fours are taken in chains.', fr: 'Galilée : pas de grenier, les deux et les quatre se prennent en chaîne.' },
    rules: {
      en: [
        'Seven houses of seven seeds, no stores: captures are set aside beside the board.',
        'Sow counter-clockwise from the next house, a single lap.',
        'If the last seed makes its house exactly 2 or 4, take it, then the house before it if it holds 2 or 4, and so on backwards.',
        'If your opponent has no seeds you must feed him when you can. The first to capture 50 wins; a starved player who cannot be fed takes what is left.',
        'Endless games are shared: players may agree to split, and a third repetition or 100 turns without a capture split the board.',
      ],
      fr: [
        'Sept cases de sept graines, pas de grenier : les prises sont posées à côté du plateau.',
        'On sème dans le sens inverse des aiguilles d’une montre, à partir de la case suivante, un seul tour.',
        'Si la dernière graine porte sa case à 2 ou 4, on la prend, puis la case d’avant si elle a 2 ou 4, et ainsi de suite.',
        'Si l’adversaire n’a plus rien, il faut le nourrir quand on peut. Le premier à 50 prises gagne ; un joueur affamé qu’on ne peut nourrir prend ce qui reste.',
        'Les parties sans fin se partagent : accord des joueurs, troisième répétition ou 100 tours sans prise.',
      ],
    },
    options: ['seeds'],
  },
  {
    preset: 'congkak',
    name: { en: 'Congkak', fr: 'Congkak' },
    blurb: { en: 'Malaysia: clockwise, stores on the left, relays.', fr: 'Malaisie : sens des aiguilles, greniers à gauche, relais.' },
    rules: {
      en: [
        'Seven houses of seven seeds; your store is on your left and you sow clockwise.',
        'Last seed in your store: play again.',
        'Last seed in a house that already had seeds, on either side: lift them all and keep sowing (a relay).',
        'Last seed in your own empty house: take it and the opposite house. In an empty opponent house: your turn ends.',
        'The game ends when one side has no seeds; each player adds his side to his store.',
        'Traditional rounds (an option): after each round every player fills his houses again from his store, seven a house, from the one farthest from his store; the houses he cannot fill are burnt, out of play for the round. Players take turns to begin a round; the match ends when a player cannot fill a single house (nine rounds at most).',
      ],
      fr: [
        'Sept cases de sept graines ; votre grenier est à votre gauche et vous semez dans le sens des aiguilles d’une montre.',
        'Dernière graine dans votre grenier : vous rejouez.',
        'Dernière graine dans une case déjà garnie, d’un côté ou de l’autre : on reprend tout et on continue (un relais).',
        'Dernière graine dans votre case vide : vous la prenez avec la case opposée. Dans une case adverse vide : votre tour finit.',
        'La partie finit quand un camp n’a plus de graines ; chacun ajoute son côté à son grenier.',
        'Manches traditionnelles (en option) : après chaque manche, chaque joueur remplit à nouveau ses cases avec les graines de son grenier, sept par case, en partant de la plus éloignée de son grenier ; les cases qu’il ne peut pas remplir sont brûlées, hors jeu pour la manche. Les joueurs commencent les manches à tour de rôle ; le match finit quand un joueur ne peut plus remplir une seule case (neuf manches au plus).',
      ],
    },
    options: ['seeds', 'rounds'],
  },
  {
    preset: 'awale',
    name: { en: 'Awalé (oware)', fr: 'Awalé' },
    blurb: { en: 'West Africa: no stores, houses of 2 or 3 are taken, feed your opponent.', fr: 'Afrique de l’Ouest : pas de grenier, on prend les cases de 2 ou 3, il faut nourrir l’adversaire.' },
    rules: {
      en: [
        'Six houses of four seeds each, no stores: the seeds you capture are counted beside you.',
        'Sow counter-clockwise from the next house; with 12 seeds or more, skip the house you emptied.',
        'If the last seed makes an opponent house 2 or 3, take it, then the house before it if it holds 2 or 3, and so on along his row.',
        'A grand slam, a move that would take every seed of your opponent, is played but captures nothing.',
        'If your opponent has no seeds you must feed him when you can; if you cannot, the game ends and you keep the seeds on your side.',
        'The first to capture 25 seeds wins. An endless cycle ends the game: each player keeps the seeds on his side (by agreement, or at the third repetition).',
      ],
      fr: [
        'Six cases de quatre graines, pas de grenier : les graines que vous prenez sont comptées à côté de vous.',
        'On sème dans le sens inverse des aiguilles d’une montre à partir de la case suivante ; avec 12 graines ou plus, on saute la case de départ.',
        'Si la dernière graine porte une case adverse à 2 ou 3, on la prend, puis la case d’avant si elle a 2 ou 3, et ainsi de suite dans son camp.',
        'Un grand chelem, un coup qui prendrait toutes les graines de l’adversaire, se joue mais ne prend rien.',
        'Si l’adversaire n’a plus de graines, il faut le nourrir quand on peut ; si on ne peut pas, la partie finit et chacun garde les graines de son camp.',
        'Le premier à 25 prises gagne. Une partie qui tourne sans fin s’arrête : chacun garde les graines de son camp (d’un commun accord, ou à la troisième répétition).',
      ],
    },
    options: ['seeds'],
  },
];

export function gameInfo(preset: string): GameInfo {
  return games.find((g) => g.preset === preset) ?? games[0];
}

export function presetOf(rules: string): string {
  return rules.split(',')[0];
}
