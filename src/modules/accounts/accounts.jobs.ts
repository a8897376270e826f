import { Type } from '@sinclair/typebox';
import { defineJob, type JobDefinition } from '../../lib/job.ts';
import type { FormNoncesService } from './form-nonces.service.ts';

/** Portal form nonces older than FORM_NONCE_DAYS are forgotten once a day (form-nonces.service.ts). */
export function accountsJobs(formNonces: Pick<FormNoncesService, 'prune'>): JobDefinition[] {
  return [
    defineJob({
      name: 'form-nonces-prune',
      cron: '23 4 * * *',
      payload: Type.Object({}),
      handler: async () => {
        await formNonces.prune();
      },
    }),
  ];
}
