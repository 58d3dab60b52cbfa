// The stocktake views live under the address fragment, so a reload or a second tab opens the same
// view: `#stocktake` (sessions), `#stocktake/12` (count), `#stocktake/12/review`.
import { useEffect, useState } from 'react';

export type StocktakeRoute = { view: 'list' } | { view: 'count'; id: number } | { view: 'review'; id: number };

export function parseStocktakeRoute(hash: string): StocktakeRoute | null {
  const match = /^#stocktake(?:\/(\d+)(\/review)?)?\/?$/.exec(hash);
  if (!match) return null;
  if (!match[1]) return { view: 'list' };
  return { view: match[2] ? 'review' : 'count', id: Number(match[1]) };
}

export function stocktakeHref(route: StocktakeRoute): string {
  if (route.view === 'list') return '#stocktake';
  return `#stocktake/${route.id}${route.view === 'review' ? '/review' : ''}`;
}

export function useStocktakeRoute(): StocktakeRoute | null {
  const [route, setRoute] = useState(() => parseStocktakeRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseStocktakeRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export const go = (route: StocktakeRoute | null): void => {
  window.location.hash = route ? stocktakeHref(route) : '';
};
