// The sync view (`#sync`, opened from the indicator): the link's status in words, and the conflicts —
// quantities of one item and warehouse recorded without knowing of each other (a group: how many,
// since when) — each with the latest and what it overrode, the computers and times that recorded
// them, and a way to decide: keep one of the two, or
// type the quantity counted. Deciding records a new set through the ordinary update endpoint, which
// resolves the conflict here at once and everywhere after the next sync (docs/SYNC.md, "Conflicts").
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { type BarcodeLabel, type Conflict, MAY, type SyncNowAnswer, type SyncStatus } from '../../../shared/index.ts';
import { ApiError } from '../api/request-json.ts';
import { useMay, useSession } from '../api/session-context.tsx';
import { formatDateTime, formatInstant, formatSince } from '../common/format.ts';
import { appTexts, friendlyErrors, historyTexts, roleTexts, syncTexts as texts } from '../common/texts.ts';
import { TopBar } from '../common/TopBar.tsx';
import { useSyncStatus } from './sync-status.tsx';

export function SyncScreen({ onSignOut }: { onSignOut: (message?: string) => void }) {
  const { client } = useSession();
  // Conflicts are a manager's to decide: a counter sees the link's status only.
  const decides = useMay()(MAY.conflicts);
  const { status, refresh, syncNow } = useSyncStatus();
  const [conflicts, setConflicts] = useState<Conflict[] | null>(null);
  const [labels, setLabels] = useState<Record<string, BarcodeLabel>>({});
  const [problem, setProblem] = useState<string | null>(null);

  const failed = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.unauthorized) onSignOut(appTexts.signedOut(error.message));
      else setProblem((error as Error).message);
    },
    [onSignOut],
  );

  const load = useCallback(async () => {
    if (!decides) return;
    try {
      const list = await client.conflicts('all');
      setConflicts(list);
      setProblem(null);
      const barcodes = [...new Set(list.map((c) => c.barcode))].filter((b) => !b.includes(','));
      if (barcodes.length > 0) setLabels(await client.labels(barcodes.slice(0, 100)));
    } catch (error) {
      failed(error);
    }
  }, [client, failed, decides]);

  // Read again when the status says the conflicts changed (a sync brought one, or resolved one).
  const openCount = status?.conflicts;
  useEffect(() => {
    void load();
  }, [load, openCount]);

  const resolved = () => {
    refresh();
    void load();
  };

  const open = conflicts?.filter((c) => !c.resolved) ?? [];
  const closed = conflicts?.filter((c) => c.resolved) ?? [];
  return (
    <div className="app sync-view">
      <TopBar view="sync" onSignOut={() => onSignOut()} />
      <main className="content">
        <h2 className="view-title">{texts.title}</h2>
        {problem ? (
          <p className="notice notice-error" role="alert" data-testid="sync-problem">
            {problem}
          </p>
        ) : null}
        {status ? <LinkStatus status={status} syncNow={syncNow} onFailure={failed} /> : <p className="muted">{texts.loading}</p>}

        {decides ? null : (
          <p className="muted" data-testid="manager-decides">
            {roleTexts.managerDecides}
          </p>
        )}
        {decides ? (
          <section aria-labelledby="conflicts-title" data-testid="conflicts" data-open={conflicts === null ? undefined : open.length}>
            <h2 id="conflicts-title">{texts.conflictsTitle(open.length)}</h2>
            {conflicts === null ? (
              <p className="muted">{texts.loading}</p>
            ) : open.length === 0 ? (
              <p className="muted">{texts.noConflicts}</p>
            ) : null}
            {/* One keyed list, the resolved after the open: a card keeps its state (and its message) as it moves down. */}
            {[
              ...open.map((c) => (
                <ConflictCard key={c.id} conflict={c} label={labels[c.barcode]} status={status} onResolved={resolved} onFailure={failed} />
              )),
              closed.length > 0 ? (
                <h2 key="resolved-title" className="conflicts-resolved-title">
                  {texts.resolvedTitle}
                </h2>
              ) : null,
              ...closed.map((c) => (
                <ConflictCard key={c.id} conflict={c} label={labels[c.barcode]} status={status} onResolved={resolved} onFailure={failed} />
              )),
            ]}
          </section>
        ) : null}
      </main>
    </div>
  );
}

