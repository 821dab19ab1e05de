/**
 * Check-in lists (docs/decisions/100): an event's entrances and desks, each admitting some ticket
 * types on some days, a ticket checked in at most once per list and day. Read by every check-in
 * (which list a scan is at: `resolveCheckInList`), offered to the scanner
 * (GET /events/{eventId}/check-in-lists) and kept by an event's admins — in the management area
 * (POST/PATCH/DELETE …/check-in-lists) and with the admin CLI's `list` commands — through the same
 * functions here, each change with its audit entry in its transaction (docs/decisions/106, 115).
 *
 * Every event has at least one list: the database makes 'All tickets' (every type, every day) in
 * the same statement as the event (trigger `events_first_check_in_list`, migration 0016), whoever
 * inserts it — the service, the demo seed, an operator's SQL — and the migration gave one to every
 * event made before lists. A list
 * with check-ins is never deleted (the database refuses too: check_ins' foreign key), and the last
 * list of an event is never deleted.
 */
import { type CheckInList, CheckInListCapacity, listAdmits, type CheckInListRule, CheckInListSnapshot, CHECK_IN_LIST_MAX_CAPACITY, CHECK_IN_LIST_NAME_MAX_LENGTH, DailyCheckoutTime } from '@gatecheck/contract';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { auditEntries, checkInLists, checkIns, deviceEnrollments, devices, tickets, ticketTypes as ticketTypeRows } from '../db/schema.ts';
import { inTransaction, sqlStateOf } from '../db/transactions.ts';
import { type Actor, recordAudit } from './audit.ts';
import { refreshEventPlaceExpiries } from './check-ins/event-places.ts';
import { syncPlaces } from './check-ins/write.ts';
import { isId, ServiceError } from './errors.ts';
import type { EventDetails } from './events.ts';

/** A check-in list with its position (the wire's `CheckInList`). */
export type CheckInListRow = CheckInList;

/** The order of an event's lists: the first is where a client that names no list checks in. */
const LIST_ORDER = [asc(checkInLists.position), asc(checkInLists.createdAt), asc(checkInLists.id)] as const;

/** A list's columns as the wire's `CheckInList` names them. */
export const LIST_COLUMNS = {
  id: checkInLists.id,
  name: checkInLists.name,
  position: checkInLists.position,
  ticketTypes: checkInLists.ticketTypes,
  days: checkInLists.days,
  allowsReentry: checkInLists.allowsReentry,
  capacity: checkInLists.capacity,
  dailyCheckoutTime: checkInLists.dailyCheckoutTime,
};

/** The same order in SQL, for a read that aggregates an event's lists (`json_agg(... order by ...)`). */
export const CHECK_IN_LIST_ORDER_SQL = sql.raw('position, created_at, id');

/** Every list of event `eventId`, first list first. */
export async function listCheckInLists(db: DbOrTx, eventId: string): Promise<CheckInListRow[]> {
  return db
    .select(LIST_COLUMNS)
    .from(checkInLists)
    .where(eq(checkInLists.eventId, eventId))
    .orderBy(...LIST_ORDER);
}

/** The list a check-in is at, with every list of its event in order (the rule names the others). */
export interface ChosenCheckInList {
  list: CheckInListRule;
  lists: CheckInListRule[];
}

/**
 * The list `checkInListId` of `eventLists` (the event's lists in order), or the first list when none
 * is named (a client from before lists: SPEC §7's body).
 * @throws ServiceError `bad_request` naming the field `checkInListId` when it is not one of the
 *   event's lists (another event's, one deleted, or none at all): nothing is written.
 */
