// The desktop window's only bridge to the shell: one call that returns one-time sign-in codes for the
// accounts of the local database. No Node, no ipcRenderer, nothing else reaches the page.
import { contextBridge, ipcRenderer } from 'electron';
import { SIGNIN_OFFERS_CHANNEL } from './ipc-channels.ts';

contextBridge.exposeInMainWorld('barcodeInventoryDesktop', {
  signInOffers: (): Promise<unknown> => ipcRenderer.invoke(SIGNIN_OFFERS_CHANNEL),
});
