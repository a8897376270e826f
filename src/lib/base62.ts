import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Encodes bytes as base62 (big-endian), so ids and keys are URL-safe and copy with a double click. */
export function encodeBase62(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let out = '';
  while (value > 0n) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out || '0';
}

/**
 * Random bytes taken from a pool refilled 4 KB at a time (as nanoid does): one call into the
 * system's generator per ~60 ids instead of one per id, each byte used once. Ids are made on the
 * hot paths (every answer has an attestation ref); the call cost more than the rest of the id.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let taken = 0;
function randomByte(): number {
  if (taken >= pool.length) {
    pool = randomBytes(POOL_BYTES);
    taken = 0;
  }
  return pool[taken++]!;
}

/** A random base62 string of exactly `length` characters (rejection sampling keeps it uniform). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export function isBase62(text: string): boolean {
  return /^[0-9A-Za-z]+$/.test(text);
}
