/**
 * A process that asks one question and dies without replying (R1.6, R7.4):
 *   CRASH_ASK='{"secret":…,"body":…,"key":…,"mode":…}' DATA_DIR=… | DATABASE_URL=… \
 *     node --import tsx test/helpers/crash-ask.ts
 *
 * It opens the database from the environment, builds the real container and asks through the real
 * ask service, then kills itself with SIGKILL (no cleanup, no closing of the database):
 *   - `after-ask`: once the ask has returned (committed, side effects done), right before the
 *     reply would be written; prints `asked <questionId>` first;
 *   - `after-commit`: inside the after-commit side effect (wake-ups), i.e. committed but the ask
 *     has not even returned; prints `asked <questionId>` first;
 *   - `before-commit`: inside the ask's transaction, right after the credits were reserved;
 *     prints `reserved` first.
 * Anything unexpected prints `error <message>` and exits 1.
 */
import fs from 'node:fs';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { createContainer } from '../../src/container.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAskService } from '../../src/modules/questions/ask.service.ts';
import { createQuestionsRepository } from '../../src/modules/questions/questions.repository.ts';
import { createDraftsRepository } from '../../src/modules/drafts/drafts.repository.ts';
import { createProjectsRepository } from '../../src/modules/projects/projects.repository.ts';
import { createIdempotencyRepository } from '../../src/modules/questions/idempotency.repository.ts';
import type { CreditHolds } from '../../src/modules/credits/credits.holds.ts';

type Mode = 'after-ask' | 'after-commit' | 'before-commit';
const { secret, body, key, mode } = JSON.parse(process.env.CRASH_ASK ?? '{}') as { secret: string; body: never; key: string; mode: Mode };

const die = (line: string): never => {
  process.stdout.write(`${line}\n`, () => process.kill(process.pid, 'SIGKILL'));
  // Never return: the kill arrives once stdout has flushed.
  return undefined as never;
};

try {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SIM_HEADS: '0', DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL, DATABASE_POOL_SIZE: '2' });
  const database = await openDatabase(config);
  const container = createContainer(config, database, systemClock);
  const actor = await container.accounts.authenticate(secret);

  let asks = container.asks;
  if (mode !== 'after-ask') {
    const holds: CreditHolds = {
      ...container.holds,
      async reserve(input, tx) {
        const result = await container.holds.reserve(input, tx);
        if (mode === 'before-commit') {
          await new Promise<void>((resolve) => process.stdout.write('reserved\n', () => resolve()));
          process.kill(process.pid, 'SIGKILL');
          await new Promise(() => {});
        }
        return result;
      },
    };
    asks = createAskService({
      db: database.db,
      clock: systemClock,
      questions: createQuestionsRepository(database.db),
      drafts: createDraftsRepository(database.db),
      projects: createProjectsRepository(database.db),
      idempotency: createIdempotencyRepository(database.db),
      holds,
      pool: container.pool,
      audiences: container.audiences,
      publicBaseUrl: config.publicBaseUrl,
      effects: {
        timers: async () => [],
        questionCreated(question) {
          if (mode === 'after-commit') {
            // Synchronously: the side effect returns nothing to wait on, and the ask must not go on.
            fs.writeSync(1, `asked ${question.id}\n`);
            process.kill(process.pid, 'SIGKILL');
          }
        },
      },
    });
  }
  const result = await asks.ask(actor, body, key);
  die(`asked ${result.body.question.id}`);
} catch (error) {
  process.stdout.write(`error ${(error as Error).stack ?? error}\n`);
  process.exit(1);
}
