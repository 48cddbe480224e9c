/**
 * npm run bench:reply-transaction
 * What a sent message's transaction costs PostgreSQL without the app around it (decision 023), from a bare `pg`
 * client on a scratch database with the app's schema, a 200 ms pause before each round as in bench/stream-overhead:
 *   nine statements  the transaction as the reply sends it (begin, the user's lock, the usage numbers, the day's
 *                    count, the chat's lock, the two messages, the chat's update, commit), one round trip each;
 *   one call         the same work in one plpgsql function, created here only: what moving the claim, the chat's
 *                    lock and the writes into the database (one round trip, its commit included) would leave.
 * ROUNDS rounds of each (120 unless set), alternating. PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL.
 */
import pg from "pg";
import { openDatabase } from "../src/server/db/client.js";
import { createScratchPostgres } from "../tests/helpers/test-database.js";
import { percentile } from "./stats.js";

const ROUNDS = Number(process.env.ROUNDS ?? 120);
const PAUSE_MS = 200;
const TODAY = "(now() at time zone 'UTC')::date";
const COUNT_DAY = `insert into usage_days (user_id, day, messages) values ($1, ${TODAY}, 1)
  on conflict (user_id, day) do update set messages = usage_days.messages + 1`;
const NUMBERS = `select u.role, pa.monthly_tokens, pa.messages_per_day,
  coalesce((select um.tokens from usage_months um where um.user_id = u.id and um.month = date_trunc('month', now() at time zone 'UTC')::date), 0) as tokens,
  coalesce((select ud.messages from usage_days ud where ud.user_id = u.id and ud.day = ${TODAY}), 0) as messages_today,
  (select count(*) from messages m where m.user_id = u.id and m.status = 'streaming')
    + (select count(*) from course_generation_runs r where r.user_id = u.id and r.status = 'running') as running
  from users u left join plan_allowances pa on pa.plan_type = u.plan_type where u.id = $1`;
const LOCK_CHAT = `select c.active_leaf_id as leaf, exists(select 1 from messages m where m.chat_id = c.id and m.status = 'streaming') as streaming
  from chats c where c.id = $1 and c.user_id = $2 for update of c`;
const INSERT_USER = `insert into messages (chat_id, user_id, parent_id, role, content) values ($1, $2, $3, 'user', $4) returning *`;
const INSERT_REPLY = `insert into messages (chat_id, user_id, parent_id, role, content, status, platform_slug, model)
  values ($1, $2, $3, 'assistant', '', 'streaming', 'openai', 'fake-model') returning *`;
const UPDATE_CHAT = `update chats set active_leaf_id = $1, updated_at = now(), ai_platform = 'openai', model = 'fake-model', title = $2 where id = $3`;
/** The same statements with the function's arguments for $1, $2...: static SQL, so plpgsql plans each once. */
const inFunction = (statement: string, args: string[]) => args.reduceRight((text, arg, i) => text.replaceAll(`$${i + 1}`, arg), statement);
const FUNCTION = `create function bench_send(uid int, cid int, body text) returns json language plpgsql as $fn$
declare n record; chat record; user_row messages; reply_row messages;
begin
  perform id from users where id = uid for no key update;
  ${inFunction(NUMBERS, ["uid"])} into n;
  if n.running >= 3 then raise exception 'too many running'; end if;
  ${inFunction(COUNT_DAY, ["uid"])};
  ${inFunction(LOCK_CHAT, ["cid", "uid"]).replace(" from chats c", " into chat from chats c")};
  ${inFunction(INSERT_USER, ["cid", "uid", "chat.leaf", "body"])} into user_row;
  ${inFunction(INSERT_REPLY, ["cid", "uid", "user_row.id"])} into reply_row;
  ${inFunction(UPDATE_CHAT, ["reply_row.id", "'a title'", "cid"])};
  return json_build_object('user', row_to_json(user_row), 'reply', row_to_json(reply_row));
end $fn$`;

const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS));

async function nineStatements(client: pg.Client, userId: number, chatId: number, text: string): Promise<void> {
  await client.query("begin");
  await client.query("select id from users where id = $1 for no key update", [userId]);
  await client.query({ name: "numbers", text: NUMBERS, values: [userId] });
  await client.query(COUNT_DAY, [userId]);
  const locked = await client.query(LOCK_CHAT, [chatId, userId]);
  const user = await client.query(INSERT_USER, [chatId, userId, locked.rows[0]?.leaf ?? null, text]);
  const reply = await client.query(INSERT_REPLY, [chatId, userId, user.rows[0]?.id]);
  await client.query(UPDATE_CHAT, [reply.rows[0]?.id, "a title", chatId]);
  await client.query("commit");
}

const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!pgUrl) throw new Error("set BENCH_DATABASE_URL or TEST_DATABASE_URL");
process.env.TEST_DATABASE_URL = pgUrl;
const scratch = await createScratchPostgres();
await (await openDatabase({ url: scratch.url, poolSize: 1 })).close();
const client = new pg.Client({ connectionString: scratch.url });
try {
  await client.connect();
  await client.query(FUNCTION);
  const userId = (await client.query(`insert into users (username, password_hash) values ('bench', 'x') returning id`)).rows[0]?.id;
  const chatId = (
    await client.query(`insert into chats (user_id, title, ai_platform) values ($1, 'New Chat', 'openai') returning id`, [userId])
  ).rows[0]?.id;
  const times = { nine: [] as number[], one: [] as number[] };
  for (let i = 0; i < ROUNDS + 20; i++) {
    for (const kind of ["nine", "one"] as const) {
      await pause();
      const started = performance.now();
      const text = `hello ${i}, a first token and more`;
      if (kind === "nine") await nineStatements(client, userId, chatId, text);
      else await client.query({ name: "send", text: "select bench_send($1, $2, $3)", values: [userId, chatId, text] });
      if (i >= 20) times[kind].push(performance.now() - started);
      // One reply is written at a time per chat (a unique index): this one ends before the next round.
      await client.query("update messages set status = 'complete' where status = 'streaming'");
    }
  }
  for (const [kind, label] of [
    ["nine", "nine statements"],
    ["one", "one call       "],
  ] as const) {
    console.log(
      `${label}  p50 ${percentile(times[kind], 50).toFixed(3)} ms   p90 ${percentile(times[kind], 90).toFixed(3)} ms   (${ROUNDS} rounds)`,
    );
  }
} finally {
  await client.end();
  await scratch.drop();
}
