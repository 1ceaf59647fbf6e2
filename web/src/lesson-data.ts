// The "Learn to play" lessons as data: for each preset a few steps, each a position (the notation of
// docs/rules.md, South to move), the house(s) the learner plays, what the rules core must report
// for it, and the sentences before and after, in English and French. The wording follows our users'
// rule pages (docs/rules.md names them); the logic that plays them is lesson.ts.

// What the core's answer must show once the step's houses are played (lesson.ts checks it):
// extra_turn, capture, castle, relay, game_end: that event is in the move's trace; chain: two
// captures or more in one move; turn_passes: the opponent moves next and the game goes on.
export type Expect = 'extra_turn' | 'capture' | 'chain' | 'castle' | 'relay' | 'game_end' | 'turn_passes';

export interface Words {
  en: string;
  fr: string;
}

export interface LessonStep {
  title: Words;
  position: string;
  play: number[]; // South's houses, in order (an extra turn lets the learner play the next one)
  expect: Expect;
  before: Words; // what to do
  after: Words; // why it happened, once the core has said it did
}

const start = (preset: string, houses: number, seeds: number) => {
  const row = Array(houses).fill(seeds).join(',');
  return `${preset}/${row}/${row}/0,0/S`;
};

const SOW: Words = { en: 'Sowing', fr: 'Les semailles' };
const EXTRA: Words = { en: 'The extra turn', fr: 'Le coup en plus' };
const CAPTURE: Words = { en: 'A capture', fr: 'Une prise' };
const END: Words = { en: 'The end', fr: 'La fin de la partie' };

const kalahSteps = (preset: string): LessonStep[] => [
  {
    title: SOW,
    position: start(preset, 6, 4),
    play: [1],
    expect: 'turn_passes',
    before: {
      en: 'Your six houses are the bottom row; your store is on your right. Take all the seeds of your house 1 (lit) and sow them one by one, counter-clockwise.',
      fr: 'Vos six cases forment la rangée du bas ; votre grenier est à votre droite. Prenez toutes les graines de votre case 1 (éclairée) et semez-les une par une, dans le sens inverse des aiguilles d’une montre.',
    },
    after: {
      en: 'Each of the next four houses got one seed. Your last seed fell in a house, so the turn passes to your opponent.',
      fr: 'Chacune des quatre cases suivantes a reçu une graine. Votre dernière graine est tombée dans une case : c’est au tour de l’adversaire.',
    },
  },
  {
    title: EXTRA,
    position: start(preset, 6, 4),
    play: [3],
    expect: 'extra_turn',
    before: {
      en: 'A house that holds as many seeds as it has steps to your store ends right in it. House 3 holds 4 seeds and is 4 steps away: play it.',
      fr: 'Une case qui contient autant de graines qu’elle compte de pas jusqu’à votre grenier finit pile dans le grenier. La case 3 contient 4 graines, à 4 pas du grenier : jouez-la.',
    },
    after: {
      en: 'Your last seed fell in your store: you play again, as many times as that happens. Chaining extra turns is the most important skill of the game.',
      fr: 'Votre dernière graine est tombée dans votre grenier : vous rejouez, autant de fois que cela se produit. Savoir enchaîner ces coups en plus est le savoir-faire le plus important du jeu.',
    },
  },
  {
    title: CAPTURE,
    position: `${preset}/1,0,4,4,4,4/4,4,4,4,5,4/3,3/S`,
    play: [1],
    expect: 'capture',
    before: {
      en: 'Your house 2 is empty and the house opposite holds 5 seeds. Play house 1: its single seed falls into the empty house.',
      fr: 'Votre case 2 est vide et la case d’en face contient 5 graines. Jouez la case 1 : sa graine unique tombe dans la case vide.',
    },
    after: {
      en: 'Your last seed fell in an empty house of yours with seeds opposite: that seed and the 5 opposite go to your store. Then the turn passes.',
      fr: 'Votre dernière graine est tombée dans une de vos cases vides, face à des graines : elle et les 5 graines d’en face vont dans votre grenier. Puis le tour passe.',
    },
  },
  ...(preset === 'kalah-club'
    ? [
        {
          title: { en: 'An empty row', fr: 'Une rangée vide' },
          position: `${preset}/0,0,0,0,0,2/3,2,0,1,0,2/24,14/S`,
          play: [6],
          expect: 'turn_passes' as const,
          before: {
            en: 'House 6 is your last house with seeds. Play it: one seed to your store, one to your opponent.',
            fr: 'La case 6 est la dernière de vos cases à contenir des graines. Jouez-la : une graine pour votre grenier, une pour l’adversaire.',
          },
          after: {
            en: 'Your row is empty, but at this club the game ends only when the player to move has no seeds: your opponent plays on, and may sow seeds into your row.',
            fr: 'Votre rangée est vide, mais dans ce club la partie ne s’arrête que lorsque le joueur qui doit jouer n’a plus de graines : l’adversaire continue, et ses semailles peuvent vous rendre des graines.',
          },
        },
      ]
    : []),
  {
    title: END,
    position: `${preset}/0,0,0,0,0,1/3,2,0,1,0,2/24,15/S`,
    play: [6],
    expect: 'game_end',
    before: {
      en: 'One seed left in your row, next to your store. Play it.',
      fr: 'Il vous reste une graine, juste à côté de votre grenier. Jouez-la.',
    },
    after:
      preset === 'kalah-club'
        ? {
            en: 'It ended in your store, so you were to move again with an empty row: the game is over. Your opponent adds the seeds left on his side to his store, and the bigger store wins: 25 to 23.',
            fr: 'Elle a fini dans votre grenier : c’était encore à vous, avec une rangée vide, et la partie s’arrête. L’adversaire range les graines qui lui restent dans son grenier, et le plus riche gagne : 25 à 23.',
          }
        : {
            en: 'Your row is empty: the game is over. Your opponent adds the seeds left on his side to his store, and the bigger store wins: 25 to 23.',
            fr: 'Votre rangée est vide : la partie s’arrête. L’adversaire range les graines qui lui restent dans son grenier, et le plus riche gagne : 25 à 23.',
          },
  },
];