export function chooseCheckInList(eventLists: readonly CheckInListRule[], checkInListId: string | undefined): ChosenCheckInList {
  const list = checkInListId === undefined ? eventLists[0] : eventLists.find((entry) => entry.id.toLowerCase() === checkInListId.toLowerCase());
  if (!list) {
    if (checkInListId === undefined) throw new Error('an event without a check-in list');
    // Named: a phone still scanning at a list deleted since hears that its list is refused (docs/decisions/151).
    throw new ServiceError('bad_request', `This event has no check-in list with id "${checkInListId}".`, 'checkInListId');
  }
  return { list, lists: [...eventLists] };
}

/** `chooseCheckInList` over the lists read from the database. */
export async function resolveCheckInList(db: DbOrTx, eventId: string, checkInListId: string | undefined): Promise<ChosenCheckInList> {
  return chooseCheckInList(await listCheckInLists(db, eventId), checkInListId);
}

/** A list the event had and its organizer deleted (docs/decisions/153): its id, and the name, ticket types and days it had. */
export type DeletedCheckInList = Pick<CheckInListRule, 'id' | 'name' | 'ticketTypes' | 'days'>;

/**
 * Where an offline upload naming `checkInListId` is recorded (docs/decisions/153): the list named, as
 * `resolveCheckInList`; or, when it names a list the event had and its organizer deleted since (its
 * 'check_in_list.deleted' audit entry, written in the delete's transaction), the event's lists with
 * `deleted` set — each scan is then recorded at the first of them admitting its ticket that day
 * (`successorList`), as the phone's admissions there were never seen by the delete's check.
 * @throws ServiceError `bad_request` naming `checkInListId` when the event never had that list.
 */
export async function resolveUploadList(db: DbOrTx, eventId: string, checkInListId: string | undefined): Promise<ChosenCheckInList & { deleted?: DeletedCheckInList }> {
  const lists = await listCheckInLists(db, eventId);
  try {
    return chooseCheckInList(lists, checkInListId);
  } catch (error) {
    const deleted = checkInListId !== undefined && isId(checkInListId) ? await findDeletedList(db, eventId, checkInListId) : undefined;
    if (!deleted) throw error;
    const [first] = lists;
    if (!first) throw new Error('an event without a check-in list');
    return { list: first, lists, deleted };
  }
}

/** The list `checkInListId` event `eventId` had before its organizer deleted it, from the delete's audit entry; undefined when it never had it. */
async function findDeletedList(db: DbOrTx, eventId: string, checkInListId: string): Promise<DeletedCheckInList | undefined> {
  const [entry] = await db
    .select({ before: auditEntries.before })
    .from(auditEntries)
    .where(
      and(
        eq(auditEntries.eventId, eventId),
        eq(auditEntries.action, 'check_in_list.deleted'),
        sql`lower(${auditEntries.before} ->> 'checkInListId') = lower(${checkInListId})`,
      ),
    )
    .limit(1);
  const snapshot = CheckInListSnapshot.safeParse(entry?.before);
  if (!snapshot.success) return undefined;
  const { name, ticketTypes, days } = snapshot.data;
  return { id: checkInListId.toLowerCase(), name, ticketTypes, days };
}

/**
 * The list a scan made at `deleted` is recorded at and judged by (docs/decisions/153, 157), of `lists`
 * (the event's, in order):
 * - the list `ticket.checkedInListId` names, when the ticket already has its check-in that day there, so
 *   every scan of one ticket at the deleted list lands where its first one did, whatever lists were
 *   added since (a second admission is then a conflict, an exit finds its entry);
 * - else the first list that admits a ticket of `ticket.ticketType` on `ticket.day` (where the rule
 *   would say the ticket is valid now);
 * - else the first list.
 * It is judged by its own ticket types and days when it admits the ticket that day; only when it does
 * not (no list admits it now) by the deleted list's, since the gate admitted by those. Its id,
 * re-entry, capacity and checkout are always its own: the check-in is kept there.
 */
