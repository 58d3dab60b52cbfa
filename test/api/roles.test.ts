// Roles (docs/API.md, "Roles"): every endpoint of the endpoint table, called with a token of every
// role, is allowed or refused with 403 `role_forbidden` exactly as docs/API.md's role table says; that
// table is the one generated from the endpoint table, and the OpenAPI document says the same per
// operation. An endpoint without a decision does not compile; one whose decision the document does not
// show fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../server/api/resources.ts';
import { MAY_CELL, documentedRoleTable, endpointName, roleTable } from '../../server/api/role-table.ts';
import {
  ACCOUNT_PATH,
  OPENAPI_PATH,
  ROLES,
  ROLE_FORBIDDEN_CODE,
  type Role,
  SIGNOUT_PATH,
  STOCKTAKES_PATH,
  requestMessages,
  roleMessages,
  stocktakePath,
} from '../../shared/index.ts';
import { type TestServer, exampleCatalogue, startTestServer } from '../support/test-server.ts';

const API_DOC = path.resolve(import.meta.dirname, '../../docs/API.md');
const endpoints = resources.flatMap((r) => r.endpoints);

/** The documented table read back: for each `METHOD path`, the roles whose cell says they may. */
function documentedRoles(): Map<string, Role[]> {
  const rows = documentedRoleTable(readFileSync(API_DOC, 'utf8'))
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return new Map(
    rows.map((row) => {
      const cells = row
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      return [cells[0]!.replace(/^`|`$/g, ''), ROLES.filter((_, i) => cells[2 + i] === MAY_CELL)];
    }),
  );
}

