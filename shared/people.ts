// People on a shared scanner PC (docs/API.md, "People"): named people of an account, each with a role,
// who sign in on a device of role `device` by scanning their badge or typing a short PIN; and the
// audit log of what changed that is not a movement. Paths, the badge's form and the wire shapes.
import { z } from 'zod';
import { API_BASE } from './api-paths.ts';
import { findUnsafeCharacter } from './control-characters.ts';
import { PERSON_ROLES } from './roles.ts';
import { UI_API_BASE, signedInPersonSchema } from './ui-api.ts';

export const PEOPLE_PATH = `${API_BASE}/people/`;
/** One person: `{id}` is the person's id. */
export const PERSON_PATH = `${PEOPLE_PATH}{id}/`;
/** A person's badge: POST prints a new one (the old one stops working), DELETE revokes it (a lost badge). */
export const PERSON_BADGE_PATH = `${PEOPLE_PATH}{id}/badge/`;
export const personPath = (id: number, badge = false) => `${PEOPLE_PATH}${id}/${badge ? 'badge/' : ''}`;
/** The people a shared scanner shows to choose from before typing a PIN. */
export const UI_PEOPLE_PATH = `${UI_API_BASE}/people/`;
/** A person signs in on a shared scanner: a badge, or a person's id and PIN, for a token of the person. */
export const PERSON_SIGNIN_PATH = `${UI_API_BASE}/people/signin/`;
export const AUDIT_PATH = `${API_BASE}/audit/`;

// --- The badge -----------------------------------------------------------------------------------
/**
 * A badge is a Code 128 of `BADGE-` and 24 random digits (80 bits; the digits go in Code 128's set C,
 * two per symbol, so the bars stay wide on a card). The prefix tells a
 * badge from a barcode wherever it is scanned: the scanner UI hands it to the person switch and never
 * looks it up or counts it, and the server refuses it as a barcode (it would otherwise be stored as an
 * unknown barcode of a stocktake, and shown in its review and export).
 */
export const BADGE_PREFIX = 'BADGE-';
export const BADGE_SECRET_LENGTH = 24;
const BADGE_SHAPE = new RegExp(`^${BADGE_PREFIX}\\d{${BADGE_SECRET_LENGTH}}$`, 'i');
/** Anything that starts like a badge is never a barcode, even mistyped or cut short. */
const BADGE_START = new RegExp(`^${BADGE_PREFIX}`, 'i');

/** True for a scanned text that is meant as a person's badge (never a barcode). */
export function isBadgeCode(text: string): boolean {
  return BADGE_START.test(text.trim());
}

/** The badge as the server hashes it: case and surrounding space do not matter (a scanner's Caps Lock). */
export function normalBadge(text: string): string | null {
  const trimmed = text.trim();
  return BADGE_SHAPE.test(trimmed) ? trimmed.toUpperCase() : null;
}

// --- People --------------------------------------------------------------------------------------
export const MAX_PERSON_NAME = 80;
export const PIN_MIN_DIGITS = 4;
export const PIN_MAX_DIGITS = 8;
/** Minutes without a key or a touch after which a shared scanner signs its person out (the account's setting). */
export const DEFAULT_PERSON_IDLE_MINUTES = 10;
export const MAX_PERSON_IDLE_MINUTES = 720;

export const personRoleSchema = z.enum(PERSON_ROLES);

export const personNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_PERSON_NAME)
  .refine((name) => findUnsafeCharacter(name) === undefined, {
    message: 'A name may not contain control characters or characters that reverse its direction.',
  });

export const pinSchema = z
  .string()
  .regex(new RegExp(`^\\d{${PIN_MIN_DIGITS},${PIN_MAX_DIGITS}}$`), `A PIN is ${PIN_MIN_DIGITS} to ${PIN_MAX_DIGITS} digits.`);

export const personSchema = z
  .strictObject({
    id: z.number().int(),
    name: z.string(),
    role: personRoleSchema,
    badge: z.boolean().describe('Has a badge that works (never the badge itself).'),
    pin: z.boolean().describe('Has a PIN (never the PIN itself).'),
    signed_in: z.number().int().describe('Shared scanners the person is signed in on now.'),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
  })
  .meta({ id: 'Person' });
export type Person = z.infer<typeof personSchema>;
export const personListSchema = z.array(personSchema);

export const createPersonSchema = z
  .strictObject({
    name: personNameSchema,
    role: personRoleSchema,
    pin: pinSchema.optional(),
    badge: z.boolean().default(true).describe('Print a badge (default); false for a person who signs in with a PIN only.'),
  })
  .meta({ id: 'CreatePerson' });
export type CreatePersonBody = z.infer<typeof createPersonSchema>;

export const updatePersonSchema = z
  .strictObject({
    role: personRoleSchema.optional(),
    pin: pinSchema.nullable().optional().describe('A new PIN, or null to remove it.'),
  })
  .refine((body) => body.role !== undefined || body.pin !== undefined, { message: 'Give a role or a pin.' })
  .meta({ id: 'UpdatePerson' });
export type UpdatePersonBody = z.infer<typeof updatePersonSchema>;

/** A person with a badge just made: the badge is shown this once, to be printed, and never again. */
export const personBadgeSchema = z
  .strictObject({ person: personSchema, badge: z.string().nullable().describe('The badge to print; shown once.') })
  .meta({ id: 'PersonBadge' });
