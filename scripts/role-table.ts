// `npm run docs:roles`: writes the role table of docs/API.md ("Roles") from the endpoint table
// (server/api/role-table.ts). test/api/roles.test.ts fails while the document's table differs.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resources } from '../server/api/resources.ts';
import { documentedRoleTable, roleTable, withRoleTable } from '../server/api/role-table.ts';

const file = path.resolve(import.meta.dirname, '../docs/API.md');
const document = readFileSync(file, 'utf8');
const table = roleTable(resources);
if (documentedRoleTable(document) === table) {
  console.log('docs/API.md: the role table is up to date.');
} else {
  writeFileSync(file, withRoleTable(document, table));
  console.log('docs/API.md: the role table is written from the endpoint table.');
}
