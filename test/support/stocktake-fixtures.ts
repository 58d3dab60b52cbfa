// Catalogues and HTTP helpers for the stocktake, history and CSV tests.
import { expect } from 'vitest';
import type { TestServer } from './test-server.ts';

/** An account "shop" with two warehouses and `n` plain items (barcodes B0001…), 10 each in Main. */
export function shopCatalogue(n: number): unknown {
  const items = Array.from({ length: n }, (_, i) => ({
    id: 1000 + i,
    name: `Item ${i}`,
    barcode: `B${String(i).padStart(4, '0')}`,
    stock: [{ warehouse: 'Main', quantity: 10 }],
  }));
  return {
    accounts: [
      {
        name: 'shop',
        warehouses_enabled: true,
        warehouses: [
          { id: 70, name: 'Main' },
          { id: 71, name: 'Back' },
        ],
        items: [
          ...items,
          { id: 900, name: 'Shirt', variants: [{ id: 9001, name: 'M', barcode: '0042/M', stock: [{ warehouse: 'Main', quantity: 4 }] }] },
        ],
      },
      { name: 'other', warehouses_enabled: false, items: [{ id: 950, name: 'Pen', barcode: '111', stock: [{ quantity: 7 }] }] },
    ],
  };
}

/** A request that must answer `status`; returns the parsed JSON body. */
export async function call<T = any>(
  server: Pick<TestServer, 'request'>,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  status = 200,
): Promise<T> {
  const res = await server.request(method, path, body === undefined ? { token } : { token, body });
  const text = await res.text();
  expect(res.status, `${method} ${path} → ${text}`).toBe(status);
  return (text ? JSON.parse(text) : undefined) as T;
}
