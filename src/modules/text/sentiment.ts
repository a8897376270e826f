import { loadWink, type Wink } from './wink.ts';
import { baseLanguage } from './stopwords.ts';

/**
 * The sentiment of one written answer (docs/results.md "Sentiment"), shared by the results
 * (Result.sentiment, scored once when the answer is recorded and stored in answers.sentiment)
 * and the local insights engine (theme and summary sentiment), so both classify alike.
 *
 * wink-nlp's English lite model scores a text from −1 to 1 with negation handled ("not good" is
 * negative); nothing is downloaded. Other languages have no sentiment model here: their answers
 * get no score (null) rather than a made-up "neutral", and a result with no scored answer leaves
 * `sentiment` out.
 */
export type Sentiment = 'positive' | 'neutral' | 'negative';

/** Scores beyond ±SENTIMENT_EDGE are positive or negative; the rest neutral. */
export const SENTIMENT_EDGE = 0.05;

export const classifySentiment = (score: number): Sentiment => (score > SENTIMENT_EDGE ? 'positive' : score < -SENTIMENT_EDGE ? 'negative' : 'neutral');

export const sentimentSupported = (language: string): boolean => baseLanguage(language) === 'en';

let wink: Wink | null = null;
/**
 * Loading the model takes ~100 ms, so it happens on first use (main warms it once the server
 * listens; even its import is kept off the start, issue 15); a text then takes ~20 µs.
 */
function nlp(): Wink {
  return (wink ??= loadWink(['sbd', 'negation', 'sentiment']));
}

/** wink's score of one text, −1 to 1. */
export function sentimentScore(text: string): number {
  const w = nlp();
  return w.readDoc(text).out(w.its.sentiment) as number;
}

/**
 * An answer's score: the mean of its written answer's and its reason's scores (those that hold
 * words); null when it has none, or when the question's language has no sentiment model.
 */
export function answerSentiment(language: string, text: string | null | undefined, reason: string | null | undefined): number | null {
  if (!sentimentSupported(language)) return null;
  const written = [text, reason].filter((s): s is string => typeof s === 'string' && s.trim() !== '');
  if (written.length === 0) return null;
  return written.reduce((sum, s) => sum + sentimentScore(s), 0) / written.length;
}
