// The scanner screen: top bar (account, warehouse, sounds, settings, sign out), the mode switch and
// the visible mode's status banner around the three modes. F2/F3/F4 switch modes, Esc lets go of a
// field. The one scan capture reads each scan (plain or GS1) and hands it to the visible mode.
import { Activity, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Warehouse } from '../../../shared/index.ts';
import { ApiError } from '../api/request-json.ts';
import { CameraButton, CameraPanel, useCamera } from '../camera/CameraButton.tsx';
import { useSession } from '../api/session-context.tsx';
import { useLocale } from '../common/locale-context.tsx';
import { appTexts, modeTexts, scanTexts } from '../common/texts.ts';
import { TopBar } from '../common/TopBar.tsx';
import { WarehouseSelect } from '../common/WarehouseSelect.tsx';
import { ListMode } from '../list/ListMode.tsx';
import { playError, playSuccess, warmUpAudio } from '../scan/feedback-sounds.ts';
import { LookupMode } from '../scan/LookupMode.tsx';
import { type Refusal, useScanCapture } from '../scan/scan-capture.ts';
import { createScanRouter } from '../scan/scan-router.ts';
import { readScan, visibleText } from '../scan/scanned-code.ts';
import type { Banner, ModeProps, StatusBanner, Tone } from '../scan/scanner-mode.ts';
import { SetStockMode } from '../set/SetStockMode.tsx';
import { SettingsPanel } from '../settings/SettingsPanel.tsx';
import { type UiSettings, loadSettings, saveSettings, separatorsOf } from '../settings/ui-settings.ts';
import { loadMode, loadWarehouse, saveMode, saveWarehouse } from './account-storage.ts';

type Mode = 'lookup' | 'set' | 'list';
const MODES: { mode: Mode; key: string }[] = [
  { mode: 'lookup', key: 'F2' },
  { mode: 'set', key: 'F3' },
  { mode: 'list', key: 'F4' },
];

const readyBanners = (): Record<Mode, Banner> => ({
  lookup: { tone: 'idle', text: modeTexts.lookup.ready },
  set: { tone: 'idle', text: modeTexts.set.ready },
  list: { tone: 'idle', text: modeTexts.list.ready },
});

