// What this device remembers about the signed-in account: its token until sign-out, and the
// warehouse last chosen per account.
import { readStored, writeStored } from '../common/device-storage.ts';

export const loadToken = (): string | null => readStored('token');
export const saveToken = (token: string | null): void => writeStored('token', token);

export const loadWarehouse = (account: string): string | null => readStored(`warehouse.${account}`);
export const saveWarehouse = (account: string, name: string): void => writeStored(`warehouse.${account}`, name);
