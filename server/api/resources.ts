// The endpoint table: every resource of the API. The router, the 405 and CORS method lists, the
// input checks and the OpenAPI document all come from this list (docs/ARCHITECTURE.md).
import { apiDescription } from './description.ts';
import type { Resource } from './endpoint.ts';
import { dataExchange, history } from './history.ts';
import { inventory } from './inventory.ts';
import { labels } from './labels.ts';
import { people } from './people.ts';
import { pos } from './pos.ts';
import { reorder } from './reorder.ts';
import { stocktakes } from './stocktakes.ts';
import { sync } from './sync.ts';
import { ui } from './ui.ts';

export const resources: readonly Resource[] = [
  inventory,
  pos,
  stocktakes,
  history,
  dataExchange,
  reorder,
  ui,
  labels,
  people,
  sync,
  apiDescription(() => resources),
];
