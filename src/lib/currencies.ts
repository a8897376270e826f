import { StringEnum } from './typebox.ts';

/** The currencies an account is billed and shown prices in (ISO 4217; spec "Config" `currency`). */
export const CURRENCIES = ['GBP', 'USD', 'EUR', 'CAD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const CurrencySchema = StringEnum(CURRENCIES);

/** Exchange rates from GBP used to show prices in other currencies (GET /v1/config `rates`); reviewed by hand. */
export const RATES: Record<Currency, number> = { GBP: 1, USD: 1.27, EUR: 1.17, CAD: 1.76 };
export const RATES_DATE = '2026-11-02';

/** Countries (ISO 3166 alpha-2) that pay in euros. */
const EURO_COUNTRIES = new Set(['AT', 'BE', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK']);

/**
 * A first guess at a new person's currency from the region of their browser's language
 * (Accept-Language `en-US` → USD, `fr-CA` → CAD, `de-DE` → EUR); GBP when it names none of ours.
 * A team's currency is chosen when it is made.
 */
export function currencyForLocale(tag: string | null | undefined): Currency {
  const region = /^[a-z]{2,3}[-_]([A-Za-z]{2})\b/.exec((tag ?? '').trim())?.[1]?.toUpperCase();
  if (region === 'US') return 'USD';
  if (region === 'CA') return 'CAD';
  if (region && EURO_COUNTRIES.has(region)) return 'EUR';
  return 'GBP';
}

/** Minor units as a person reads them: 4750 GBP → "£47.50" (English formatting; pages in other languages format their own). */
export function formatMoney(minor: number, currency: Currency, locale = 'en-GB'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: 'symbol' }).format(minor / 100);
}