describe('roles', () => {
  let server: TestServer;
  /** A token of every role of account north; `full` as the upgrade leaves it (no new token gets it). */
  const tokens = {} as Record<Role, string>;
  const tokenOf = async (role: Role): Promise<{ id: number; key: string }> => {
    const made = await server.store.tokens.create('north', `role ${role}`, role === 'full' ? 'api' : role);
    if (role === 'full') await server.probe.run("UPDATE api_tokens SET role = 'full' WHERE id = ?", made.id);
    return made;
  };
  beforeAll(async () => {
    server = await startTestServer(exampleCatalogue());
    for (const role of ROLES) tokens[role] = (await tokenOf(role)).key;
  });
  afterAll(() => server.stop());

  it('docs/API.md shows the role table generated from the endpoint table (npm run docs:roles writes it)', () => {
    expect(documentedRoleTable(readFileSync(API_DOC, 'utf8')), 'docs/API.md differs from the endpoint table: run npm run docs:roles').toBe(
      roleTable(resources),
    );
  });

  it('documents a decision for every endpoint of the endpoint table, and no other', () => {
    const documented = documentedRoles();
    expect([...documented.keys()].sort()).toEqual(endpoints.map(endpointName).sort());
    // `full` (tokens from before roles) may call every endpoint; nothing but a sync token reaches sync's upstream side
    // (the follower's own side, status, conflicts and Sync now, is the scanner UI's).
    for (const [name, roles] of documented) {
      expect(roles, name).toContain('full');
      if (name.includes('/sync/') && !/status|conflicts|now/.test(name)) expect(roles, name).toEqual(['sync', 'full']);
    }
  });

  it('calls every endpoint with a token of every role: allowed where the table says, 403 role_forbidden elsewhere', async () => {
    const documented = documentedRoles();
    const wrong: string[] = [];
    let refused = 0;
    for (const endpoint of endpoints) {
      const name = endpointName(endpoint);
      const allowed = documented.get(name) ?? [];
      // Ids nobody has: an allowed call answers 404 or 400 and changes nothing.
      const target = endpoint.path.replace(/\{\w+\}/g, '999999');
      const write = endpoint.method === 'POST' || endpoint.method === 'PATCH';
      for (const role of ROLES) {
        // Signing out revokes the token it is sent with: a token of its own.
        const token = endpoint.path === SIGNOUT_PATH ? (await tokenOf(role)).key : tokens[role];
        const res = await server.request(endpoint.method, target, { token, ...(write ? { body: {} } : {}) });
        const body = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
        if (allowed.includes(role)) {
          if (res.status === 401 || res.status === 403) wrong.push(`${role} ${name}: ${res.status} ${JSON.stringify(body)}, allowed`);
        } else {
          refused++;
          const expected = {
            detail: roleMessages.forbidden(role, endpoint.method, endpoint.path, allowed),
            code: ROLE_FORBIDDEN_CODE,
            roles: allowed,
          };
          if (res.status !== 403 || JSON.stringify(body) !== JSON.stringify(expected))
            wrong.push(`${role} ${name}: ${res.status} ${JSON.stringify(body)}, expected 403 ${JSON.stringify(expected)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(endpoints.length); // most roles are refused somewhere
  });

  it('refuses a role before reading anything of the request: no id, Idempotency-Key or body is looked at', async () => {
    const commit = (token: string, key: string) =>
      server.request('POST', `${STOCKTAKES_PATH}not-an-id/commit/`, { token, body: '{not json', headers: { 'idempotency-key': key } });
    // A role that may commit is told the id does not exist; one that may not is told only that.
    expect((await commit(tokens.manager, 'manager-1')).status).toBe(404);
    const refused = await commit(tokens.counter, 'counter-1');
    expect([refused.status, (await refused.json()).code]).toEqual([403, ROLE_FORBIDDEN_CODE]);
    expect(await server.probe.all("SELECT key FROM idempotency_keys WHERE key IN ('manager-1', 'counter-1')")).toEqual([]);
  });

  it('answers each role of the scanner UI and beyond who it is, with its role', async () => {
    for (const role of ROLES) {
      const res = await server.request('GET', ACCOUNT_PATH, { token: tokens[role] });
      expect(await res.json()).toMatchObject({ account: 'north', role });
    }
  });

  it('states the roles of every operation in the OpenAPI document: description, x-roles and the 403', async () => {
    const document = (await (await fetch(server.url + OPENAPI_PATH)).json()) as {
      paths: Record<string, Record<string, { description?: string; 'x-roles': string[]; responses: Record<string, unknown> }>>;
    };
    const documented = documentedRoles();
    for (const endpoint of endpoints) {
      const operation = document.paths[endpoint.path]![endpoint.method.toLowerCase()]!;
      const roles = documented.get(endpointName(endpoint))!;
      expect(operation['x-roles'], endpointName(endpoint)).toEqual(roles);
      if (endpoint.roles === 'public') {
        expect(operation.description).toMatch(/No token needed\.$/);
        expect(operation.responses['403']).toBeUndefined();
      } else {
        expect(operation.description).toMatch(new RegExp(`Roles: ${roles.join(', ')}\\.$`));
        expect(operation.responses['403']).toMatchObject({
          content: { 'application/json': { schema: { $ref: expect.stringContaining('RoleRefusal') } } },
        });
      }
    }
  });

  it('applies a changed role at the next request, and refuses a token whose stored role is no role', async () => {
    const { id, key } = await tokenOf('till');
    const review = () => server.request('GET', stocktakePath(999_999, 'review'), { token: key });
    expect((await review()).status).toBe(403);
    expect(await server.store.tokens.setRole(id, 'manager')).toBe(true);
    expect((await review()).status).toBe(404);
    expect(await server.store.tokens.setRole(id, 'till')).toBe(true);
    expect((await review()).status).toBe(403);
    // A role this version does not know (written by a newer one, say) lets nothing in. Written from
    // outside the server, as another process would: PostgreSQL's change notice arrives on its own time.
    await server.probe.run("UPDATE api_tokens SET role = 'owner' WHERE id = ?", id);
    await expect
      .poll(async () => {
        const res = await server.request('GET', ACCOUNT_PATH, { token: key });
        return [res.status, (await res.json()).detail];
      })
      .toEqual([401, requestMessages.invalidToken]);
    expect((await server.store.tokens.list('north')).find((t) => t.id === id)!.role).toBeNull();
  });
});
