// The sync view lives at `#sync`, like the stocktake views under `#stocktake`: a reload or a second tab
// opens it again, and the browser's Back returns to the scanner.
import { useEffect, useState } from 'react';

export const SYNC_HREF = '#sync';

const isSyncHash = (hash: string) => /^#sync\/?$/.test(hash);

export function useSyncRoute(): boolean {
  const [shown, setShown] = useState(() => isSyncHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setShown(isSyncHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return shown;
}
