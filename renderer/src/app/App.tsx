// Who is signed in decides what is shown: the sign-in screen, or the scanner and stocktake views with
// the session's one API client. Signs in by link code, remembered token or the desktop's offer. A
// link opened while signed in as another account is asked about first (SwitchAccountPrompt), and
// signing out revokes the device's token on the server.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { MAY, type PersonSignInAnswer, SIGNIN_ROLES, roleMay } from '../../../shared/index.ts';
import { createApiClient, redeemSignInCode } from '../api/api-client.ts';
import { ApiError } from '../api/request-json.ts';
import { type Session, SessionProvider } from '../api/session-context.tsx';
import { type SignInOffer, desktopBridge } from './desktop-bridge.ts';
import { ScannerScreen } from './ScannerScreen.tsx';
import { SignInScreen } from './SignInScreen.tsx';
import { type SwitchPrompt, SwitchAccountPrompt } from './SwitchAccountPrompt.tsx';
import { StocktakeRouter } from '../stocktake/StocktakeScreen.tsx';
import { LowStockRouter, PeopleRouter, PerDayRouter, SyncRouter } from './lazy-views.tsx';
import { SyncStatusProvider } from '../sync/sync-status.tsx';
import { takeSignInCode } from './signin-link.ts';
import { loadPersonToken, loadToken, savePersonToken, saveToken } from './account-storage.ts';
import type { Locale } from '../common/i18n.ts';
import { appTexts, peopleTexts, roleTexts, signInTexts } from '../common/texts.ts';
import { BadgeScanContext } from '../scan/scan-capture.ts';
import { PersonSignInScreen } from '../people/PersonSignInScreen.tsx';
import { deviceClient } from '../people/people-client.ts';

type SharedMessage = { text: string; tone: 'error' | 'info' } | null;

type State =
  | { kind: 'starting' }
  | { kind: 'signed-out'; message?: string; offers?: SignInOffer[] }
  | { kind: 'signed-in'; session: Session }
  /** A shared scanner (a token of role device): a person signed in on it by badge or PIN, or nobody yet. */
  | { kind: 'shared'; device: Session; person: Session | null; message: SharedMessage; busy: boolean };

/** The signed-in views: stocktakes on #stocktake…, sync on #sync, people on #people (admins), low stock on #low-stock, movements per day on #per-day, the scanner elsewhere. */
function SignedInViews({ onSignOut }: { onSignOut: (message?: string) => void }) {
  return (
    <SyncStatusProvider>
      <StocktakeRouter
        onSignOut={onSignOut}
        otherwise={
          <SyncRouter
            onSignOut={onSignOut}
            otherwise={
              <PeopleRouter
                onSignOut={onSignOut}
                otherwise={
                  <LowStockRouter
                    onSignOut={onSignOut}
                    otherwise={<PerDayRouter onSignOut={onSignOut} otherwise={<ScannerScreen onSignOut={onSignOut} />} />}
                  />
                }
              />
            }
          />
        }
      />
    </SyncStatusProvider>
  );
}

