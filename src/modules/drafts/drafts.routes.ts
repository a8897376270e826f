import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, RefOf, IdParams } from '../../lib/typebox.ts';
import { actorOf } from '../../http/auth.ts';
import { SavedDraftSchema } from '../draft/draft.schemas.ts';
import { DraftRecordSchema } from './drafts.schemas.ts';
import type { DraftsService } from './drafts.service.ts';

const TAG = ['Drafts'];
const Params = IdParams;
const Ok = Closed({ ok: Type.Literal(true) });

export function draftsRoutes(deps: { drafts: DraftsService }): FastifyPluginAsync {
  const { drafts } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/drafts', {
      config: { scope: 'questions:read' },
      schema: { operationId: 'listDrafts', tags: TAG, summary: 'Saved drafts, most recently changed first', response: { 200: Closed({ drafts: Type.Array(RefOf(DraftRecordSchema)) }) } },
    }, async (request) => ({ drafts: await drafts.list(actorOf(request)) }));

    app.post('/v1/drafts', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'createDraft',
        tags: TAG,
        summary: 'Save a draft',
        description: 'QuestionDraft fields (only `type` required) plus the draft-only additions. Field rules apply; per-type rules are checked when the draft is estimated or asked.',
        body: RefOf(SavedDraftSchema),
        response: { 200: RefOf(DraftRecordSchema) },
      },
    }, async (request) => drafts.create(actorOf(request), request.body));

    app.get('/v1/drafts/:id', {
      config: { scope: 'questions:read' },
      schema: { operationId: 'getDraft', tags: TAG, summary: 'One saved draft', params: Params, response: { 200: RefOf(DraftRecordSchema) } },
    }, async (request) => drafts.get(actorOf(request), request.params.id));

    app.put('/v1/drafts/:id', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'replaceDraft',
        tags: TAG,
        summary: 'Replace a saved draft',
        description: 'The body is the whole draft, as for POST /v1/drafts; it replaces the one stored.',
        params: Params,
        body: RefOf(SavedDraftSchema),
        response: { 200: RefOf(DraftRecordSchema) },
      },
    }, async (request) => drafts.replace(actorOf(request), request.params.id, request.body));

    app.delete('/v1/drafts/:id', {
      config: { scope: 'questions:write' },
      schema: { operationId: 'deleteDraft', tags: TAG, summary: 'Delete a saved draft', params: Params, response: { 200: Ok } },
    }, async (request) => {
      await drafts.remove(actorOf(request), request.params.id);
      return { ok: true as const };
    });
  };
}
