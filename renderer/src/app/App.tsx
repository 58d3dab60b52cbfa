// Who is signed in decides what is shown: the sign-in screen, or the scanner and stocktake views with
// the session's one API client. Signs in by link code, remembered token or the desktop's offer. A
// link opened while signed in as another account is asked about first (SwitchAccountPrompt), and
// signing out revokes the device's token on the server.
import { useCallback, useEffect, useRef, useState } from 'react';
import { MAY, SIGNIN_ROLES, roleMay } from '../../../shared/index.ts';
import { createApiClient, redeemSignInCode } from '../api/api-client.ts';
import { ApiError } from '../api/request-json.ts';
import { type Session, SessionProvider } from '../api/session-context.tsx';
import { type SignInOffer, desktopBridge } from './desktop-bridge.ts';
import { ScannerScreen } from './ScannerScreen.tsx';
import { SignInScreen } from './SignInScreen.tsx';
import { type SwitchPrompt, SwitchAccountPrompt } from './SwitchAccountPrompt.tsx';
import { StocktakeRouter } from '../stocktake/StocktakeScreen.tsx';
import { SyncRouter } from '../sync/SyncScreen.tsx';
import { SyncStatusProvider } from '../sync/sync-status.tsx';
import { takeSignInCode } from './signin-link.ts';
import { loadToken, saveToken } from './account-storage.ts';
import type { Locale } from '../common/i18n.ts';
import { appTexts, roleTexts, signInTexts } from '../common/texts.ts';

type State =
  { kind: 'starting' } | { kind: 'signed-out'; message?: string; offers?: SignInOffer[] } | { kind: 'signed-in'; session: Session };

/** `locale`: the UI's language; a new one renders everything below again, in it. */
export function App(_: { locale: Locale }) {
  const [state, setState] = useState<State>({ kind: 'starting' });
  const [prompt, setPrompt] = useState<(SwitchPrompt & { token?: string }) | null>(null);
  // The signed-in session, for the callbacks below (state updates arrive later than they run).
  const session = useRef<Session | null>(null);

  // A sign-in link's code (`#signin=…`) is exchanged once and removed from the address bar; the token
  // is kept on this device until sign-out.
  const signInWithToken = useCallback(async (token: string) => {
    const client = createApiClient(token);
    const account = await client.account();
    // A till's, an integration's or a sync link's token has no screen here: it is not kept.
    if (!roleMay(account.role, MAY.scannerUi)) throw new ApiError(403, roleTexts.noScannerUi(account.role, SIGNIN_ROLES));
    saveToken(token);
    session.current = { client, account };
    setState({ kind: 'signed-in', session: session.current });
  }, []);

  const signInWithCode = useCallback(
    async (code: string) => {
      const { token } = await redeemSignInCode(code);
      await signInWithToken(token);
    },
    [signInWithToken],
  );

  // Without a message the person asked to sign out: the token is revoked on the server too. With one,
  // the server already refused the token, so there is nothing left to revoke.
  // A refusal seen by a screen of an earlier session (its requests still in flight when the account was
  // switched) is about a token already left behind: it must not sign the new session out.
  const signOut = useCallback(async (message?: string, from?: Session) => {
    if (from !== undefined && session.current !== from) return;
    const leaving = session.current;
    session.current = null;
    saveToken(null);
    let note = message;
    if (leaving && message === undefined) {
      await leaving.client.signOut().catch((error: unknown) => {
        if (!(error instanceof ApiError && error.unauthorized)) note = signInTexts.signOutNotRevoked;
      });
    }
    setState({ kind: 'signed-out', ...(note ? { message: note } : {}) });
  }, []);

  // A code that arrives while signed in: the same account changes nothing (its new token is revoked
  // at once); another account is asked about before anything changes.
  const takeCode = useCallback(
    async (code: string) => {
      const current = session.current;
      if (!current) return signInWithCode(code);
      let offered;
      try {
        offered = await redeemSignInCode(code);
      } catch (error) {
        setPrompt({ kind: 'notice', text: signInTexts.linkFailedStaying((error as Error).message, current.account.account) });
        return;
      }
      if (offered.account === current.account.account) {
        await createApiClient(offered.token)
          .signOut()
          .catch(() => undefined);
        return;
      }
      setPrompt({ kind: 'ask', current: current.account.account, offered: offered.account, token: offered.token });
    },
    [signInWithCode],
  );

  const answerPrompt = useCallback(
    async (switchAccount: boolean) => {
      const asked = prompt;
      setPrompt(null);
      if (asked?.kind !== 'ask' || asked.token === undefined) return;
      if (!switchAccount) {
        await createApiClient(asked.token)
          .signOut()
          .catch(() => undefined);
        return;
      }
      // The new account first, then the old token is revoked: the screen never runs on a revoked token,
      // and a link that fails now leaves the current account signed in.
      const leaving = session.current;
      try {
        await signInWithToken(asked.token);
      } catch (error) {
        if (leaving) setPrompt({ kind: 'notice', text: signInTexts.linkFailedStaying((error as Error).message, leaving.account.account) });
        else setState({ kind: 'signed-out', message: (error as Error).message });
        return;
      }
      await leaving?.client.signOut().catch(() => undefined);
    },
    [prompt, signInWithToken],
  );

  useEffect(() => {
    let cancelled = false;
    const start = async () => {
      const code = takeSignInCode();
      const token = loadToken();
      if (token) {
        try {
          await signInWithToken(token);
        } catch (error) {
          const unauthorized = error instanceof ApiError && error.unauthorized;
          // A token whose role was changed to one without a screen here is refused for good, like a revoked one.
          const forbidden = error instanceof ApiError && error.status === 403;
          if (unauthorized || forbidden) saveToken(null); // otherwise the token is kept: a reload retries it
          const message = unauthorized
            ? appTexts.signInAgain((error as Error).message)
            : forbidden
              ? (error as Error).message
              : appTexts.reloadToRetry((error as Error).message);
          if (code === null) {
            if (!cancelled) setState({ kind: 'signed-out', message });
            return;
          }
        }
      }
      if (code !== null) {
        try {
          await takeCode(code);
        } catch (error) {
          if (!cancelled) setState({ kind: 'signed-out', message: (error as Error).message });
        }
        return;
      }
      if (session.current) return;
      // The desktop shell hands over sign-in codes for the local accounts: with one account, use it.
      const offers =
        (await desktopBridge()
          ?.signInOffers()
          .catch(() => [])) ?? [];
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
  }, [signInWithCode, signInWithToken, takeCode]);

  // A sign-in link opened in a tab that already shows the UI changes only the fragment: take it too.
  useEffect(() => {
    const onHashChange = () => {
      const code = takeSignInCode();
      if (code === null) return;
      takeCode(code).catch((error: unknown) => {
        saveToken(null);
        setState({ kind: 'signed-out', message: (error as Error).message });
      });
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [takeCode]);

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
      // Stocktake views on #stocktake…, the sync view on #sync, the scanner everywhere else; one sync status per session.
      return (
        <SessionProvider session={state.session}>
          <SyncStatusProvider>
            <StocktakeRouter
              onSignOut={(m) => void signOut(m, state.session)}
              otherwise={
                <SyncRouter
                  onSignOut={(m) => void signOut(m, state.session)}
                  otherwise={<ScannerScreen onSignOut={(m) => void signOut(m, state.session)} />}
                />
              }
            />
          </SyncStatusProvider>
          {prompt ? (
            <SwitchAccountPrompt prompt={prompt} onSwitch={() => void answerPrompt(true)} onStay={() => void answerPrompt(false)} />
          ) : null}
        </SessionProvider>
      );
  }
}
