// How secrets presented by clients (API token keys, sign-in codes) are stored: only their SHA-256, hex.
// They are long random strings, so a fast hash is enough; the plain secret is never written.
import { createHash } from 'node:crypto';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
