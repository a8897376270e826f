import fs from 'node:fs';
import path from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';

/**
 * The house drawn from its imports (ARCHITECTURE §3, issue 9): the layers, top to bottom, are
 * main/cli/jobs → app (and the composition root) → web, oauth, mcp and the modules' routes →
 * services → repositories → db; http/ serves the routes and pages; lib/ and config.ts are the
 * ground. An arrow never runs up a layer, no file imports itself round a loop, no two module
 * folders import each other round a loop, and SQL is written only in repositories (and db/).
 *
 * Used by `npm run lint:architecture` (CI) and by test/architecture/layers.test.ts, which also
 * proves each rule fires on a small tree that breaks it.
 */

const TOP = '^src/(main|app|container)\\.ts$|^src/(cli|jobs)/';
const ENTRY_POINTS = '^src/(main\\.ts|cli/|jobs/)';

export const RULES: IForbiddenRuleType[] = [
  {
    name: 'no-file-loop',
    comment: 'Two files import each other, directly or round a longer loop.',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  {
    name: 'ground-stays-ground',
    comment: 'lib/ and config.ts are the ground: they import nothing of the project above them.',
    severity: 'error',
    from: { path: '^src/(lib/|config\\.ts$)' },
    to: { path: '^src/', pathNot: '^src/(lib/|config\\.ts$)' },
  },
  {
    name: 'db-below-features',
    comment: 'db/ (pool, migrations, transaction helper) knows no feature, page or transport.',
    severity: 'error',
    from: { path: '^src/db/' },
    to: { path: '^src/', pathNot: '^src/(db/|lib/|config\\.ts$)' },
  },
  {
    name: 'http-blind-to-features',
    comment: 'http/ is transport only: the schema list and the authenticate function are handed to it.',
    severity: 'error',
    from: { path: '^src/http/' },
    to: { path: '^src/', pathNot: '^src/(http/|lib/|config\\.ts$)' },
  },
  {
    name: 'domain-not-transport',
    comment: 'Services, repositories, schemas and helpers never import Fastify, http/, pages or a route file.',
    severity: 'error',
    from: { path: '^src/(modules|oauth|mcp)/', pathNot: '\\.routes\\.ts$|\\.test\\.ts$' },
    to: { path: '^src/(http|web)/|\\.routes\\.ts$|^node_modules/(fastify|@fastify)/' },
  },
  {
    name: 'repositories-below-services',
    comment: 'A repository owns SQL and nothing above it: no service, job or route.',
    severity: 'error',
    from: { path: '\\.repository\\.ts$' },
    to: { path: '\\.(service|routes|jobs)\\.ts$' },
  },
  {
    name: 'nothing-imports-the-top',
    comment: 'main, the CLI, the job runner, app.ts and the composition root are imported by nothing below them.',
    severity: 'error',
    from: { path: '^src/', pathNot: `${ENTRY_POINTS}|^src/app\\.ts$` },
    to: { path: TOP },
  },
  {
    name: 'app-below-entry-points',
    comment: 'app.ts builds the instance; only main, the CLI and jobs start things.',
    severity: 'error',
    from: { path: '^src/app\\.ts$' },
    to: { path: ENTRY_POINTS },
  },
];

export interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** Module folders (src/modules/<name>) that import each other round a loop: each strongly connected group of two or more. */
export function folderLoops(result: ICruiseResult, root = 'src/modules/'): string[][] {
  const folderOf = (file: string) => (file.startsWith(root) ? file.slice(root.length).split('/')[0] : null);
  const edges = new Map<string, Set<string>>();
  for (const module of result.modules) {
    const from = folderOf(module.source);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  // Tarjan's strongly connected components.
  let index = 0;
  const indices = new Map<string, number>();
  const lowlink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    lowlink.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowlink.set(node, Math.min(lowlink.get(node)!, lowlink.get(next)!));
      } else if (onStack.has(next)) {
        lowlink.set(node, Math.min(lowlink.get(node)!, indices.get(next)!));
      }
    }
    if (lowlink.get(node) === indices.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of edges.keys()) if (!indices.has(node)) visit(node);
  return groups;
}

// A query is built with Kysely's builders or its sql`` tag; either outside a repository or db/ is SQL in the wrong room.
const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom)\(|\bsql(<[^>]*>)?`/;

/** Source files (tests aside) that build a query outside a repository and db/. */
export function queriesOutsideRepositories(files: string[], read: (file: string) => string): string[] {
  return files.filter((file) => {
    if (!file.startsWith('src/') || file.startsWith('src/db/')) return false;
    if (file.endsWith('.repository.ts') || file.endsWith('.test.ts')) return false;
    return QUERY.test(read(file));
  });
}

export interface ArchitectureReport {
  violations: Violation[];
  folderLoops: string[][];
  queriesOutsideRepositories: string[];
}

/** Cruise `src/` under `cwd` (a project root holding tsconfig.json) and report every broken rule. */
export async function checkArchitecture(cwd: string): Promise<ArchitectureReport> {
  const before = process.cwd();
  process.chdir(cwd);
  try {
    const tsConfig = fs.existsSync('tsconfig.json') ? { fileName: 'tsconfig.json' } : undefined;
    const { output } = await cruise(['src'], {
      ruleSet: { forbidden: RULES },
      validate: true,
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      tsConfig,
    });
    const result = output as ICruiseResult;
    // Tests beside the code may reach any layer they test; they still may not close a loop.
    const violations = (result.summary.violations ?? [])
      .map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }))
      .filter((v) => v.rule === 'no-file-loop' || !v.from.endsWith('.test.ts'));
    const files = result.modules.map((m) => m.source).filter((file) => file.endsWith('.ts'));
    return {
      violations,
      folderLoops: folderLoops(result),
      queriesOutsideRepositories: queriesOutsideRepositories(files, (file) => fs.readFileSync(path.join(cwd, file), 'utf8')),
    };
  } finally {
    process.chdir(before);
  }
}