const mangalaStart = (preset: string): LessonStep => ({
  title: SOW,
  position: start(preset, 6, 4),
  play: [1],
  expect: 'turn_passes',
  before: {
    en: 'Take the 4 stones of your house 1 (lit). In Mangala the first stone goes back into the house you took them from, then one in each next house.',
    fr: 'Prenez les 4 pierres de votre case 1 (éclairée). Au Mangala, la première pierre retourne dans la case d’où vous les avez prises, puis une dans chaque case suivante.',
  },
  after: {
    en: 'House 1 keeps one stone and houses 2 to 4 got one each. A house with a single stone sends it to the next house.',
    fr: 'La case 1 garde une pierre et les cases 2 à 4 en ont reçu une chacune. Une case qui ne contient qu’une pierre l’envoie dans la case suivante.',
  },
});

const evenCapture = (preset: string, position: string, house: number, sown: Words): LessonStep => ({
  title: { en: 'The even capture', fr: 'La prise paire' },
  position: `${preset}/${position}`,
  play: [house],
  expect: 'capture',
  before: sown,
  after: {
    en: 'Your last stone made the opponent’s house even (4): you take all its stones into your store.',
    fr: 'Votre dernière pierre a rendu pair (4) le nombre de pierres de la case adverse : vous les prenez toutes dans votre grenier.',
  },
});

