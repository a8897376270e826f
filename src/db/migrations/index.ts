import type { Migration } from 'kysely';
import * as m0001 from './0001-foundation.ts';
import * as m0002 from './0002-credits-and-drafts.ts';
import * as m0003 from './0003-questions.ts';
import * as m0004 from './0004-answer-links.ts';
import * as m0006 from './0006-insights.ts';
import * as m0007 from './0007-flags-and-sharing.ts';
import * as m0008 from './0008-sentiment-and-removals.ts';
import * as m0009 from './0009-answer-translations.ts';
import * as m0011 from './0011-net-daily-cap.ts';
import * as m0012 from './0012-people.ts';
import * as m0013 from './0013-purchases.ts';
import * as m0014 from './0014-support-tickets.ts';
import * as m0015 from './0015-oauth.ts';
import * as m0016 from './0016-webhooks.ts';
import * as m0017 from './0017-form-nonces.ts';
import * as m0018 from './0018-uploads.ts';
import * as m0019 from './0019-audiences.ts';
import * as m0020 from './0020-variant-group-index.ts';
import * as m0021 from './0021-settlement.ts';
import * as m0022 from './0022-change-notifications.ts';
import * as m0023 from './0023-new-questions-unannounced.ts';
import * as m0024 from './0024-clawback-owed.ts';
import * as m0025 from './0025-shown-prices.ts';

/** Every migration, in the order it is applied. Names never change once released. */
export const migrations: Record<string, Migration> = {
  '0001-foundation': m0001,
  '0002-credits-and-drafts': m0002,
  '0003-questions': m0003,
  '0004-answer-links': m0004,
  '0006-insights': m0006,
  '0007-flags-and-sharing': m0007,
  '0008-sentiment-and-removals': m0008,
  '0009-answer-translations': m0009,
  '0011-net-daily-cap': m0011,
  '0012-people': m0012,
  '0013-purchases': m0013,
  '0014-support-tickets': m0014,
  '0015-oauth': m0015,
  '0016-webhooks': m0016,
  '0017-form-nonces': m0017,
  '0018-uploads': m0018,
  '0019-audiences': m0019,
  '0020-variant-group-index': m0020,
  '0021-settlement': m0021,
  '0022-change-notifications': m0022,
  '0023-new-questions-unannounced': m0023,
  '0024-clawback-owed': m0024,
  '0025-shown-prices': m0025,
};
