// The role table of docs/API.md ("Roles"), generated from the endpoint table so that it cannot drift:
// `npm run docs:roles` writes it between its two marker lines, and test/api/roles.test.ts fails while the
// document's table differs from this one (and drives every endpoint with every role against it).
import { ROLES, type Role } from '../../shared/index.ts';
import { type Endpoint, type Resource, isPublic } from './endpoint.ts';
import { operationRoles } from './openapi-document.ts';

export const ROLE_TABLE_START = '<!-- role table: generated from the endpoint table by `npm run docs:roles`; do not edit by hand -->';
export const ROLE_TABLE_END = '<!-- end of the role table -->';

/** The cell of a role that may call the endpoint, and of one that may not. */
export const MAY_CELL = 'yes';
export const MAY_NOT_CELL = '–';

/** How the table names an endpoint: `METHOD path`. */
export const endpointName = (endpoint: Pick<Endpoint, 'method' | 'path'>): string => `${endpoint.method} ${endpoint.path}`;

/** One row per endpoint, in the endpoint table's order; a column per role. */
export function roleTable(resources: readonly Resource[]): string {
  const rows = resources.flatMap((resource) =>
    resource.endpoints.map((endpoint) => {
      const may = new Set<Role>(operationRoles(endpoint));
      const what = isPublic(endpoint) ? `${endpoint.summary} (no token needed)` : endpoint.summary;
      return `| \`${endpointName(endpoint)}\` | ${what} | ${ROLES.map((role) => (may.has(role) ? MAY_CELL : MAY_NOT_CELL)).join(' | ')} |`;
    }),
  );
  return [`| endpoint | what | ${ROLES.join(' | ')} |`, `|---|---|${ROLES.map(() => ':-:').join('|')}|`, ...rows].join('\n');
}

/** `document` with `table` between the markers; throws when the markers are missing. */
export function withRoleTable(document: string, table: string): string {
  const start = document.indexOf(ROLE_TABLE_START);
  const end = document.indexOf(ROLE_TABLE_END);
  if (start < 0 || end < start) throw new Error(`The role table's markers are missing: ${ROLE_TABLE_START} … ${ROLE_TABLE_END}`);
  return `${document.slice(0, start + ROLE_TABLE_START.length)}\n${table}\n${document.slice(end)}`;
}

/** The table between the markers of `document`, as it stands. */
export function documentedRoleTable(document: string): string {
  const start = document.indexOf(ROLE_TABLE_START);
  const end = document.indexOf(ROLE_TABLE_END);
  if (start < 0 || end < start) return '';
  return document.slice(start + ROLE_TABLE_START.length, end).trim();
}
