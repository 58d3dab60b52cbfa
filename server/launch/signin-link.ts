// The link a person opens to sign a browser in: the server's address with a one-time code in the
// fragment (`#signin=…`), which never reaches a server log or a proxy.
import { SIGNIN_FRAGMENT_KEY } from '../../shared/index.ts';

export function signInLink(baseUrl: string, code: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/#${SIGNIN_FRAGMENT_KEY}=${encodeURIComponent(code)}`;
}
