// Points become text only through these two (pt-BR digit grouping; "1 ponto", "-1 ponto",
// "0 pontos", "2 pontos": only one, positive or negative, is singular).

const pointsNumber = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });

/** 1234 → "1.234". */
export const formatPoints = (n: number): string => pointsNumber.format(n);

/** The word for `n` points: "ponto" for 1 and -1, "pontos" otherwise. */
export const pointsWord = (n: number): string => (Math.abs(n) === 1 ? 'ponto' : 'pontos');

/** 1234 → "1.234 pontos", 1 → "1 ponto". */
export const formatPointsLabel = (n: number): string => `${formatPoints(n)} ${pointsWord(n)}`;
