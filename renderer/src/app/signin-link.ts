// The one-time code of a sign-in link (`http://host:port/#signin=<code>`), from the address bar or pasted text.
import { SIGNIN_FRAGMENT_KEY } from '../../../shared/index.ts';

/** The code in the address bar, removed from it so it is never reused, bookmarked or left in history. */
export function takeSignInCode(): string | null {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const code = params.get(SIGNIN_FRAGMENT_KEY);
  if (code === null) return null;
  history.replaceState(null, '', window.location.pathname + window.location.search);
  return code;
}

/** The code of a pasted sign-in link; null when the text is not one (then it is taken as a token). */
export function codeFromPastedLink(text: string): string | null {
  const match = new RegExp(`[#&]${SIGNIN_FRAGMENT_KEY}=([^&\\s]+)`).exec(text.trim());
  return match ? decodeURIComponent(match[1]!) : null;
}
