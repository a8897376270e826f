import { describe, expect, it } from 'vitest';
import { crossesCapWarning, crossesLowCredits } from './credits.alerts.ts';

describe('crossesLowCredits (credits.low, once per crossing)', () => {
  it('is true only from at least the threshold to below it', () => {
    expect(crossesLowCredits(1100, 980, 1000)).toBe(true);
    expect(crossesLowCredits(1000, 999, 1000)).toBe(true);
    expect(crossesLowCredits(1120, 1000, 1000)).toBe(false); // exactly the threshold is not below it
    expect(crossesLowCredits(980, 860, 1000)).toBe(false); // already below
    expect(crossesLowCredits(2000, 1500, 1000)).toBe(false); // still above
  });

  it('never with a threshold of 0 (off)', () => {
    expect(crossesLowCredits(10, 0, 0)).toBe(false);
    expect(crossesLowCredits(0, 0, 0)).toBe(false);
  });
});

describe('crossesCapWarning (connection.cap_warning at 80% of the cap)', () => {
  it('is true when the day goes from under 80% to 80% or more, in exact integers', () => {
    expect(crossesCapWarning(600, 1200, 1500)).toBe(true); // exactly 80%
    expect(crossesCapWarning(0, 1500, 1500)).toBe(true);
    expect(crossesCapWarning(720, 840, 1000)).toBe(true);
    expect(crossesCapWarning(1200, 1320, 1500)).toBe(false); // already there
    expect(crossesCapWarning(0, 1199, 1500)).toBe(false);
    // 0.8 × 7 = 5.6: 5 is under, 6 is over.
    expect(crossesCapWarning(5, 6, 7)).toBe(true);
    expect(crossesCapWarning(0, 5, 7)).toBe(false);
  });

  it('never for a cap of 0', () => {
    expect(crossesCapWarning(0, 0, 0)).toBe(false);
  });
});
