import type { CountryEntry } from './catalogue-entries.schemas.ts';

/**
 * Answering countries: where heads live and are paid. `payMultiplier` scales head pay to local
 * earnings; `weight` is the share of the panel the synthetic seed puts there (roughly where
 * panels like ours find people). Names come from Intl.DisplayNames at run time, so they are real
 * and spelled as CLDR spells them.
 *
 * The spec's further optional fields of an entry (docs/catalogues.md, extensions): `region`,
 * `minAge` (13 to 21), `topUpMethod` (the card-method value: the checkout method offered first,
 * `bank_transfer` where paying by bank is how most people pay online: iDEAL, SEPA, UPI, Pix,
 * Indonesian and Nigerian transfers), `dialCode` and `localName` (the two strings up to 40
 * characters: what a phone number there starts with, for the sign-in code sent by `otpChannel`,
 * and the country's name in its first language, as CLDR writes it; a test checks it against
 * Intl.DisplayNames).
 */
export interface AnsweringCountry {
  code: string;
  languages: string[];
  entry: CountryEntry;
  weight: number;
}

const bank = (key: string, label: string, example: string, pattern: string) => ({ key, label, example, pattern });

export const ANSWERING_COUNTRIES: AnsweringCountry[] = [
  {
    code: 'GB', languages: ['en'], weight: 14,
    entry: { payMultiplier: 1, minWithdrawalPence: 500, payoutRails: ['bank_transfer', 'paypal'], otpChannel: 'sms', taxFields: [], tier2Available: true, currency: 'GBP', region: 'europe', minAge: 18, topUpMethod: 'card', dialCode: '+44', localName: 'United Kingdom',
      transferFields: [bank('sortCode', 'Sort code', '12-34-56', '^\\d{2}-?\\d{2}-?\\d{2}$'), bank('accountNumber', 'Account number', '12345678', '^\\d{8}$')] },
  },
  {
    code: 'IE', languages: ['en', 'ga'], weight: 2,
    entry: { payMultiplier: 1, minWithdrawalPence: 500, payoutRails: ['sepa', 'paypal'], otpChannel: 'sms', taxFields: [], tier2Available: true, currency: 'EUR', region: 'europe', minAge: 18, topUpMethod: 'card', dialCode: '+353', localName: 'Ireland',
      transferFields: [bank('iban', 'IBAN', 'IE29AIBK93115212345678', '^IE\\d{2}[A-Z]{4}\\d{14}$')] },
  },
  {
    code: 'US', languages: ['en', 'es'], weight: 16,
    entry: { payMultiplier: 1, minWithdrawalPence: 500, payoutRails: ['ach', 'paypal'], otpChannel: 'sms', taxFields: ['tin'], tier2Available: true, currency: 'USD', region: 'north_america', minAge: 18, topUpMethod: 'card', dialCode: '+1', localName: 'United States',
      transferFields: [bank('routingNumber', 'Routing number', '021000021', '^\\d{9}$'), bank('accountNumber', 'Account number', '000123456789', '^\\d{4,17}$')] },
  },
  {
    code: 'CA', languages: ['en', 'fr'], weight: 5,
    entry: { payMultiplier: 1, minWithdrawalPence: 500, payoutRails: ['interac', 'paypal'], otpChannel: 'sms', taxFields: ['sin'], tier2Available: true, currency: 'CAD', region: 'north_america', minAge: 18, topUpMethod: 'card', dialCode: '+1', localName: 'Canada' },
  },
  {
    code: 'AU', languages: ['en'], weight: 4,
    entry: { payMultiplier: 1, minWithdrawalPence: 500, payoutRails: ['bank_transfer', 'paypal'], otpChannel: 'sms', taxFields: ['tfn'], tier2Available: true, currency: 'USD', region: 'oceania', minAge: 18, topUpMethod: 'card', dialCode: '+61', localName: 'Australia' },
  },
  {
    code: 'DE', languages: ['de'], weight: 7,
    entry: { payMultiplier: 1, minWithdrawalPence: 500, payoutRails: ['sepa', 'paypal'], otpChannel: 'sms', taxFields: ['steuerId'], tier2Available: true, currency: 'EUR', region: 'europe', minAge: 18, topUpMethod: 'bank_transfer', dialCode: '+49', localName: 'Deutschland',
      transferFields: [bank('iban', 'IBAN', 'DE89370400440532013000', '^DE\\d{20}$')] },
  },
  {
    code: 'FR', languages: ['fr'], weight: 6,
    entry: { payMultiplier: 1, minWithdrawalPence: 500, payoutRails: ['sepa', 'paypal'], otpChannel: 'sms', taxFields: [], tier2Available: true, currency: 'EUR', region: 'europe', minAge: 18, topUpMethod: 'card', dialCode: '+33', localName: 'France',
      transferFields: [bank('iban', 'IBAN', 'FR1420041010050500013M02606', '^FR\\d{12}[A-Z0-9]{11}\\d{2}$')] },
  },
  {
    code: 'ES', languages: ['es', 'ca'], weight: 5,
    entry: { payMultiplier: 0.9, minWithdrawalPence: 500, payoutRails: ['sepa', 'paypal', 'bizum'], otpChannel: 'whatsapp', taxFields: ['nif'], tier2Available: true, currency: 'EUR', region: 'europe', minAge: 18, topUpMethod: 'card', dialCode: '+34', localName: 'España' },
  },
  {
    code: 'PT', languages: ['pt'], weight: 2,
    entry: { payMultiplier: 0.8, minWithdrawalPence: 500, payoutRails: ['sepa', 'mbway'], otpChannel: 'whatsapp', taxFields: ['nif'], tier2Available: true, currency: 'EUR', region: 'europe', minAge: 18, topUpMethod: 'card', dialCode: '+351', localName: 'Portugal' },
  },
  {
    code: 'NL', languages: ['nl', 'en'], weight: 3,
    entry: { payMultiplier: 1, minWithdrawalPence: 500, payoutRails: ['sepa', 'paypal'], otpChannel: 'sms', taxFields: [], tier2Available: true, currency: 'EUR', region: 'europe', minAge: 18, topUpMethod: 'bank_transfer', dialCode: '+31', localName: 'Nederland' },
  },
  {
    code: 'IN', languages: ['hi', 'en'], weight: 12,
    entry: { payMultiplier: 0.45, minWithdrawalPence: 200, payoutRails: ['upi', 'bank_transfer'], otpChannel: 'whatsapp', taxFields: ['pan'], tier2Available: true, currency: 'USD', region: 'asia', minAge: 18, topUpMethod: 'bank_transfer', dialCode: '+91', localName: 'भारत',
      transferFields: [{ key: 'upiId', label: 'UPI ID', example: 'name@bank', pattern: '^[\\w.-]{2,256}@[A-Za-z]{2,64}$' }] },
  },
  {
    code: 'ID', languages: ['id'], weight: 6,
    entry: { payMultiplier: 0.45, minWithdrawalPence: 200, payoutRails: ['bank_transfer', 'gopay', 'ovo'], otpChannel: 'whatsapp', taxFields: ['npwp'], tier2Available: false, currency: 'USD', region: 'asia', minAge: 17, topUpMethod: 'bank_transfer', dialCode: '+62', localName: 'Indonesia' },
  },
  {
    code: 'PH', languages: ['tl', 'en'], weight: 6,
    entry: { payMultiplier: 0.45, minWithdrawalPence: 200, payoutRails: ['gcash', 'maya', 'bank_transfer'], otpChannel: 'sms', taxFields: ['tin'], tier2Available: false, currency: 'USD', region: 'asia', minAge: 18, topUpMethod: 'card', dialCode: '+63', localName: 'Pilipinas',
      transferFields: [{ key: 'gcashNumber', label: 'GCash mobile number', example: '09171234567', pattern: '^09\\d{9}$' }] },
  },
  {
    code: 'BR', languages: ['pt'], weight: 5,
    entry: { payMultiplier: 0.55, minWithdrawalPence: 300, payoutRails: ['pix', 'bank_transfer'], otpChannel: 'whatsapp', taxFields: ['cpf'], tier2Available: true, currency: 'USD', region: 'south_america', minAge: 18, topUpMethod: 'bank_transfer', dialCode: '+55', localName: 'Brasil',
      transferFields: [{ key: 'pixKey', label: 'Pix key', example: 'email, phone, CPF or random key' }] },
  },
  {
    code: 'MX', languages: ['es'], weight: 4,
    entry: { payMultiplier: 0.55, minWithdrawalPence: 300, payoutRails: ['spei', 'paypal'], otpChannel: 'whatsapp', taxFields: ['rfc'], tier2Available: true, currency: 'USD', region: 'north_america', minAge: 18, topUpMethod: 'card', dialCode: '+52', localName: 'México',
      transferFields: [{ key: 'clabe', label: 'CLABE', example: '002010077777777771', pattern: '^\\d{18}$' }] },
  },
  {
    code: 'NG', languages: ['en'], weight: 2,
    entry: { payMultiplier: 0.4, minWithdrawalPence: 200, payoutRails: ['bank_transfer'], otpChannel: 'whatsapp', taxFields: [], tier2Available: false, currency: 'USD', region: 'africa', minAge: 18, topUpMethod: 'bank_transfer', dialCode: '+234', localName: 'Nigeria' },
  },
  {
    code: 'KE', languages: ['en', 'sw'], weight: 1,
    entry: { payMultiplier: 0.4, minWithdrawalPence: 200, payoutRails: ['mpesa'], otpChannel: 'sms', taxFields: ['kraPin'], tier2Available: false, currency: 'USD', region: 'africa', minAge: 18, topUpMethod: 'card', dialCode: '+254', localName: 'Kenya',
      transferFields: [{ key: 'mpesaNumber', label: 'M-Pesa number', example: '0712345678', pattern: '^0\\d{9}$' }] },
  },
];

export const DEFAULT_COUNTRY = 'GB';

const byCode = new Map(ANSWERING_COUNTRIES.map((c) => [c.code, c]));

export function answeringCountry(code: string): AnsweringCountry | undefined {
  return byCode.get(code);
}

const displayNames = new Intl.DisplayNames(['en'], { type: 'region' });

export function countryName(code: string): string {
  return displayNames.of(code) ?? code;
}
