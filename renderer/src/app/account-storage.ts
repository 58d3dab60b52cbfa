// What this device remembers about the signed-in account: its token until sign-out, and the
// warehouse and scanner mode last chosen per account.
import { readStored, writeStored } from '../common/device-storage.ts';

export const loadToken = (): string | null => readStored('token');
export const saveToken = (token: string | null): void => writeStored('token', token);

/** On a shared scanner: the token of the person signed in on it, until they sign out or go idle. */
export const loadPersonToken = (): string | null => readStored('person-token');
export const savePersonToken = (token: string | null): void => writeStored('person-token', token);

/** The scanner mode last shown, so a reload comes back to the same work. */
export const loadMode = (account: string): string | null => readStored(`mode.${account}`);
export const saveMode = (account: string, mode: string): void => writeStored(`mode.${account}`, mode);

export const loadWarehouse = (account: string): string | null => readStored(`warehouse.${account}`);
export const saveWarehouse = (account: string, name: string): void => writeStored(`warehouse.${account}`, name);
