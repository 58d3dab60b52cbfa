// People on shared scanner PCs and the audit log (docs/API.md, "People", "Audit log"): an admin adds
// people with a role, prints their badges, sets PINs, revokes a lost badge or a person; a shared
// scanner (a token of role `device`) signs a person in by badge or PIN; managers and admins read the
// audit log, which no endpoint writes.
import {
  AUDIT_PATH,
  MAY,
  PEOPLE_PATH,
  PERSON_BADGE_PATH,
  PERSON_PATH,
  PERSON_SIGNIN_PATH,
  UI_PEOPLE_PATH,
  auditPageSchema,
  auditQuerySchema,
  createPersonSchema,
  normalBadge,
  peopleMessages,
  personBadgeSchema,
  personListSchema,
  personSchema,
  personSignInAnswerSchema,
  personSignInSchema,
  signInPeopleSchema,
  updatePersonSchema,
} from '../../shared/index.ts';
import { apiError, badRequest } from '../errors.ts';
import { actorOf } from '../store/store.ts';
import { type Resource, endpoint } from './endpoint.ts';

const ID = { id: "The person's id." };

export const people: Resource = {
  tag: 'People',
  endpoints: [
    endpoint({
      method: 'GET',
      path: PEOPLE_PATH,
      summary: "The account's people",
      roles: MAY.people,
      description: 'Everyone added, revoked people included, with their role, whether they have a badge and a PIN (never either itself).',
      responses: { 200: { description: 'The people, oldest first.', schema: personListSchema } },
      handler: async ({ store, caller }) => ({ body: await store.people.list(caller) }),
    }),
    endpoint({
      method: 'POST',
      path: PEOPLE_PATH,
      summary: 'Add a person',
      roles: MAY.people,
      description:
        'A named person with a role (counter, manager or admin) who signs in on shared scanners with a badge (made unless `badge` is false) ' +
        'and/or a PIN of 4 to 8 digits. The badge is in this answer only: print it (the scanner UI does), it is never shown again.',
      body: { schema: createPersonSchema },
      responses: {
        201: { description: 'The person and their badge.', schema: personBadgeSchema },
        400: { description: 'Invalid name, role or PIN, or a name already taken by an active person.' },
      },
      async handler({ store, caller, body }) {
        const made = await store.people.add(caller, actorOf(caller), body);
        return { status: 201, body: made };
      },
    }),
    endpoint({
      method: 'PATCH',
      path: PERSON_PATH,
      summary: "Change a person's role or PIN",
      roles: MAY.people,
      description: 'A new role applies to the sign-ins the person has at their next request. `pin: null` removes the PIN.',
      params: ID,
      body: { schema: updatePersonSchema },
      responses: {
        200: { description: 'The person.', schema: personSchema },
        400: { description: 'Invalid role or PIN, or a revoked person.' },
        404: { description: 'No such person in the account.' },
      },
      handler: async ({ store, caller, params, body }) => ({ body: await store.people.change(caller, actorOf(caller), params.id!, body) }),
    }),
    endpoint({
      method: 'DELETE',
      path: PERSON_PATH,
      summary: 'Revoke a person',
      roles: MAY.people,
      description:
        "The person's badge and PIN stop working and their sign-ins end at once; their name stays in the history and the audit log.",
      params: ID,
      responses: {
        200: { description: 'The revoked person.', schema: personSchema },
        404: { description: 'No such person in the account.' },
      },
      handler: async ({ store, caller, params }) => ({ body: await store.people.revoke(caller, actorOf(caller), params.id!) }),
    }),
    endpoint({
      method: 'POST',
      path: PERSON_BADGE_PATH,
      summary: 'Print a new badge',
      roles: MAY.people,
      description: "A new badge for the person; the old one stops working and the person's sign-ins end. The badge is in this answer only.",
      params: ID,
      responses: {
        201: { description: 'The person and the new badge.', schema: personBadgeSchema },
        400: { description: 'A revoked person.' },
        404: { description: 'No such person in the account.' },
      },
      handler: async ({ store, caller, params }) => ({
        status: 201,
        body: await store.people.newBadge(caller, actorOf(caller), params.id!),
      }),
    }),
    endpoint({
      method: 'DELETE',
      path: PERSON_BADGE_PATH,
      summary: 'Revoke a lost badge',
      roles: MAY.people,
      description: "The badge stops working and the person's sign-ins end at once (whoever found it may have used it); a PIN still works.",
      params: ID,
      responses: {
        200: { description: 'The person, without a badge.', schema: personSchema },
        400: { description: 'The person has no badge.' },
        404: { description: 'No such person in the account.' },
      },
      handler: async ({ store, caller, params }) => ({ body: await store.people.revokeBadge(caller, actorOf(caller), params.id!) }),
    }),
    endpoint({
      method: 'GET',
      path: UI_PEOPLE_PATH,
      summary: 'Who may sign in on this shared scanner',
      roles: MAY.personSignIn,
      description:
        "The account's active people by name, and whether each has a PIN: the list a person picks their name from before typing it.",
      responses: { 200: { description: 'Names, by name.', schema: signInPeopleSchema } },
      handler: async ({ store, caller }) => ({ body: await store.people.forSignIn(caller) }),
    }),
    endpoint({
      method: 'POST',
      path: PERSON_SIGNIN_PATH,
      summary: 'Sign a person in on a shared scanner',
      roles: MAY.personSignIn,
      description:
        'With `{"badge"}` (scanned) or `{"person", "pin"}`, answers a token of that person with their role, for this device, which expires ' +
        "after the account's idle minutes unused. Only people of the device's own account sign in. Wrong PINs of one person are slowed " +
        '(429 with Retry-After) without affecting anyone else; a wrong badge is a 400 (a badge has 100 random bits: guessing is hopeless).',
      body: { schema: personSignInSchema, invalid: () => peopleMessages.signInBody },
      responses: {
        200: { description: 'The person, their role and their token.', schema: personSignInAnswerSchema },
        400: { description: 'An unknown or revoked badge, a wrong PIN, a person without a PIN or not of this account.' },
        429: { description: 'Too many wrong PINs for this person just now: retry after Retry-After seconds (the badge still works).' },
      },
      async handler({ store, caller, body }) {
        let result;
        if ('badge' in body) {
          const badge = normalBadge(body.badge);
          if (badge === null) throw apiError(400, peopleMessages.badgeMalformed, { code: 'badge_malformed' });
          result = await store.people.signInWithBadge(caller, badge);
        } else {
          result = await store.people.signInWithPin(caller, body.person, body.pin);
        }
        if (result.ok) {
          const { person, role, token, idleMinutes } = result;
          return { body: { person, role, token, idle_minutes: idleMinutes } };
        }
        switch (result.reason) {
          case 'slowed': {
            const seconds = String(result.retryAfterSeconds ?? 1);
            throw apiError(429, peopleMessages.pinSlowed(result.retryAfterSeconds ?? 1), {
              headers: { 'Retry-After': seconds },
              code: 'pin_slowed',
            });
          }
          case 'badge-unknown':
            throw apiError(400, peopleMessages.badgeUnknown, { code: 'badge_unknown' });
          case 'no-pin':
            throw apiError(400, peopleMessages.pinNone(result.name ?? ''), { code: 'pin_none' });
          case 'pin-wrong':
            throw apiError(400, peopleMessages.pinWrong, { code: 'pin_wrong' });
          default:
            throw badRequest(peopleMessages.noSuchSignInPerson, 'person_not_here');
        }
      },
    }),
    endpoint({
      method: 'GET',
      path: AUDIT_PATH,
      summary: 'Read the audit log',
      roles: MAY.audit,
      description:
        'What changed that is not a movement of stock (catalogue imports, tokens and people, roles, stocktake commits and undos, conflict ' +
        'resolutions, sync links, account settings), who did it and when; newest first. Follow `next` (or pass `next_cursor` as `before`). ' +
        'Append-only: no endpoint writes, changes or deletes an entry.',
      query: { schema: auditQuerySchema },
      responses: { 200: { description: 'One page.', schema: auditPageSchema }, 400: { description: 'Invalid parameter.' } },
      handler: async ({ store, caller, query }) => ({ body: await store.audit.page(caller, query) }),
    }),
  ],
};
