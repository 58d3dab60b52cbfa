// What the desktop shell's preload (main/preload.ts) exposes to the page, and nothing more: one-time
// sign-in codes for the accounts of the local database, so the desktop app signs in by itself.
export interface SignInOffer {
  account: string;
  warehouses_enabled: boolean;
  code: string;
}

export interface DesktopBridge {
  signInOffers(): Promise<SignInOffer[]>;
}

declare global {
  interface Window {
    barcodeInventoryDesktop?: DesktopBridge;
  }
}

export function desktopBridge(): DesktopBridge | undefined {
  return typeof window !== 'undefined' ? window.barcodeInventoryDesktop : undefined;
}
