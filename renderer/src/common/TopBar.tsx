// The one top bar of every signed-in view: the app, the account (its title says the role signed in;
// the settings show it too), the view switch (scanner or stocktake), the view's own controls, and Sign
// out. One bar, so every view looks like the same app; at 1280 px it keeps one row of controls.
import { type ReactNode, useState } from 'react';
import { useSession } from '../api/session-context.tsx';
import { SyncIndicator } from '../sync/SyncIndicator.tsx';
import { useSyncStatus } from '../sync/sync-status.tsx';
import { appTexts, roleTexts } from './texts.ts';

export type AppView = 'scanner' | 'stocktake' | 'sync';

/** `primary`: controls kept on the bar on a phone too (the camera, the scanner there); `actions` open from the menu on a phone. */
export function TopBar(props: { view: AppView; onSignOut: () => void; children?: ReactNode; primary?: ReactNode; actions?: ReactNode }) {
  const { account } = useSession();
  const sync = useSyncStatus().status;
  // On a phone the view's controls and Sign out wait behind one button, so the bar leaves the screen to the work.
  const [menuOpen, setMenuOpen] = useState(false);
  const link = (view: AppView, href: string, label: string, testId: string) => (
    <a href={href} aria-current={props.view === view ? 'page' : undefined} data-testid={testId}>
      {label}
    </a>
  );
  return (
    <header className="topbar" data-sync={sync?.state ?? 'unknown'} data-menu={menuOpen ? 'open' : 'closed'}>
      <div className="topbar-id">
        <h1>{appTexts.title}</h1>
        <span className="account" data-testid="account" data-role={account.role} title={roleTexts.signedInAs(roleTexts.name(account.role))}>
          {account.account}
        </span>
      </div>
      <SyncIndicator current={props.view === 'sync'} />
      <nav className="views" aria-label={appTexts.views}>
        {link('scanner', '#', appTexts.scannerNav, 'scanner-nav')}
        {link('stocktake', '#stocktake', appTexts.stocktakeNav, 'stocktake-nav')}
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
