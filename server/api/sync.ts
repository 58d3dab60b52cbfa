// Sync between instances (docs/SYNC.md): the endpoints an upstream instance serves to the instances
// that follow it (state, push, pull, catalogue), and what the scanner UI shows of this instance's own
// link (status, conflicts). Every instance serves them: any one can be an upstream. All need a token
// of the account, and see only that account's movements: the upstream side only a `sync` token (the
// credential a follower links with), the local status and conflicts the scanner UI's roles.
import {
  MAX_MOVEMENTS_PER_BATCH,
  MAY,
  SYNC_CATALOGUE_PATH,
  SYNC_CONFLICTS_PATH,
  SYNC_FOLLOWERS_PATH,
  SYNC_MOVEMENTS_PATH,
  SYNC_STATE_PATH,
  SYNC_STATUS_PATH,
  conflictListSchema,
  conflictsQuerySchema,
  followerRegisteredSchema,
  followerRegistrationSchema,
  pullPageSchema,
  pullQuerySchema,
  pushAnswerSchema,
  pushBodySchema,
  syncStateSchema,
  syncStatusSchema,
} from '../../shared/index.ts';
import { z } from 'zod';
import { type Resource, endpoint } from './endpoint.ts';

export const sync: Resource = {
  tag: 'Sync between instances',
  endpoints: [
    endpoint({
      method: 'GET',
      path: SYNC_STATE_PATH,
      summary: 'What this instance holds of the account',
      roles: MAY.syncUpstream,
      description:
        'Its instance id and clock, the catalogue version, and the highest movement sequence it holds per origin instance: what a follower pushes from.',
      responses: { 200: { description: 'The state.', schema: syncStateSchema } },
      handler: async ({ store, caller }) => ({ body: await store.sync.state(caller) }),
    }),
    endpoint({
      method: 'POST',
      path: SYNC_FOLLOWERS_PATH,
      summary: 'Register a follower',
      roles: MAY.syncUpstream,
      description:
        'An instance that follows this one registers its instance id with the token it pushes with, under a label its owner chose ' +
        '("Laptop 2"). Only a registered follower may push, and only the origins it owns: its own instance, and those it first ' +
        'brought here (the laptops that follow a shop). The same token registering again changes the label; a token speaks for one ' +
        'follower, and an instance registered by a token that still works cannot be taken by another.',
      body: { schema: followerRegistrationSchema },
      responses: {
        200: { description: 'Registered.', schema: followerRegisteredSchema },
        400: { description: 'Malformed registration (an instance id, a label without control characters).' },
        409: {
          description: 'The instance is registered by another token that still works, or this token registered another instance.',
        },
        422: { description: "The instance is this instance's own id." },
      },
      handler: async ({ store, caller, body }) => ({ body: await store.sync.register(caller, body.instance, body.label) }),
    }),
    endpoint({
      method: 'POST',
      path: SYNC_MOVEMENTS_PATH,
      summary: 'Push movements',
      roles: MAY.syncUpstream,
      description:
        `At most ${MAX_MOVEMENTS_PER_BATCH} movements of the account, each origin's in sequence, from a registered follower (\`POST followers/\`). ` +
        'Applied all or nothing, each exactly once: a movement already held is skipped (a batch sent again after a cut applies nothing ' +
        'twice). A movement that would leave a gap refuses the batch with 409 and `resume` (`{origin: next sequence}`). ' +
        "The text fields follow the local API's rules. The answer's vector names the batch's origins only. Besides a role that may " +
        'not push, 403 is a token that registered no follower (`code: follower_not_registered`), or an origin that is not its ' +
        "follower's: this instance's own, another follower's, or one this instance's upstream sends (`code: origin_not_owned`, `origin`).",
      body: { schema: pushBodySchema, compiled: true },
      responses: {
        200: { description: 'Applied.', schema: pushAnswerSchema },
        400: { description: 'Malformed batch (text fields included: source, reason, reference, created_at).' },
        409: { description: "A gap in an origin's sequence (`resume` says where to send from), or an id already held with other content." },
        413: { description: 'Body larger than 1 MiB.' },
        422: {
          description:
            "A movement of a unit or warehouse the account does not have, or stamped more than 24 h ahead of this instance's clock; " +
            'or the batch would bring the account more origins than it may have (`code: origin_limit`, `origin`: the first over).',
        },
      },
      handler: async ({ store, caller, body }) => ({ body: await store.sync.push(caller, body.movements) }),
    }),
    endpoint({
      method: 'GET',
      path: SYNC_MOVEMENTS_PATH,
      summary: 'Pull movements',
      roles: MAY.syncUpstream,
      description:
        "The account's movements in the order this instance recorded them, after the cursor `after`; each origin's appear in sequence. " +
        'Those the caller holds (`have`) are left out of the page, which may then hold fewer than `limit`; `next_cursor` moves past them.',
      query: { schema: pullQuerySchema },
      responses: { 200: { description: 'One page.', schema: pullPageSchema }, 400: { description: 'Invalid cursor, limit or have.' } },
      handler: async ({ store, caller, query }) => ({ body: await store.sync.pull(caller, query.after, query.limit, query.have) }),
    }),
    endpoint({
      method: 'GET',
      path: SYNC_CATALOGUE_PATH,
      summary: "The account's catalogue",
      roles: MAY.syncUpstream,
      description:
        'Warehouses, items, variants and barcodes, as a catalogue import document, with its version. Followers copy it when the version moves; stock travels as movements.',
      responses: {
        200: {
          description: 'The catalogue.',
          schema: z.strictObject({ version: z.number().int(), catalogue: z.record(z.string(), z.unknown()) }),
        },
      },
      handler: async ({ store, caller }) => ({ body: await store.sync.catalogue(caller) }),
    }),
    endpoint({
      method: 'GET',
      path: SYNC_STATUS_PATH,
      summary: "This instance's link to its upstream",
      roles: MAY.scannerUi,
      description:
        'Whether the account follows an upstream, and how that goes: in sync, movements waiting, offline since, errors, conflicts, clock difference.',
      responses: { 200: { description: 'The status.', schema: syncStatusSchema } },
      handler: async ({ store, caller }) => ({ body: await store.sync.status(caller) }),
    }),
    endpoint({
      method: 'GET',
      path: SYNC_CONFLICTS_PATH,
      summary: 'Conflicts',
      roles: MAY.conflicts,
      description:
        'Sets and counts made without seeing an earlier movement of the same unit and warehouse (two instances setting stock offline, say). ' +
        'The later one decides the quantity; both are listed until someone records the quantity again having seen both.',
      query: { schema: conflictsQuerySchema },
      responses: { 200: { description: 'Newest first.', schema: conflictListSchema }, 400: { description: 'Invalid parameter.' } },
      handler: async ({ store, caller, query }) => ({ body: await store.sync.conflicts(caller, query.state, query.limit) }),
    }),
  ],
};
