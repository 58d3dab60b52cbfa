// Signing in on a device: open a one-time sign-in link, or paste a link or an API token.
import { type FormEvent, useEffect, useState } from 'react';
import { forgetEarlyKeys } from '../scan/scan-capture.ts';
import { codeFromPastedLink } from './signin-link.ts';
import type { SignInOffer } from './desktop-bridge.ts';

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

  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const pasted = text.trim();
    if (pasted === '') return setError('Paste a sign-in link or an API token first.');
    const code = codeFromPastedLink(pasted);
    void attempt(() => (code !== null ? props.onCode(code) : props.onToken(pasted)));
  };

  return (
    <main className="signin">
      <h1>Barcode inventory</h1>
      <p className="lead">Sign in to scan.</p>
      {error ? (
        <p className="signin-error" role="alert">
          {error}
        </p>
      ) : null}
      {props.offers.length > 0 ? (
        <section aria-label="Accounts on this computer">
          <h2>Accounts on this computer</h2>
          <div className="offer-list">
            {props.offers.map((offer) => (
              <button key={offer.account} type="button" disabled={busy} onClick={() => void attempt(() => props.onCode(offer.code))}>
                {offer.account}
                <small>{offer.warehouses_enabled ? 'with warehouses' : 'without warehouses'}</small>
              </button>
            ))}
          </div>
        </section>
      ) : null}
      <form onSubmit={submit} className="signin-form">
        <label htmlFor="signin-input">Sign-in link or API token</label>
        <input
          id="signin-input"
          type="text"
          autoComplete="off"
          spellCheck={false}
          autoFocus
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="http://127.0.0.1:8270/#signin=…  or  bi_…"
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p className="hint">
        Get a one-time link on the server computer with <code>barcode-inventory signin-link --account &lt;name&gt;</code>, or create a token
        with <code>barcode-inventory token create --account &lt;name&gt;</code>. This device remembers the sign-in until you sign out.
      </p>
    </main>
  );
}
