// The low-stock view lives at `#low-stock`, like the sync view at `#sync`: a reload or a second tab
// opens it again, and the browser's Back returns to the scanner.
import { useEffect, useState } from 'react';

export const LOW_STOCK_HREF = '#low-stock';

const isLowStockHash = (hash: string) => /^#low-stock\/?$/.test(hash);

export function useLowStockRoute(): boolean {
  const [shown, setShown] = useState(() => isLowStockHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setShown(isLowStockHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return shown;
}