export function ScannerScreen({ onSignOut }: { onSignOut: (message?: string) => void }) {
  const { client, account } = useSession();
  const withWarehouses = account.warehouses_enabled;
  const [mode, setModeState] = useState<Mode>(() => MODES.find((m) => m.mode === loadMode(account.account))?.mode ?? 'lookup');
  const setMode = useCallback(
    (next: Mode) => {
      setModeState(next);
      saveMode(account.account, next);
    },
    [account.account],
  );
  const modeRef = useRef(mode);
  modeRef.current = mode;
  const [settings, setSettings] = useState<UiSettings>(loadSettings);
  const [showSettings, setShowSettings] = useState(false);
  // While the scanner test listens, the capture lets every key through to it.
  const [testing, setTesting] = useState(false);
  const [warehouses, setWarehouses] = useState<Warehouse[]>([]);
  const [warehouse, setWarehouse] = useState<string | null>(null);
  const [banners, setBanners] = useState<Record<Mode, Banner>>(readyBanners);
  // A banner holds words of the language it was written in: after a change of language each mode starts
  // again from its prompt, in the new one.
  const { locale } = useLocale();
  const shownLocale = useRef(locale);
  useEffect(() => {
    if (shownLocale.current === locale) return;
    shownLocale.current = locale;
    setBanners(readyBanners());
  }, [locale]);
  const [scans] = useState(createScanRouter);
  const camera = useCamera();
  const soundRef = useRef(settings.sound);
  soundRef.current = settings.sound;

  /** A revoked token signs out at once; true when it did. */
  const signOutOn = useCallback(
    (error: unknown): boolean => {
      if (!(error instanceof ApiError && error.unauthorized)) return false;
      onSignOut(appTexts.signedOut(error.message));
      return true;
    },
    [onSignOut],
  );

  // One status line per mode; only the shown mode sounds.
  const statusOf = useCallback(
    (of: Mode): StatusBanner => {
      const show = (banner: Banner) => setBanners((prev) => ({ ...prev, [of]: banner }));
      const feedback = (tone: Tone, text: string) => {
        show({ tone, text });
        if (!soundRef.current || modeRef.current !== of) return;
        if (tone === 'ok') playSuccess();
        if (tone === 'error' || tone === 'warn') playError();
      };
      const failed = (error: unknown) => {
        if (!signOutOn(error)) feedback('error', (error as Error).message);
      };
      return { show, feedback, failed };
    },
    [signOutOn],
  );
  const statuses = useMemo(() => ({ lookup: statusOf('lookup'), set: statusOf('set'), list: statusOf('list') }), [statusOf]);

  useEffect(() => {
    if (!withWarehouses) return;
    client.warehouses().then(
      (list) => {
        setWarehouses(list);
        const remembered = loadWarehouse(account.account);
        setWarehouse(list.find((w) => w.name === remembered)?.name ?? list[0]?.name ?? null);
      },
      (error: unknown) => statuses[modeRef.current].failed(error),
    );
  }, [client, account.account, withWarehouses, statuses]);

  const chooseWarehouse = (name: string) => {
    setWarehouse(name);
    saveWarehouse(account.account, name);
  };

  // Scans come from anywhere on the page and go to the mode that is shown (it claims them).
  const separators = useMemo(() => separatorsOf(settings), [settings]);
  useScanCapture(
    settings.scan,
    {
      onScan: (text) => {
        const reading = readScan(text, separators);
        if (reading.ok) return scans.deliver(reading.scan);
        const status = statuses[modeRef.current];
        if (reading.problem.kind === 'gs1')
          status.feedback('error', scanTexts.gs1(reading.problem.error, reading.problem.ai, visibleText(reading.text)));
        else status.feedback('error', scanTexts.controlCharacter(visibleText(reading.text)));
      },
      onRefused: (refusal: Refusal) => {
        const status = statuses[modeRef.current];
        if (refusal.kind === 'control-character') status.feedback('error', scanTexts.controlCharacter(visibleText(refusal.code)));
        else if (refusal.kind === 'cut-short') status.feedback('error', scanTexts.cutShort(visibleText(refusal.code)));
        else if (refusal.kind === 'badge') status.feedback('warn', scanTexts.badgeNotShared);
        else if (refusal.kind === 'fragment') status.feedback('error', scanTexts.fragment(visibleText(refusal.code), refusal.gapMs));
        else status.feedback('warn', scanTexts.slow(refusal.length, refusal.gapMs, refusal.maxGapMs));
      },
      onKey: warmUpAudio,
    },
    !testing,
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const chosen = MODES.find((m) => m.key === event.key);
      if (chosen) {
        event.preventDefault();
        setMode(chosen.mode);
      } else if (event.key === 'Escape' && document.activeElement instanceof HTMLElement) {
        document.activeElement.blur();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setMode]);

  const saveNewSettings = (next: UiSettings) => {
    saveSettings(next);
    setSettings(next);
  };

  const modeProps = (m: Mode): ModeProps => ({ warehouse: withWarehouses ? warehouse : null, status: statuses[m], scans });
  // Activity keeps a hidden mode's state (cards, target, counted rows) for when the person comes back,
  // and takes its scan claim and effects away while it is hidden.
  const shown = (m: Mode) => (m === mode ? 'visible' : 'hidden');
  const banner = banners[mode];

  return (
    <div className="app scanner" data-ready={!withWarehouses || warehouse !== null}>
      <TopBar
        view="scanner"
        onSignOut={() => onSignOut()}
        primary={<CameraButton open={camera.open} onToggle={camera.toggle} />}
        actions={
          <>
            <button type="button" onClick={() => saveNewSettings({ ...settings, sound: !settings.sound })} aria-pressed={settings.sound}>
              {settings.sound ? appTexts.soundOn : appTexts.soundOff}
            </button>
            <button type="button" onClick={() => setShowSettings((s) => !s)} aria-expanded={showSettings} data-testid="settings-button">
              {appTexts.settings}
            </button>
          </>
        }
      >
        {withWarehouses ? (
          <WarehouseSelect
            className="warehouse"
            warehouses={warehouses}
            value={warehouse ?? ''}
            onChange={chooseWarehouse}
            testId="warehouse-select"
          />
        ) : null}
      </TopBar>

      <main className="content">
        {showSettings ? (
          <SettingsPanel
            settings={settings}
            gtinEquivalence={account.gtin_equivalence}
            account={account.account}
            onSave={(next) => {
              saveNewSettings(next);
              setShowSettings(false);
            }}
            onApply={saveNewSettings}
            onCancel={() => setShowSettings(false)}
            onTesting={setTesting}
          />
        ) : null}

        <nav className="modes" aria-label={modeTexts.nav}>
          {MODES.map((m) => (
            <button
              key={m.mode}
              type="button"
              className={m.mode === mode ? 'active' : undefined}
              aria-current={m.mode === mode}
              onClick={() => setMode(m.mode)}
            >
              {modeTexts[m.mode].label} <kbd>{m.key}</kbd>
            </button>
          ))}
        </nav>

        <div className={`banner banner-${banner.tone}`} role="status" aria-live="polite" data-testid="banner" data-tone={banner.tone}>
          {banner.text}
        </div>
        {/* Under the banner: on a phone the item a read found shows above the viewfinder, not below the fold. */}
        <CameraPanel open={camera.open} onClose={camera.close} />
        <p className="mode-hint">{modeTexts[mode].hint}</p>

        <Activity mode={shown('lookup')}>
          <LookupMode {...modeProps('lookup')} />
        </Activity>
        <Activity mode={shown('set')}>
          <SetStockMode {...modeProps('set')} />
        </Activity>
        <Activity mode={shown('list')}>
          <ListMode {...modeProps('list')} />
        </Activity>
      </main>
    </div>
  );
}