function LinkStatus(props: { status: SyncStatus; syncNow: () => Promise<SyncNowAnswer>; onFailure: (error: unknown) => void }) {
  const { status } = props;
  const [syncing, setSyncing] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  if (!status.linked) return <p className="notice">{texts.notLinked}</p>;
  const when =
    status.state === 'offline' && status.offline_since
      ? formatSince(status.offline_since)
      : status.last_success_at
        ? formatSince(status.last_success_at)
        : null;
  const tone =
    status.conflicts > 0 || status.state === 'offline' || status.state === 'error' ? 'warn' : status.state === 'in_sync' ? 'ok' : 'busy';
  const failing = status.problem !== null && (status.state === 'offline' || status.state === 'error');
  const press = () => {
    setSyncing(true);
    setDone(null);
    props.syncNow().then(
      (answer) => {
        setSyncing(false);
        if (answer.result) setDone(texts.nowDone(answer.result.pushed, answer.result.pulled));
      },
      (error: unknown) => {
        setSyncing(false);
        props.onFailure(error);
      },
    );
  };
  return (
    <>
      <div className="sync-status-row">
        <p className={`notice notice-${tone}`} data-testid="sync-summary" data-state={status.state} data-problem={status.problem?.code}>
          {texts.summary(status, when)}
        </p>
        {/* Beside the state it changes: a round at once instead of at the next background one. */}
        <button type="button" className="primary" onClick={press} disabled={syncing} aria-busy={syncing} data-testid="sync-now">
          {syncing ? texts.syncing : texts.syncNow}
        </button>
      </div>
      {done && !failing ? (
        <p className="ok-text" role="status" data-testid="sync-now-done">
          {done}
        </p>
      ) : null}
      {status.clock_warning ? (
        <p className="notice notice-warn" data-testid="clock-warning">
          {status.clock_skew_ms !== null ? texts.clockWarning(status.clock_skew_ms) : status.clock_warning}
        </p>
      ) : null}
      <dl className="facts">
        <div>
          <dt>{texts.upstream}</dt>
          <dd>{status.upstream}</dd>
        </div>
        <div>
          <dt>{texts.lastSync}</dt>
          <dd>{status.last_success_at ? formatDateTime(status.last_success_at) : texts.never}</dd>
        </div>
        <div>
          <dt>{texts.waiting}</dt>
          <dd>{status.pending === 0 ? texts.nothingWaiting : texts.waitingCount(status.pending)}</dd>
        </div>
        {failing && status.problem ? (
          <div>
            <dt>{texts.lastError}</dt>
            <dd data-testid="sync-problem-words">
              {texts.problemWords(status.problem.code, status.upstream ?? '')}
              {/* The server's English words, for whoever sets sync up: one click away, never in place of the above. */}
              <details className="sync-problem-detail" data-testid="sync-problem-detail">
                <summary>{texts.details}</summary>
                <code>{status.problem.detail}</code>
              </details>
            </dd>
          </div>
        ) : null}
      </dl>
    </>
  );
}

/** Which computer made a movement, in words: this one, the label its owner chose at `sync link`, the upstream, or another one by its id. */
function computerOf({ origin, origin_label }: Conflict['later'], status: SyncStatus | null): string {
  if (status?.instance === origin) return texts.thisComputer;
  if (origin_label) return origin_label;
  if (status?.upstream_instance === origin && status.upstream) return texts.upstreamComputer(status.upstream);
  return texts.otherComputer(origin);
}

