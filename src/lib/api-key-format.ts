import { createHash } from 'node:crypto';
import { randomBase62 } from './base62.ts';

/**
 * API key format (ARCHITECTURE §4, after GitHub's token format): `hc_live_` or `hc_test_`, then
 * 43 random base62 characters (≥ 32 random bytes of entropy, ~256 bits), then a 6-character
 * checksum (CRC-32 of everything before it, base62). The checksum lets us refuse a mistyped or
 * made-up key before touching the database (R6.1) and lets secret scanners spot real keys.
 */
export type KeyMode = 'live' | 'test';

const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^hc_(live|test)_([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

// node:zlib has crc32 only from Node 20.15/22; a 10-line table keeps us on every Node 20.
function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(text: string): string {
  let value = crc32(text);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function generateApiKey(mode: KeyMode): string {
  const head = `hc_${mode}_${randomBase62(BODY_LENGTH)}`;
  return head + checksum(head);
}

/** True when the text has the key shape and its checksum matches. */
export function isWellFormedApiKey(text: string): boolean {
  const match = KEY_PATTERN.exec(text);
  if (!match) return false;
  const head = text.slice(0, text.length - CHECKSUM_LENGTH);
  return checksum(head) === match[3];
}

/**
 * A portal session's bearer token (docs/portal.md "Sessions"): the same shape as a key, so it has
 * the same entropy and checksum, under its own prefix `hc_ses_`, which is how the API tells a
 * session from a key before any lookup.
 */
export const SESSION_TOKEN_PREFIX = 'hc_ses_';
const SESSION_PATTERN = /^hc_ses_([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/;

export function generateSessionToken(): string {
  const head = `${SESSION_TOKEN_PREFIX}${randomBase62(BODY_LENGTH)}`;
  return head + checksum(head);
}

export function isWellFormedSessionToken(text: string): boolean {
  const match = SESSION_PATTERN.exec(text);
  return match !== null && checksum(text.slice(0, text.length - CHECKSUM_LENGTH)) === match[2];
}

/** SHA-256 of a key or token: what the database keeps (the secrets carry ~256 random bits, so a slow hash adds nothing). */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** What lists show: enough to recognise a key, never enough to use it. */
export function displayPrefix(key: string): string {
  return `${key.slice(0, 'hc_live_'.length + 6)}…${key.slice(-4)}`;
}