const mangala: LessonStep[] = [
  mangalaStart('mangala'),
  {
    title: EXTRA,
    position: start('mangala', 6, 4),
    play: [4],
    expect: 'extra_turn',
    before: {
      en: 'House 4: one stone back into it, then houses 5 and 6, and the last one into your store on the right. Play it.',
      fr: 'La case 4 : une pierre y retourne, puis une dans les cases 5 et 6, et la dernière dans votre grenier à droite. Jouez-la.',
    },
    after: {
      en: 'The last stone fell in your store: you play again.',
      fr: 'La dernière pierre est tombée dans votre grenier : vous rejouez.',
    },
  },
  evenCapture('mangala', '4,4,4,4,4,3/3,4,4,4,4,4/1,1/S', 6, {
    en: 'Your house 6 holds 3 stones: one back into it, one into your store, one into the opponent’s first house, which holds 3. Play it.',
    fr: 'Votre case 6 contient 3 pierres : une y retourne, une va dans votre grenier, une dans la première case de l’adversaire, qui en contient 3. Jouez-la.',
  }),
  {
    title: CAPTURE,
    position: 'mangala/1,0,4,4,4,4/4,4,4,4,5,4/3,3/S',
    play: [1],
    expect: 'capture',
    before: {
      en: 'Your house 2 is empty and the house opposite holds 5 stones. Play house 1: its single stone moves into the empty house.',
      fr: 'Votre case 2 est vide et la case d’en face contient 5 pierres. Jouez la case 1 : sa pierre unique passe dans la case vide.',
    },
    after: {
      en: 'Your last stone fell in an empty house of yours: it and the 5 stones opposite go to your store.',
      fr: 'Votre dernière pierre est tombée dans une de vos cases vides : elle et les 5 pierres d’en face vont dans votre grenier.',
    },
  },
  {
    title: END,
    position: 'mangala/0,0,0,0,0,1/3,2,0,1,0,2/20,19/S',
    play: [6],
    expect: 'game_end',
    before: {
      en: 'Your last stone is in house 6. Play it: your row will be empty.',
      fr: 'Votre dernière pierre est dans la case 6. Jouez-la : votre rangée sera vide.',
    },
    after: {
      en: 'The set is over: you emptied your row first, so you also take the 8 stones left on the other side, 29 to 19. A match is 5 sets: a set won is 1 point, a draw half.',
      fr: 'Le set est terminé : vous avez vidé votre rangée le premier, vous prenez donc aussi les 8 pierres restées en face, 29 à 19. Un match se joue en 5 sets : 1 point par set gagné, un demi pour un nul.',
    },
  },
];

const mangalaCastle: LessonStep[] = [
  mangalaStart('mangala-castle'),
  evenCapture('mangala-castle', '4,4,4,4,4,3/4,3,4,4,4,4/1,1/S', 6, {
    en: 'With the castle rule no stone is sown into a store, and there is no extra turn. Your house 6 holds 3: one back into it, then the opponent’s houses 1 and 2 (which holds 3). Play it.',
    fr: 'Avec la règle du château, aucune pierre n’est semée dans un grenier et il n’y a pas de coup en plus. Votre case 6 en contient 3 : une y retourne, puis une dans les cases 1 et 2 de l’adversaire (la 2 en contient 3). Jouez-la.',
  }),
  {
    title: { en: 'The castle', fr: 'Le château' },
    position: 'mangala-castle/4,4,4,4,4,2/2,4,4,4,4,4/2,2/S',
    play: [6],
    expect: 'castle',
    before: {
      en: 'Your house 6 holds 2 stones: one back into it, one into the opponent’s house 1, which holds 2. Play it.',
      fr: 'Votre case 6 contient 2 pierres : une y retourne, l’autre va dans la case 1 de l’adversaire, qui en contient 2. Jouez-la.',
    },
    after: {
      en: 'Your last stone made an opponent’s house exactly 3: it is now your castle. Its stones go to your store, and so will every stone sown into it later. One castle per set, never in the opponent’s house 6.',
      fr: 'Votre dernière pierre a porté une case de l’adversaire à 3 exactement : c’est maintenant votre château. Ses pierres vont dans votre grenier, comme toutes celles qui y seront semées ensuite. Un seul château par set, jamais dans la case 6 de l’adversaire.',
    },
  },
  {
    title: END,
    position: 'mangala-castle/0,0,0,0,0,1/4,2,0,1,0,1/26,13/S',
    play: [6],
    expect: 'game_end',
    before: {
      en: 'Your last stone is in house 6. Play it: it goes to the opponent’s house 1 and your row is empty.',
      fr: 'Votre dernière pierre est dans la case 6. Jouez-la : elle va dans la case 1 de l’adversaire et votre rangée sera vide.',
    },
    after: {
      en: 'A row is empty: the set is over. Each player adds the stones of his own row to his store (a castle’s go to its owner): 26 to 22.',
      fr: 'Une rangée est vide : le set est terminé. Chacun ajoute les pierres de sa rangée à son grenier (celles d’un château vont à son propriétaire) : 26 à 22.',
    },
  },
];

