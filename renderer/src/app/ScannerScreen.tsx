// The scanner screen: top bar (account, warehouse, sounds, settings, sign out), the mode switch and
// the status banner around the three modes. F2/F3/F4 switch modes, Esc lets go of a field.
import { Activity, useCallback, useEffect, useMemo, useState } from 'react';
import { MAX_ROWS_PER_UPDATE, type Warehouse } from '../../../shared/index.ts';
import { ApiError } from '../api/request-json.ts';
import { useSession } from '../api/session-context.tsx';
import { WarehouseSelect } from '../common/WarehouseSelect.tsx';
import { ListMode } from '../list/ListMode.tsx';
import { playError, playSuccess, warmUpAudio } from '../scan/feedback-sounds.ts';
import { LookupMode } from '../scan/LookupMode.tsx';
import { useScanCapture } from '../scan/scan-capture.ts';
import { createScanRouter } from '../scan/scan-router.ts';
import type { Banner, ModeProps, StatusBanner, Tone } from '../scan/scanner-mode.ts';
import { SetStockMode } from '../set/SetStockMode.tsx';
import { SettingsPanel } from '../settings/SettingsPanel.tsx';
import { type UiSettings, loadSettings, saveSettings } from '../settings/ui-settings.ts';
import { loadWarehouse, saveWarehouse } from './account-storage.ts';

type Mode = 'lookup' | 'set' | 'list';
const MODES: { mode: Mode; label: string; key: string; hint: string }[] = [
  { mode: 'lookup', label: 'Look up', key: 'F2', hint: 'Scan to see stock. Several scans or a pasted list of up to 50 barcodes work too.' },
  { mode: 'set', label: 'Set stock', key: 'F3', hint: 'Scan, type the new quantity, press Enter.' },
  { mode: 'list', label: 'List', key: 'F4', hint: `Each scan counts one. Correct the numbers, then send up to ${MAX_ROWS_PER_UPDATE} rows at once.` },
];

export function ScannerScreen({ onSignOut }: { onSignOut: (message?: string) => void }) {
  const { client, account } = useSession();
  const withWarehouses = account.warehouses_enabled;
  const [mode, setMode] = useState<Mode>('lookup');
  const [settings, setSettings] = useState<UiSettings>(loadSettings);
  const [showSettings, setShowSettings] = useState(false);
  const [warehouses, setWarehouses] = useState<Warehouse[]>([]);
  const [warehouse, setWarehouse] = useState<string | null>(null);
  const [banner, setBanner] = useState<Banner>({ tone: 'idle', text: 'Ready: scan a barcode' });
  const [sending, setSending] = useState(false);
  const [scans] = useState(createScanRouter);
  const soundOn = settings.sound;

  const feedback = useCallback(
    (tone: Tone, text: string) => {
      setBanner({ tone, text });
      if (!soundOn) return;
      if (tone === 'ok') playSuccess();
      if (tone === 'error') playError();
    },
    [soundOn],
  );

  const failed = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.unauthorized) return onSignOut(`Signed out: ${error.message}`);
      feedback('error', (error as Error).message);
    },
    [feedback, onSignOut],
  );

  const status = useMemo<StatusBanner>(() => ({ show: setBanner, feedback, failed }), [feedback, failed]);

  useEffect(() => {
    if (!withWarehouses) return;
    client.warehouses().then((list) => {
      setWarehouses(list);
      const remembered = loadWarehouse(account.account);
      setWarehouse(list.find((w) => w.name === remembered)?.name ?? list[0]?.name ?? null);
    }, failed);
  }, [client, account.account, withWarehouses, failed]);

  const chooseWarehouse = (name: string) => {
    setWarehouse(name);
    saveWarehouse(account.account, name);
  };

  // Scans come from anywhere on the page and go to the mode that is shown (it claims them).
  useScanCapture(settings.scan, scans.deliver, warmUpAudio);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const chosen = MODES.find((m) => m.key === event.key);
      if (chosen) {
        event.preventDefault();
        setMode(chosen.mode);
      } else if (event.key === 'Escape' && document.activeElement instanceof HTMLElement) {
        document.activeElement.blur();
        setShowSettings(false);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const saveNewSettings = (next: UiSettings) => {
    saveSettings(next);
    setSettings(next);
    setShowSettings(false);
  };

  const modeProps: ModeProps = { warehouse: withWarehouses ? warehouse : null, status, scans };
  const sendingProps = { sending, setSending };
  // Activity keeps a hidden mode's state (cards, target, counted rows) for when the person comes back,
  // and takes its scan claim and effects away while it is hidden.
  const shown = (m: Mode) => (m === mode ? 'visible' : 'hidden');

  return (
    <div className="scanner" data-ready={!withWarehouses || warehouse !== null}>
      <header className="topbar">
        <h1>Barcode inventory</h1>
        <span className="account" data-testid="account">
          {account.account}
        </span>
        {withWarehouses ? (
          <WarehouseSelect className="warehouse" warehouses={warehouses} value={warehouse ?? ''} onChange={chooseWarehouse} testId="warehouse-select" />
        ) : null}
        <span className="spacer" />
        <a href="#stocktake" data-testid="stocktake-nav">Stocktake</a>
        <button type="button" onClick={() => saveNewSettings({ ...settings, sound: !settings.sound })} aria-pressed={settings.sound}>
          {settings.sound ? 'Sound on' : 'Sound off'}
        </button>
        <button type="button" onClick={() => setShowSettings((s) => !s)} aria-expanded={showSettings}>
          Settings
        </button>
        <button type="button" onClick={() => onSignOut()} data-testid="sign-out">
          Sign out
        </button>
      </header>

      <nav className="modes" aria-label="Mode">
        {MODES.map((m) => (
          <button key={m.mode} type="button" className={m.mode === mode ? 'active' : undefined} aria-current={m.mode === mode} onClick={() => setMode(m.mode)}>
            {m.label} <kbd>{m.key}</kbd>
          </button>
        ))}
      </nav>

      {showSettings ? <SettingsPanel settings={settings} onSave={saveNewSettings} onCancel={() => setShowSettings(false)} /> : null}

      <div className={`banner banner-${banner.tone}`} role="status" aria-live="polite" data-testid="banner" data-tone={banner.tone}>
        {banner.text}
      </div>
      <p className="mode-hint">{MODES.find((m) => m.mode === mode)!.hint}</p>

      <Activity mode={shown('lookup')}>
        <LookupMode {...modeProps} />
      </Activity>
      <Activity mode={shown('set')}>
        <SetStockMode {...modeProps} {...sendingProps} />
      </Activity>
      <Activity mode={shown('list')}>
        <ListMode {...modeProps} {...sendingProps} />
      </Activity>
    </div>
  );
}
