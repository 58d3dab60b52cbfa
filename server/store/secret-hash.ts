// How secrets presented by clients (API token keys, sign-in codes, badges) are stored: only their SHA-256, hex.
// They are long random strings, so a fast hash is enough; the plain secret is never written.
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * A PIN is short (4 to 8 digits: at most 10^8 values), so its SHA-256 would be reversed by trying them
 * all in seconds: it is stored as scrypt with a random salt of its own instead, which costs a guesser
 * tens of milliseconds per try and per person. Asynchronous, so it runs outside any transaction.
 */
export function hashPin(pin: string, salt: string): Promise<string> {
  return new Promise((resolve, reject) =>
    scrypt(pin, salt, 32, { N: 16384, r: 8, p: 1 }, (error, key) => (error ? reject(error) : resolve(key.toString('hex')))),
  );
}

export function newPinSalt(): string {
  return randomBytes(16).toString('hex');
}

/** Whether `pin` is the PIN stored as `hash` with `salt`, compared in constant time. */
export async function pinMatches(pin: string, salt: string, hash: string): Promise<boolean> {
  const given = Buffer.from(await hashPin(pin, salt), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