export function successorList(
  lists: readonly CheckInListRule[],
  deleted: DeletedCheckInList,
  ticket: { ticketType: string | undefined; day: number; checkedInListId?: string | undefined },
): CheckInListRule {
  const admits = (list: CheckInListRule) => listAdmits(list, ticket.ticketType, ticket.day);
  const found = lists.find((list) => list.id === ticket.checkedInListId) ?? lists.find(admits) ?? lists[0];
  if (!found) throw new Error('an event without a check-in list');
  return admits(found) ? found : { ...found, ticketTypes: deleted.ticketTypes, days: deleted.days };
}

/** What a list is made of or changed to. `ticketTypes` null: every type; `days` null: every day. */
export interface CheckInListInput {
  name: string;
  ticketTypes: string[] | null;
  days: number[] | null;
  /** Where it goes among the event's lists (1 = first: where a client naming no list checks in); default after the last. */
  position?: number;
  /** Exits recorded, re-entry allowed (docs/decisions/111); default false. */
  allowsReentry?: boolean;
  /** Most guests inside at once (a whole number ≥ 1), null: none; default null. */
  capacity?: number | null;
  /** 'HH:MM' (event time zone) when everyone inside is checked out, null: never; default null. */
  dailyCheckoutTime?: string | null;
}

/**
 * Adds a list to `event`.
 * Recorded on the event's activity ('check_in_list.created') in the same transaction.
 * @returns the new list.
 * @throws ServiceError `bad_request` (with `field`: `name`, `ticketTypes`, `days`) for an empty or too long name, a name the event already has, a
 *   list that names no ticket type, a type no ticket of the event has, a day the event does not have.
 */
export async function createCheckInList(db: Db, event: EventDetails, input: CheckInListInput, actor: Actor, now: Date = new Date()): Promise<CheckInListRow> {
  return inTransaction(db, async (tx) => {
    const checked = await checkListInput(tx, event, input, undefined);
    const [last] = await tx.select({ position: sql<number | null>`max(${checkInLists.position})` }).from(checkInLists).where(eq(checkInLists.eventId, event.id));
    const doors = checkDoorInput(input);
    const [created] = await tx
      .insert(checkInLists)
      .values({
        eventId: event.id,
        name: checked.name,
        ticketTypes: checked.ticketTypes,
        days: checked.days,
        position: (last?.position ?? 0) + 1,
        allowsReentry: doors.allowsReentry ?? false,
        capacity: doors.capacity ?? null,
        dailyCheckoutTime: doors.dailyCheckoutTime ?? null,
      })
      .returning({ id: checkInLists.id });
    if (!created) throw new Error('insert into check_in_lists returned no row');
    if (doors.capacity) await syncPlaces(tx, { eventId: event.id, checkInListId: created.id, capacity: doors.capacity }, now);
    if (input.position !== undefined) await moveList(tx, event.id, created.id, input.position);
    const list = await findList(tx, event.id, created.id);
    await recordAudit(tx, actor, { organizationId: event.organizationId, eventId: event.id, action: 'check_in_list.created', before: null, after: snapshotOf(list) });
    return list;
  });
}

/** A change of a list; absent fields stay as they are. */
export interface CheckInListChange {
  name?: string;
  ticketTypes?: string[] | null;
  days?: number[] | null;
  position?: number;
  allowsReentry?: boolean;
  capacity?: number | null;
  dailyCheckoutTime?: string | null;
}

/**
 * Changes list `checkInListId` of `event`. Check-ins already made stay on it. Recorded on the
 * event's activity ('check_in_list.updated', before and after) in the same transaction.
 * @returns the list as it is now.
 * @throws ServiceError `not_found` for a list the event does not have; `bad_request` as
 *   `createCheckInList`, or when nothing is to change.
 */