/** `locale`: the UI's language; a new one renders everything below again, in it. */
export function App(_: { locale: Locale }) {
  const [state, setState] = useState<State>({ kind: 'starting' });
  const [prompt, setPrompt] = useState<(SwitchPrompt & { token?: string }) | null>(null);
  // The signed-in session, for the callbacks below (state updates arrive later than they run).
  const session = useRef<Session | null>(null);
  // On a shared scanner: the person signed in on it now, if anyone.
  const person = useRef<Session | null>(null);
  // Said for a few seconds after a badge or PIN signed a person in: who the scanner works for now.
  const [greeting, setGreeting] = useState<string | null>(null);
  useEffect(() => {
    if (greeting === null) return;
    const timer = window.setTimeout(() => setGreeting(null), 4000);
    return () => window.clearTimeout(timer);
  }, [greeting]);

  // A sign-in link's code (`#signin=…`) is exchanged once and removed from the address bar; the token
  // is kept on this device until sign-out.
  const signInWithToken = useCallback(async (token: string) => {
    const client = createApiClient(token);
    const account = await client.account();
    if (account.role === 'device') {
      // A shared scanner: people sign in on it; the person of a reload is still signed in until idle.
      saveToken(token);
      session.current = { client, account };
      person.current = null;
      const personToken = loadPersonToken();
      if (personToken) {
        const personClient = createApiClient(personToken);
        const personAccount = await personClient.account().catch(() => null);
        if (personAccount?.person && personAccount.account === account.account)
          person.current = { client: personClient, account: personAccount };
        else savePersonToken(null);
      }
      setState({ kind: 'shared', device: session.current, person: person.current, message: null, busy: false });
      return;
    }
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
    // Signing a shared scanner out signs its person out too.
    if (person.current) void person.current.client.signOut().catch(() => undefined);
    person.current = null;
    savePersonToken(null);
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

  // --- A shared scanner: a person signs in by badge or PIN, is switched by the next badge, signs out. ---
  /**
   * The person leaves (asked, idle, or refused by the server): back to "Scan your badge". Their token is
   * revoked on the server unless the server already refused it.
   */
  const signOutPerson = useCallback((message?: string, from?: Session, revoke = message === undefined) => {
    if (from !== undefined && person.current !== from) return;
    const leaving = person.current;
    person.current = null;
    savePersonToken(null);
    if (leaving && revoke) void leaving.client.signOut().catch(() => undefined);
    setState((s) =>
      s.kind === 'shared' ? { ...s, person: null, busy: false, message: message ? { text: message, tone: 'info' } : null } : s,
    );
  }, []);

  /** A person signed in: the one before (if any) is signed out on the server once the new one works. */
  const becomePerson = useCallback(async (answer: PersonSignInAnswer) => {
    const client = createApiClient(answer.token);
    const account = await client.account();
    const leaving = person.current;
    person.current = { client, account };
    savePersonToken(answer.token);
    setGreeting(peopleTexts.switchedTo(answer.person.name));
    setState((s) => (s.kind === 'shared' ? { ...s, person: person.current, busy: false, message: null } : s));
    if (leaving) void leaving.client.signOut().catch(() => undefined);
  }, []);

  /** A sign-in that failed: the device's own token refused signs the device out; anything else is said where the person looks. */
  const personSignInFailed = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && (error.unauthorized || error.status === 403)) {
        void signOut(`Please sign in again: ${error.message}`);
        return;
      }
      const text = (error as Error).message;
      if (person.current) setPrompt({ kind: 'notice', text });
      setState((s) => (s.kind === 'shared' ? { ...s, busy: false, message: person.current ? s.message : { text, tone: 'error' } } : s));
    },
    [signOut],
  );

  const signInWith = useCallback(
    async (attempt: (device: ReturnType<typeof deviceClient>) => Promise<PersonSignInAnswer>) => {
      const device = session.current;
      if (!device || device.account.role !== 'device') return;
      setState((s) => (s.kind === 'shared' ? { ...s, busy: true } : s));
      try {
        await becomePerson(await attempt(deviceClient(device.client.token)));
      } catch (error) {
        personSignInFailed(error);
      }
    },
    [becomePerson, personSignInFailed],
  );
  const onBadge = useCallback((badge: string) => void signInWith((device) => device.signInWithBadge(badge)), [signInWith]);
  const onPin = useCallback((id: number, pin: string) => signInWith((device) => device.signInWithPin(id, pin)), [signInWith]);

  const deviceToken = state.kind === 'shared' ? state.device.client.token : null;
  const deviceCalls = useMemo(() => (deviceToken === null ? null : deviceClient(deviceToken)), [deviceToken]);

  // An idle shared scanner signs its person out after the minutes the admin set (the server expires the token too).
  const signedInPerson = state.kind === 'shared' ? state.person : null;
  useEffect(() => {
    if (!signedInPerson) return;
    const minutes = signedInPerson.account.person_idle_minutes;
    let last = Date.now();
    const touch = () => {
      last = Date.now();
    };
    window.addEventListener('keydown', touch, true);
    window.addEventListener('pointerdown', touch, true);
    const timer = window.setInterval(() => {
      if (Date.now() - last >= minutes * 60_000) signOutPerson(peopleTexts.idleSignedOut(minutes), signedInPerson, true);
    }, 5000);
    return () => {
      window.removeEventListener('keydown', touch, true);
      window.removeEventListener('pointerdown', touch, true);
      window.clearInterval(timer);
    };
  }, [signedInPerson, signOutPerson]);

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
      // One sync status per session.
      return (
        <SessionProvider session={state.session}>
          <SignedInViews onSignOut={(m) => void signOut(m, state.session)} />
          {prompt ? (
            <SwitchAccountPrompt prompt={prompt} onSwitch={() => void answerPrompt(true)} onStay={() => void answerPrompt(false)} />
          ) : null}
        </SessionProvider>
      );
    case 'shared': {
      // A badge scanned anywhere signs its person in (or switches to them); it is never a barcode.
      const signedIn = state.person;
      return (
        <BadgeScanContext.Provider value={onBadge}>
          {signedIn === null ? (
            <PersonSignInScreen
              account={state.device.account.account}
              client={deviceCalls!}
              message={state.message}
              busy={state.busy}
              onPin={onPin}
              onSignOutDevice={() => void signOut()}
              onDeviceRefused={personSignInFailed}
            />
          ) : (
            <SessionProvider session={signedIn}>
              <SignedInViews
                key={signedIn.client.token}
                onSignOut={(m) => signOutPerson(m === undefined ? undefined : peopleTexts.personSignedOut(m), signedIn)}
              />
            </SessionProvider>
          )}
          <div className="person-toast" role="status" aria-live="polite" data-testid="person-toast" hidden={greeting === null}>
            {greeting}
          </div>
          {prompt ? (
            <SwitchAccountPrompt prompt={prompt} onSwitch={() => void answerPrompt(true)} onStay={() => void answerPrompt(false)} />
          ) : null}
        </BadgeScanContext.Provider>
      );
    }
  }
}