export type PersonBadge = z.infer<typeof personBadgeSchema>;

/** Who may sign in on a shared scanner, for the list to pick a name from before a PIN. */
export const signInPeopleSchema = z.array(z.strictObject({ id: z.number().int(), name: z.string(), pin: z.boolean() }));
export type SignInPerson = z.infer<typeof signInPeopleSchema>[number];

export const personSignInSchema = z
  .union([
    z.strictObject({ badge: z.string().min(1).max(200) }),
    z.strictObject({ person: z.number().int().positive(), pin: z.string().min(1).max(32) }),
  ])
  .meta({ id: 'PersonSignIn' });
export type PersonSignInBody = z.infer<typeof personSignInSchema>;

export const personSignInAnswerSchema = z
  .strictObject({
    person: signedInPersonSchema,
    role: personRoleSchema,
    token: z.string().min(1).describe("The person's token on this device; it expires after the account's idle minutes unused."),
    idle_minutes: z.number().int(),
  })
  .meta({ id: 'PersonSignInAnswer' });
export type PersonSignInAnswer = z.infer<typeof personSignInAnswerSchema>;

export const accountSettingsSchema = z
  .strictObject({
    person_idle_minutes: z.number().int().min(1).max(MAX_PERSON_IDLE_MINUTES),
  })
  .meta({ id: 'AccountSettings' });
export type AccountSettingsBody = z.infer<typeof accountSettingsSchema>;

// --- The audit log -------------------------------------------------------------------------------
export const MAX_AUDIT_PAGE = 500;
export const DEFAULT_AUDIT_PAGE = 100;

/** What an audit entry records: each is something that changed and is not a movement of stock. */
export const AUDIT_ACTIONS = [
  'catalogue.import',
  'token.create',
  'token.revoke',
  'token.role',
  'person.add',
  'person.revoke',
  'person.role',
  'person.pin',
  'person.badge',
  'person.badge_revoke',
  'account.settings',
  'stocktake.start',
  'stocktake.commit',
  'stocktake.undo',
  'conflict.resolve',
  'sync.link',
  'sync.unlink',
  'reorder_points.set',
  'low_stock_webhook.set',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const isoInstant = z.iso.datetime({ offset: true });

export const auditQuerySchema = z
  .object({
    actor: z.string().min(1).max(200).optional().describe('Only entries of this actor (a person, a token label, the command line).'),
    action: z.enum(AUDIT_ACTIONS).optional().describe('Only entries of this action.'),
    since: isoInstant.optional().describe('Only entries at or after this instant (ISO 8601).'),
    until: isoInstant.optional().describe('Only entries before this instant (ISO 8601).'),
    limit: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE).default(DEFAULT_AUDIT_PAGE),
    before: z.coerce.number().int().positive().optional().describe('The next_cursor of the previous page.'),
  })
  .meta({ id: 'AuditQuery' });
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEntrySchema = z
  .strictObject({
    id: z.number().int(),
    at: z.string(),
    actor: z.string().describe('Who: the person, the token (its label, else `token <id>`), or `command line (<user>)`.'),
    person: z.number().int().nullable(),
    token: z.number().int().nullable(),
    action: z.enum(AUDIT_ACTIONS),
    subject: z.string().describe('What it was done to, in words.'),
    detail: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z
  .strictObject({
    results: z.array(auditEntrySchema),
    next_cursor: z.number().int().nullable(),
    next: z.string().nullable().describe('Path of the next page, or null on the last one.'),
  })
  .meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof auditPageSchema>;

// --- Actors the server names itself --------------------------------------------------------------
// A movement's or an audit entry's actor is stored as text (a person's name, a token's label). A few
// are made by the server; they are built here and read back here, so the scanner UI can say them in
// its language rather than show the server's English.

/** The label of a token made by a one-time sign-in link. */
export const SIGNIN_TOKEN_LABEL = 'scanner UI (sign-in link)';
/** Who wrote an upstream's catalogue here. */
export const UPSTREAM_CATALOGUE_ACTOR = 'sync (the upstream’s catalogue)';
/** The command line on the server computer, by `who` (user@host). */
export const commandLineActorName = (who: string) => `command line (${who})`;
/** A token without a label. */
export const tokenActorName = (id: number) => `token ${id}`;

export type ActorForm =
  | { kind: 'signin-link' }
  | { kind: 'upstream-catalogue' }
  | { kind: 'command-line'; who: string }
  | { kind: 'token'; id: number }
  | { kind: 'named'; name: string };

/** What an actor's text is: one the server made (above), or a name a person gave. */
export function actorForm(actor: string): ActorForm {
  if (actor === SIGNIN_TOKEN_LABEL) return { kind: 'signin-link' };
  if (actor === UPSTREAM_CATALOGUE_ACTOR) return { kind: 'upstream-catalogue' };
  const commandLine = /^command line \((.+)\)$/.exec(actor);
  if (commandLine) return { kind: 'command-line', who: commandLine[1]! };
  const token = /^token (\d+)$/.exec(actor);
  if (token) return { kind: 'token', id: Number(token[1]) };
  return { kind: 'named', name: actor };
}