export async function editCheckInList(db: Db, event: EventDetails, checkInListId: string, change: CheckInListChange, actor: Actor, now: Date = new Date()): Promise<CheckInListRow> {
  if (Object.values(change).every((value) => value === undefined)) {
    throw new ServiceError('bad_request', 'Nothing to change: give a new name, ticket types, days, position, re-entry, capacity or daily checkout time (the CLI: --name, --types, --all-types, --days, --all-days, --position, --reentry, --capacity, --daily-checkout).');
  }
  const doors = checkDoorInput(change);
  return inTransaction(db, async (tx) => {
    const current = await findList(tx, event.id, checkInListId);
    const merged: CheckInListInput = {
      name: change.name ?? current.name,
      ticketTypes: change.ticketTypes === undefined ? current.ticketTypes : change.ticketTypes,
      days: change.days === undefined ? current.days : change.days,
    };
    const checked = await checkListInput(tx, event, merged, current.id);
    await tx
      .update(checkInLists)
      .set({ name: checked.name, ticketTypes: checked.ticketTypes, days: checked.days, ...doors })
      .where(and(eq(checkInLists.eventId, event.id), eq(checkInLists.id, current.id)));
    if (doors.capacity !== undefined && doors.capacity !== current.capacity) {
      await syncPlaces(tx, { eventId: event.id, checkInListId: current.id, capacity: doors.capacity }, now);
    }
    // The venue's places held through the list expire at its checkout (docs/decisions/147): a new
    // checkout time moves their end, or the next entry would take over the place of a guest inside.
    if (doors.dailyCheckoutTime !== undefined && doors.dailyCheckoutTime !== current.dailyCheckoutTime) {
      await refreshEventPlaceExpiries(tx, { eventId: event.id, checkInListId: current.id });
    }
    if (change.position !== undefined) await moveList(tx, event.id, current.id, change.position);
    const list = await findList(tx, event.id, current.id);
    await recordAudit(tx, actor, { organizationId: event.organizationId, eventId: event.id, action: 'check_in_list.updated', before: snapshotOf(current), after: snapshotOf(list) });
    return list;
  });
}

/**
 * The door fields of a list's input checked (docs/decisions/111): a capacity a whole number from 1
 * to CHECK_IN_LIST_MAX_CAPACITY, a daily checkout time 'HH:MM'. Absent fields stay absent.
 * @throws ServiceError `bad_request` otherwise (the wire's schema refuses them first; this holds for the CLI).
 */
function checkDoorInput(input: Pick<CheckInListChange, 'allowsReentry' | 'capacity' | 'dailyCheckoutTime'>): Pick<CheckInListChange, 'allowsReentry' | 'capacity' | 'dailyCheckoutTime'> {
  if (input.capacity !== undefined && input.capacity !== null && !CheckInListCapacity.safeParse(input.capacity).success) {
    throw new ServiceError('bad_request', `A check-in list's capacity is a whole number of guests from 1 to ${CHECK_IN_LIST_MAX_CAPACITY} (or none).`);
  }
  if (input.dailyCheckoutTime !== undefined && input.dailyCheckoutTime !== null && !DailyCheckoutTime.safeParse(input.dailyCheckoutTime).success) {
    throw new ServiceError('bad_request', "A daily checkout time is 'HH:MM', 00:00 to 23:59, in the event's time zone (or none).");
  }
  return {
    ...(input.allowsReentry !== undefined ? { allowsReentry: input.allowsReentry } : {}),
    ...(input.capacity !== undefined ? { capacity: input.capacity } : {}),
    ...(input.dailyCheckoutTime !== undefined ? { dailyCheckoutTime: input.dailyCheckoutTime } : {}),
  };
}

/**
 * Deletes list `checkInListId` of `event`, recorded on the event's activity ('check_in_list.deleted').
 * @throws ServiceError `not_found` for a list the event does not have; `conflict` when check-ins were
 *   made at it (undone ones too: they are its history) or when it is the event's only list.
 */
