import { checkArchitecture } from './architecture/layers.ts';

/** `npm run lint:architecture`: the layout rules of ARCHITECTURE §3 (test/architecture/layers.ts); exit 1 on any break. */
const report = await checkArchitecture(process.cwd());
for (const v of report.violations) console.log(`${v.rule}: ${v.from} → ${v.to}`);
for (const loop of report.folderLoops) console.log(`module-folder-loop: ${loop.join(' ↔ ')}`);
for (const file of report.queriesOutsideRepositories) console.log(`query-outside-repository: ${file}`);
const broken = report.violations.length + report.folderLoops.length + report.queriesOutsideRepositories.length;
console.log(broken ? `${broken} layout rule(s) broken (docs/architecture.md)` : 'layout: every rule holds');
process.exit(broken ? 1 : 0);
