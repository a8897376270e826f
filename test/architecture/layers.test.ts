import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkArchitecture } from './layers.ts';

/**
 * The layout check (issue 9, docs/architecture.md): the project holds every rule, and each rule
 * fires on a small tree that breaks it, so a new upward import or loop cannot pass unnoticed.
 */
const root = path.resolve(import.meta.dirname, '../..');
const trees: string[] = [];
afterAll(() => {
  for (const dir of trees) fs.rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layers-'));
  trees.push(dir);
  fs.copyFileSync(path.join(root, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe('the layout of src/', () => {
  it('holds every rule: no loop, no arrow up a layer, no query outside a repository', async () => {
    const report = await checkArchitecture(root);
    expect(report.violations).toEqual([]);
    expect(report.folderLoops).toEqual([]);
    expect(report.queriesOutsideRepositories).toEqual([]);
  }, 60_000);
});

describe('each rule fires on a tree that breaks it', () => {
  it('a service importing http/, a repository importing a service, http/ importing a feature, lib/ importing a module', async () => {
    const dir = tree({
      'src/http/errors.ts': "export const x = 1;\n",
      'src/http/openapi.ts': "import { s } from '../modules/a/a.schemas.ts';\nexport const y = s;\n",
      'src/lib/ids.ts': "import { s } from '../modules/a/a.schemas.ts';\nexport const id = s;\n",
      'src/modules/a/a.schemas.ts': "export const s = 1;\n",
      'src/modules/a/a.service.ts': "import { x } from '../../http/errors.ts';\nexport const run = () => x;\n",
      'src/modules/a/a.repository.ts': "import { run } from './a.service.ts';\nexport const repo = run;\n",
    });
    const rules = (await checkArchitecture(dir)).violations.map((v) => `${v.rule} ${v.from}`).sort();
    expect(rules).toEqual([
      'domain-not-transport src/modules/a/a.service.ts',
      'ground-stays-ground src/lib/ids.ts',
      'http-blind-to-features src/http/openapi.ts',
      'repositories-below-services src/modules/a/a.repository.ts',
    ]);
  }, 60_000);

  it('a module importing the composition root, a file loop, a folder loop and SQL in a service', async () => {
    const dir = tree({
      'src/container.ts': "export const container = 1;\n",
      'src/modules/a/a.service.ts': "import { container } from '../../container.ts';\nimport { b } from '../b/b.service.ts';\nexport const a = () => container + b();\n",
      'src/modules/b/b.service.ts': "import { a } from '../a/a.service.ts';\nexport const b = () => 1;\nexport const c = () => a;\n",
      'src/modules/b/b.helper.ts': "declare const db: any;\nexport const q = () => db.selectFrom('questions');\n",
    });
    const report = await checkArchitecture(dir);
    expect(report.violations.map((v) => v.rule)).toEqual(expect.arrayContaining(['nothing-imports-the-top', 'no-file-loop']));
    expect(report.folderLoops).toEqual([['a', 'b']]);
    expect(report.queriesOutsideRepositories).toEqual(['src/modules/b/b.helper.ts']);
  }, 60_000);
});
