import { PGlite } from '@electric-sql/pglite';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { MAX_NAMED_STATEMENTS, withNamedStatements } from '../src/db/pglite-named-statements.ts';

let client: PGlite;
let named: PGlite;

beforeEach(async () => {
  client = await PGlite.create();
  named = withNamedStatements(client);
  await client.exec(`
    create table scans (id serial primary key, code text not null unique, at timestamptz not null default now(), days integer[], extra jsonb);
    insert into scans (code, days, extra) values ('A', '{1,2}', '{"gate":"north"}'), ('B', null, null);`);
});
afterEach(async () => {
  await client.close();
});

/** The named statements PGlite holds in its one session. */
async function preparedStatements(): Promise<string[]> {
  const { rows } = await client.query<{ statement: string }>('select statement from pg_prepared_statements order by prepare_time');
  return rows.map((row) => row.statement);
}

test('a repeated statement answers what PGlite itself answers, rows as objects or arrays, values parsed alike', async () => {
  const text = 'select id, code, at, days, extra from scans where code = any($1::text[]) order by id';
  for (const rowMode of ['object', 'array'] as const) {
    const own = await client.query(text, [['A', 'B']], { rowMode });
    const first = await named.query(text, [['A', 'B']], { rowMode });
    const again = await named.query(text, [['A', 'B']], { rowMode });
    expect(first.rows).toEqual(own.rows);
    expect(again.rows).toEqual(own.rows);
    expect(first.fields).toEqual(own.fields);
  }
  const [row] = (await named.query<{ at: unknown; days: unknown; extra: unknown }>(text, [['A']])).rows;
  expect(row?.at).toBeInstanceOf(Date);
  expect(row?.days).toEqual([1, 2]);
  expect(row?.extra).toEqual({ gate: 'north' });
});

test('each SQL text is parsed once, as one named statement, however often it runs', async () => {
  const text = 'select code from scans where id = $1';
  for (let id = 1; id <= 5; id++) await named.query(text, [id]);
  await named.query('select count(*) from scans');
  expect(await preparedStatements()).toEqual([text, 'select count(*) from scans']);
});

test('writes report their affected rows, and DDL, SET and multi-statement exec still go to PGlite as they are', async () => {
  const inserted = await named.query("insert into scans (code) values ($1), ($2) returning id", ['C', 'D']);
  expect(inserted.affectedRows).toBe(2);
  expect(inserted.rows).toHaveLength(2);
  await named.query('create index scans_at_idx on scans (at)');
  await named.query("set application_name = 'gate 3'");
  expect(await preparedStatements()).toEqual(['insert into scans (code) values ($1), ($2) returning id']);
  expect((await named.query<{ name: string }>('select current_setting($1) as name', ['application_name'])).rows).toEqual([{ name: 'gate 3' }]);
});

test('an error is thrown with its SQLSTATE and leaves the session usable; a statement that failed to parse is not kept', async () => {
  const insert = 'insert into scans (code) values ($1)';
  await expect(named.query(insert, ['A'])).rejects.toMatchObject({ code: '23505' });
  await expect(named.query('select nonsense from scans')).rejects.toMatchObject({ code: '42703' });
  expect((await named.query(insert, ['E'])).affectedRows).toBe(1);
  expect(await preparedStatements()).toEqual([insert]);
});

test('after a table changes shape the statement is prepared again instead of failing', async () => {
  const text = 'select * from scans where code = $1';
  expect(Object.keys((await named.query<Record<string, unknown>>(text, ['A'])).rows[0] ?? {})).not.toContain('gate');
  await client.exec("alter table scans add column gate text not null default 'north'");
  expect((await named.query<Record<string, unknown>>(text, ['A'])).rows[0]).toMatchObject({ code: 'A', gate: 'north' });
});

test(`at most ${MAX_NAMED_STATEMENTS} statements are kept: the least recently used is closed`, async () => {
  const kept = 'select code from scans where id = 1';
  await named.query(kept);
  for (let n = 0; n < MAX_NAMED_STATEMENTS + 10; n++) {
    await named.query(`select ${n} as n`);
    if (n % 50 === 0) await named.query(kept);
  }
  const statements = await preparedStatements();
  expect(statements).toHaveLength(MAX_NAMED_STATEMENTS);
  expect(statements).toContain(kept);
  expect(statements).not.toContain('select 0 as n');
  expect(statements).toContain(`select ${MAX_NAMED_STATEMENTS + 9} as n`);
});

test('a statement sent during a transaction waits for it instead of running inside it', async () => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const transaction = client
    .transaction(async (tx) => {
      await tx.query("insert into scans (code) values ('F')");
      await held;
      throw new Error('roll back');
    })
    .catch((error: unknown) => error);
  await new Promise((resolve) => setTimeout(resolve, 10));
  const counted = named.query<{ count: number }>('select count(*)::int as count from scans');
  await new Promise((resolve) => setTimeout(resolve, 10));
  release();
  expect(await transaction).toEqual(new Error('roll back'));
  expect((await counted).rows).toEqual([{ count: 2 }]);
});
