/**
 * The ticket screens' rules as plain functions (docs/decisions/114): the ticket-type and ticket
 * forms checked with the contract's schemas (the ones the server checks with), each problem in
 * words by its field; the import's progress lines read from the server's stream; a ticket's days
 * and an import's progress in words.
 */
import { CreateTicketTypeRequest, EditTicketRequest, EditTicketTypeRequest, TicketImportEvent } from '@gatecheck/contract/ticket-management';
import { t } from '@/lib/i18n/index.ts';

/** Problems by field (`name`, `checkInNote`, `holderName`, `ticketType`), in words. */
export type TicketFieldProblems = Partial<Record<string, string>>;

/** The zod issue facts a problem's words depend on. */
interface IssueFacts {
  path: PropertyKey[];
  code: string;
}

function problemsOf(issues: readonly IssueFacts[]): TicketFieldProblems {
  const problems: TicketFieldProblems = {};
  for (const issue of issues) {
    const field = issue.path.map(String)[0] === 'days' ? 'days' : issue.path.map(String).join('.');
    problems[field] ??= problemText(field, issue.code);
  }
  return problems;
}

function problemText(field: string, code: string): string {
  if (field === 'days' || field.startsWith('days.')) return t('tickets.problems.daysRequired');
  if (field === 'checkInNote') return code === 'too_big' ? t('tickets.problems.noteTooLong') : t('tickets.problems.noteControl');
  if (field === 'holderName') return code === 'too_big' ? t('tickets.problems.tooLong') : t('tickets.problems.holderRequired');
  return code === 'too_big' ? t('tickets.problems.tooLong') : t('tickets.problems.typeRequired');
}

/** A ticket type's form as typed: its name, note, flag and days (every day, or the day numbers checked). */
export interface TicketTypeFormValues {
  name: string;
  checkInNote: string;
  requiresAttention: boolean;
  isEveryDay: boolean;
  days: number[];
}

/** The request's `days` of a form: null for every day (docs/decisions/125). */
function formDays(values: Pick<TicketTypeFormValues, 'isEveryDay' | 'days'>): number[] | null {
  return values.isEveryDay ? null : values.days;
}

/** Checks a new ticket type with the contract's `CreateTicketTypeRequest`. */
export function checkTicketTypeForm(values: TicketTypeFormValues) {
  const parsed = CreateTicketTypeRequest.safeParse({ name: values.name, checkInNote: values.checkInNote, requiresAttention: values.requiresAttention, days: formDays(values) });
  return parsed.success ? { request: parsed.data } : { problems: problemsOf(parsed.error.issues) };
}

/**
 * Checks a ticket type's edit with the contract's `EditTicketTypeRequest`: the new name is sent only
 * when it differs from `currentName` (a rename, docs/decisions/125).
 */
export function checkTicketTypeEdit(currentName: string, values: TicketTypeFormValues) {
  const parsed = EditTicketTypeRequest.safeParse({
    name: values.name,
    checkInNote: values.checkInNote,
    requiresAttention: values.requiresAttention,
    days: formDays(values),
  });
  if (!parsed.success) return { problems: problemsOf(parsed.error.issues) };
  const { name, ...rest } = parsed.data;
  return { request: name === currentName ? rest : parsed.data };
}

/** Checks a ticket's holder and type with the contract's `EditTicketRequest`. */
export function checkTicketForm(values: { holderName: string; ticketType: string }) {
  const parsed = EditTicketRequest.safeParse(values);
  return parsed.success ? { request: parsed.data } : { problems: problemsOf(parsed.error.issues) };
}

/**
 * The import's answer, one `TicketImportEvent` per line as the bytes come; a line that is not one
 * ends the reading with an error line.
 */
export async function* readImportLines(body: ReadableStream<Uint8Array>): AsyncGenerator<TicketImportEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    buffered += value ? decoder.decode(value, { stream: true }) : decoder.decode();
    const lines = buffered.split('\n');
    buffered = done ? '' : (lines.pop() ?? '');
    for (const line of lines) {
      if (line.trim() === '') continue;
      const parsed = TicketImportEvent.safeParse(safeJson(line));
      yield parsed.success ? parsed.data : { type: 'error', code: 'invalid_response', message: 'The server answered in an unexpected format.' };
    }
    if (done) return;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** How far an import is, 0–100, from the bytes parsed of a file of `size` bytes. */
export function importPercent(bytes: number, size: number): number {
  if (size <= 0) return 0;
  return Math.min(100, Math.round((bytes / size) * 100));
}

/** A ticket's days in words: 'All days', or 'Days 1, 3'. */
export function ticketDaysWords(days: number[] | null): string {
  return days === null ? t('tickets.allDays') : t('tickets.days', { days: days.join(', ') });
}