const alManqala: LessonStep[] = [
  {
    title: SOW,
    position: start('al-manqala', 7, 7),
    play: [1],
    expect: 'turn_passes',
    before: {
      en: 'Seven houses each, seven seeds in each, and no stores: what you capture is set aside. Sow your house 1 (lit) counter-clockwise.',
      fr: 'Sept cases chacun, sept graines dans chaque case, et pas de grenier : ce que vous prenez est mis de côté. Semez votre case 1 (éclairée) dans le sens inverse des aiguilles d’une montre.',
    },
    after: {
      en: 'One seed in each next house, the last one in the opponent’s first house. A sowing is one lap only, and never earns an extra turn.',
      fr: 'Une graine dans chaque case suivante, la dernière dans la première case de l’adversaire. Un semis ne fait qu’un tour et ne donne jamais de coup en plus.',
    },
  },
  {
    title: CAPTURE,
    position: 'al-manqala/7,7,7,7,7,7,1/1,7,7,7,7,7,7/6,6/S',
    play: [7],
    expect: 'capture',
    before: {
      en: 'Your house 7 holds one seed; the opponent’s house 1 holds one too. Play house 7.',
      fr: 'Votre case 7 contient une graine ; la case 1 de l’adversaire aussi. Jouez la case 7.',
    },
    after: {
      en: 'Your last seed made that house exactly 2: you take it. A house that reaches 2 or 4 is taken, on either side of the board.',
      fr: 'Votre dernière graine a porté cette case à 2 exactement : vous la prenez. Une case qui arrive à 2 ou à 4 est prise, d’un côté comme de l’autre.',
    },
  },
  {
    title: { en: 'A chain of captures', fr: 'Une prise en chaîne' },
    position: 'al-manqala/7,7,7,7,7,2,1/3,7,7,7,7,7,7/8,7/S',
    play: [6],
    expect: 'chain',
    before: {
      en: 'House 6 holds 2 seeds: one into your house 7 (which holds 1), one into the opponent’s house 1 (which holds 3). Play it.',
      fr: 'La case 6 contient 2 graines : une pour votre case 7 (qui en a 1), une pour la case 1 de l’adversaire (qui en a 3). Jouez-la.',
    },
    after: {
      en: 'The last house reached 4: taken. The house before it holds 2: taken too. The capture goes backwards as long as each house holds 2 or 4.',
      fr: 'La dernière case est arrivée à 4 : prise. La case d’avant en contient 2 : prise aussi. La prise remonte tant que chaque case contient 2 ou 4 graines.',
    },
  },
  {
    title: END,
    position: 'al-manqala/0,0,0,0,0,0,1/1,5,5,5,5,5,5/48,18/S',
    play: [7],
    expect: 'game_end',
    before: {
      en: 'You have captured 48 seeds. Play your house 7 to make the opponent’s house 1 a 2.',
      fr: 'Vous avez pris 48 graines. Jouez votre case 7 pour porter la case 1 de l’adversaire à 2.',
    },
    after: {
      en: 'Fifty captured: you win at once. (If a player has no seeds left, the other must sow into his row when he can; if no move can feed him, the starved player takes every seed left.)',
      fr: 'Cinquante graines prises : vous gagnez aussitôt. (Si un joueur n’a plus de graines, l’autre doit en semer dans sa rangée s’il le peut ; si aucun coup ne le nourrit, le joueur affamé prend toutes les graines restantes.)',
    },
  },
];

