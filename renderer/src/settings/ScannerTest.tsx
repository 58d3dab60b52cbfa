// Settings → Test your scanner: the person scans a known barcode (on screen or printed) and the app
// says in plain words what it learnt: the scanner's keyboard layout, prefix, suffix and speed, with
// one button to use those settings. While it listens, no other part of the page reacts to keys.
import { useEffect, useRef, useState } from 'react';
import { scannerTestTexts as texts } from '../common/texts.ts';
import type { KeyLike } from '../scan/scan-detector.ts';
import type { ScanSettings } from '../scan/scan-detector.ts';
import { code128Bars } from '../../../shared/code128.ts';
import { type ScannerFinding, TEST_BARCODE, analyseTestScan } from './scanner-test.ts';

/** A scan is over when no key came for this long (a scanner without a suffix sends nothing more). */
const QUIET_MS = 700;

export function TestBarcode({ text }: { text: string }) {
  const { modules: total, bars } = code128Bars(text);
  return (
    <figure className="test-barcode" data-testid="test-barcode">
      <svg viewBox={`0 0 ${total} 60`} role="img" aria-label={texts.barcodeLabel(text)} preserveAspectRatio="none">
        <rect x="0" y="0" width={total} height="60" fill="#fff" />
        {bars.map((b) => (
          <rect key={b.x} x={b.x} y="0" width={b.w} height="60" fill="#000" />
        ))}
      </svg>
      <figcaption>
        <code>{text}</code>
      </figcaption>
    </figure>
  );
}

export function ScannerTest(props: { scan: ScanSettings; onTesting: (testing: boolean) => void; onApply: (scan: ScanSettings) => void }) {
  const { onTesting } = props;
  const [listening, setListening] = useState(false);
  const [finding, setFinding] = useState<ScannerFinding | null | 'nothing'>(null);
  const [applied, setApplied] = useState(false);
  const keys = useRef<KeyLike[]>([]);

  useEffect(() => {
    if (!listening) return;
    onTesting(true);
    keys.current = [];
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      clearTimeout(quiet);
      setListening(false);
      setFinding(analyseTestScan(keys.current) ?? 'nothing');
    };
    const onKeyDown = (event: KeyboardEvent) => {
      // The test owns the keyboard while it listens: nothing is typed, pressed or switched.
      event.preventDefault();
      event.stopImmediatePropagation();
      if (event.key === 'Escape' && keys.current.length === 0) return setListening(false);
      keys.current.push({
        key: event.key,
        code: event.code,
        timeStamp: event.timeStamp,
        shiftKey: event.shiftKey,
        ctrlKey: event.ctrlKey,
        altKey: event.altKey,
        metaKey: event.metaKey,
        altGraph: event.getModifierState('AltGraph'),
      });
      clearTimeout(quiet);
      quiet = setTimeout(finish, QUIET_MS);
    };
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => {
      clearTimeout(quiet);
      window.removeEventListener('keydown', onKeyDown, { capture: true });
      onTesting(false);
    };
  }, [listening, onTesting]);

  const apply = (f: ScannerFinding) => {
    props.onApply({
      ...props.scan,
      reading: f.reading ?? props.scan.reading,
      prefix: f.prefix,
      maxGapMs: f.maxGapMs,
      fastGapMs: f.fastGapMs,
    });
    setApplied(true);
  };

  return (
    <section className="scanner-test" aria-labelledby="scanner-test-title" data-testid="scanner-test">
      <h3 id="scanner-test-title">{texts.title}</h3>
      <p>{texts.intro}</p>
      <TestBarcode text={TEST_BARCODE} />
      <div className="button-row">
        <button
          type="button"
          className="primary"
          disabled={listening}
          onClick={() => {
            setFinding(null);
            setApplied(false);
            setListening(true);
          }}
          data-testid="start-scanner-test"
        >
          {finding === null ? texts.start : texts.again}
        </button>
        <button type="button" onClick={() => window.print()}>
          {texts.print}
        </button>
      </div>
      {listening ? (
        <p className="notice notice-busy" role="status" data-testid="scanner-test-waiting">
          {texts.waiting}{' '}
          <button type="button" onClick={() => setListening(false)}>
            {texts.stop}
          </button>
        </p>
      ) : null}
      {finding === 'nothing' ? <p className="notice notice-error">{texts.nothing}</p> : null}
      {finding !== null && finding !== 'nothing' ? (
        <div
          className={`notice ${finding.reading ? 'notice-ok' : 'notice-error'}`}
          role="status"
          data-testid="scanner-test-result"
          data-reading={finding.reading ?? ''}
          data-prefix={finding.prefix}
        >
          {finding.reading === null ? (
            <p>{texts.notFound(finding.received)}</p>
          ) : (
            <ul>
              <li>{finding.sameLayout ? texts.same : finding.reading === 'positions' ? texts.positions : texts.characters}</li>
              <li>{finding.prefix ? texts.prefix(finding.prefix) : texts.noPrefix}</li>
              <li>{finding.suffix ? texts.suffix(finding.suffix) : texts.noSuffix}</li>
              <li>{texts.timing(finding.fastestMs, finding.slowestMs, finding.maxGapMs)}</li>
            </ul>
          )}
          {finding.reading !== null ? (
            applied ? (
              <p data-testid="scanner-test-applied">{texts.applied}</p>
            ) : (
              <button type="button" className="primary" onClick={() => apply(finding)} data-testid="apply-scanner-test">
                {texts.apply}
              </button>
            )
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
