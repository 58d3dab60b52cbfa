// Who is signed in decides what is shown: the sign-in screen, or the scanner and stocktake views with
// the session's one API client. Signs in by link code, remembered token or the desktop's offer.
import { useCallback, useEffect, useState } from 'react';
import { createApiClient, redeemSignInCode } from '../api/api-client.ts';
import { ApiError } from '../api/request-json.ts';
import { type Session, SessionProvider } from '../api/session-context.tsx';
import { type SignInOffer, desktopBridge } from './desktop-bridge.ts';
import { ScannerScreen } from './ScannerScreen.tsx';
import { SignInScreen } from './SignInScreen.tsx';
import { StocktakeRouter } from '../stocktake/StocktakeScreen.tsx';
import { takeSignInCode } from './signin-link.ts';
import { loadToken, saveToken } from './account-storage.ts';
import { appTexts } from '../common/texts.ts';

type State =
  | { kind: 'starting' }
  | { kind: 'signed-out'; message?: string; offers?: SignInOffer[] }
  | { kind: 'signed-in'; session: Session };

export function App() {
  const [state, setState] = useState<State>({ kind: 'starting' });

  // A sign-in link's code (`#signin=…`) is exchanged once and removed from the address bar; the token
  // is kept on this device until sign-out.
  const signInWithToken = useCallback(async (token: string) => {
    const client = createApiClient(token);
    const account = await client.account();
    saveToken(token);
    setState({ kind: 'signed-in', session: { client, account } });
  }, []);

  const signInWithCode = useCallback(
    async (code: string) => {
      const { token } = await redeemSignInCode(code);
      await signInWithToken(token);
    },
    [signInWithToken],
  );

  const signOut = useCallback((message?: string) => {
    saveToken(null);
    setState({ kind: 'signed-out', ...(message ? { message } : {}) });
  }, []);

  useEffect(() => {
    let cancelled = false;
    const start = async () => {
      const code = takeSignInCode();
      if (code !== null) {
        try {
          await signInWithCode(code);
          return;
        } catch (error) {
          if (!cancelled) setState({ kind: 'signed-out', message: (error as Error).message });
          return;
        }
      }
      const token = loadToken();
      if (token) {
        try {
          await signInWithToken(token);
          return;
        } catch (error) {
          const unauthorized = error instanceof ApiError && error.unauthorized;
          if (unauthorized) saveToken(null); // otherwise the token is kept: a reload retries it
          const message = unauthorized ? `Please sign in again: ${(error as Error).message}` : `${(error as Error).message} Reload the page to try again.`;
          if (!cancelled) setState({ kind: 'signed-out', message });
          return;
        }
      }
      // The desktop shell hands over sign-in codes for the local accounts: with one account, use it.
      const offers = (await desktopBridge()?.signInOffers().catch(() => [])) ?? [];
      if (offers.length === 1) {
        try {
          await signInWithCode(offers[0]!.code);
          return;
        } catch (error) {
          if (!cancelled) setState({ kind: 'signed-out', message: (error as Error).message });
          return;
        }
      }
      if (!cancelled) setState({ kind: 'signed-out', offers });
    };
    void start();
    return () => {
      cancelled = true;
    };
  }, [signInWithCode, signInWithToken]);

  // A sign-in link opened in a tab that already shows the UI changes only the fragment: take it too.
  useEffect(() => {
    const onHashChange = () => {
      const code = takeSignInCode();
      if (code === null) return;
      signInWithCode(code).catch((error: unknown) => {
        saveToken(null);
        setState({ kind: 'signed-out', message: (error as Error).message });
      });
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [signInWithCode]);

  switch (state.kind) {
    case 'starting':
      return <main className="starting">{appTexts.starting}</main>;
    case 'signed-out':
      return (
        <SignInScreen
          key={state.message ?? ''}
          message={state.message}
          offers={state.offers ?? []}
          onToken={signInWithToken}
          onCode={signInWithCode}
        />
      );
    case 'signed-in':
      // Stocktake views on #stocktake…, the scanner everywhere else.
      return (
        <SessionProvider session={state.session}>
          <StocktakeRouter onSignOut={signOut} otherwise={<ScannerScreen onSignOut={signOut} />} />
        </SessionProvider>
      );
  }
}