function ConflictCard(props: {
  conflict: Conflict;
  label: BarcodeLabel | undefined;
  status: SyncStatus | null;
  onResolved: () => void;
  onFailure: (error: unknown) => void;
}) {
  const { conflict: c, label, status } = props;
  const { client, account } = useSession();
  const [typed, setTyped] = useState('');
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const name = label ? appTexts.itemName(label.item_name, label.variant_name) : c.barcode;
  const titleId = `conflict-${c.id}-title`;

  useEffect(() => {
    // The buttons the person used are gone once it is resolved: the focus goes to what happened.
    if (message) messageRef.current?.focus();
  }, [message]);

  const record = (quantity: string) => {
    setSaving(true);
    setMessage(null);
    client
      .updateStock(
        [{ barcode: c.barcode, quantity, ...(account.warehouses_enabled && c.warehouse_name ? { warehouse_name: c.warehouse_name } : {}) }],
        account.warehouses_enabled,
      )
      .then(
        ([outcome]) => {
          setSaving(false);
          if (outcome?.ok) {
            setMessage({ ok: true, text: texts.saved(outcome.quantity) });
            props.onResolved();
          } else setMessage({ ok: false, text: outcome ? friendlyErrors(outcome.errors, { quantity }) : texts.invalid });
        },
        (error: unknown) => {
          setSaving(false);
          setMessage({ ok: false, text: (error as Error).message });
          props.onFailure(error);
        },
      );
  };

  const submitTyped = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d+$/.test(typed.trim())) {
      setMessage({ ok: false, text: texts.invalid });
      return;
    }
    record(typed.trim());
  };

  const sides = [
    { side: c.later, kept: true },
    { side: c.earlier, kept: false },
  ];
  const choices = [...new Set(sides.filter((s) => s.side.kind !== 'adjust').map((s) => s.side.value))];
  return (
    <article
      className="card conflict"
      aria-labelledby={titleId}
      data-testid="conflict"
      data-id={c.id}
      data-barcode={c.barcode}
      data-resolved={c.resolved}
    >
      <h3 id={titleId}>
        {name} <span className="conflict-barcode">{c.barcode}</span>
      </h3>
      <p className="conflict-now">
        <strong data-testid="conflict-quantity">{texts.nowQuantity(c.quantity, c.warehouse_name)}</strong>
        {c.resolved ? <span className="badge badge-committed">{texts.resolved}</span> : null}
      </p>
      {c.resolved ? null : <p className="muted">{c.racing ? texts.conflictExplain : texts.conflictAgainstSale}</p>}
      {c.movements > 1 ? (
        <p className="muted" data-testid="conflict-group" data-movements={c.movements}>
          {texts.madeUnseen(c.movements, formatInstant(c.first.occurred_at))}
        </p>
      ) : null}
      <div className="table-scroll">
        <table className="table stack conflict-sides">
          <thead>
            <tr>
              <th scope="col">{texts.columns.quantity}</th>
              <th scope="col">{texts.columns.where}</th>
              <th scope="col">{texts.columns.when}</th>
              <th scope="col">{texts.columns.how}</th>
            </tr>
          </thead>
          <tbody>
            {sides.map(({ side, kept }) => (
              <tr key={side.movement} data-testid="conflict-side" data-kept={kept} data-value={side.value} data-origin={side.origin}>
                <td className="cell-item">
                  <strong>{texts.value(side.kind, side.value)}</strong>{' '}
                  {kept ? <span className="badge badge-open">{texts.countsNow}</span> : null}
                </td>
                <td data-label={texts.columns.where}>{computerOf(side, status)}</td>
                <td data-label={texts.columns.when}>{formatInstant(side.occurred_at)}</td>
                <td data-label={texts.columns.how}>
                  {texts.kind(side.kind)}
                  {` · ${historyTexts.source(side.source)}`}
                  {side.reference ? ` (${side.reference})` : ''}
                  {side.actor ? ` · ${historyTexts.by(side.actor)}` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {c.resolved ? null : (
        <form className="conflict-decide" onSubmit={submitTyped} aria-label={texts.decideFor(name)}>
          <span className="conflict-decide-title">{texts.decide}</span>
          <div className="button-row">
            {choices.map((value) => (
              <button
                key={value}
                type="button"
                className="primary"
                disabled={saving}
                onClick={() => record(String(value))}
                data-testid="keep-value"
                data-value={value}
              >
                {texts.keepValue(value)}
              </button>
            ))}
          </div>
          <label className="field">
            {texts.typed}
            <input
              inputMode="numeric"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              aria-label={texts.countedLabel(c.barcode)}
              data-testid="conflict-counted"
              size={6}
            />
          </label>
          <button type="submit" disabled={saving} data-testid="conflict-save">
            {saving ? texts.saving : texts.save}
          </button>
        </form>
      )}
      {message ? (
        <p
          ref={messageRef}
          tabIndex={-1}
          className={message.ok ? 'ok-text' : 'error-text'}
          role={message.ok ? 'status' : 'alert'}
          data-testid="conflict-message"
        >
          {message.text}
        </p>
      ) : null}
    </article>
  );
}
