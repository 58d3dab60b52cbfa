// The People view (`#people`, admins only; docs/UI.md, "Shared scanners"): add a person with a role, a
// badge to print and/or a PIN; change a role; revoke a lost badge in one click, print a new one; revoke
// a person; and how soon an idle shared scanner signs its person out.
import { type FormEvent, useCallback, useEffect, useMemo, useState } from 'react';
import { PERSON_ROLES, type Person, type PersonRole } from '../../../shared/index.ts';
import { ApiError } from '../api/request-json.ts';
import { useSession } from '../api/session-context.tsx';
import { formatDate } from '../common/format.ts';
import { appTexts, peopleTexts as texts, roleTexts } from '../common/texts.ts';
import { TopBar } from '../common/TopBar.tsx';
import { BadgeCard } from './BadgeCard.tsx';
import { peopleClient } from './people-client.ts';
import { PinField } from './PinField.tsx';

type Notice = { tone: 'ok' | 'error'; text: string } | null;

export function PeopleScreen({ onSignOut }: { onSignOut: (message?: string) => void }) {
  const { client, account } = useSession();
  const people = useMemo(() => peopleClient(client.token), [client]);
  const [list, setList] = useState<Person[] | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [printing, setPrinting] = useState<{ badge: string; name: string; role: PersonRole } | null>(null);
  const [name, setName] = useState('');
  const [role, setRole] = useState<PersonRole>('counter');
  const [pin, setPin] = useState('');
  const [withBadge, setWithBadge] = useState(true);
  const [idle, setIdle] = useState(String(account.person_idle_minutes));

  const failed = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.unauthorized) onSignOut(appTexts.signedOut(error.message));
      else setNotice({ tone: 'error', text: (error as Error).message });
    },
    [onSignOut],
  );
  const load = useCallback(() => people.list().then(setList, failed), [people, failed]);
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (work: () => Promise<string>) => {
    try {
      setNotice({ tone: 'ok', text: await work() });
      await load();
    } catch (error) {
      failed(error);
    }
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const made = await people.add({ name: name.trim(), role, badge: withBadge, ...(pin ? { pin } : {}) });
      if (made.badge) setPrinting({ badge: made.badge, name: made.person.name, role: made.person.role });
      setName('');
      setPin('');
      return texts.added(made.person.name);
    });
  };

  const saveIdle = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const answer = await people.setIdleMinutes(Number(idle));
      return texts.idleSaved(answer.person_idle_minutes);
    });
  };

  return (
    <div className="app people">
      <TopBar view="people" onSignOut={() => onSignOut()} />
      <main className="content people-content">
        <h2>{texts.heading}</h2>
        <p className="hint">{texts.intro}</p>
        <div className={`banner banner-${notice?.tone ?? 'idle'}`} role="status" aria-live="polite" data-testid="people-notice">
          {notice?.text ?? ''}
        </div>
        {printing ? <BadgeCard {...printing} account={account.account} onDone={() => setPrinting(null)} /> : null}

        <form className="people-add" onSubmit={add} aria-labelledby="people-add-title">
          <h3 id="people-add-title">{texts.addHeading}</h3>
          <label>
            {texts.name}
            <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={80} data-testid="person-name" />
          </label>
          <label>
            {texts.role}
            <select value={role} onChange={(e) => setRole(e.target.value as PersonRole)} data-testid="person-role">
              {PERSON_ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleTexts.name(r)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {texts.pinOptional}
            <PinField value={pin} onChange={setPin} autoComplete="new-password" testId="person-pin" />
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={withBadge} onChange={(e) => setWithBadge(e.target.checked)} />
            {texts.withBadge}
          </label>
          <button type="submit" data-testid="person-add">
            {texts.add}
          </button>
        </form>

        <section aria-labelledby="people-list-title">
          <h3 id="people-list-title">{texts.listHeading}</h3>
          {list !== null && list.length === 0 ? <p className="hint">{texts.none}</p> : null}
          <ul className="people-list" data-testid="people-list">
            {(list ?? []).map((p) => (
              <li key={p.id} className={p.revoked_at ? 'revoked' : undefined} data-testid="person">
                <div className="person-name">
                  <strong>{p.name}</strong>
                  <span className="person-facts">
                    {texts.badge}: {p.badge ? texts.yes : texts.no} · {texts.hasPin}: {p.pin ? texts.yes : texts.no} · {texts.signedIn}:{' '}
                    {p.signed_in}
                    {p.revoked_at ? ` · ${texts.revokedOn(formatDate(p.revoked_at))}` : ''}
                  </span>
                </div>
                {p.revoked_at ? null : (
                  <div className="row-actions" role="group" aria-label={texts.actionsOf(p.name)}>
                    <select
                      aria-label={texts.roleOf(p.name)}
                      value={p.role}
                      onChange={(e) => {
                        const next = e.target.value as PersonRole;
                        void act(async () => (await people.setRole(p.id, next), texts.roleChanged(p.name, roleTexts.name(next))));
                      }}
                    >
                      {PERSON_ROLES.map((r) => (
                        <option key={r} value={r}>
                          {roleTexts.name(r)}
                        </option>
                      ))}
                    </select>
                    {p.badge ? (
                      <button
                        type="button"
                        data-testid="badge-lost"
                        onClick={() => void act(async () => (await people.revokeBadge(p.id), texts.badgeLostDone(p.name)))}
                      >
                        {texts.badgeLost}
                      </button>
                    ) : null}
                    <button
                      type="button"
                      onClick={() =>
                        void act(async () => {
                          const made = await people.newBadge(p.id);
                          setPrinting({ badge: made.badge!, name: made.person.name, role: made.person.role });
                          return texts.badgeHeading(p.name);
                        })
                      }
                    >
                      {texts.newBadge}
                    </button>
                    <button
                      type="button"
                      className="danger"
                      onClick={() => {
                        if (window.confirm(texts.revokeConfirm(p.name)))
                          void act(async () => (await people.revoke(p.id), texts.revoked(p.name)));
                      }}
                    >
                      {texts.revoke}
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        </section>

        <form className="people-idle" onSubmit={saveIdle} aria-labelledby="people-idle-title">
          <h3 id="people-idle-title">{texts.idleHeading}</h3>
          <label>
            {texts.idleLabel}
            <input type="number" min={1} max={720} value={idle} onChange={(e) => setIdle(e.target.value)} data-testid="idle-minutes" />
          </label>
          <button type="submit">{texts.idleSave}</button>
        </form>
      </main>
    </div>
  );
}
