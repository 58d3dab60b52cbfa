// The calls of people on shared scanners (docs/API.md, "People"): a device signs a person in by badge
// or PIN and lists the names to pick from; an admin adds people, prints badges, revokes a lost badge
// or a person, and sets how soon an idle shared scanner signs its person out.
import {
  ACCOUNT_PATH,
  PEOPLE_PATH,
  PERSON_SIGNIN_PATH,
  UI_PEOPLE_PATH,
  type CreatePersonBody,
  type PersonRole,
  accountInfoSchema,
  personBadgeSchema,
  personListSchema,
  personPath,
  personSchema,
  personSignInAnswerSchema,
  signInPeopleSchema,
} from '../../../shared/index.ts';
import { requestJson } from '../api/request-json.ts';

/** What a shared scanner's own token (role `device`) may do: list who may sign in, and sign one in. */
export function deviceClient(token: string) {
  return {
    people: () => requestJson(signInPeopleSchema, UI_PEOPLE_PATH, { token }),
    signInWithBadge: (badge: string) =>
      requestJson(personSignInAnswerSchema, PERSON_SIGNIN_PATH, { method: 'POST', token, body: { badge } }),
    signInWithPin: (person: number, pin: string) =>
      requestJson(personSignInAnswerSchema, PERSON_SIGNIN_PATH, { method: 'POST', token, body: { person, pin } }),
  };
}
export type DeviceClient = ReturnType<typeof deviceClient>;

/** An admin's calls. */
export function peopleClient(token: string) {
  return {
    list: () => requestJson(personListSchema, PEOPLE_PATH, { token }),
    add: (body: Omit<CreatePersonBody, 'badge'> & { badge?: boolean }) =>
      requestJson(personBadgeSchema, PEOPLE_PATH, { method: 'POST', token, body }),
    setRole: (id: number, role: PersonRole) => requestJson(personSchema, personPath(id), { method: 'PATCH', token, body: { role } }),
    setPin: (id: number, pin: string | null) => requestJson(personSchema, personPath(id), { method: 'PATCH', token, body: { pin } }),
    newBadge: (id: number) => requestJson(personBadgeSchema, personPath(id, true), { method: 'POST', token }),
    revokeBadge: (id: number) => requestJson(personSchema, personPath(id, true), { method: 'DELETE', token }),
    revoke: (id: number) => requestJson(personSchema, personPath(id), { method: 'DELETE', token }),
    setIdleMinutes: (minutes: number) =>
      requestJson(accountInfoSchema, ACCOUNT_PATH, { method: 'PATCH', token, body: { person_idle_minutes: minutes } }),
  };
}
export type PeopleClient = ReturnType<typeof peopleClient>;
