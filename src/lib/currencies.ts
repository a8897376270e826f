import { StringEnum } from './typebox.ts';

/** The currencies an account is billed and shown prices in (ISO 4217; spec "Config" `currency`). */
export const CURRENCIES = ['GBP', 'USD', 'EUR', 'CAD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const CurrencySchema = StringEnum(CURRENCIES);

/** Exchange rates from GBP used to show prices in other currencies (GET /v1/config `rates`); reviewed by hand. */
export const RATES: Record<Currency, number> = { GBP: 1, USD: 1.27, EUR: 1.17, CAD: 1.76 };
export const RATES_DATE = '2026-11-02';
