import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, Nullable, RefOf, IdParams } from '../../lib/typebox.ts';
import { actorOf } from '../../http/auth.ts';
import { ProjectSchema } from './projects.schemas.ts';
import { PROJECT_LIMITS, type ProjectsService } from './projects.service.ts';

const TAG = ['Projects'];
const Params = IdParams;
const Ok = Closed({ ok: Type.Literal(true) });
const One = Closed({ project: RefOf(ProjectSchema) });

const Name = () => Type.String({ minLength: 1, maxLength: PROJECT_LIMITS.name, description: 'Trimmed; must not be blank.' });
const Description = () => Nullable(Type.String({ maxLength: PROJECT_LIMITS.description }));
const Goal = () => Nullable(Type.String({ maxLength: PROJECT_LIMITS.goal }));

const CreateBody = Closed({ name: Name(), description: Type.Optional(Description()), goal: Type.Optional(Goal()) });
const PatchBody = Closed({
  name: Type.Optional(Name()),
  description: Type.Optional(Description()),
  goal: Type.Optional(Goal()),
  bookmarked: Type.Optional(Type.Boolean()),
  archived: Type.Optional(Type.Boolean()),
});
const ListQuery = Closed({
  archived: Type.Optional(Type.Boolean({ default: false, description: 'false: the projects in use; true: the archived ones.' })),
});

export function projectsRoutes(deps: { projects: ProjectsService }): FastifyPluginAsync {
  const { projects } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/projects', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'listProjects',
        tags: TAG,
        summary: 'Projects in use, or the archived ones, newest first',
        querystring: ListQuery,
        response: { 200: Closed({ projects: Type.Array(RefOf(ProjectSchema)) }) },
      },
    }, async (request) => ({ projects: await projects.list(actorOf(request), { archived: request.query.archived }) }));

    app.post('/v1/projects', {
      config: { scope: 'questions:write' },
      schema: { operationId: 'createProject', tags: TAG, summary: 'Create a project', body: CreateBody, response: { 201: One } },
    }, async (request, reply) => {
      const project = await projects.create(actorOf(request), request.body);
      return reply.code(201).send({ project });
    });

    app.patch('/v1/projects/:id', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'updateProject',
        tags: TAG,
        summary: 'Rename, describe, bookmark or archive a project',
        description: 'Only the fields sent change; send at least one.',
        params: Params,
        body: PatchBody,
        response: { 200: One },
      },
    }, async (request) => ({ project: await projects.update(actorOf(request), request.params.id, request.body) }));

    app.delete('/v1/projects/:id', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'deleteProject',
        tags: TAG,
        summary: 'Delete a project',
        description: 'Its questions stay in the account, outside any project.',
        params: Params,
        response: { 200: Ok },
      },
    }, async (request) => {
      await projects.remove(actorOf(request), request.params.id);
      return { ok: true as const };
    });
  };
}
