// A shared scanner with nobody signed in (docs/UI.md, "Shared scanners"): scan your badge, or pick your
// name and type your PIN. A badge is taken wherever the page is (the scan capture hands it to App); any
// other scan here is a barcode, and nothing is looked up or counted until a person has signed in.
import { type FormEvent, useEffect, useState } from 'react';
import type { SignInPerson } from '../../../shared/index.ts';
import { ApiError } from '../api/request-json.ts';
import { peopleTexts as texts, appTexts } from '../common/texts.ts';
import { useScanCapture } from '../scan/scan-capture.ts';
import { loadSettings } from '../settings/ui-settings.ts';
import type { DeviceClient } from './people-client.ts';
import { PinField } from './PinField.tsx';

export function PersonSignInScreen(props: {
  account: string;
  client: DeviceClient;
  /** What happened last: a sign-in that failed, a person signed out (idle, revoked). */
  message: { text: string; tone: 'error' | 'info' } | null;
  busy: boolean;
  onPin: (person: number, pin: string) => Promise<void>;
  onSignOutDevice: () => void;
  onDeviceRefused: (error: unknown) => void;
}) {
  const { client, onDeviceRefused } = props;
  const [people, setPeople] = useState<SignInPerson[] | null>(null);
  const [person, setPerson] = useState('');
  const [pin, setPin] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const [settings] = useState(loadSettings);

  useEffect(() => {
    client.people().then(setPeople, (error: unknown) => {
      if (error instanceof ApiError && (error.unauthorized || error.status === 403)) onDeviceRefused(error);
      else setLocal((error as Error).message);
    });
  }, [client, onDeviceRefused]);

  // Badges go to App through the capture's badge receiver; a barcode here is told to scan a badge first.
  useScanCapture(settings.scan, { onScan: () => setLocal(texts.notABadge) });

  const withPin = (people ?? []).filter((p) => p.pin);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = Number(person);
    if (!id || pin === '') return setLocal(texts.pinMissing);
    setLocal(null);
    void props.onPin(id, pin).then(
      () => setPin(''),
      () => setPin(''),
    );
  };

  const message = local ?? props.message?.text ?? null;
  const tone = local ? 'error' : (props.message?.tone ?? 'info');
  return (
    <main className="person-signin" data-testid="person-signin">
      <header className="person-signin-head">
        <h1>{appTexts.title}</h1>
        <span className="account" data-role="device">
          {props.account} · {texts.sharedScanner}
        </span>
      </header>
      <section className="badge-prompt" aria-labelledby="badge-prompt-title">
        <svg className="badge-icon" viewBox="0 0 64 40" aria-hidden="true">
          <rect x="1" y="1" width="62" height="38" rx="5" fill="none" stroke="currentColor" strokeWidth="2" />
          {[8, 11, 13, 17, 19, 24, 27, 29, 33, 36, 40, 42, 45, 49, 51, 55].map((x, i) => (
            <rect key={x} x={x} y="20" width={i % 3 === 0 ? 2 : 1} height="13" fill="currentColor" />
          ))}
          <circle cx="14" cy="11" r="4" fill="currentColor" />
          <rect x="22" y="8" width="30" height="3" rx="1.5" fill="currentColor" />
        </svg>
        <h2 id="badge-prompt-title">{props.busy ? texts.signingIn : texts.scanBadge}</h2>
        <p>{texts.scanBadgeHint}</p>
      </section>
      <div className={`banner banner-${message ? tone : 'idle'}`} role="status" aria-live="polite" data-testid="person-signin-message">
        {message ?? ''}
      </div>
      {people !== null && people.length === 0 ? <p className="hint">{texts.nobody}</p> : null}
      {withPin.length > 0 ? (
        <form className="pin-form" onSubmit={submit} aria-labelledby="pin-heading">
          <h2 id="pin-heading">{texts.pinHeading}</h2>
          <label htmlFor="pin-person">{texts.pinName}</label>
          <select id="pin-person" value={person} onChange={(e) => setPerson(e.target.value)} data-testid="pin-person">
            <option value="">{texts.pinChoose}</option>
            {withPin.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
          <label htmlFor="pin-input">{texts.pin}</label>
          <PinField id="pin-input" value={pin} onChange={setPin} autoComplete="off" testId="pin-input" />
          <button type="submit" disabled={props.busy}>
            {texts.pinSignIn}
          </button>
        </form>
      ) : null}
      <footer className="person-signin-foot">
        <button
          type="button"
          className="quiet"
          onClick={() => {
            if (window.confirm(texts.signDeviceOutConfirm)) props.onSignOutDevice();
          }}
          title={texts.signDeviceOutHint}
        >
          {texts.signDeviceOut}
        </button>
      </footer>
    </main>
  );
}
