// Names of the IPC channels between the desktop shell and its preload.
export const SIGNIN_OFFERS_CHANNEL = 'barcode-inventory:signin-offers';
