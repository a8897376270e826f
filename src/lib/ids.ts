import { randomBase62 } from './base62.ts';

/**
 * Ids are random, prefixed and URL-safe (ARCHITECTURE §4): the prefix tells a reader what the id
 * names, and 20 base62 characters (~119 bits) make guessing another account's id hopeless.
 */
export const ID_PREFIXES = {
  account: 'acc',
  key: 'key',
  question: 'q',
  project: 'prj',
  draft: 'drf',
  ledger: 'led',
  lot: 'lot',
  shareLink: 'shl',
  webhook: 'whe',
  ticket: 'tkt',
  head: 'hd',
  answer: 'ans',
  flag: 'flg',
  dispute: 'dsp',
  event: 'evt',
  person: 'per',
  session: 'ses',
  signIn: 'sgn',
  invitation: 'inv',
  checkout: 'chk',
  connection: 'con',
  upload: 'upl',
  audience: 'aud',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(20)}`;
}

export function isId(kind: IdKind, value: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9A-Za-z]{20}$`).test(value);
}

/**
 * Answer-link codes (docs/answer-link.md): 10 base62 characters (~59 bits), made by the ask
 * (questions/question-row.ts). Anything else names no link, so the link routes refuse it before any
 * database or rate-limit work.
 */
export const LINK_CODE_LENGTH = 10;
const LINK_CODE = new RegExp(`^[0-9A-Za-z]{${LINK_CODE_LENGTH}}$`);

export function newLinkCode(): string {
  return randomBase62(LINK_CODE_LENGTH);
}

export function isLinkCode(value: string): boolean {
  return LINK_CODE.test(value);
}

/**
 * An answer's attestationRef (`att_` and 16 base62 characters): names one answer in results,
 * flags, pins and answer cursors, and says nothing of who gave it.
 */
export function newAttestationRef(): string {
  return `att_${randomBase62(16)}`;
}

/** A public results page's code (`/r/{code}`, docs/sharing.md): 12 base62 characters (~71 bits). */
export const PUBLIC_CODE_LENGTH = 12;

export function newPublicCode(): string {
  return randomBase62(PUBLIC_CODE_LENGTH);
}