const congkak: LessonStep[] = [
  {
    title: EXTRA,
    position: start('congkak', 7, 7),
    play: [1],
    expect: 'extra_turn',
    before: {
      en: 'Seven houses, seven seeds each; your store is on your left and you sow clockwise. Play your house 1 (lit): its 7 seeds reach your store exactly.',
      fr: 'Sept cases, sept graines dans chacune ; votre grenier est à votre gauche et vous semez dans le sens des aiguilles d’une montre. Jouez votre case 1 (éclairée) : ses 7 graines arrivent pile dans votre grenier.',
    },
    after: {
      en: 'Your last seed fell in your store: you play again.',
      fr: 'Votre dernière graine est tombée dans votre grenier : vous rejouez.',
    },
  },
  {
    title: { en: 'The relay', fr: 'Le semis en relais' },
    position: 'congkak/7,7,7,7,7,1,2/7,0,7,7,7,7,7/9,9/S',
    play: [6],
    expect: 'relay',
    before: {
      en: 'Your house 6 holds one seed; the next house holds 2. Play house 6.',
      fr: 'Votre case 6 contient une graine ; la case suivante en contient 2. Jouez la case 6.',
    },
    after: {
      en: 'Your last seed fell in a house that held seeds: you lifted them all and sowed on, until the last seed fell in an empty house of your opponent’s, which ends your turn.',
      fr: 'Votre dernière graine est tombée dans une case qui contenait des graines : vous les avez toutes ramassées pour continuer à semer, jusqu’à ce que la dernière tombe dans une case vide de l’adversaire, ce qui termine votre tour.',
    },
  },
  {
    title: CAPTURE,
    position: 'congkak/7,7,7,7,1,0,7/7,7,7,7,7,7,7/6,7/S',
    play: [5],
    expect: 'capture',
    before: {
      en: 'Your house 6 is empty. Play house 5: its single seed falls into it.',
      fr: 'Votre case 6 est vide. Jouez la case 5 : sa graine unique y tombe.',
    },
    after: {
      en: 'Your last seed fell in an empty house of yours: you take it and the seeds opposite into your store, and your turn ends.',
      fr: 'Votre dernière graine est tombée dans une de vos cases vides : vous la prenez avec les graines d’en face dans votre grenier, et votre tour s’arrête.',
    },
  },
  {
    title: END,
    position: 'congkak/0,0,0,0,0,0,1/3,2,0,1,0,2,0/50,39/S',
    play: [7],
    expect: 'game_end',
    before: {
      en: 'One seed left, next to your store. Play it.',
      fr: 'Il vous reste une graine, juste à côté de votre grenier. Jouez-la.',
    },
    after: {
      en: 'A side is empty: the game is over. Each player adds the seeds of his side to his store; the bigger store wins, 51 to 47.',
      fr: 'Un côté est vide : la partie s’arrête. Chacun ajoute à son grenier les graines de son côté ; le plus gros grenier gagne, 51 à 47.',
    },
  },
];

export const lessons: Record<string, LessonStep[]> = {
  kalah: kalahSteps('kalah'),
  'kalah-club': kalahSteps('kalah-club'),
  mangala,
  'mangala-castle': mangalaCastle,
  'al-manqala': alManqala,
  congkak,
};

// The lesson page's own words (the steps' are above).
export const lessonWords = {
  title: { en: 'Learn to play {name}', fr: 'Apprendre à jouer : {name}' },
  step: { en: 'Step {k} of {n}', fr: 'Étape {k} sur {n}' },
  playThis: { en: 'Play the lit house.', fr: 'Jouez la case éclairée.' },
  again: { en: 'Now play your house {h}.', fr: 'Jouez maintenant votre case {h}.' },
  next: { en: 'Next step', fr: 'Étape suivante' },
  retry: { en: 'Start this step again', fr: 'Recommencer cette étape' },
  done: { en: 'Well done: you know the essentials of {name}.', fr: 'Bravo : vous connaissez l’essentiel ({name}).' },
  playComputer: { en: 'Play the computer', fr: 'Jouer contre l’ordinateur' },
  rules: { en: 'The whole rules', fr: 'Toutes les règles' },
  back: { en: 'Back to the games', fr: 'Retour aux jeux' },
  you: { en: 'You', fr: 'Vous' },
  opponent: { en: 'Opponent', fr: 'Adversaire' },
  mismatch: {
    en: 'The rules engine answered something else than this lesson expects ({expect}); the lesson may be out of date.',
    fr: 'Le moteur de règles a répondu autre chose que ce que la leçon attendait ({expect}) ; la leçon n’est peut-être plus à jour.',
  },
  unknown: { en: 'There is no lesson for this game.', fr: 'Il n’y a pas de leçon pour ce jeu.' },
  learn: { en: 'Learn to play', fr: 'Apprendre à jouer' },
};