export async function deleteCheckInList(db: Db, event: EventDetails, checkInListId: string, actor: Actor): Promise<CheckInListRow> {
  return inTransaction(db, async (tx) => {
    const list = await findList(tx, event.id, checkInListId);
    // Lock the event's lists so that two deletes cannot each leave the other as the last one. NO KEY
    // UPDATE, which two deletes' locks conflict on but a door transaction's KEY SHARE on a list does
    // not (docs/decisions/151): a door at another list does not wait for the delete.
    const lists = await tx.select({ id: checkInLists.id }).from(checkInLists).where(eq(checkInLists.eventId, event.id)).orderBy(checkInLists.id).for('no key update');
    // The list deleted, FOR UPDATE: it waits for the door transactions holding it (KEY SHARE), and a
    // later one waits for the delete and then finds the list gone.
    await tx.select({ id: checkInLists.id }).from(checkInLists).where(and(eq(checkInLists.eventId, event.id), eq(checkInLists.id, list.id))).for('update');
    if (lists.length <= 1) throw new ServiceError('conflict', `"${list.name}" is the only check-in list of "${event.title}": an event needs one.`);
    const [made] = await tx.select({ value: count() }).from(checkIns).where(and(eq(checkIns.eventId, event.id), eq(checkIns.checkInListId, list.id)));
    if ((made?.value ?? 0) > 0) {
      throw new ServiceError('conflict', `"${list.name}" has ${made?.value} check-in(s) and cannot be deleted; edit it instead (its check-ins stay on it).`);
    }
    // Devices and enrollments held to this list scan every list from now (docs/decisions/116): their
    // foreign key would refuse the delete, and a door phone must not stop working over it.
    for (const table of [devices, deviceEnrollments]) {
      await tx.update(table).set({ checkInListId: null }).where(and(eq(table.eventId, event.id), eq(table.checkInListId, list.id)));
    }
    await tx.delete(checkInLists).where(and(eq(checkInLists.eventId, event.id), eq(checkInLists.id, list.id)));
    await recordAudit(tx, actor, { organizationId: event.organizationId, eventId: event.id, action: 'check_in_list.deleted', before: snapshotOf(list), after: null });
    return list;
  }).catch((error: unknown) => {
    // A row naming the list that the lists' lock did not keep out (a device moved to it meanwhile):
    // refused by its foreign key, nothing deleted; as the check's own refusal, a 409 (docs/decisions/151).
    if (sqlStateOf(error) === '23503') throw new ServiceError('conflict', 'Something was recorded at this check-in list while it was being deleted: nothing was deleted. Try again.');
    throw error;
  });
}

/** What an audit entry records of a list (docs/decisions/115): every setting it has. */
function snapshotOf(list: CheckInListRow): CheckInListSnapshot {
  const { id, ...settings } = list;
  return { checkInListId: id, ...settings };
}

/**
 * Puts list `checkInListId` at place `position` (1 = first; past the end: last) among event
 * `eventId`'s lists and numbers them all 1, 2, … in their order, on `tx`.
 */
async function moveList(tx: DbOrTx, eventId: string, checkInListId: string, position: number): Promise<void> {
  // NO KEY UPDATE: a reorder changes no key, so door transactions' KEY SHARE on a list (docs/decisions/151)
  // does not wait for it, nor it for them.
  const others = (await tx.select({ id: checkInLists.id }).from(checkInLists).where(eq(checkInLists.eventId, eventId)).orderBy(...LIST_ORDER).for('no key update')).filter(
    (list) => list.id !== checkInListId,
  );
  const ordered = [...others.slice(0, position - 1), { id: checkInListId }, ...others.slice(position - 1)];
  for (const [index, list] of ordered.entries()) {
    await tx.update(checkInLists).set({ position: index + 1 }).where(and(eq(checkInLists.eventId, eventId), eq(checkInLists.id, list.id)));
  }
}

/**
 * The list `checkInListId` of event `eventId`.
 * @throws ServiceError `not_found` when the event has no such list.
 */
