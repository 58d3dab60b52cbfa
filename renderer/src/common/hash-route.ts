// A view of its own lives at a hash (`#sync`, `#low-stock`, `#per-day`): a reload or a second tab
// opens it again, and the browser's Back returns to the scanner.
import { useEffect, useState } from 'react';

const matchesHash = (name: string, hash: string) => hash === `#${name}` || hash === `#${name}/`;

/** Whether the page's hash is `#<name>` (a trailing slash allowed), kept up to date as it changes. */
export function useHashRoute(name: string): boolean {
  const [shown, setShown] = useState(() => matchesHash(name, window.location.hash));
  useEffect(() => {
    const onChange = () => setShown(matchesHash(name, window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, [name]);
  return shown;
}
