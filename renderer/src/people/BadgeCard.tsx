// A person's badge as a card to print (85 × 54 mm on paper): name, account and role above a Code 128 of
// the badge that any scanner reads. The badge is never shown as text: the bars are all a scanner needs.
// Printing prints the card alone (styles.css, @media print).
import { code128Bars } from '../../../shared/index.ts';
import { peopleTexts as texts, roleTexts } from '../common/texts.ts';
import type { PersonRole } from '../../../shared/index.ts';

export function BadgeCard(props: { badge: string; name: string; role: PersonRole; account: string; onDone: () => void }) {
  const { modules: total, bars } = code128Bars(props.badge);
  return (
    <section className="badge-sheet" aria-labelledby="badge-card-title" data-testid="badge-sheet">
      <h2 id="badge-card-title">{texts.badgeHeading(props.name)}</h2>
      <figure className="badge-card" data-testid="badge-card">
        <div>
          <div className="badge-name">{props.name}</div>
          <div className="badge-meta">
            {props.account} · {roleTexts.name(props.role)}
          </div>
        </div>
        <svg
          viewBox={`0 0 ${total} 60`}
          role="img"
          aria-label={texts.badgeImage(props.name)}
          preserveAspectRatio="none"
          shapeRendering="crispEdges"
        >
          <rect x="0" y="0" width={total} height="60" fill="#fff" />
          {bars.map((b) => (
            <rect key={b.x} x={b.x} y="0" width={b.w} height="60" fill="#000" />
          ))}
        </svg>
      </figure>
      <p className="hint">{texts.badgeOnce}</p>
      <div className="row-actions">
        <button type="button" className="primary" onClick={() => window.print()} data-testid="print-badge">
          {texts.print}
        </button>
        <button type="button" onClick={props.onDone}>
          {texts.done}
        </button>
      </div>
    </section>
  );
}