async function findList(db: DbOrTx, eventId: string, checkInListId: string): Promise<CheckInListRow> {
  const [list] = isId(checkInListId)
    ? await db
        .select(LIST_COLUMNS)
        .from(checkInLists)
        .where(and(eq(checkInLists.eventId, eventId), eq(checkInLists.id, checkInListId)))
    : [];
  if (!list) throw new ServiceError('not_found', `This event has no check-in list with id "${checkInListId}" (see list list --event <id>).`);
  return list;
}

/**
 * The ticket type names of event `eventId`, sorted: its `ticket_types` rows (every type its tickets
 * carry, and a type named ahead of its tickets with `ticket-type set`, docs/decisions/102) and, in
 * case a ticket was written without its row, the types its tickets carry.
 */
async function knownTicketTypes(db: DbOrTx, eventId: string): Promise<string[]> {
  const declared = await db.select({ type: ticketTypeRows.name }).from(ticketTypeRows).where(eq(ticketTypeRows.eventId, eventId));
  const carried = await db.selectDistinct({ type: tickets.ticketType }).from(tickets).where(eq(tickets.eventId, eventId));
  return [...new Set([...declared, ...carried].map((row) => row.type))].sort();
}

/**
 * `input` checked against `event`: the name trimmed, not empty, not too long, not another list's
 * (any letter case); the types each a ticket type of the event (`knownTicketTypes`: one its tickets
 * carry or one named ahead of them), in its stored spelling
 * (any letter case given), at least one unless every type; the days the event's, without repeats.
 */
async function checkListInput(db: DbOrTx, event: EventDetails, input: CheckInListInput, listId: string | undefined): Promise<{ name: string; ticketTypes: string[] | null; days: number[] | null }> {
  const name = input.name.trim();
  if (!name) throw new ServiceError('bad_request', 'A check-in list needs a name.', 'name');
  if (name.length > CHECK_IN_LIST_NAME_MAX_LENGTH) throw new ServiceError('bad_request', `A check-in list name has at most ${CHECK_IN_LIST_NAME_MAX_LENGTH} characters.`, 'name');
  const [taken] = await db
    .select({ id: checkInLists.id })
    .from(checkInLists)
    .where(and(eq(checkInLists.eventId, event.id), sql`lower(${checkInLists.name}) = lower(${name})`));
  if (taken && taken.id !== listId) throw new ServiceError('bad_request', `"${event.title}" already has a check-in list named "${name}".`, 'name');

  let ticketTypes: string[] | null = null;
  if (input.ticketTypes !== null) {
    const given = input.ticketTypes.map((type) => type.trim()).filter((type) => type !== '');
    if (given.length === 0) throw new ServiceError('bad_request', 'A check-in list must admit at least one ticket type (or every type: --all-types).', 'ticketTypes');
    const known = await knownTicketTypes(db, event.id);
    ticketTypes = [];
    for (const type of given) {
      const stored = known.find((entry) => entry === type) ?? known.find((entry) => entry.toLowerCase() === type.toLowerCase());
      if (stored === undefined) {
        const types = known.length > 0 ? `its ticket types: ${known.join(', ')}` : 'it has no ticket types yet: import its tickets first, or name a type with ticket-type set';
        throw new ServiceError('bad_request', `"${event.title}" has no tickets of type "${type}" (${types}).`, 'ticketTypes');
      }
      if (!ticketTypes.includes(stored)) ticketTypes.push(stored);
    }
  }

  let days: number[] | null = null;
  if (input.days !== null) {
    if (input.days.length === 0) throw new ServiceError('bad_request', 'A check-in list must admit at least one day (or every day: --all-days).', 'days');
    for (const day of input.days) {
      if (!event.days.some((entry) => entry.day === day)) {
        throw new ServiceError('bad_request', `"${event.title}" has no day ${day} (days: ${event.days.map((entry) => entry.day).join(', ')}).`, 'days');
      }
    }
    days = [...new Set(input.days)].sort((a, b) => a - b);
  }
  return { name, ticketTypes, days };
}
