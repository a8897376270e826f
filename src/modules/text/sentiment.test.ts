import { describe, expect, it } from 'vitest';
import { answerSentiment, classifySentiment, SENTIMENT_EDGE } from './sentiment.ts';

describe('answerSentiment', () => {
  it('scores English words from −1 to 1, negation included', () => {
    const love = answerSentiment('en', 'I love it, a wonderful name', null)!;
    const notGood = answerSentiment('en', 'Not good at all', null)!;
    expect(love).toBeGreaterThan(SENTIMENT_EDGE);
    expect(notGood).toBeLessThan(-SENTIMENT_EDGE);
    for (const s of [love, notGood]) expect(Math.abs(s)).toBeLessThanOrEqual(1);
    expect(classifySentiment(answerSentiment('en-GB', 'It is a name', null)!)).toBe('neutral');
  });

  it('is the mean of the written answer and the reason', () => {
    const text = answerSentiment('en', 'Wonderful', null)!;
    const reason = answerSentiment('en', 'Awful', null)!;
    expect(answerSentiment('en', 'Wonderful', 'Awful')).toBeCloseTo((text + reason) / 2, 10);
    expect(answerSentiment('en', '   ', 'Awful')).toBe(reason);
  });

  it('is null without words, and for a language without a model', () => {
    expect(answerSentiment('en', null, null)).toBeNull();
    expect(answerSentiment('en', '', '  ')).toBeNull();
    expect(answerSentiment('de', 'Wunderbar', null)).toBeNull();
    expect(answerSentiment('es', 'Horrible', null)).toBeNull();
  });

  it('classifies at ±SENTIMENT_EDGE', () => {
    expect(classifySentiment(SENTIMENT_EDGE)).toBe('neutral');
    expect(classifySentiment(-SENTIMENT_EDGE)).toBe('neutral');
    expect(classifySentiment(SENTIMENT_EDGE + 0.001)).toBe('positive');
    expect(classifySentiment(-SENTIMENT_EDGE - 0.001)).toBe('negative');
  });
});
