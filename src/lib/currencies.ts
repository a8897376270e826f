import { StringEnum } from './typebox.ts';

/** The currencies an account is billed and shown prices in (ISO 4217; spec "Config" `currency`). */
export const CURRENCIES = ['GBP', 'USD', 'EUR', 'CAD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const CurrencySchema = StringEnum(CURRENCIES);
