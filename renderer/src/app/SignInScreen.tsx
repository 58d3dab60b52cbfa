// Signing in on a device: open a one-time sign-in link, or paste a link or an API token. The language
// can be chosen here too, before anything else.
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError } from '../api/request-json.ts';
import { LanguageSelect } from '../common/LanguageSelect.tsx';
import { signInTexts as texts } from '../common/texts.ts';
import { forgetEarlyKeys } from '../scan/scan-capture.ts';
import { codeFromPastedLink } from './signin-link.ts';
import type { SignInOffer } from './desktop-bridge.ts';

/** API tokens start with this (server/store/tokens.ts): anything else pasted is neither a link nor a token. */
const TOKEN_PREFIX = 'bi_';

export function SignInScreen(props: {
  message?: string | undefined;
  offers: SignInOffer[];
  onToken: (token: string) => Promise<void>;
  onCode: (code: string) => Promise<void>;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>(props.message);
  const [busy, setBusy] = useState(false);
  // What was typed here was for this screen: the scanner that comes next must not take it as a scan.
  useEffect(() => forgetEarlyKeys, []);

  const attempt = async (work: () => Promise<void>, refused: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (e) {
      // The server's refusal of this code or token is said in the screen's words (by its code); anything
      // else (no answer, a busy database) as the client words it.
      const code = e instanceof ApiError ? e.code : '';
      setError(code === 'signin_code_invalid' || code === 'invalid_token' || code === 'not_authenticated' ? refused : (e as Error).message);
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const pasted = text.trim();
    if (pasted === '') return setError(texts.pasteFirst);
    const code = codeFromPastedLink(pasted);
    if (code !== null) return void attempt(() => props.onCode(code), texts.invalidLink);
    if (!pasted.startsWith(TOKEN_PREFIX) || /\s/.test(pasted)) return setError(texts.notAToken);
    void attempt(() => props.onToken(pasted), texts.tokenRefused);
  };

  return (
    <main className="signin">
      <h1>{texts.title}</h1>
      <p className="lead">{texts.lead}</p>
      {error ? (
        <p className="signin-error" role="alert">
          {error}
        </p>
      ) : null}
      {props.offers.length > 0 ? (
        <section aria-label={texts.accounts}>
          <h2>{texts.accounts}</h2>
          <div className="offer-list">
            {props.offers.map((offer) => (
              <button
                key={offer.account}
                type="button"
                disabled={busy}
                onClick={() => void attempt(() => props.onCode(offer.code), texts.invalidLink)}
              >
                {offer.account}
                <small>{offer.warehouses_enabled ? texts.withWarehouses : texts.withoutWarehouses}</small>
              </button>
            ))}
          </div>
        </section>
      ) : null}
      <form onSubmit={submit} className="signin-form">
        <label htmlFor="signin-input">{texts.inputLabel}</label>
        <input
          id="signin-input"
          type="text"
          autoComplete="off"
          spellCheck={false}
          autoFocus
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={texts.placeholder(window.location.origin)}
        />
        <button type="submit" disabled={busy}>
          {texts.button}
        </button>
      </form>
      <p className="hint">
        {texts.hintLink} <code>{texts.linkCommand}</code>, {texts.hintToken} <code>{texts.tokenCommand}</code>. {texts.hintRemember}
      </p>
      <LanguageSelect />
    </main>
  );
}
