// Every documented endpoint. A route module that adds endpoints describes them in its own list and
// adds that list here (one line); test/openapi-document.test.ts fails for any route left undescribed.
import type { EndpointDoc } from './endpoint-doc.ts';
import { inventoryEndpoints } from './inventory-endpoints.ts';
import { posEndpoints } from './pos-endpoints.ts';
import { stocktakeEndpoints } from './stocktake-endpoints.ts';
import { uiEndpoints } from './ui-endpoints.ts';

export const allEndpoints: EndpointDoc[] = [
  ...inventoryEndpoints,
  ...stocktakeEndpoints,
  ...uiEndpoints,
  ...posEndpoints, // issue 6: POS integration
];
