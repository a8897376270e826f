/**
 * The export's own words (words.ts), in English: the shape every language fills, and the
 * wording the others follow.
 */
export interface Words {
  neither: string;
  yes: string;
  mostly: string;
  no: string;
  answersOne: string;
  answersMany: string;
  received: string;
  collecting: string;
  noAnswers: string;
  multiHint: string;
  scaleHint: string;
  rankingHint: string;
  pairHint: string;
  average: string;
  averageRank: string;
  rankedFirst: string;
  wins: string;
  written: string;
  taps: string;
  hotspots: string;
  hotspotWhere: string;
  themes: string;
  meaning: string;
  winner: string;
  confidence: string;
  levels: Record<'low' | 'medium' | 'high', string>;
  margin: string;
  followUp: string;
  answersHeading: string;
  pinned: string;
  chose: string;
  rankedFirstAnswer: string;
  why: string;
  moreOne: string;
  moreMany: string;
  interval: string;
  simulated: string;
  /** The band when only some answers are simulated (people answered through the link too). */
  someSimulated: string;
}

export const en: Words = {
  neither: 'Neither',
  yes: 'Yes',
  mostly: 'Mostly',
  no: 'No',
  answersOne: '{n} answer',
  answersMany: '{n} answers',
  received: '{n} of {total} answers received',
  collecting: 'Still collecting answers',
  noAnswers: 'No answers yet',
  multiHint: 'People could choose more than one, so the shares can add up to more than 100%.',
  scaleHint: '1 is the lowest, 5 the highest.',
  rankingHint: 'In order of average rank (1 = ranked first).',
  pairHint: 'Strengths come from every pair people compared and add up to 100%.',
  average: 'Average',
  averageRank: 'average rank {avg}',
  rankedFirst: 'ranked first in {count}',
  wins: 'picked {wins} of {shown} times',
  written: 'Written answers received: {n}',
  taps: 'Taps: {n}',
  hotspots: 'Busiest areas',
  hotspotWhere: 'about {x}% from the left, {y}% from the top',
  themes: 'What people wrote',
  meaning: 'What it means',
  winner: 'Winner: {label}',
  confidence: 'Confidence: {level}',
  levels: { low: 'low', medium: 'medium', high: 'high' },
  margin: 'ahead by {points} points',
  followUp: 'Ask next: {text}',
  answersHeading: 'Answers',
  pinned: 'Pinned',
  chose: 'Chose: {option}',
  rankedFirstAnswer: 'Ranked first: {option}',
  why: 'Why: {reason}',
  moreOne: 'and {n} more answer',
  moreMany: 'and {n} more answers',
  interval: 'Thin lines: the 95% range',
  simulated: 'Simulated answers, not real people',
  someSimulated: 'Some answers simulated, not real people',
};

