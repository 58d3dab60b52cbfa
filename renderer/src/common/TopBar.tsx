// The one top bar of every signed-in view: the app, the account (its title says the role signed in;
// the settings show it too), the view switch (scanner, stocktake; low stock while it or the movements per day are open), the view's own controls, and Sign
// out. One bar, so every view looks like the same app; at 1280 px it keeps one row of controls.
import { type ReactNode, useState } from 'react';
import { MAY } from '../../../shared/index.ts';
import { useMay, useSession } from '../api/session-context.tsx';
import { LOW_STOCK_HREF, PER_DAY_HREF } from '../low-stock/low-stock-route.ts';
import { SyncIndicator } from '../sync/SyncIndicator.tsx';
import { useSyncStatus } from '../sync/sync-status.tsx';
import { appTexts, peopleTexts, roleTexts } from './texts.ts';

export type AppView = 'scanner' | 'stocktake' | 'sync' | 'people' | 'low-stock' | 'per-day';

/** `primary`: controls kept on the bar on a phone too (the camera, the scanner there); `actions` open from the menu on a phone. */
export function TopBar(props: { view: AppView; onSignOut: () => void; children?: ReactNode; primary?: ReactNode; actions?: ReactNode }) {
  const { account } = useSession();
  const managesPeople = useMay()(MAY.people);
  const role = roleTexts.name(account.role);
  const sync = useSyncStatus().status;
  // On a phone the view's controls and Sign out wait behind one button, so the bar leaves the screen to the work.
  const [menuOpen, setMenuOpen] = useState(false);
  const link = (view: AppView, href: string, label: string, testId: string) => (
    <a href={href} aria-current={props.view === view ? 'page' : undefined} data-testid={testId}>
      {label}
    </a>
  );
  return (
    <header
      className="topbar"
      data-sync={sync?.state ?? 'unknown'}
      data-menu={menuOpen ? 'open' : 'closed'}
      data-controls={props.children || props.primary ? 'some' : 'none'}
    >
      <div className="topbar-id">
        <h1>{appTexts.title}</h1>
        {account.person ? (
          // On a shared scanner the person is who matters at a glance; the account is in the title.
          <span
            className="person-chip"
            data-testid="person-chip"
            data-role={account.role}
            title={peopleTexts.personTitle(account.person.name, role, account.account)}
          >
            {peopleTexts.personChip(account.person.name)}
          </span>
        ) : (
          <span className="account" data-testid="account" data-role={account.role} title={roleTexts.signedInAs(role)}>
            {account.account}
          </span>
        )}
      </div>
      <SyncIndicator current={props.view === 'sync'} />
      <nav className="views" aria-label={appTexts.views}>
        {link('scanner', '#', appTexts.scannerNav, 'scanner-nav')}
        {link('stocktake', '#stocktake', appTexts.stocktakeNav, 'stocktake-nav')}
        {managesPeople ? link('people', '#people', peopleTexts.nav, 'people-nav') : null}
        {/* Opened from Look up (the scanner's bar has no room for a fourth link at 1280 px); shown here while open. */}
        {props.view === 'low-stock' || props.view === 'per-day'
          ? link('low-stock', LOW_STOCK_HREF, appTexts.lowStockNav, 'low-stock-nav')
          : null}
        {props.view === 'per-day' ? link('per-day', PER_DAY_HREF, appTexts.perDayNav, 'per-day-nav') : null}
      </nav>
      {props.children}
      {props.primary}
      <button
        type="button"
        className="topbar-menu-button"
        aria-expanded={menuOpen}
        aria-controls="topbar-actions"
        onClick={() => setMenuOpen((open) => !open)}
        data-testid="topbar-menu"
      >
        <span aria-hidden="true">☰</span>
        <span className="visually-hidden">{appTexts.menu}</span>
      </button>
      <div className="topbar-actions" id="topbar-actions">
        {props.actions}
        <button type="button" onClick={props.onSignOut} data-testid="sign-out">
          {appTexts.signOut}
        </button>
      </div>
    </header>
  );
}
