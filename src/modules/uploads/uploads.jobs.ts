import { Type } from '@sinclair/typebox';
import { defineJob, type JobDefinition } from '../../lib/job.ts';
import type { UploadsService } from './uploads.service.ts';

/** Once a day: uploads whose URL ended without a finished PUT go, with any bytes stored for them (docs/uploads.md). */
export function uploadsJobs(uploads: Pick<UploadsService, 'sweep'>): JobDefinition[] {
  return [
    defineJob({
      name: 'uploads-sweep',
      cron: '23 4 * * *',
      payload: Type.Object({}),
      handler: async () => uploads.sweep(),
    }),
  ];
}
