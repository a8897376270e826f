/** Days are UTC days everywhere (spec: daily caps, one free private question a day). */
export const DAY_MS = 86_400_000;

/** The UTC day of an instant, as YYYY-MM-DD (the key of a day's cap charges and spend). */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** Midnight UTC at the start of the instant's day. */
export const startOfUtcDay = (at: Date): Date => new Date(`${utcDay(at)}T00:00:00.000Z`);

/** The instant `days` days after `at` (days of 24 hours: windows, expiries). */
export const addDays = (at: Date, days: number): Date => new Date(at.getTime() + days * DAY_MS);
