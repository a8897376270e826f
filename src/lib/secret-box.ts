import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the service must give back later in plain text (webhook signing secrets: it signs with
 * them) are stored sealed: AES-256-GCM under a key from config (issue 12 point 5), with the
 * record's id as associated data, so a sealed value copied onto another record does not open.
 *
 * Sealed form: `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url). The key id names which key
 * sealed it, so the key can be rotated: the first key seals, every key listed opens
 * (docs/webhooks.md "Secrets at rest"). Node's crypto is the maintained library here; this file
 * only fixes the format.
 */
export interface SecretBox {
  seal(plain: string, context: string): string;
  /** Throws when no configured key sealed it, or it was altered or moved to another context. */
  open(sealed: string, context: string): string;
}

interface Key {
  id: string;
  bytes: Buffer;
}

/** A 32-byte key from configured material (any string of 32 characters or more). */
function deriveKey(material: string): Key {
  const bytes = Buffer.from(hkdfSync('sha256', material, 'headcount', 'secret box v1', 32));
  return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 8), bytes };
}

export function createSecretBox(materials: readonly string[]): SecretBox {
  if (materials.length === 0) throw new Error('a secret box needs at least one key');
  const keys = materials.map(deriveKey);
  const current = keys[0];
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.bytes, iv);
      cipher.setAAD(Buffer.from(context));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', current.id, iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed, context) {
      const [version, keyId, iv, ciphertext, tag] = sealed.split('.');
      if (version !== 'v1' || tag === undefined) throw new Error('not a sealed secret');
      const key = keys.find((k) => k.id === keyId);
      if (!key) throw new Error(`the key that sealed this secret (${keyId}) is not configured`);
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
